package safety

import (
	"testing"
	"unicode/utf8"
)

// FuzzScreen checks, for any message: the screen does not panic, gives the same answer twice,
// gives a category with every risk, and never lets through a message that also holds a
// sentence of clear risk.
func FuzzScreen(f *testing.F) {
	for _, s := range []string{
		"", "yes", "tonight", "I want to kill myself", "this exam is killing me", "im not suicidal, just tired",
		"su!c!de", "kms 💊💊💊", "i used to self harm but im 2 years clean", "\n\n...!!!", "s/h s/h s/h",
		"my essay is on suicide. but im not, just tired",
	} {
		f.Add(s, false, uint8(0))
	}
	f.Fuzz(func(t *testing.T, msg string, checkedIn bool, prev uint8) {
		c := Context{CheckedIn: checkedIn, Previous: Level(prev % 3)}
		r := Screen(msg, c)
		if again := Screen(msg, c); again != r {
			t.Fatalf("Screen(%q, %+v) = %v, then %v", msg, c, r, again)
		}
		if !c.FollowsRisk() && r != Screen(msg, Context{}) {
			t.Fatalf("Screen(%q, %+v) = %+v, not its screen on its own, though the context follows no risk", msg, c, r)
		}
		if r.Risky() != (r.Category != "") {
			t.Fatalf("Screen(%q, %+v) = %+v: a risk needs a category, and only a risk has one", msg, c, r)
		}
		if !utf8.ValidString(msg) {
			return
		}
		for _, clear := range []string{"I want to kill myself.", "My dad hits me."} {
			withRisk := msg + "\n" + clear
			if r := Screen(withRisk, c); r.Level == None {
				t.Fatalf("Screen(%q, %+v) = none, but it says %q", withRisk, c, clear)
			}
		}
	})
}
