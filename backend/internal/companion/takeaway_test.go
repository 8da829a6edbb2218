package companion

import (
	"strings"
	"testing"
)

func TestTakeawayIsDrawnFromTheConversation(t *testing.T) {
	history := []Turn{
		{Role: RoleAssistant, Content: "Hi Sam! What's on your mind today?"},
		{Role: RoleUser, Content: "I'm stressed about my statistics midterm on Tuesday."},
		{Role: RoleAssistant, Content: "That sounds like a lot. What part of the midterm worries you most?"},
		{Role: RoleUser, Content: "Mostly that I haven't started revising and I feel behind."},
	}
	got := Takeaway(history, Profile{})
	if got == "" || strings.Contains(got, "{") || !strings.HasSuffix(got, ".") {
		t.Fatalf("takeaway %q", got)
	}
	if again := Takeaway(history, Profile{}); again != got {
		t.Fatalf("not deterministic: %q then %q", got, again)
	}
	if Takeaway(nil, Profile{}) != "" {
		t.Fatal("an empty conversation has a takeaway")
	}
	risky := []Turn{{Role: RoleUser, Content: Withheld}, {Role: RoleAssistant, Content: CrisisReply}}
	if got := Takeaway(risky, Profile{}); got != "" {
		t.Fatalf("a conversation of one withheld message gave %q", got)
	}
}
