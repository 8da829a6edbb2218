package chat

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/llmtest"
	"github.com/percolate/percolate/backend/internal/queue/queuetest"
	dbgen "github.com/percolate/percolate/gen/db"
)

// detailFromTables is Detail as it was before the cache: the session row and every message,
// read and turned into the caller's view, with nothing kept.
func (f *fixture) detailFromTables(t *testing.T, svc *Service, uid, sid uuid.UUID) Detail {
	t.Helper()
	ctx := context.Background()
	q := f.st.Queries()
	role, err := q.GetUserRole(ctx, uid)
	if err != nil {
		t.Fatal(err)
	}
	row, err := q.GetSessionForUser(ctx, dbgen.GetSessionForUserParams{ID: sid, UserID: uid})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := q.ListMessagesBySession(ctx, dbgen.ListMessagesBySessionParams{SessionID: sid, UserID: uid})
	if err != nil {
		t.Fatal(err)
	}
	d := Detail{Session: view(row, svc.limits.Tiers.For(role)), Messages: []Message{}, ReplyInProgress: svc.replyInProgress(row)}
	for _, m := range rows {
		if m.Role == companion.RoleUser || m.Role == companion.RoleAssistant {
			d.Messages = append(d.Messages, messageView(m))
		}
	}
	return d
}

// sameDetail compares what a caller sees of two details (not where they were kept).
func sameDetail(a, b Detail) bool {
	return reflect.DeepEqual(a.Session, b.Session) && reflect.DeepEqual(a.Messages, b.Messages) && a.ReplyInProgress == b.ReplyInProgress
}

func describe(d Detail) string {
	s := fmt.Sprintf("%+v in progress %v, %d messages:", d.Session, d.ReplyInProgress, len(d.Messages))
	for _, m := range d.Messages {
		s += fmt.Sprintf("\n  %s %q %s %d", m.Role, m.Content, m.Status, m.TokenCount)
	}
	return s
}

// cachedDetail reads the session twice through svc, and fails unless the second read was
// answered from the cache and equals the first.
func cachedDetail(t *testing.T, svc *Service, uid, sid uuid.UUID) Detail {
	t.Helper()
	ctx := context.Background()
	first, err := svc.Detail(ctx, uid, sid)
	if err != nil {
		t.Fatal(err)
	}
	second, err := svc.Detail(ctx, uid, sid)
	if err != nil {
		t.Fatal(err)
	}
	// From the cache: the messages are the cached entry's own, and its version is said.
	e := svc.details.get(sid)
	fromCache := e != nil && second.Version == e.version && len(second.Messages) == len(e.msgs) &&
		(len(e.msgs) == 0 || &second.Messages[0] == &e.msgs[0])
	if !fromCache || !sameDetail(first, second) {
		t.Fatalf("the second read was not the first's cached detail")
	}
	return second
}

// TestDetailCacheSeesEveryWrite: every way a session's detail changes (a message, the reply
// in progress, a stored reply, a partial reply and its retry, a write through another
// instance, ending, a closing feeling, a summary, a role) shows at once through a warm cache:
// the detail read then is the one read from the tables with nothing kept. It fails when a
// write path writes messages without updating its session's row (see
// 00019_session_version.sql).
func TestDetailCacheSeesEveryWrite(t *testing.T) {
	f := newFixture(t, true, nil)
	ctx := context.Background()
	uid := f.user(t, "BASIC")
	sid := f.newSession(t, uid)
	other := f.instance(t, Options{})

	step := func(name string, write func()) {
		t.Helper()
		before := cachedDetail(t, f.svc, uid, sid)
		write()
		got, err := f.svc.Detail(ctx, uid, sid)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want := f.detailFromTables(t, f.svc, uid, sid)
		if !sameDetail(got, want) {
			t.Fatalf("%s: the cache answered\n%s\nbut the tables hold\n%s", name, describe(got), describe(want))
		}
		if sameDetail(got, before) {
			t.Fatalf("%s changed nothing a caller sees: the step tests nothing", name)
		}
	}

	var h *held
	var turn *Turn
	step("a message, its reply in progress", func() {
		h = f.hold(1, "I hear ", "you.")
		turn = f.begin(t, f.svc, uid, sid, "A hard week.", h)
	})
	step("the reply stored", func() {
		close(h.resume)
		follow(t, turn, nil)
	})
	step("a partial reply", func() {
		f.llm.Enqueue(llmtest.Script{Chunks: []string{"Part", "ial", "."}, CutAfter: 2})
		res, err := f.svc.Send(ctx, uid, SendInput{SessionID: &sid, Message: "Tell me more."}, nil)
		if err != nil || res.Status != StatusInterrupted {
			t.Fatalf("reply %+v %v, want an interrupted one", res, err)
		}
	})
	step("a retry, which removes the partial reply", func() {
		h = f.hold(1, "Whole ", "answer.")
		var err error
		if turn, err = f.svc.Retry(ctx, uid, sid, false); err != nil {
			t.Fatal(err)
		}
		within(t, h.paused, "the model to pause")
	})
	step("the retry's reply", func() {
		close(h.resume)
		follow(t, turn, nil)
	})
	step("a message and reply through another instance", func() {
		f.llm.Enqueue(llmtest.Script{Chunks: []string{"Noted."}})
		if _, err := other.Send(ctx, uid, SendInput{SessionID: &sid, Message: "From my phone."}, nil); err != nil {
			t.Fatal(err)
		}
	})
	step("ending", func() {
		if _, err := f.svc.End(ctx, uid, sid, ""); err != nil {
			t.Fatal(err)
		}
	})
	step("a closing feeling", func() {
		if _, err := other.End(ctx, uid, sid, "better"); err != nil {
			t.Fatal(err)
		}
	})
	step("the summary", func() {
		f.llm.Route(companion.SummaryInstructionPrefix, llmtest.Script{Chunks: []string{`{"summary":"You talked about a hard week.","emotions":["stress"]}`}})
		queuetest.Start(t, f.q)
		queuetest.Drain(t, f.q)
	})
	step("a role that sees no summaries", func() {
		if _, err := f.st.Pool().Exec(ctx, `UPDATE users SET role = 'USER' WHERE id = $1`, uid); err != nil {
			t.Fatal(err)
		}
	})
	step("the reply deadline passing", func() {
		// Not a write: reply_until is in the past once the clock passes it. Set one, through
		// an update of the row, and then let the clock pass it.
		if _, err := f.st.Pool().Exec(ctx, `UPDATE chat_sessions SET reply_until = $2 WHERE id = $1`, sid, f.now.Load().Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		if d := cachedDetail(t, f.svc, uid, sid); !d.ReplyInProgress {
			t.Fatal("a reply_until in the future is not a reply in progress")
		}
		f.advance(2 * time.Minute)
	})
}

// TestDetailCacheMissesAWriteThatBreaksTheInvariant shows what the invariant is for (and
// that TestDetailCacheSeesEveryWrite can fail): a message inserted without an update of its
// session is not seen by a warm cache, until the session row is updated.
func TestDetailCacheMissesAWriteThatBreaksTheInvariant(t *testing.T) {
	f := newFixture(t, false, nil)
	ctx := context.Background()
	uid := f.user(t, "USER")
	sid := f.newSession(t, uid)
	before := cachedDetail(t, f.svc, uid, sid)
	if _, err := f.st.Pool().Exec(ctx, `INSERT INTO messages (session_id, user_id, role, content) VALUES ($1, $2, 'user', 'behind its back')`, sid, uid); err != nil {
		t.Fatal(err)
	}
	if got := cachedDetail(t, f.svc, uid, sid); !sameDetail(got, before) {
		t.Fatalf("the cache saw a write that did not update the session: is it read at all?")
	}
	if _, err := f.st.Pool().Exec(ctx, `UPDATE chat_sessions SET title = title WHERE id = $1`, sid); err != nil {
		t.Fatal(err)
	}
	if got, want := cachedDetail(t, f.svc, uid, sid), f.detailFromTables(t, f.svc, uid, sid); !sameDetail(got, want) || len(got.Messages) != len(before.Messages)+1 {
		t.Fatalf("after the session's update: %s, want %s", describe(got), describe(want))
	}
}

// TestCachedDetailIsOnlyTheOwners: a cached session is still another user's 404, and a
// deleted one is a 404 that leaves nothing cached.
func TestCachedDetailIsOnlyTheOwners(t *testing.T) {
	f := newFixture(t, false, nil)
	ctx := context.Background()
	owner, intruder := f.user(t, "PREMIUM"), f.user(t, "PREMIUM")
	sid := f.newSession(t, owner)
	cachedDetail(t, f.svc, owner, sid)
	if _, err := f.svc.Detail(ctx, intruder, sid); !errors.Is(err, apperr.ErrNotFound) {
		t.Fatalf("another user's read of a cached session: %v, want not found", err)
	}
	cachedDetail(t, f.svc, owner, sid) // and the owner's entry is still there
	other := f.instance(t, Options{})
	if err := other.Delete(ctx, owner, sid); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Detail(ctx, owner, sid); !errors.Is(err, apperr.ErrNotFound) {
		t.Fatalf("a session deleted through another instance: %v, want not found", err)
	}
	if n := f.svc.details.Len(); n != 0 {
		t.Fatalf("%d sessions cached after the 404, want 0", n)
	}
	// Deleted through this instance, a session's messages are not kept a moment longer.
	sid = f.newSession(t, owner)
	cachedDetail(t, f.svc, owner, sid)
	if err := f.svc.Delete(ctx, owner, sid); err != nil {
		t.Fatal(err)
	}
	if n := f.svc.details.Len(); n != 0 {
		t.Fatalf("%d sessions cached after the session was deleted here, want 0", n)
	}
}

func TestDecideDetail(t *testing.T) {
	cases := []struct {
		name            string
		held, row, msgs int64
		found           bool
		want            detailSource
	}{
		{"nothing held", -1, 4, 4, true, readAndKeep},
		{"held and unchanged", 4, 4, 4, true, fromCache},
		{"held, changed", 4, 6, 6, true, readAndKeep},
		{"written between the statements", 4, 5, 6, true, readOnly},
		{"written between the statements, nothing held", -1, 0, 1, true, readOnly},
		// The row was read before a write and the messages statement saw the held version
		// again: impossible in one batch (snapshots only move forward), but the cache's
		// row and messages are of that version, so they are the answer.
		{"held version seen last", 4, 3, 4, true, fromCache},
		{"deleted between the statements", 4, 4, 0, false, readOnly},
	}
	for _, c := range cases {
		if got := decideDetail(c.held, c.row, c.msgs, c.found); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// The details are bounded by their estimated bytes (which entries go first
// is the cache library's choice, not tested here).
func TestDetailCacheStaysWithinItsBudget(t *testing.T) {
	entry := func(id uuid.UUID, version int64, text int) *detailEntry {
		return newDetailEntry(dbgen.ChatSession{ID: id, Version: version}, []Message{{Content: string(make([]byte, text))}})
	}
	c := newDetailCache(72 << 10) // nine of the entries below, not ten
	ids := make([]uuid.UUID, 10)
	for i := range ids {
		ids[i] = uuid.New()
		if !c.put(entry(ids[i], 1, 7<<10)) {
			t.Fatalf("entry %d not kept", i)
		}
	}
	if n, b := c.Len(), c.Bytes(); n >= len(ids) || b > c.MaxBytes() {
		t.Fatalf("%d entries of %d bytes cached, budget %d", n, b, c.MaxBytes())
	}
	var last uuid.UUID
	for _, id := range ids {
		if c.get(id) != nil {
			last = id
		}
	}
	if c.put(entry(last, 0, 1)) || c.get(last).version != 1 {
		t.Fatal("an older version replaced a newer one")
	}
	if c.put(entry(uuid.New(), 1, c.MaxBytes()/4)) {
		t.Fatal("an entry of a quarter of the budget was kept")
	}
	sum := 0
	for e := range c.Values() {
		sum += e.bytes()
	}
	if sum != c.Bytes() {
		t.Fatalf("size %d, entries sum to %d", c.Bytes(), sum)
	}
	off := newDetailCache(0)
	if off.put(entry(uuid.New(), 1, 1)) || off.Len() != 0 {
		t.Fatal("a cache of no bytes kept an entry")
	}
}
