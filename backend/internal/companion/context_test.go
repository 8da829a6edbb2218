package companion

import (
	"strings"
	"testing"
)

// TestOneFalseAlarmDoesNotCascade: after the crisis reply, or a model's reply that carried the
// resources, a short ordinary message gets an ordinary reply from the engine, as it does from
// the send path. The engine used to read any reply with the resources as a check-in and a
// withheld message as a risk, so every short answer after one alarm became the crisis reply.
func TestOneFalseAlarmDoesNotCascade(t *testing.T) {
	o := &Offline{}
	start := []Turn{{RoleUser, starter}, {RoleAssistant, Welcome("", false)}}
	for name, hist := range map[string][]Turn{
		"after the crisis reply":     append(start[:2:2], Turn{RoleUser, Withheld}, Turn{RoleAssistant, CrisisReply}),
		"after resources on a reply": append(start[:2:2], Turn{RoleUser, "my loan hasn't come through yet"}, Turn{RoleAssistant, "How are you looking after yourself?\n\n" + CrisisResources}),
		"after an answered check-in": append(start[:2:2], Turn{RoleUser, Withheld}, Turn{RoleAssistant, CheckInReply}, Turn{RoleUser, Withheld}, Turn{RoleAssistant, CrisisReply}),
	} {
		for _, msg := range []string{"ok thanks", "lol student life", "k", "just food and bus"} {
			if got := o.Compose(Prompt{History: hist, Message: msg}); got == CrisisReply || got == CheckInReply || strings.Contains(got, CrisisResources) {
				t.Errorf("%s: %q got %.60q", name, msg, got)
			}
		}
	}
	// The check-in question still makes a confirming short answer a clear risk.
	checked := append(start[:2:2], Turn{RoleUser, Withheld}, Turn{RoleAssistant, CheckInReply})
	if got := o.Compose(Prompt{History: checked, Message: "yes"}); got != CrisisReply {
		t.Errorf("\"yes\" after the check-in got %.60q", got)
	}
}
