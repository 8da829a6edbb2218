package safety

import "testing"

// The examples other packages' tests rely on for each tier; the screen must keep them.
func TestScreenTiers(t *testing.T) {
	cases := []struct {
		text string
		ctx  Context
		want Level
	}{
		{"I want to kill myself", Context{}, Clear},
		{"I can't do this anymore and I just want to disappear", Context{}, Possible},
		{"this exam is killing me", Context{}, None},
		{"tonight", Context{}, None},
		{"tonight", Context{CheckedIn: true}, Clear},
		{"yeah, I've thought about how", Context{CheckedIn: true}, Clear},
		{"yeah thanks that helps", Context{}, None},
	}
	for _, c := range cases {
		if got := Screen(c.text, c.ctx).Level; got != c.want {
			t.Errorf("Screen(%q, %+v) = %v, want %v", c.text, c.ctx, got, c.want)
		}
	}
}

// A weak signal is a check-in on the scorer's word alone in a message without a strong word of
// risk (but with a risk cue: see hasRiskCue), and not sure; a session whose check-in the student declined is not asked about it
// again, but is about anything stronger.
func TestWeakSignalsAreNotAskedAgainAfterADeclinedCheckIn(t *testing.T) {
	declined := Context{Declined: true}
	for _, c := range []struct {
		msg  string
		weak bool
	}{
		{"i feel invisible in my flat, like nobody would notice", true},
		{"im so done with everything this week", true},
		// Without a strong word, but the scorer is sure, or a phrasing of hopelessness.
		{"everyone would be happier if i wasnt around", false},
		{"i feel like nothing matters and i want to sleep forever", false},
		// A strong word.
		{"i have been saving my pills", false},
	} {
		r := Screen(c.msg, Context{})
		if !r.Risky() {
			t.Errorf("%q: not flagged at all, so it tests nothing", c.msg)
			continue
		}
		if r.Weak != c.weak {
			t.Errorf("%q: weak %v, want %v", c.msg, r.Weak, c.weak)
		}
		if !(Context{}).Asks(r) {
			t.Errorf("%q: not asked about in a fresh session", c.msg)
		}
		if declined.Asks(r) == c.weak {
			t.Errorf("%q: asked about after a declined check-in: %v", c.msg, declined.Asks(r))
		}
	}
	// An unclear answer to a question about risk is always followed up, and an attempt under
	// way always gets the crisis reply.
	if !declined.Asks(Result{Level: Possible, Category: Suicide, Unclear: true, Weak: true}) {
		t.Error("an unclear answer was not followed up")
	}
	if !declined.Asks(Result{Level: Possible, Category: Attempt, Weak: true}) {
		t.Error("a possible attempt was not answered")
	}
}
