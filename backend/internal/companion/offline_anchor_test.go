package companion

import (
	"strings"
	"testing"
)

func TestGistIsTheUsersOwnNounPhrase(t *testing.T) {
	for in, want := range table(t, "gist") {
		if got := gistOf(in); got != want {
			t.Errorf("gistOf(%q) = %q, want %q", in, got, want)
		}
	}
}

// A message the tracker knows nothing in still gets a reply that names the user's subject.
func TestOfflineReplyNamesTheUsersSubject(t *testing.T) {
	msgs := []string{
		"hey",
		"the bus times are awful this term",
		"and the heating in our kitchen keeps breaking",
		"idk it just builds up",
		"my cousins are staying over the weekend too",
	}
	replies := converse(t, Profile{}, msgs...)
	var stems = map[string]bool{}
	for i, m := range msgs[1:] {
		for _, w := range strings.Fields(plain(m)) {
			if len(w) >= 4 && !notModifiers[w] && !topicFiller[w] {
				stems[stem6(w)] = true
			}
		}
		if got := replies[i+1]; !namesSession(got, stems) {
			t.Errorf("reply to %q names nothing of the conversation: %q", m, got)
		}
	}
}

func TestChoiceNamesWhatIsAsked(t *testing.T) {
	for in, want := range table(t, "choice") {
		if got := choiceOf(in); got != want {
			t.Errorf("choiceOf(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestGistOfAPersonIsAskedAboutAsAPerson(t *testing.T) {
	for g, want := range map[string]bool{"your auntie rosa": true, "your mates": true, "the bus times": false, "your group project": false} {
		if got := gistIsPerson(g); got != want {
			t.Errorf("gistIsPerson(%q) = %v", g, got)
		}
	}
}

// "Is it normal to…" is answered first, then the answer names what was asked.
func TestValidationNamesWhatWasAsked(t *testing.T) {
	got := converse(t, Profile{}, "hey", "is it normal to still miss my old school in second year")[1]
	if !startsWithOneOf(got, normalLines) && !startsWithOneOf(got, validateLines) {
		t.Errorf("no validation first: %q", got)
	}
	if !containsOneOf(got, validatingAsked) || !strings.Contains(got, "whether it's normal to still miss your old school") {
		t.Errorf("the answer does not name what was asked: %q", got)
	}
}
