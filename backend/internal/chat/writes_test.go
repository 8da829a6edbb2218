package chat

import (
	"context"
	"regexp"
	"testing"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/companion/llmtest"
	"github.com/percolate/percolate/backend/internal/entitlement"
	"github.com/percolate/percolate/backend/internal/queue/queuetest"
)

// sessionWrites logs every write of a chat_sessions row (the statement's sqlc name) into a
// table of the test's database, from a trigger: so it sees writes however they are sent.
type sessionWrites struct{ f *fixture }

func watchSessionWrites(t *testing.T, f *fixture) sessionWrites {
	t.Helper()
	_, err := f.st.Pool().Exec(context.Background(), `
CREATE TABLE test_session_writes (seq bigserial PRIMARY KEY, session_id uuid NOT NULL, query text NOT NULL);
CREATE FUNCTION test_log_session_write() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO test_session_writes (session_id, query) VALUES (NEW.id, current_query());
    RETURN NEW;
END $$;
CREATE TRIGGER test_log_session_write AFTER INSERT OR UPDATE ON chat_sessions
    FOR EACH ROW EXECUTE FUNCTION test_log_session_write();`)
	if err != nil {
		t.Fatal(err)
	}
	return sessionWrites{f}
}

var queryName = regexp.MustCompile(`-- name: (\w+)`)

// take returns the names of the statements that wrote the session's row since the last
// take, in order, and forgets them.
func (w sessionWrites) take(t *testing.T, sid uuid.UUID) []string {
	t.Helper()
	rows, err := w.f.st.Pool().Query(context.Background(), `
WITH taken AS (DELETE FROM test_session_writes WHERE session_id = $1 RETURNING seq, query)
SELECT query FROM taken ORDER BY seq`, sid)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var query string
		if err := rows.Scan(&query); err != nil {
			t.Fatal(err)
		}
		name := "(unnamed statement)"
		if m := queryName.FindStringSubmatch(query); m != nil {
			name = m[1]
		}
		names = append(names, name)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return names
}

func wantWrites(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s wrote the session row %d times %v, want %v", what, len(got), got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("%s wrote the session row with %v, want %v", what, got, want)
		}
	}
}

// TestOneSendWritesTheSessionRowOnce: storing a message writes its session's row in one
// statement, whatever the send changes there (title, preview, tokens, AI notice, check-in
// flag, reply in progress, updated_at); storing its reply in one more. A message that screens
// as a possible risk, in a session still called by the default title, changes all of them.
func TestOneSendWritesTheSessionRowOnce(t *testing.T) {
	f := newFixture(t, false, nil)
	w := watchSessionWrites(t, f)
	uid := f.user(t, "USER")
	ctx := context.Background()

	turn, err := f.svc.Begin(ctx, uid, SendInput{Message: StarterMessage})
	if err != nil {
		t.Fatal(err)
	}
	sid := turn.session.ID
	// The reply is written as soon as it is ready, which may be before Begin has returned:
	// the writes are read once the turn is over, the send's and then the reply's.
	if res, err := turn.Follow(ctx, nil); err != nil || !res.Success {
		t.Fatalf("welcome: %+v %v", res, err)
	}
	wantWrites(t, "opening a session and storing the welcome", w.take(t, sid), "OpenSession", "FinishReply")

	turn, err = f.svc.Begin(ctx, uid, SendInput{SessionID: &sid, Message: possibleRisk})
	if err != nil {
		t.Fatal(err)
	}
	if turn.session.Title != riskyTitle || !turn.session.CheckinPending || turn.session.LastMessage != preview(possibleRisk) || turn.session.ReplyUntil == nil {
		t.Fatalf("the one write left the session as %+v", turn.session)
	}
	if res, err := turn.Follow(ctx, nil); err != nil || !res.Success {
		t.Fatalf("reply: %+v %v", res, err)
	}
	wantWrites(t, "a send and its reply", w.take(t, sid), "ContinueSession", "FinishReply")
}

// TestAReplyThatReachesTheTokenLimitEndsTheSessionInTheSameWrite: storing the reply that
// uses up the session's tokens ends the session in the statement that stores it, and queues
// the ended session's summary and memory jobs once.
func TestAReplyThatReachesTheTokenLimitEndsTheSessionInTheSameWrite(t *testing.T) {
	lim := DefaultLimits()
	lim.Tiers = lim.Tiers.With(entitlement.Overrides{SessionTokens: map[string]int{"USER": 40}})
	f := newFixture(t, true, &lim)
	uid := f.user(t, "USER")
	sid := f.newSession(t, uid)
	w := watchSessionWrites(t, f)
	ctx := context.Background()

	f.llm.Enqueue(llmtest.Script{Chunks: []string{"a long answer"}, CompletionTokens: 45})
	turn, err := f.svc.Begin(ctx, uid, SendInput{SessionID: &sid, Message: "tell me more"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := turn.Follow(ctx, nil)
	if err != nil || !res.Success || !res.SessionEnded || res.EndReason != EndReasonTokenLimit {
		t.Fatalf("reply: %+v %v", res, err)
	}
	// Read once the turn is over: the reply may be stored before Begin has returned.
	wantWrites(t, "a send and the reply that ends the session", w.take(t, sid), "ContinueSession", "FinishReply")
	for _, kind := range []string{SummaryJobKind, MemoryJobKind} {
		if js := queuetest.Jobs(t, f.q, kind); len(js) != 1 {
			t.Fatalf("%d %s jobs, want 1", len(js), kind)
		}
	}
}
