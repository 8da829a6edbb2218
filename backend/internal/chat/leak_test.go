package chat

import (
	"context"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/llmtest"
	"github.com/percolate/percolate/backend/internal/queue/queuetest"
)

// TestModelFaultsLeaveNoGoroutineBehind runs a service through every way a reply can end
// badly (stall, cut, garbage, errors, a client leaving, a stop, a shutdown cutting a reply)
// and checks that, once shut down, nothing it started is still running.
func TestModelFaultsLeaveNoGoroutineBehind(t *testing.T) {
	f := newStallFixture(t, nil)
	uid := f.user(t, "USER")
	sid := f.newSession(t, uid)
	// Pooled HTTP and database connections may stay open between requests (an idle one, such
	// as the safety signal's, waits in a read under its readLoop); they are not the service's
	// goroutines.
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent(),
		goleak.IgnoreAnyFunction("net/http.(*persistConn).readLoop"),
		goleak.IgnoreAnyFunction("net/http.(*persistConn).writeLoop"),
		goleak.IgnoreAnyFunction("net/http.(*conn).serve"),
	)
	start := func(p companion.Provider) *Service {
		svc := New(f.st, p, Options{Queue: queuetest.New(t, f.st), Limits: f.limits, Logger: quiet, Now: func() time.Time { return *f.now.Load() }})
		svc.Start()
		return svc
	}
	svc := start(f.provider) // its model stalls after stallTimeout
	ctx := context.Background()
	send := func(msg string) SendResult {
		t.Helper()
		res, err := svc.Send(ctx, uid, SendInput{SessionID: &sid, Message: msg}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	for _, sc := range []llmtest.Script{
		{StallAfter: llmtest.StallImmediately},
		{Chunks: []string{"a", "b"}, StallAfter: 1},
		{Chunks: []string{"a", "b", "c"}, CutAfter: 2},
		{Chunks: []string{"a", "b"}, Garbage: true},
		{Fail: 401},
	} {
		f.llm.Enqueue(sc)
		if res := send("fault"); res.Success {
			t.Fatalf("%+v answered: %+v", sc, res)
		}
	}
	// The replies held below must not stall while the test leaves, stops and shuts down on
	// a loaded machine: another service, whose model waits heldStall, takes them.
	svc.Shutdown(ctx)
	svc = start(companion.NewOpenAIWithConfig(f.llm.ClientConfig(), "test-model", companion.OpenAIOptions{IdleTimeout: heldStall}))
	// A client that leaves half-way.
	h := f.hold(1, "one ", "two")
	leave, cancel := context.WithCancel(ctx)
	turn, err := svc.Begin(leave, uid, SendInput{SessionID: &sid, Message: "leaving"})
	if err != nil {
		t.Fatal(err)
	}
	within(t, h.paused, "the model to pause")
	cancel()
	close(h.resume)
	follow(t, turn, nil)
	// A stop.
	h = f.hold(1, "one ", "two")
	turn, err = svc.Begin(ctx, uid, SendInput{SessionID: &sid, Message: "stop me"})
	if err != nil {
		t.Fatal(err)
	}
	within(t, h.paused, "the model to pause")
	if _, _, err := svc.Stop(ctx, uid, sid); err != nil {
		t.Fatal(err)
	}
	follow(t, turn, nil)
	// A shutdown that cuts a reply.
	h = f.hold(1, "one ", "two")
	turn, err = svc.Begin(ctx, uid, SendInput{SessionID: &sid, Message: "cut me"})
	if err != nil {
		t.Fatal(err)
	}
	within(t, h.paused, "the model to pause")
	result := received(t, turn)
	ended, end := context.WithCancel(ctx)
	end()
	svc.Shutdown(ended)
	if res := within(t, result, "the stored reply"); res.Status != StatusInterrupted {
		t.Fatalf("cut by the shutdown: %+v", res)
	}
}
