package companion

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// monday is when the sessions of these tests are held.
var monday = time.Date(2026, time.November, 23, 18, 0, 0, 0, time.UTC)

func factsOn(texts []string, p Profile) []string {
	var out []string
	for _, f := range OfflineMemoriesAt(texts, p, monday) {
		out = append(out, f.Text)
	}
	return out
}

// TestOfflineFactsReadStudentTyping: lower-case typing gives people with who they are, events
// with their real date, situations and preferences.
func TestOfflineFactsReadStudentTyping(t *testing.T) {
	got := factsOn([]string{
		"my driving test is tomorrow and im so nervous",
		"my sister amira is 11",
		"my best friend is jas",
		"im applying for english literature",
		"my art teacher ms brennan says its strong enough",
		"my mum is a nurse",
		"i love hiking",
		"the jazz band auditions are next thursday",
		"my mentor is called priyanka",
		"im 18 so everyone at work is older",
	}, Profile{})
	for _, want := range []string{
		"Has a driving test on Tuesday 24 November 2026",
		"Has a sister called Amira",
		"Their best friend is Jas",
		"Is applying for english literature",
		"Their art teacher is Ms Brennan",
		"Their mum is a nurse",
		"Loves hiking",
		"Has jazz band auditions on Thursday 3 December 2026",
		"Their mentor is Priyanka",
		"Is 18",
	} {
		if !slices.Contains(got, want) {
			t.Errorf("missing %q in %q", want, got)
		}
	}
}

// TestOfflineFactsResolveDays: a relative day is the date it names from the message's time;
// with no time, nothing relative is kept.
func TestOfflineFactsResolveDays(t *testing.T) {
	for said, want := range table(t, "days") {
		got := factsOn([]string{said}, Profile{})
		if len(got) == 0 || !strings.HasSuffix(got[0], want) {
			t.Errorf("%q: %q, want the day %s", said, got, want)
		}
	}
	for _, f := range OfflineMemories([]string{"my driving test is tomorrow"}, Profile{}) {
		if strings.Contains(f.Text, "tomorrow") || strings.Contains(f.Text, "2026") {
			t.Errorf("kept %q with no time to resolve the day against", f.Text)
		}
	}
}

// TestOfflineFactsKeepNothingFlaggedOrSensitive: a sentence the screen flags, or one about a
// sensitive topic of the profile, gives no fact, even when it names a person or a date.
func TestOfflineFactsKeepNothingFlaggedOrSensitive(t *testing.T) {
	if got := factsOn([]string{"my sister amira says i should just kill myself"}, Profile{}); len(got) > 0 {
		t.Errorf("kept %q from a flagged sentence", got)
	}
	if got := factsOn([]string{"my dad is in rehab", "my dad visits on friday for the custody hearing"}, Profile{SensitiveTopics: "dad, custody"}); len(got) > 0 {
		t.Errorf("kept %q from sentences about a sensitive topic", got)
	}
}

// TestThreadAsksAfterTheDayOnce: a remembered event is asked about only once its day is
// past, and only in the first session opened after it.
func TestThreadAsksAfterTheDayOnce(t *testing.T) {
	mem := factsOn([]string{"my driving test is tomorrow"}, Profile{})
	if got := ThreadOn(mem, Profile{}, monday.Add(12*time.Hour), monday); strings.Contains(got, "driving test") {
		t.Errorf("asked before the test: %q", got)
	}
	after := monday.Add(3 * 24 * time.Hour)
	if got := ThreadOn(mem, Profile{}, after, monday); got != "Last time you mentioned your driving test. How did it go?" || !AsksHowItWent(got) {
		t.Errorf("after the test: %q", got)
	}
	if AsksHowItWent(ThreadOn([]string{"Has a friend called Maya"}, Profile{}, after, time.Time{})) {
		t.Error("a thread about a person is taken for the question about an event")
	}
	if got := ThreadOn(mem, Profile{}, after.Add(24*time.Hour), after); strings.Contains(got, "driving test") {
		t.Errorf("asked again in the next session: %q", got)
	}
}
