package chat

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/llmtest"
	"github.com/percolate/percolate/backend/internal/queue/queuetest"
	"github.com/percolate/percolate/backend/internal/store"
)

// gate stands between a store and PostgreSQL, so a test can take the database away and
// bring it back on the same address, as a restart of the database does: Close cuts every
// connection and refuses new ones, Open accepts them again.
type gate struct {
	t       *testing.T
	addr    string
	network string // of the database
	target  string
	mu      sync.Mutex
	ln      net.Listener
	conns   []net.Conn
}

func newGate(t *testing.T, network, target string) *gate {
	t.Helper()
	g := &gate{t: t, addr: "127.0.0.1:0", network: network, target: target}
	g.Open()
	g.addr = g.ln.Addr().String()
	t.Cleanup(g.Close)
	return g
}

func (g *gate) Open() {
	g.t.Helper()
	ln, err := net.Listen("tcp", g.addr)
	if err != nil {
		g.t.Fatal(err)
	}
	g.mu.Lock()
	g.ln = ln
	g.mu.Unlock()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial(g.network, g.target)
			if err != nil {
				c.Close()
				continue
			}
			g.mu.Lock()
			g.conns = append(g.conns, c, up)
			g.mu.Unlock()
			go func() { _, _ = io.Copy(up, c); up.Close() }()
			go func() { _, _ = io.Copy(c, up); c.Close() }()
		}
	}()
}

func (g *gate) Close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.ln != nil {
		g.ln.Close()
	}
	for _, c := range g.conns {
		c.Close()
	}
	g.conns = nil
}

// storeThrough opens a store on the fixture's database through a gate.
func (f *fixture) storeThrough(t *testing.T) (*store.Store, *gate) {
	t.Helper()
	cc := f.st.Pool().Config().ConnConfig
	network, target := "tcp", net.JoinHostPort(cc.Host, fmt.Sprint(cc.Port))
	if strings.HasPrefix(cc.Host, "/") {
		network, target = "unix", filepath.Join(cc.Host, fmt.Sprintf(".s.PGSQL.%d", cc.Port))
	}
	g := newGate(t, network, target)
	u, err := url.Parse(f.st.Pool().Config().ConnString())
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Del("host")
	u.Host, u.RawQuery = g.addr, q.Encode()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, err := store.Open(ctx, u.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	return st, g
}

// signalHandler is a log handler that says when a record with a given message is written.
type signalHandler struct {
	slog.Handler
	msg  string
	seen chan struct{}
	once *sync.Once
}

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
	st, g := f.storeThrough(t)
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
