package companion

import (
	"strings"
	"testing"
)

// Every situation has lines for a first mention, lines for coming back to it, and questions
// of its own; none of them may read as risk or name a method (the wording test covers all).
func TestSituationBankIsComplete(t *testing.T) {
	for _, s := range situations {
		if len(s.examples) < 3 || len(s.lines) < 3 || len(s.again) < 2 || len(s.questions) < 3 {
			t.Errorf("situation %q: %d examples, %d lines, %d again, %d questions", s.examples[0], len(s.examples), len(s.lines), len(s.again), len(s.questions))
		}
		for _, q := range s.questions {
			if !strings.HasSuffix(q.src, "?") {
				t.Errorf("%q is no question", q.src)
			}
		}
		for _, l := range append(append([]tmpl(nil), s.lines...), s.again...) {
			if strings.Contains(l.src, "?") {
				t.Errorf("%q: a reflection with a question mark", l.src)
			}
		}
	}
}

// Once a situation was reflected, coming back to it gets a line for coming back, not the
// first-mention line again, and no sentence of the session is said twice.
func TestSituationComesBackInOtherWords(t *testing.T) {
	msgs := []string{
		"my parents told me theyre separating",
		"it happened so fast",
		"idk it just feels weird at home now",
		"christmas is going to be split between them",
		"its just strange",
	}
	replies := converse(t, Profile{}, msgs...)
	var sit *situation
	at := -1
	seen := map[string]bool{}
	for i, r := range replies {
		low := strings.ToLower(r)
		for k := range situations {
			if sit == nil && containsOneOf(low, situations[k].lines) {
				sit, at = &situations[k], i
			}
		}
		for _, s := range splitSentences(r) {
			if k := sentenceKey(s); seen[k] {
				t.Errorf("said twice: %q", s)
			} else {
				seen[k] = true
			}
		}
	}
	if sit == nil {
		t.Fatalf("no situation is reflected: %q", replies)
	}
	for _, r := range replies[at+1:] {
		low := strings.ToLower(r)
		if containsOneOf(low, sit.lines) && !containsOneOf(low, sit.again) {
			t.Errorf("a first-mention line comes back instead of a line for coming back: %q", r)
		}
		if containsOneOf(low, sit.again) {
			return
		}
	}
	t.Errorf("the situation is not come back to: %q", replies)
}
