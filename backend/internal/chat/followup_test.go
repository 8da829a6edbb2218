package chat

import (
	"context"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/llmtest"
)

// pinnedIn is the kind of danger a session's detail says its resources are pinned for, "" for
// none.
func (f *fixture) pinnedIn(t *testing.T, uid, sid uuid.UUID) string {
	t.Helper()
	d, err := f.svc.Detail(context.Background(), uid, sid)
	if err != nil {
		t.Fatal(err)
	}
	if d.SafetyPinned == nil {
		return ""
	}
	return *d.SafetyPinned
}

// Issue 32, §3: an unclear answer to the check-in gets the follow-up once, never the crisis
// reply; a second unclear answer gets an ordinary reply, the resources still pinned.
func TestUnclearAnswerToTheCheckInGetsTheFollowUpOnce(t *testing.T) {
	f := newFixture(t, true, nil)
	uid := f.user(t, "USER")
	sid := f.newSession(t, uid)
	if got := f.pinnedIn(t, uid, sid); got != "" {
		t.Fatalf("a new session is pinned for %q", got)
	}
	// The model, asked about the possible risk, agrees with the screen.
	f.llm.SetModeration(llmtest.Moderation{Flagged: []string{"self-harm"}})
	if res := f.send(t, uid, sid, possibleRisk); res.AIResponse != companion.CheckInReply || res.SafetyPinned == nil || *res.SafetyPinned != "suicide" {
		t.Fatalf("possible risk got %q, pinned %v", res.AIResponse, res.SafetyPinned)
	}
	f.llm.SetModeration(llmtest.Moderation{})
	res := f.send(t, uid, sid, "idk")
	if res.AIResponse != companion.FollowUpReply {
		t.Fatalf("an unclear answer got %q", res.AIResponse)
	}
	for _, not := range []string{companion.CrisisResources, companion.CrisisReply, companion.CheckInQuestion} {
		if strings.Contains(res.AIResponse, not) {
			t.Fatalf("the follow-up repeats %q", not)
		}
	}
	for _, want := range []string{"fine not to know", companion.FollowUpQuestion, "keep talking about what you were telling me"} {
		if !strings.Contains(res.AIResponse, want) {
			t.Errorf("the follow-up lacks %q", want)
		}
	}
	if r, c := f.counts(t); r != 0 || c != 2 {
		t.Fatalf("referrals %d, check-ins %d; want 0, 2", r, c)
	}
	// A second unclear answer is not asked again: an ordinary reply, the resources still pinned.
	f.llm.Enqueue(llmtest.Script{Chunks: []string{"That's okay. What's been on your mind today?"}})
	res = f.send(t, uid, sid, "meh")
	if res.AIResponse != "That's okay. What's been on your mind today?" {
		t.Fatalf("a second unclear answer got %q", res.AIResponse)
	}
	if got := f.pinnedIn(t, uid, sid); got != "suicide" {
		t.Fatalf("after the follow-up the detail is pinned for %q, want suicide", got)
	}
	if r, _ := f.counts(t); r != 0 {
		t.Fatalf("an unclear answer was referred as a crisis (%d)", r)
	}
}

// After the follow-up, an answer that confirms is a clear risk; after the check-in, a denial
// gets an ordinary reply.
func TestAnswersToTheCheckInConfirmOrDeny(t *testing.T) {
	f := newFixture(t, true, nil)
	uid := f.user(t, "USER")
	sid := f.newSession(t, uid)
	// The model, asked about the possible risk, agrees with the screen.
	f.llm.SetModeration(llmtest.Moderation{Flagged: []string{"self-harm"}})
	f.send(t, uid, sid, possibleRisk)
	f.llm.SetModeration(llmtest.Moderation{})
	f.send(t, uid, sid, "maybe?")
	if res := f.send(t, uid, sid, "kind of"); res.AIResponse != companion.CrisisReply {
		t.Fatalf("\"kind of\" after the follow-up got %q", res.AIResponse)
	}

	sid = f.newSession(t, uid)
	f.llm.SetModeration(llmtest.Moderation{Flagged: []string{"self-harm"}})
	f.send(t, uid, sid, possibleRisk)
	f.llm.SetModeration(llmtest.Moderation{})
	f.llm.Enqueue(llmtest.Script{Chunks: []string{"Thanks for saying. How was the exam?"}})
	if res := f.send(t, uid, sid, "no"); res.AIResponse != "Thanks for saying. How was the exam?" {
		t.Fatalf("\"no\" to the check-in got %q", res.AIResponse)
	}
}

// After the crisis reply the conversation goes on: over ten turns with the offline engine, no
// sentence of the companion is said twice (the crisis text least of all), its first ordinary
// reply asks gently how the user is and whether they have reached someone, and each later risk
// gets a fresh acknowledgement that points to the pinned resources.
func TestNoCrisisTextRepeatedInTheTurnsAfterIt(t *testing.T) {
	f := newFixture(t, false, nil)
	uid := f.user(t, "USER")
	sid := f.newSession(t, uid)
	turns := []string{clearRisk, "ok", "thanks", "idk what to do", "I want to kill myself", "tonight",
		"my mum is asleep", possibleRisk, "yes", "I want to kill myself"}
	var replies []string
	for _, m := range turns {
		replies = append(replies, f.send(t, uid, sid, m).AIResponse)
	}
	if replies[0] != companion.CrisisReply {
		t.Fatalf("the first clear risk got %q", replies[0])
	}
	if !strings.HasPrefix(replies[1], companion.AfterCrisisQuestion(1)) {
		t.Errorf("the first reply after the crisis reply does not ask how the user is: %q", replies[1])
	}
	if strings.Contains(replies[2], companion.AfterCrisisQuestion(1)) {
		t.Errorf("the question is asked on every turn: %q", replies[2])
	}
	acks := 0
	for i, r := range replies[1:] {
		if strings.Contains(r, companion.CrisisResources) || strings.Contains(r, companion.CheckInQuestion) {
			t.Errorf("turn %d repeats the crisis text: %q", i+2, r)
		}
		if r == companion.CrisisAck(acks+1) {
			acks++
			if !strings.Contains(r, "pinned") {
				t.Errorf("acknowledgement %q does not point to the pinned resources", r)
			}
		}
	}
	if acks < 3 {
		t.Errorf("%d acknowledgements over the later risks, want at least 3: %q", acks, replies)
	}
	seen := map[string]int{}
	for i, r := range replies {
		for _, s := range strings.Split(r, ". ") {
			if s = strings.TrimSpace(s); len(s) < 12 {
				continue
			}
			if j, ok := seen[s]; ok {
				t.Errorf("turn %d says again a sentence of turn %d: %q", i+1, j+1, s)
			}
			seen[s] = i
		}
	}
	if got := f.pinnedIn(t, uid, sid); got != "suicide" {
		t.Fatalf("the detail is pinned for %q, want suicide", got)
	}
}

// The acknowledgements are all different sentences for the first thirty of a session.
func TestCrisisAcknowledgementsAreFresh(t *testing.T) {
	seen := map[string]bool{}
	for n := 1; n <= 30; n++ {
		a := companion.CrisisAck(n)
		if seen[a] || strings.Contains(a, companion.CrisisResources) {
			t.Fatalf("acknowledgement %d %q is said again or repeats the resources", n, a)
		}
		seen[a] = true
	}
}
