package companion

import (
	"testing"

	"github.com/percolate/percolate/backend/internal/companion/safety"
)

// TestKeptScreensDecideAsBefore holds that keeping the screen's results for a reply changes
// no decision: every reply of every script, with risky, withheld and check-in turns mixed in,
// is the same as when each turn is screened afresh, and the context after each prefix is too.
func TestKeptScreensDecideAsBefore(t *testing.T) {
	o := &Offline{}
	risky := []string{"i want to die", "sometimes i think about hurting myself", "no", Withheld, "ok"}
	for name, script := range scripts {
		hist := []Turn{{RoleUser, starter}, {RoleAssistant, Welcome("Sam", false)}}
		for i, m := range script {
			if i == len(script)/2 {
				for _, r := range risky {
					hist = append(hist, Turn{RoleUser, r}, Turn{RoleAssistant, o.compose(Prompt{History: hist, Message: r}, nil)})
				}
			}
			p := Prompt{History: hist, Message: m, Profile: Profile{SensitiveTopics: "family"}}
			fresh, kept := o.compose(p, nil), o.Compose(p)
			if fresh != kept {
				t.Fatalf("%s turn %d: kept screens changed the reply:\n%q\n%q", name, i, fresh, kept)
			}
			m2 := screens{}
			if a, b := contextAfter(hist), m2.after(hist); a != b {
				t.Fatalf("%s turn %d: context %+v, kept %+v", name, i, a, b)
			}
			if a, b := safety.Screen(m, contextAfter(hist)), m2.in(m, m2.after(hist)); a != b {
				t.Fatalf("%s turn %d: screen %+v, kept %+v", name, i, a, b)
			}
			hist = append(hist, Turn{RoleUser, m}, Turn{RoleAssistant, kept})
		}
	}
}
