package chat

import (
	"context"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/companion"
)

// "Talk about it" (issue 31, §1): a new session opened with an Opening answers the starter
// with the welcome carrying it, in place of the open question, from a model or the offline
// engine alike (the model is not asked), and stores only the starter as the user's message.
func TestOpeningReplacesTheWelcomeQuestion(t *testing.T) {
	const opening = "You said you're feeling low, and sleep came up."
	for _, llm := range []bool{true, false} {
		f := newFixture(t, llm, nil)
		uid := f.user(t, "USER")
		res, err := f.svc.Send(context.Background(), uid, SendInput{Message: StarterMessage, Opening: opening}, nil)
		if err != nil || !res.Success {
			t.Fatalf("llm %v: send: %+v %v", llm, res, err)
		}
		if !strings.HasSuffix(res.AIResponse, " "+opening) || !strings.Contains(res.AIResponse, "welcome to Percolate") || strings.Contains(res.AIResponse, "What's on your mind today?") {
			t.Errorf("llm %v: reply = %q", llm, res.AIResponse)
		}
		if llm && len(f.llm.Requests()) != 0 {
			t.Errorf("the model was asked %d times for a fixed opening", len(f.llm.Requests()))
		}
		d, err := f.svc.Detail(context.Background(), uid, res.SessionID)
		if err != nil {
			t.Fatal(err)
		}
		said := false
		for _, m := range d.Messages {
			if m.Role == companion.RoleUser && m.Content != StarterMessage {
				t.Errorf("llm %v: a user message the user did not write: %q", llm, m.Content)
			}
			said = said || m.Role == companion.RoleAssistant && strings.HasSuffix(m.Content, opening)
		}
		if !said {
			t.Errorf("llm %v: no stored companion message carries the opening: %+v", llm, d.Messages)
		}
	}
}

// A session started from a check-in keeps the check-in's id (chat_sessions.checkin_id), and
// only the user's own: another user's check-in is never linked.
func TestASessionKeepsOnlyTheUsersCheckin(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, false, nil)
	uid, other := f.user(t, "USER"), f.user(t, "USER")
	checkin := func(owner uuid.UUID) uuid.UUID {
		t.Helper()
		var id uuid.UUID
		if err := f.st.Pool().QueryRow(ctx, `INSERT INTO checkins (user_id, mood, local_date) VALUES ($1, 3, current_date) RETURNING id`, owner).Scan(&id); err != nil {
			t.Fatal(err)
		}
		return id
	}
	for _, c := range []struct {
		owner uuid.UUID
		kept  bool
	}{{uid, true}, {other, false}} {
		id := checkin(c.owner)
		res, err := f.svc.Send(ctx, uid, SendInput{Message: StarterMessage, CheckinID: &id}, nil)
		if err != nil || !res.Success {
			t.Fatalf("send: %+v %v", res, err)
		}
		s, err := f.svc.Get(ctx, uid, res.SessionID)
		if err != nil {
			t.Fatal(err)
		}
		if (s.CheckinID != nil) != c.kept || c.kept && *s.CheckinID != id {
			t.Errorf("check-in of its owner %v: session's check-in %v, want kept %v", c.owner == uid, s.CheckinID, c.kept)
		}
	}
}
