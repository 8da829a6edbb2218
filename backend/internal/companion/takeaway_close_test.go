package companion

import (
	"strings"
	"testing"
)

// TestTakeawayFollowsTheSessionAsItEnded: a session that ends with good news gets a takeaway
// about it, not about the stress it started with.
func TestTakeawayFollowsTheSessionAsItEnded(t *testing.T) {
	o := &Offline{}
	hist := []Turn{{RoleUser, starter}, {RoleAssistant, Welcome("Sam", false)}}
	for _, m := range []string{"my midterm is tomorrow and im so stressed", "my friend maya is helping me revise", "The midterm went okay actually, better than I feared"} {
		hist = append(hist, Turn{RoleUser, m}, Turn{RoleAssistant, o.Compose(Prompt{History: hist, Message: m})})
	}
	got := Takeaway(hist, Profile{})
	if got == "" || strings.Contains(got, "stress") || strings.Contains(got, "carrying") {
		t.Fatalf("takeaway = %q", got)
	}
}
