package chat

import (
	"context"
	"fmt"
	"strconv"
	"testing"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/queue/queuetest"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
)

// TestLongSessionOfShortMessagesIsReadInOneRoundTrip checks that a send reads, in its first
// round trip, as many of a session's newest messages as the previous send needed for the
// prompt, even when that is more than a page: a session of short messages was read by a
// second round trip on every send, before the model could be asked.
func TestLongSessionOfShortMessagesIsReadInOneRoundTrip(t *testing.T) {
	f := newFixture(t, false, nil)
	ctx := context.Background()
	uid := f.user(t, "USER")
	// About 20 tokens each: the budget and half again take about 200 of them.
	sid := f.longSession(t, uid, 1000, "I keep thinking about the exam next week and whether I prepared enough ", 20)
	if _, err := f.svc.Send(ctx, uid, SendInput{SessionID: &sid, Message: "Still thinking about it."}, nil); err != nil {
		t.Fatalf("send: %v", err)
	}

	r, b, q := f.tracedHistoryRead(t, uid, sid)
	if b != 1 || q != 0 {
		t.Errorf("the read took %d batches and %d further statements, want one batch", b, q)
	}
	used := 0
	for _, m := range r.recent {
		used += companion.EstimateTokens(m.Content) + 4
	}
	budget := companion.DefaultContextBudget
	if len(r.recent) <= historyPage || used <= budget+budget/2 || len(r.recent) > 2*r.needed {
		t.Errorf("the read gave %d messages of %d tokens (%d needed), want more than a page, past %d tokens, and not many more than needed",
			len(r.recent), used, r.needed, budget+budget/2)
	}
}

// TestSessionWithoutPreviousSendIsReadInTwoRoundTrips checks that a send to a long session of
// very short messages that no send has sized yet (context_rows unset: a session from before
// it, or imported) reads the rest of what the prompt needs in one more statement, sized by
// the first page, not a page at a time (seven more here).
func TestSessionWithoutPreviousSendIsReadInTwoRoundTrips(t *testing.T) {
	f := newFixture(t, false, nil)
	uid := f.user(t, "USER")
	// About 6 tokens a row: the budget and half again take about 750 of them.
	sid := f.longSession(t, uid, 2000, "ok ", 2)
	r, b, q := f.tracedHistoryRead(t, uid, sid)
	if b != 1 || q != 1 {
		t.Errorf("the read took %d batches and %d further statements, want one batch and one statement", b, q)
	}
	used := 0
	for _, m := range r.recent[:r.needed] {
		used += companion.EstimateTokens(m.Content) + 4
	}
	budget := companion.DefaultContextBudget
	if used <= budget+budget/2 || len(r.recent) > r.needed*3/2 {
		t.Errorf("the read gave %d messages, %d needed for %d tokens; want past %d tokens and not many more than needed",
			len(r.recent), r.needed, used, budget+budget/2)
	}
}

// TestHistoryReadLeavesOutWhatTheSummaryCovers checks that a send's first read leaves out the
// messages the session's stored summary covers, which the prompt does not use, and still
// gives the safety screen the newest eight when the summary covers them all; a first page
// that ends at the summary is the whole history, not a reason to read further back.
func TestHistoryReadLeavesOutWhatTheSummaryCovers(t *testing.T) {
	f := newFixture(t, false, nil)
	ctx := context.Background()
	uid := f.user(t, "USER")
	sid := f.longSession(t, uid, 300, "I keep thinking about the exam next week and whether I prepared enough ", 20)
	newest := func(n int) {
		t.Helper()
		r, b, q := f.tracedHistoryRead(t, uid, sid)
		if n > 0 && (b != 1 || q != 0) {
			t.Fatalf("the read took %d batches and %d further statements, want one batch", b, q)
		}
		var got []string
		for _, m := range r.recent {
			got = append(got, m.Content)
		}
		if len(got) != n && n > 0 || n == 0 && len(got) <= 40 {
			t.Fatalf("the read gave %d messages, want %d (0: more than 40)", len(got), n)
		}
		for i, c := range got {
			if want := fmt.Sprintf("I keep thinking about the exam next week and whether I prepared enough %d", 300-i); c != want {
				t.Fatalf("message %d of the read is %q, want %q (newest first)", i, c, want)
			}
		}
	}
	summarize := func(through int) {
		t.Helper()
		if _, err := f.st.Pool().Exec(ctx, `UPDATE chat_sessions SET context_summary = 'Earlier: exams.',
			context_summary_through = (SELECT created_at FROM messages WHERE session_id = $1 AND content LIKE '%enough ' || $2)
			WHERE id = $1`, sid, strconv.Itoa(through)); err != nil {
			t.Fatal(err)
		}
	}
	newest(0)      // no summary: the budget's worth and half again
	summarize(260) // covers all but the newest 40
	newest(40)
	// A page longer than the least one, cut short by the summary before the limit the
	// previous send asked for.
	if _, err := f.st.Pool().Exec(ctx, `UPDATE chat_sessions SET context_rows = 150 WHERE id = $1`, sid); err != nil {
		t.Fatal(err)
	}
	summarize(180)
	newest(120)
	summarize(300) // covers every message
	newest(8)
}

// longSession gives the user a session with a large token limit and n messages, the user's
// and the companion's in turn, a second apart and the newest now: text followed by the
// message's number, stored as tokens tokens.
func (f *fixture) longSession(t *testing.T, uid uuid.UUID, n int, text string, tokens int) uuid.UUID {
	t.Helper()
	ctx := context.Background()
	sid := uuid.New()
	if _, err := f.st.Pool().Exec(ctx, `INSERT INTO chat_sessions (id, user_id, token_limit) VALUES ($1, $2, 1000000)`, sid, uid); err != nil {
		t.Fatal(err)
	}
	if _, err := f.st.Pool().Exec(ctx, `
		INSERT INTO messages (session_id, user_id, role, content, token_count, created_at)
		SELECT $1, $2, CASE WHEN i % 2 = 0 THEN 'user' ELSE 'assistant' END, $4 || i,
		       $5, now() - (($3 - i) * interval '1 second')
		FROM generate_series(1, $3) AS i`, sid, uid, n, text, tokens); err != nil {
		t.Fatal(err)
	}
	return sid
}

// tracedHistoryRead runs a send's first read (the user and the history) of the session on a
// service of its own, and returns what it read with the batches and further statements it
// sent.
func (f *fixture) tracedHistoryRead(t *testing.T, uid, sid uuid.UUID) (r *reads, batches, queries int) {
	t.Helper()
	ctx := context.Background()
	st, counter := pgtest.Traced(t, f.st.Pool().Config())
	svc := New(st, nil, Options{Queue: queuetest.New(t, st), Logger: quiet})
	c, err := st.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Release()
	counter.Take()
	r = &reads{}
	if err := svc.readUserAndHistory(ctx, r, uid, sid)(c); err != nil {
		t.Fatal(err)
	}
	batches, queries, _ = counter.Take()
	return r, batches, queries
}
