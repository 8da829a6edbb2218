package safety

import (
	"strings"
	"testing"

	"github.com/percolate/percolate/backend/internal/companion/safety/internal/corpus"
	"github.com/percolate/percolate/backend/internal/companion/safety/internal/text"
)

// The team's own phrasings for each kind of risk in issue 12, none taken from the labelled set.
// want is the least level the screen must give.
var riskyByCategory = map[string][]struct {
	text string
	want Level
}{
	"passive wish": {
		{"honestly i wouldnt mind if i just never woke up", Possible},
		{"i wish i could stop existing for good", Possible},
	},
	"active ideation": {
		{"I want to kill myself", Clear},
		{"been thinking about ending my life a lot lately", Clear},
	},
	"burden": {
		{"everyone would be better off without me", Clear},
		{"my family would honestly be happier if i wasnt around anymore", Possible},
	},
	"method seeking": {
		{"how many of my sleeping tablets would it take", Possible},
		{"what is the most painless way to go", Possible},
	},
	"means and time": {
		{"ive been saving my pills for weeks and sunday is the day", Possible},
		{"got the rope hidden and my parents are away this weekend", Possible},
	},
	"plan and intent": {
		{"ive made up my mind, im going to end it this week", Clear},
		{"i know exactly how and when im going to do it", Possible},
	},
	"farewell and preparation": {
		{"I wrote a goodbye letter to my family", Clear},
		{"ive been giving away my stuff, i wont need it", Clear},
	},
	"past attempt": {
		{"i tried to kill myself last year and it feels like that again", Clear},
		{"last night i stood on the roof for an hour and nearly did it", Possible},
	},
	"self-harm": {
		{"I cut myself last night", Clear},
		{"i burned my arm with a lighter on purpose", Possible},
		{"relapsed after 4 months clean, cutting again", Clear},
	},
	"abuse at home or from a partner": {
		{"my dad hits me when he's drunk", Clear},
		{"my boyfriend grabbed my throat and said next time would be worse", Possible},
	},
	"sexual abuse": {
		{"my uncle touches me when he babysits", Clear},
		{"he kept going after i said no", Possible},
	},
	"danger by place": {
		{"im standing on the edge of the bridge right now", Possible},
		{"im at the train tracks and i cant take it anymore", Possible},
	},
	"emergency in progress": {
		{"i just took all my pills", Clear},
		{"i cut too deep and its still bleeding", Possible},
	},
	"hopelessness in slang": {
		{"whats even the point of being here anymore", Possible},
		{"idk why im still here tbh nothing ever gets better", Possible},
	},
	"algospeak": {
		{"kms", Clear},
		{"thinking about unaliving myself", Clear},
		{"might just sewer slide tonight", Clear},
		{"su1c1de is all i think about", Clear},
		{"i want to d!e", Clear},
	},
	"buried in a long message": {
		{"school was fine, we had a maths test and i think it went ok. my friend lent me her notes for history. " +
			"i have been planning to take all of my pills on friday. anyway what should i cook for dinner, i was thinking pasta", Clear},
		{"so the group project is finally done and our teacher liked the poster we made about recycling. " +
			"i keep thinking everyone would be better off without me. my sister is coming home this weekend which is nice", Clear},
	},
}

// Harmless look-alikes, also the team's own.
var harmlessByCategory = map[string][]string{
	"idiom and hyperbole": {
		"this exam is killing me",
		"I could kill for a coffee",
		"my mum is going to kill me when she sees my report",
		"my phone is about to die",
		"this essay will be the death of me",
	},
	"topic mention": {
		"my sociology essay is about suicide rates in europe",
		"we watched a documentary about suicide prevention in class",
	},
	"negated": {
		"im not suicidal, just really tired",
		"i would never hurt myself, i just needed to vent",
		"i'm not going to kill myself over a c grade lol",
	},
	"recovery in the past tense": {
		"i used to self harm but im two years clean now",
		"celebrating a year since my suicide attempt, therapy saved me",
	},
	"everyday": {
		"Can you help me plan my week?",
		"I hurt my ankle playing football",
		"my train was cancelled again",
		"how many ibuprofen can i take for period pain",
	},
}

func TestScreenCategories(t *testing.T) {
	for cat, cases := range riskyByCategory {
		for _, c := range cases {
			r := Screen(c.text, Context{})
			if r.Level < c.want {
				t.Errorf("%s: Screen(%q) = %v, want at least %v", cat, c.text, r.Level, c.want)
			}
			if r.Risky() && r.Category == "" {
				t.Errorf("%s: Screen(%q) has no category", cat, c.text)
			}
		}
	}
	for cat, texts := range harmlessByCategory {
		for _, m := range texts {
			if r := Screen(m, Context{}); r.Risky() {
				t.Errorf("%s: Screen(%q) = %v, want none", cat, m, r)
			}
		}
	}
}

func TestScreenCategoryOfClearRisk(t *testing.T) {
	cases := map[string]Category{
		"I want to kill myself":                  Suicide,
		"I cut myself last night":                SelfHarm,
		"My boyfriend beats me":                  Abuse,
		"Someone is following me home right now": Danger,
	}
	for m, want := range cases {
		if r := Screen(m, Context{}); r.Level != Clear || r.Category != want {
			t.Errorf("Screen(%q) = %+v, want clear %s", m, r, want)
		}
	}
}

func TestContextRule(t *testing.T) {
	afterCheckIn := Context{CheckedIn: true}
	// After a question, an answer that confirms is a clear risk, in any context that asked.
	confirm := []string{"yes", "tonight", "I already have them", "yeah, I've thought about how", "all of them",
		"a bit. it wont stop bleeding", "kind of", "i think so", "I already did"}
	for _, m := range confirm {
		for _, c := range []Context{afterCheckIn, {CheckedIn: true, Previous: Possible}, {CheckedIn: true, FollowedUp: true}} {
			if r := Screen(m, c); r.Level != Clear || r.Unclear {
				t.Errorf("Screen(%q, %+v) = %+v, want clear", m, c, r)
			}
		}
	}
	// "no" confirms only a risk asked as "are you safe?"; to the chat's question it denies.
	for _, m := range []string{"no", "not really"} {
		if r := Screen(m, Context{CheckedIn: true, AskedSafe: true}); r.Level != Clear {
			t.Errorf("Screen(%q) after \"are you safe?\" = %v, want clear", m, r.Level)
		}
		if r := Screen(m, afterCheckIn); r.Risky() {
			t.Errorf("Screen(%q) after the check-in = %v, want none", m, r.Level)
		}
	}
	// An unclear answer gets the follow-up (a possible risk, marked unclear), never the crisis
	// reply; after the follow-up, a second one is not asked again.
	for _, m := range []string{"idk", "meh", "lol", "k", "maybe?", "not sure", "👍", "hmm idk"} {
		if r := Screen(m, afterCheckIn); r.Level != Possible || !r.Unclear {
			t.Errorf("Screen(%q) after the check-in = %+v, want the follow-up", m, r)
		}
		if r := Screen(m, Context{CheckedIn: true, FollowedUp: true}); r.Risky() {
			t.Errorf("Screen(%q) after the follow-up = %+v, want none", m, r)
		}
	}
	// After a risky message that was not asked about (the crisis reply asks nothing), only an
	// answer that tells of a time, a means or an act is a risk; a yes or a shrug is not.
	for _, c := range []Context{{Previous: Possible}, {Previous: Clear}} {
		for _, m := range []string{"tonight", "I already have them", "all of them"} {
			if r := Screen(m, c); r.Level != Clear {
				t.Errorf("Screen(%q, %+v) = %v, want clear", m, c, r.Level)
			}
		}
		for _, m := range []string{"yes", "ok", "thanks", "idk", "👍"} {
			if r := Screen(m, c); r.Risky() {
				t.Errorf("Screen(%q, %+v) = %v, want none", m, c, r.Level)
			}
		}
	}
	// The same words with nothing risky before them are nothing.
	for _, m := range []string{"yes", "tonight", "all of them", "twice", "friday", "idk"} {
		if r := Screen(m, Context{}); r.Risky() {
			t.Errorf("Screen(%q) with no context = %v, want none", m, r)
		}
	}
	// A short answer that denies, after a check-in, is not a risk.
	deny := []string{"no, nothing like that", "no i just meant school is a lot", "god no, i was being dramatic",
		"yes, im at home and im okay", "im fine, dont worry"}
	for _, m := range deny {
		if r := Screen(m, afterCheckIn); r.Risky() {
			t.Errorf("Screen(%q) after a check-in = %v, want none", m, r)
		}
	}
	// A longer message after a check-in is screened on its own words.
	long := "honestly it was just a rough day at school, we had a test and my friend was ignoring me but its ok now"
	if r := Screen(long, afterCheckIn); r.Level == Clear {
		t.Errorf("Screen(long ordinary message after a check-in) = %v, want not clear", r.Level)
	}
}

func TestFalseAlarmLayer(t *testing.T) {
	cases := []struct {
		text, want string
	}{
		// Negated risk: the denying clause goes, the rest stays.
		{"im not suicidal, just tired", " just tired "},
		{"I would never kill myself, I just need to rant", " i just need to rant "},
		{"i was worried youd think im suicidal but im not", " but im not "},
		// Recovery in the past tense.
		{"i used to self harm but im 2 years clean", "  "},
		{"two years ago i overdosed and now life is good", " now life is good "},
		// A bare mention of the topic.
		{"my essay is on durkheims theory of suicide", "  "},
		// Idioms and hyperbole.
		{"this exam is killing me", " this "},
		// Risk that is present again is kept.
		{"i used to cut and last night i started again", " i used to cut and last night i started again "},
		{"thought i was past the cutting phase but im not", " thought i was past the cutting phase but im not "},
		{"i want to die", " i want to die "},
	}
	for _, c := range cases {
		if got := text.Mask(c.text).Text; got != c.want {
			t.Errorf("Mask(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

func TestNormalizeAlgospeak(t *testing.T) {
	cases := map[string]string{
		"kms":                   " kill myself ",
		"sewer slide":           " suicide ",
		"sewerslide":            " suicide ",
		"necked the lot":        " downed the lot ",
		"chugged them":          " downed them ",
		"su!c!de":               " suicide ",
		"Un-alive myself":       " unalive myself ",
		"had s/h urges":         " had self harm urges ",
		"a long nap 💊💊":         " a long nap pills pills ",
		"I want to k1ll myslef": " i want to kill myself ",
	}
	for in, want := range cases {
		if got := text.Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestScreenIsDeterministicAndQuickToStart(t *testing.T) {
	m := strings.Repeat("a long ordinary day at school with friends and homework. ", 40)
	if a, b := Screen(m, Context{}), Screen(m, Context{}); a != b {
		t.Fatalf("two screens of one message differ: %v, %v", a, b)
	}
	if len(scorerModel) > 300<<10 {
		t.Errorf("the embedded scorer is %d bytes, want under 300 KB", len(scorerModel))
	}
}

func BenchmarkScreen(b *testing.B) {
	msgs := map[string]string{
		"short": "I can't do this anymore and I just want to disappear",
		"idiom": "my physics homework is literally killing me",
		"long":  strings.Repeat("so today was long, we had double maths and then netball. ", 8),
		"yes":   "yes",
		// A check-in's note, as make bench posts it.
		"note": "Slept badly, but the library was quiet and I got through the reading.",
	}
	for name, m := range msgs {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				Screen(m, Context{})
			}
		})
	}
}

// TestDenialsAndRecovery: a risk denied, or told as overcome, gets neither tier, while a denial
// or a recovery followed by risk now still gets care. None of these is from the labelled set.
func TestDenialsAndRecovery(t *testing.T) {
	harmless := []string{
		"im not suicidal, just stressed",
		"im not suicidal just stressed about exams lol",
		"no intention of ending my life, im just fed up with my flatmates",
		"zero urges to hurt myself this week, just a lot of feelings",
		"ive never self harmed, i just get overwhelmed",
		"no im not cutting again, my cat scratched me",
		"the counsellor asked if i was suicidal and im really not",
		"i used to self harm, im 8 months clean now",
		"i tried to kill myself three years ago and now im at uni. so proud",
		"my relapse was months ago and im doing well",
		"the last time i self harmed was before year 10",
		"my old diary from when i was suicidal shows how far ive come",
	}
	for _, m := range harmless {
		if r, layer := defaultScreener.screenLayer(m, Context{}); r.Level != None {
			t.Errorf("Screen(%q) = %v by %s, want none", m, r.Level, layer)
		}
	}
	risky := []struct {
		text string
		want Level
	}{
		// A denial followed by risk.
		{"im not suicidal but i have the pills ready", Clear},
		{"i'm not suicidal but i've been cutting again", Clear},
		{"im not going to kill myself tonight, tomorrow maybe", Clear},
		{"never tried to kill myself but i think about it every day", Possible},
		{"i dont want to die i just want the pain to stop", Possible},
		// Hedges are not denials.
		{"i dont care if i die", Possible},
		{"i dont think i can keep myself safe tonight", Clear},
		{"im not sure i want to be alive anymore", Possible},
		// A recovery broken now.
		{"i was 200 days clean and i cut yesterday", Possible},
		{"i used to self harm and im 8 months clean but tonight i want to cut", Possible},
		{"had a year clean and i relapsed", Possible},
	}
	for _, c := range risky {
		if r, layer := defaultScreener.screenLayer(c.text, Context{}); r.Level < c.want {
			t.Errorf("Screen(%q) = %v by %s, want at least %v", c.text, r.Level, layer, c.want)
		}
	}
}

// TestOrdinaryPlans: a plan for an ordinary event, told with words of time and goodbyes only,
// needs a surer score; the same words around an ending still get care.
func TestOrdinaryPlans(t *testing.T) {
	for _, m := range []string{
		"booked the date for my leaving party, its the 2nd of july",
		"my taxi is booked for tomorrow morning, off on holiday at last",
		"last weekend before my exams so im going out with the girls",
	} {
		if !ordinaryPlan(text.Mask(m).Text) {
			t.Errorf("ordinaryPlan(%q) = false", m)
		}
		if r := Screen(m, Context{}); r.Level != None {
			t.Errorf("Screen(%q) = %v, want none", m, r.Level)
		}
	}
	for _, m := range []string{
		"after my last exam im going to do it",
		"after the concert on saturday i wont be here anymore",
		"once the wedding is over im going to end it",
	} {
		if r := Screen(m, Context{}); r.Level == None {
			t.Errorf("Screen(%q) = none, want a check-in at least", m)
		}
	}
}

// TestAdultContactRule: an adult in contact with the user who asks to meet or for secrecy is
// a clear risk; an adult who only sends a timetable is not.
func TestAdultContactRule(t *testing.T) {
	if r := Screen("a man in his forties i met on discord wants to meet up and says to keep it secret", Context{}); r.Level != Clear || r.Category != Child {
		t.Errorf("adult asking to meet in secret = %v %v, want clear abuse", r.Level, r.Category)
	}
	if r := Screen("the guy in his 20s who runs the climbing gym sent me the timetable on snap", Context{}); r.Level != None {
		t.Errorf("adult sending a timetable = %v, want none", r.Level)
	}
}

// TestScreenAsksOnlyWhetherAMessageFollowsRisk holds the promise of Context.FollowsRisk that a
// send relies on to screen a message before it has read the turns before it: over every
// message of the tuning half, the screen differs from the message's screen alone only in a
// context that follows a risk, and there only by whether a question was asked (the level of
// the previous message does not matter).
func TestScreenAsksOnlyWhetherAMessageFollowsRisk(t *testing.T) {
	items, err := corpus.Load(corpus.TuningFile)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) < 1000 {
		t.Fatalf("%d messages, want the whole tuning half", len(items))
	}
	if (Context{}).FollowsRisk() || !(Context{CheckedIn: true}).FollowsRisk() || !(Context{Previous: Possible}).FollowsRisk() {
		t.Fatal("FollowsRisk: only the empty context follows no risk")
	}
	if (Context{FollowedUp: true, AskedSafe: true}).FollowsRisk() {
		t.Fatal("FollowsRisk: a context without a question or a risky message follows no risk")
	}
	asked := []Context{{CheckedIn: true, Previous: Possible}, {CheckedIn: true, Previous: Clear}}
	notAsked := []Context{{Previous: Possible}, {Previous: Clear}}
	differ := 0
	for _, it := range items {
		m := it.Text
		alone, after, told := Screen(m, Context{}), Screen(m, Context{CheckedIn: true}), Screen(m, notAsked[0])
		if alone != after {
			differ++
		}
		for _, c := range asked {
			if got := Screen(m, c); got != after {
				t.Fatalf("Screen(%q, %+v) = %+v, want %+v as after a check-in", m, c, got, after)
			}
		}
		if got := Screen(m, notAsked[1]); got != told {
			t.Fatalf("Screen(%q, %+v) = %+v, want %+v as after a possible risk", m, notAsked[1], got, told)
		}
	}
	if differ == 0 {
		t.Fatal("no message is screened differently after a risk: the test shows nothing")
	}
}
