package safety

import (
	"slices"
	"testing"

	"github.com/percolate/percolate/backend/internal/companion/safety/internal/corpus"
)

// Each kind of danger gets its own reply, so each risky message must map to the kind whose
// answer it needs; an attempt under way above all, whose reply puts the emergency number first.
func TestCategoryNamesTheDanger(t *testing.T) {
	cases := map[string]Category{
		"I want to kill myself":                                                         Suicide,
		"i already took all my pills":                                                   Attempt,
		"i swallowed the whole packet of tablets an hour ago":                           Attempt,
		"the pills are in my hand":                                                      Attempt,
		"i cut too deep and it wont stop bleeding":                                      Attempt,
		"i cant keep myself safe tonight":                                               Suicide,
		"I cut myself last night":                                                       SelfHarm,
		"i was raped at a party last weekend":                                           SexualAssault,
		"i think i got spiked last night":                                               SexualAssault,
		"My boyfriend beats me":                                                         Abuse,
		"im 15 and my stepdad hits me when mum is out":                                  Child,
		"a man in his forties i met online wants to meet up and says to keep it secret": Child,
		"i havent eaten in five days and i want to starve myself until i disappear":     EatingDisorder,
		"Someone is following me home right now":                                        Danger,
	}
	for msg, want := range cases {
		r := Screen(msg, Context{})
		if r.Level == None {
			t.Errorf("%q: not flagged", msg)
			continue
		}
		if r.Category != want {
			t.Errorf("%q: category %q, want %q", msg, r.Category, want)
		}
	}
}

// A short confirming answer after a check-in that says the attempt is under way is an attempt.
func TestContextAnswerThatSaysItIsUnderWayIsAnAttempt(t *testing.T) {
	for _, msg := range []string{"i already took them", "i have them"} {
		r := Screen(msg, Context{CheckedIn: true})
		if r.Level != Clear || r.Category != Attempt {
			t.Errorf("%q after a check-in: %v %q, want clear attempt", msg, r.Level, r.Category)
		}
	}
}

// TestCategoriesOnTheTuningHalf measures, on the tuning half only, how often a risky item of a
// kind the replies treat apart gets that kind: an emergency in progress must get Attempt (its
// reply puts the emergency number first). Floors are what is reached (bench/findings.md).
func TestCategoriesOnTheTuningHalf(t *testing.T) {
	items, err := corpus.Load(corpus.TuningFile)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]Category{
		"emergency_in_progress": {Attempt},
		"sexual_abuse":          {SexualAssault, Child},
		"abuse_home_partner":    {Abuse, Child},
		"self_harm_act":         {SelfHarm, Attempt},
	}
	floors := map[string]float64{"emergency_in_progress": 0.9, "sexual_abuse": 0.8, "abuse_home_partner": 0.8}
	for cat, ok := range want {
		var n, got, flagged int
		for _, it := range items {
			if it.Category != cat {
				continue
			}
			n++
			r := defaultScreener.screen(it.Text, devContext(defaultScreener, it.Context))
			if r.Level == None {
				continue
			}
			flagged++
			if slices.Contains(ok, r.Category) {
				got++
			}
		}
		share := float64(got) / float64(max(n, 1))
		t.Logf("%s: %d of %d get %v (%d flagged)", cat, got, n, ok, flagged)
		if share < floors[cat] {
			t.Errorf("%s: %.0f%% get %v, want at least %.0f%%", cat, 100*share, ok, 100*floors[cat])
		}
	}
}

// An attempt under way told in the words people type as it happens: a dose in numbers or
// packs, a high place or the means "now", a wish in the same breath. Each is an attempt, and
// each gets the crisis reply (Urgent), whatever its level: asking first would delay the
// emergency number.
func TestAttemptsUnderWayAreUrgent(t *testing.T) {
	for _, msg := range []string{
		"just took about 40 sleeping pills, everything feels slow",
		"swallowed 3 boxes of paracetamol an hour or so back and my stomach hurts",
		"took the whole box of my mums tablets, sorry",
		"i'm up on the roof of the library rn and it's windy",
		"standing at the edge of the platform now",
		"the noose is ready",
		"got the blade in my hand now and i want to do it",
	} {
		r := Screen(msg, Context{})
		if r.Category != Attempt || !r.Urgent() {
			t.Errorf("%q: %v %q (urgent %v), want an urgent attempt", msg, r.Level, r.Category, r.Urgent())
		}
	}
	// A dose that is only a dose, a place that is only a place, and recovery told in the past
	// are not.
	for msg, want := range map[string]Category{
		"took 2 paracetamol for this headache, hope it helps": "",
		"took my meds this morning like a good boy":           "",
		"on the bridge now, bus is late again lol":            "",
		"i overdosed two years ago and i'm doing better now":  "",
	} {
		if r := Screen(msg, Context{}); r.Category != want || want == "" && r.Risky() {
			t.Errorf("%q: %v %q, want %q", msg, r.Level, r.Category, want)
		}
	}
}

func TestUrgentIsClearOrAnAttempt(t *testing.T) {
	for _, c := range []struct {
		r    Result
		want bool
	}{
		{Result{Level: Clear, Category: Suicide}, true},
		{Result{Level: Possible, Category: Attempt}, true},
		{Result{Level: Possible, Category: Suicide}, false},
		{Result{}, false},
	} {
		if got := c.r.Urgent(); got != c.want {
			t.Errorf("%+v: urgent %v, want %v", c.r, got, c.want)
		}
	}
}
