package chat

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/llmtest"
	"github.com/percolate/percolate/backend/internal/queue/queuetest"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
)

// signalHandler is a log handler that says when a record with a given message is written.
type signalHandler struct {
	slog.Handler
	msg  string
	seen chan struct{}
	once *sync.Once
}

// Enabled takes every record: the handler it wraps discards them all, and would otherwise
// say so before Handle saw the one awaited.
func (h signalHandler) Enabled(context.Context, slog.Level) bool { return true }

func (h signalHandler) Handle(ctx context.Context, r slog.Record) error {
	if r.Message == h.msg {
		h.once.Do(func() { close(h.seen) })
	}
	return h.Handler.Handle(ctx, r)
}

// TestAReplyWhoseStoreMeetsAnOutageIsStoredWhenTheDatabaseIsBack: the message is committed,
// the database goes away while the model writes the reply, and comes back. The reply is
// stored then, its caller gets it, and the session takes the next message; before, the
// store was given up at once and the session refused every message ("still replying") until
// the reply's whole deadline had passed.
func TestAReplyWhoseStoreMeetsAnOutageIsStoredWhenTheDatabaseIsBack(t *testing.T) {
	f := newFixture(t, true, nil)
	st, g := pgtest.Through(t, f.st.Pool().Config().ConnString())
	retried := signalHandler{Handler: quiet.Handler(), msg: "store reply: database unavailable, trying again", seen: make(chan struct{}), once: &sync.Once{}}
	svc := New(st, f.provider, Options{Queue: queuetest.New(t, f.st), Limits: f.limits, Logger: slog.New(retried), Now: func() time.Time { return *f.now.Load() }})
	svc.Start()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		svc.Shutdown(ctx)
	})
	uid := f.user(t, "USER")
	res, err := svc.Send(context.Background(), uid, SendInput{Message: StarterMessage}, nil)
	if err != nil || !res.Success {
		t.Fatalf("new session: %+v %v", res, err)
	}
	sid := res.SessionID

	h := f.hold(1, "Still ", "here.")
	turn := f.begin(t, svc, uid, sid, "are you there?", h)
	done := make(chan SendResult, 1)
	go func() {
		res, err := turn.Follow(context.Background(), nil)
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()

	g.Close() // the database goes away while the reply is written
	close(h.resume)
	within(t, retried.seen, "the reply's store to find the database unavailable")
	if d, err := f.svc.Detail(context.Background(), uid, sid); err != nil || !d.ReplyInProgress {
		t.Fatalf("during the outage: in progress %v (%v), want the reply still in progress", d.ReplyInProgress, err)
	}
	g.Open() // and comes back

	res = within(t, done, "the stored reply")
	if !res.Success || res.AIResponse != "Still here." {
		t.Fatalf("reply after the outage: %+v", res)
	}
	d := f.lastMessages(t, uid, sid)
	last := d.Messages[len(d.Messages)-1]
	if d.ReplyInProgress || last.Role != companion.RoleAssistant || last.Content != "Still here." {
		t.Fatalf("after the outage: in progress %v, last message %s %q", d.ReplyInProgress, last.Role, last.Content)
	}
	f.llm.Enqueue(llmtest.Script{Chunks: []string{"Welcome back."}})
	if res, err := svc.Send(context.Background(), uid, SendInput{SessionID: &sid, Message: "good"}, nil); err != nil || !res.Success {
		t.Fatalf("the next message: %+v %v", res, err)
	}
}
