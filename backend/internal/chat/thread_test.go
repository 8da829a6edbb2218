package chat

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/apperr"
)

// "Continue in a new session" (issue 36, §3): the first model request of a session that
// continues an earlier one carries that session's title and summary; a summary is left out
// while memory is off or when the earlier session had a crisis, and another user's session is
// not found.
func TestAContinuedThreadReachesTheModel(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, true, nil)
	uid, other := f.user(t, "USER"), f.user(t, "USER")
	const title, summary = "Revision plan for statistics", "They worked out a week of revision for the statistics midterm."
	earlier := func(crisis bool) uuid.UUID {
		t.Helper()
		sid := f.newSession(t, uid)
		pinned := any(nil)
		if crisis {
			pinned = "suicide"
		}
		if _, err := f.st.Pool().Exec(ctx, `UPDATE chat_sessions SET status = 'ENDED', ended_at = now(), title = $2, summary = $3, safety_pinned = $4 WHERE id = $1`,
			sid, title, summary, pinned); err != nil {
			t.Fatal(err)
		}
		return sid
	}
	// system sends the first message of a new session continuing sid and returns the system
	// prompt of the model request it made.
	system := func(sid uuid.UUID) string {
		t.Helper()
		before := len(f.llm.Requests())
		if _, err := f.svc.Send(ctx, uid, SendInput{Message: "yes please, the exam plan", Continues: &sid}, nil); err != nil {
			t.Fatal(err)
		}
		reqs := f.llm.Requests()
		if len(reqs) != before+1 {
			t.Fatalf("%d model requests, want 1", len(reqs)-before)
		}
		return reqs[before].Messages[0].Content
	}

	plain := earlier(false)
	if sys := system(plain); !strings.Contains(sys, `Its title: "`+title+`".`) || !strings.Contains(sys, "Its summary: "+summary) {
		t.Errorf("the first request of the continued session lacks the thread:\n%s", sys)
	}
	if sys := system(earlier(true)); !strings.Contains(sys, title) || strings.Contains(sys, summary) {
		t.Errorf("after a crisis, only the title: \n%s", sys)
	}
	if _, err := f.st.Pool().Exec(ctx, `UPDATE users SET memory_enabled = false WHERE id = $1`, uid); err != nil {
		t.Fatal(err)
	}
	if sys := system(plain); !strings.Contains(sys, title) || strings.Contains(sys, summary) {
		t.Errorf("with memory off, only the title:\n%s", sys)
	}
	if _, err := f.svc.Send(ctx, other, SendInput{Message: "go on", Continues: &plain}, nil); !errors.Is(err, apperr.ErrNotFound) {
		t.Errorf("another user's session: %v, want not found", err)
	}
}
