package safety

import "testing"

// TestClassifyAnswer: the context rule confirms a risk only with an answer that confirms it;
// an unclear one is asked again, a denial is not a risk.
func TestClassifyAnswer(t *testing.T) {
	cases := []struct {
		text      string
		askedSafe bool
		want      Answer
	}{
		// Confirming.
		{"yes", false, Confirms},
		{"yeah", false, Confirms},
		{"Yes.", false, Confirms},
		{"ya", false, Confirms},
		{"kind of", false, Confirms},
		{"kind of yeah", false, Confirms},
		{"i think so", false, Confirms},
		{"tonight", false, Confirms},
		{"this weekend", false, Confirms},
		{"I already did", false, Confirms},
		{"already did", false, Confirms},
		{"I have them", false, Confirms},
		{"i already have them", false, Confirms},
		{"all of them", false, Confirms},
		{"every day", false, Confirms},
		{"twice", false, Confirms},
		{"yes and i have a plan", false, Confirms},
		{"yeah my dad", false, Confirms},
		{"at the bridge", false, Confirms},
		{"i dont know. sort of. most nights", false, Confirms},
		{"a bit. its still bleeding", false, Confirms},
		{"exactly what it sounds like", false, Confirms},
		{"no", true, Confirms},
		{"not really", true, Confirms},
		{"nope", true, Confirms},
		// Unclear.
		{"idk", false, Unclear},
		{"meh", false, Unclear},
		{"lol", false, Unclear},
		{"k", false, Unclear},
		{"maybe?", false, Unclear},
		{"maybe", false, Unclear},
		{"not sure", false, Unclear},
		{"im not sure", false, Unclear},
		{"i dont know", false, Unclear},
		{"idk lol", false, Unclear},
		{"hmm", false, Unclear},
		{"ok", false, Unclear},
		{"👍", false, Unclear},
		{"...", false, Unclear},
		// Denying.
		{"no", false, Denies},
		{"nope", false, Denies},
		{"nah", false, Denies},
		{"not really", false, Denies},
		{"probably not", false, Denies},
		{"no, nothing like that", false, Denies},
		{"god no, i was being dramatic", false, Denies},
		{"im fine, dont worry", false, Denies},
		{"no im fine", true, Denies},
		{"not tonight", false, Denies},
		// Neither: the other layers decide.
		{"thanks for asking", false, NotAnAnswer},
		{"my exam results came back today and i passed everything", false, NotAnAnswer},
		{"i passed my exam today lol", false, NotAnAnswer},
		{"so anyway the group project is due next week and nobody has started it", false, NotAnAnswer},
	}
	for _, c := range cases {
		if got := ClassifyAnswer(c.text, c.askedSafe); got != c.want {
			t.Errorf("ClassifyAnswer(%q, askedSafe=%v) = %v, want %v", c.text, c.askedSafe, got, c.want)
		}
	}
}
