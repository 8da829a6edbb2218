package safety

import (
	"testing"

	"github.com/percolate/percolate/backend/internal/companion/safety/internal/model"
	"github.com/percolate/percolate/backend/internal/companion/safety/internal/text"
)

// TestWeakWordsNeverMakeACrisis: words of time, plans, living and "again" are as common in
// everyday talk as in risk, so with no strong word the scorer alone never gives the crisis
// reply; idioms of a break-up, a laughed-off "kms" and a kitchen accident are no risk at all.
func TestWeakWordsNeverMakeACrisis(t *testing.T) {
	for _, msg := range []string{
		"going back home this weekend, cant wait to see the dog",
		"he left his pans in the sink all weekend again",
		"tomorrow is my first shift at the cafe and i have nothing to wear",
		"my nan takes tablets for her heart and keeps forgetting them",
		"i feel like im just existing between lectures lately",
		"the landlord ghosted us about the boiler again",
		"we decided to end things, it was mutual and were still friends",
		"thinking of ending it with my girlfriend, we never talk anymore",
		"kms lol my bus drove straight past me",
		"i cut myself a bit chopping peppers, its fine",
		"flatmates want to hang out in the kitchen tonight",
	} {
		if r := Screen(msg, Context{}); r.Urgent() {
			t.Errorf("%q: %v %q, want no crisis reply", msg, r.Level, r.Category)
		}
	}
	for _, msg := range []string{
		"kms lol the printer ate my essay",
		"we decided to end things, it was mutual and were still friends",
		"i cut myself a bit chopping peppers, its fine",
		"my gran takes tablets for her arthritis every morning and hates them",
	} {
		if r := Screen(msg, Context{}); r.Risky() {
			t.Errorf("%q: %v %q, want no risk", msg, r.Level, r.Category)
		}
	}
	// A strong word still counts, and "i want to kms lol" is not laughed off.
	for _, msg := range []string{"i want to kms lol", "tonight i want to cut again", "everyone would be better off without me"} {
		if r := Screen(msg, Context{}); !r.Risky() {
			t.Errorf("%q: none, want a risk", msg)
		}
	}
}

// TestLexiconStrength: strong words make a message strong; someone else's medicine does not.
func TestLexiconStrength(t *testing.T) {
	for msg, want := range map[string]int{
		" the bus was late again this weekend ":                    1,
		" i want to disappear ":                                    2,
		" my dad takes pills for his blood pressure ":              0,
		" i took the tablets the doctor gave me for my allergies ": 1,
		" i have the pills here ":                                  2,
		" what a lovely sunny morning ":                            0,
	} {
		if got := lexiconStrength(msg); got != want {
			t.Errorf("lexiconStrength(%q) = %d, want %d", msg, got, want)
		}
	}
}

// TestAttemptPhrasingClasses: each class of an attempt under way or the means in hand gets
// the emergency number first (Urgent, Attempt); the same words told of another day, or of an
// everyday dose or place, do not.
func TestAttemptPhrasingClasses(t *testing.T) {
	for class, msgs := range map[string][]string{
		"pills taken, by count or all": {
			"i swallowed all of my sleeping tablets a minute ago",
			"took like 30 of my mums painkillers on purpose",
			"downed a bottle of wine with my pills, night",
			"i took way too many of my antidepressants",
		},
		"poison drunk": {"i just drank some bleach", "drinking the weedkiller from the shed now"},
		"cut deep and bleeding": {
			"i cut my arm too deep and i cant make it stop",
			"the cuts are really deep and its still bleeding",
		},
		"a high place now": {
			"im standing on the ledge of the car park right now",
			"sitting on the railing of the bridge rn",
			"now i am at the station at the very edge of the tracks",
		},
		"rope ready":   {"the rope is tied and ready", "i tied the noose in my room"},
		"i did it":     {"i did it. im sorry", "its done. goodbye", "i already took them all"},
		"buried, long": {"had a long day at the lab and my supervisor was grumpy again, anyway i went to the multistorey and im on the top floor ledge now, the wind is loud"},
	} {
		for _, msg := range msgs {
			if r := Screen(msg, Context{}); r.Category != Attempt || !r.Urgent() {
				t.Errorf("%s: %q: %v %q, want an urgent attempt", class, msg, r.Level, r.Category)
			}
		}
	}
	for _, msg := range []string{
		"i took 40 pills last year and im glad i survived",
		"i remember standing on the roof ledge thinking about it, now i go up there for sunsets",
		"took two ibuprofen for my cramps",
		"i did it!! passed my driving test first time",
		"its done",
		"sorry",
		"bye",
		"im on the roof terrace at a party rn lol",
		"i took them to the cinema and all of them loved it, 20 kids",
		"had 20 tablets left so i ordered more",
		"drank way too much coffee before the exam",
		"took loads of photos from the roof terrace at sunset",
		"cut the cake too deep and it fell apart lol",
	} {
		if r := Screen(msg, Context{}); r.Category == Attempt {
			t.Errorf("%q: %v %q, want no attempt under way", msg, r.Level, r.Category)
		}
	}
}

// TestDangerClasses: eating-disorder danger, a child hurt or neglected at home, coercion and
// non-native phrasing are caught by rules, in their own category.
func TestDangerClasses(t *testing.T) {
	for msg, want := range map[string]Category{
		"i havent eaten anything in four days":                             EatingDisorder,
		"i make myself sick after every meal now":                          EatingDisorder,
		"living on 300 calories a day and still hate my body":              EatingDisorder,
		"i fainted in the shower, i havent really been eating":             EatingDisorder,
		"im 14 and my stepdad hits me with his belt":                       Child,
		"my mum wont let me eat when she says im bad":                      Abuse,
		"they left me alone for days with no food":                         Abuse,
		"my dad beats my little brother when hes drunk":                    Child,
		"my uncle does things to me when we are alone":                     SexualAssault,
		"my manager says if i dont sleep with him ill lose my visa":        SexualAssault,
		"i am wanting to die, every day more":                              Suicide,
		"i think to finish my life, nobody need me":                        Suicide,
		"i want to make finish with my life":                               Suicide,
		"i am not wanting to live more":                                    Suicide,
		"i will kill me this night":                                        Suicide,
		"tomorrow i will not be alive more":                                Suicide,
		"i am thinking to end it, i search already how":                    Suicide,
		"better i am not existing for my family":                           Suicide,
		"i am drinking many pills now":                                     Attempt,
		"my uncle forced me when i was 12 and he is at every family party": SexualAssault,
	} {
		r := Screen(msg, Context{})
		if !r.Risky() || r.Category != want {
			t.Errorf("%q: %v %q, want %q", msg, r.Level, r.Category, want)
		}
	}
	for _, msg := range []string{
		"i havent eaten since lunch, starving lol",
		"this protein bar is 200 calories and tastes like cardboard",
		"my belt broke on the way to class",
	} {
		if r := Screen(msg, Context{}); r.Urgent() {
			t.Errorf("%q: %v %q, want no crisis reply", msg, r.Level, r.Category)
		}
	}
}

// TestHedgeMustBeTheAnswer: a soft yes confirms only as the answer itself.
func TestHedgeMustBeTheAnswer(t *testing.T) {
	for msg, want := range map[string]Answer{
		"kind of":                   Confirms,
		"yeah sort of":              Confirms,
		"maybe talking helps a bit": NotAnAnswer,
		"i might try it a bit":      NotAnAnswer,
	} {
		if got := ClassifyAnswer(msg, false); got != want {
			t.Errorf("ClassifyAnswer(%q) = %v, want %v", msg, got, want)
		}
	}
}

// TestEverydayScorerIsASecondOpinion: a message without a strong word that the first scorer
// is unsure of takes the everyday scorer's score when that one is near sure the message is
// harmless, and keeps the first scorer's otherwise; a strong word is scored by the first
// scorer alone. The shipped screen has the everyday scorer.
func TestEverydayScorerIsASecondOpinion(t *testing.T) {
	s := defaultScreener
	if s.ev == nil {
		t.Fatal("the shipped screen has no everyday scorer")
	}
	for _, c := range []struct {
		msg    string
		vetoed bool
	}{
		// The first scorer would ask; the everyday scorer is near sure it is everyday talk.
		{"i have been avoiding my emails all week", true},
		// The everyday scorer is not near sure: the first scorer's score stands.
		{"i feel invisible in my flat, like nobody would notice", false},
	} {
		f := model.Features(text.Mask(c.msg).Text)
		a, b := s.m.Score(f), s.ev.Score(f)
		if vetoed := a < s.th.unsure && b < s.th.veto; vetoed != c.vetoed {
			t.Errorf("%q: vetoed %v, want %v (first %.2f, everyday %.2f)", c.msg, vetoed, c.vetoed, a, b)
		}
		if got := Screen(c.msg, Context{}).Risky(); got == c.vetoed {
			t.Errorf("%q: flagged %v, want %v", c.msg, got, !c.vetoed)
		}
	}
	// A score the first scorer is sure of is not asked about.
	sure := *s
	sure.th.unsure = 0
	if msg := " i have been avoiding my emails all week "; sure.weakScore(msg) != s.m.Score(model.Features(msg)) {
		t.Errorf("a sure score was asked about")
	}
	mk := text.Mask("i just want to die already")
	if whole, _, _ := s.score(mk, lexiconStrength(mk.Text)); whole != s.m.Score(model.Features(mk.Text)) {
		t.Errorf("a message with a strong word is not scored by the first scorer alone")
	}
}

// TestMaskKeepsWhatIsNotATopicOrADenial: "show" as a verb is no programme, and "i dont plan on
// being here" denies nothing.
func TestMaskKeepsWhatIsNotATopicOrADenial(t *testing.T) {
	for _, msg := range []string{
		"if i dont show him my messages he pins me against the wall",
		"i dont plan on being here by the summer",
	} {
		if r := Screen(msg, Context{}); !r.Risky() {
			t.Errorf("%q: none, want a risk (masked %q)", msg, text.Mask(msg).Text)
		}
	}
}
