package companion

import (
	"strings"
	"sync"

	"github.com/percolate/percolate/backend/internal/encoder"
)

// situation is a kind of thing students go through, read from the session by the encoder
// (its nearest example sentences), so that a message with no word the item tracker knows
// ("he hasnt even opened the doc") is still heard in its situation, not with a line that
// would fit any message.
type situation struct {
	examples []string
	keywords []string
	// lines reflect the situation in a counsellor's words.
	lines []tmpl
}

var situations = []situation{
	{[]string{"nobody in my group is pulling their weight", "one person in our group project hasnt done anything", "we all get the same mark for the group work"},
		[]string{"group", "project", "doc"}, lines(false,
			"Group work where the effort isn't shared fairly is really wearing.",
			"It's hard when a group project rests on some people more than others.",
			"Carrying more than your share of a group project takes a toll.")},
	{[]string{"my flatmate never cleans up", "my housemates keep arguing", "living with people i dont get on with"},
		[]string{"flatmate", "housemate", "roommate", "house", "flat"}, lines(false,
			"Living with other people brings its own kind of strain.",
			"Home is meant to be where you can switch off, so tension there follows you around.",
			"Sharing a place means the small things keep coming back.")},
	{[]string{"i miss home so much", "i feel homesick at uni", "i dont have any friends here yet"},
		[]string{"homesick", "home", "miss"}, lines(false,
			"Being far from home and the people who know you can make everything feel more uphill.",
			"Missing home tends to come in waves, especially in the quiet moments.",
			"Building a new life somewhere takes longer than people admit.")},
	{[]string{"we broke up after two years", "i still miss my ex", "seeing her after the breakup is hard"},
		[]string{"broke", "breakup", "ex"}, lines(false,
			"The end of a relationship leaves a gap in the everyday things, not just the big ones.",
			"After a breakup, even ordinary places can carry a lot.",
			"Losing a relationship means losing a routine and a person at once.")},
	{[]string{"my friend and i had a fight", "she said something hurtful and i left", "my best friend is ignoring me"},
		[]string{"friend", "fight", "fell out"}, lines(false,
			"Friction with a friend can sit with you all day.",
			"When a friendship feels shaky, it's hard to think about much else.",
			"Falling out with someone close hurts in a particular way.")},
	{[]string{"i have an exam next week and i havent revised", "my test is tomorrow and im panicking", "i keep failing the same part of the test"},
		[]string{"exam", "test", "revis", "resit", "mock"}, lines(false,
			"Exams have a way of taking over everything around them.",
			"The build-up to a test can be harder than the test itself.",
			"Preparing for an exam while everything else carries on is a lot.")},
	{[]string{"im running out of money", "i cant afford to go out with my friends", "my student loan doesnt last"},
		[]string{"money", "loan", "afford", "broke", "skint", "rent"}, lines(false,
			"Money worries have a way of following you into every decision.",
			"Being careful with every purchase is tiring in its own right.",
			"Tight money makes even small plans feel complicated.")},
	{[]string{"my parents want me to do medicine", "my mum keeps pushing me about grades", "my parents are splitting up"},
		[]string{"parents", "mum", "dad", "family"}, lines(false,
			"Family can be where the strongest feelings live, on both sides.",
			"Things with family are rarely simple, because so much history comes with them.",
			"It's hard when what your family hopes for and what you want pull apart.")},
	{[]string{"i have a job interview tomorrow", "i got rejected from the internship", "starting my first job in a new city"},
		[]string{"job", "interview", "internship", "application", "work"}, lines(false,
			"Putting yourself forward for work means a lot of waiting and wondering.",
			"Job hunting asks you to keep going while a lot is out of your hands.",
			"A new job brings a lot of firsts at once.")},
	{[]string{"i get anxious walking into parties", "i dont know anyone there", "i hate the first few minutes of social things"},
		[]string{"party", "people", "social"}, lines(false,
			"Walking into a room of people can take more energy than it looks.",
			"The start of social things is often the hardest part.",
			"Feeling on the edge of a group is a very common, very uncomfortable thing.")},
	{[]string{"i keep putting off my essay", "i cant stop scrolling on my phone instead of working", "i havent started the assignment"},
		[]string{"procrastinat", "phone", "essay", "started", "deadline"}, lines(false,
			"Putting things off is rarely laziness; it's often about how heavy the task feels.",
			"When a piece of work feels big, starting is usually the hardest part.",
			"The longer something waits, the heavier it tends to feel.")},
	{[]string{"long distance is hard", "we only talk on calls now", "things feel flat between us"},
		[]string{"distance", "calls", "call"}, lines(false,
			"Keeping closeness going at a distance takes a lot of small effort.",
			"Relationships at a distance have their own rhythms and their own flat patches.",
			"Distance makes the small moments harder to share.")},
}

var (
	situationOnce sync.Once
	situationVecs [][]encoder.Vector
)

// situationLines are the lines of the session's situation: the nearest to its recent
// messages (or, with the encoder ablated, the first whose keyword they use); none when no
// situation is near.
func (r *reply) situationLines() []tmpl {
	var b strings.Builder
	for i := max(0, len(r.s.turns)-3); i < len(r.s.turns); i++ {
		if u := r.s.turns[i]; !u.flagged && !u.sensitive {
			b.WriteString(plain(u.text) + " ")
		}
	}
	text := b.String()
	if strings.TrimSpace(text) == "" {
		return nil
	}
	if r.keywords {
		for _, s := range situations {
			for _, k := range s.keywords {
				if strings.Contains(" "+text, " "+k) {
					return s.lines
				}
			}
		}
		return nil
	}
	situationOnce.Do(func() {
		situationVecs = make([][]encoder.Vector, len(situations))
		for i, s := range situations {
			for _, e := range s.examples {
				situationVecs[i] = append(situationVecs[i], encoder.Embed(e))
			}
		}
	})
	v := encoder.Embed(text)
	best, bestSim := -1, float32(0.5)
	for i, vs := range situationVecs {
		for k := range vs {
			if c := encoder.Cosine(&v, &vs[k]); c > bestSim {
				best, bestSim = i, c
			}
		}
	}
	if best < 0 {
		return nil
	}
	return situations[best].lines
}
