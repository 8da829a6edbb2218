package chat

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/llmtest"
	"github.com/percolate/percolate/backend/internal/entitlement"
	"github.com/percolate/percolate/backend/internal/queue/queuetest"
)

// within fails the test unless ch delivers before a generous deadline: the tests wait for
// states the code reports, and the deadline only turns a hang into a failure.
func within[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(30 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
		panic("unreachable")
	}
}

// held is a model reply that pauses after some chunks until the test resumes it.
type held struct {
	resume chan struct{}
	paused chan struct{}
	// sent is the text of the chunks sent before the pause.
	sent string
}

func (f *fixture) hold(after int, chunks ...string) *held {
	h := &held{resume: make(chan struct{}), paused: make(chan struct{}, 1)}
	if after > 0 && after <= len(chunks) {
		h.sent = strings.Join(chunks[:after], "")
	}
	f.llm.Enqueue(llmtest.Script{Chunks: chunks, PauseAfter: after, Resume: h.resume, Paused: h.paused})
	return h
}

// begin sends msg and returns the turn once the model has paused and the service has
// received what the model sent before the pause (the pause alone says only that it was sent).
func (f *fixture) begin(t *testing.T, svc *Service, uid, sid uuid.UUID, msg string, h *held) *Turn {
	t.Helper()
	turn, err := svc.Begin(context.Background(), uid, SendInput{SessionID: &sid, Message: msg})
	if err != nil {
		t.Fatal(err)
	}
	within(t, h.paused, "the model to pause")
	if h.sent != "" {
		arrived := make(chan struct{})
		go func() {
			var got strings.Builder
			var once sync.Once
			_, _ = turn.Follow(context.Background(), func(text string) error {
				if got.WriteString(text); got.String() == h.sent {
					once.Do(func() { close(arrived) })
				}
				return nil
			})
		}()
		within(t, arrived, "the text sent before the pause")
	}
	return turn
}

// received follows the turn in the background once its first text has reached the service
// (the model pausing says only that it sent it), and returns the channel of its result.
func received(t *testing.T, turn *Turn) <-chan SendResult {
	t.Helper()
	first := make(chan struct{})
	var once sync.Once
	done := make(chan SendResult, 1)
	go func() {
		res, err := turn.Follow(context.Background(), func(text string) error {
			if text != "" {
				once.Do(func() { close(first) })
			}
			return nil
		})
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	within(t, first, "the reply's first text")
	return done
}

// follow waits for the turn's stored reply.
func follow(t *testing.T, f interface {
	Follow(context.Context, func(string) error) (SendResult, error)
}, onDelta func(string) error) SendResult {
	t.Helper()
	done := make(chan SendResult, 1)
	go func() {
		res, err := f.Follow(context.Background(), onDelta)
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	return within(t, done, "the stored reply")
}

func (f *fixture) lastMessages(t *testing.T, uid, sid uuid.UUID) Detail {
	t.Helper()
	d, err := f.svc.Detail(context.Background(), uid, sid)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestReplyIsStoredWhenTheClientGoesAway(t *testing.T) {
	f := newFixture(t, true, nil)
	uid := f.user(t, "USER")
	sid := f.newSession(t, uid)
	h := f.hold(1, "One ", "two ", "three.")
	ctx, leave := context.WithCancel(context.Background())
	turn, err := f.svc.Begin(ctx, uid, SendInput{SessionID: &sid, Message: "count for me"})
	if err != nil {
		t.Fatal(err)
	}
	// The client reads the first piece, then the tab is closed.
	_, err = turn.Follow(ctx, func(string) error { leave(); return errors.New("connection reset") })
	if err == nil {
		t.Fatal("Follow did not report the client leaving")
	}
	within(t, h.paused, "the model to pause")
	close(h.resume)
	res := follow(t, turn, nil)
	if !res.Success || res.AIResponse != "One two three." || res.Status != StatusComplete {
		t.Fatalf("result = %+v", res)
	}
	d := f.lastMessages(t, uid, sid)
	last := d.Messages[len(d.Messages)-1]
	if last.Role != "assistant" || last.Content != "One two three." || last.Status != StatusComplete || d.ReplyInProgress {
		t.Fatalf("stored = %+v, in progress %v", last, d.ReplyInProgress)
	}
}

func TestReattachOnTheSameInstance(t *testing.T) {
	f := newFixture(t, true, nil)
	uid := f.user(t, "USER")
	sid := f.newSession(t, uid)
	h := f.hold(2, "One ", "two ", "three ", "four.")
	f.begin(t, f.svc, uid, sid, "count for me", h)
	if d := f.lastMessages(t, uid, sid); !d.ReplyInProgress {
		t.Fatal("detail does not show the reply in progress")
	}
	a, err := f.svc.Attach(context.Background(), uid, sid)
	if err != nil || a == nil {
		t.Fatalf("attach: %v %v", a, err)
	}
	var mu sync.Mutex
	var deltas []string
	first := make(chan struct{})
	done := make(chan SendResult, 1)
	go func() {
		res, _ := a.Follow(context.Background(), func(s string) error {
			mu.Lock()
			defer mu.Unlock()
			if deltas = append(deltas, s); len(deltas) == 1 {
				close(first)
			}
			return nil
		})
		done <- res
	}()
	within(t, first, "the text so far")
	close(h.resume)
	res := within(t, done, "the stored reply")
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(deltas, "|") != "One two |three |four." {
		t.Fatalf("deltas = %q: want the text so far as one piece, then the rest", deltas)
	}
	if !res.Success || res.AIResponse != "One two three four." {
		t.Fatalf("result = %+v", res)
	}
	if a, err := f.svc.Attach(context.Background(), uid, sid); a != nil || err != nil {
		t.Fatalf("attach after the reply: %v %v, want nothing in progress", a, err)
	}
}

func TestReattachOnAnotherInstanceWaitsForTheStoredReply(t *testing.T) {
	for _, c := range []struct {
		name string
		opts Options
		// listen: the instance hears the notification; otherwise it must find the stored
		// reply by polling.
		listen bool
	}{
		{name: "notified", opts: Options{PollInterval: time.Hour}, listen: true},
		{name: "polling", opts: Options{PollInterval: 20 * time.Millisecond}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, true, nil)
			var other *Service
			if c.listen {
				other = f.instance(t, c.opts)
			} else {
				opts := c.opts
				opts.Limits, opts.Logger, opts.Now = f.limits, quiet, func() time.Time { return *f.now.Load() }
				opts.Queue = queuetest.New(t, f.st)
				other = New(f.st, f.provider, opts) // never started: it does not listen
			}
			uid := f.user(t, "USER")
			sid := f.newSession(t, uid)
			h := f.hold(1, "Hello ", "from ", "the other instance.")
			f.begin(t, f.svc, uid, sid, "hi", h)
			d, err := other.Detail(context.Background(), uid, sid)
			if err != nil || !d.ReplyInProgress {
				t.Fatalf("other instance's detail: in progress %v, %v", d.ReplyInProgress, err)
			}
			a, err := other.Attach(context.Background(), uid, sid)
			if err != nil || a == nil || a.live != nil {
				t.Fatalf("attach on the other instance: %+v %v", a, err)
			}
			var deltas []string
			done := make(chan SendResult, 1)
			go func() {
				res, _ := a.Follow(context.Background(), func(s string) error { deltas = append(deltas, s); return nil })
				done <- res
			}()
			close(h.resume)
			res := within(t, done, "the other instance to see the stored reply")
			if len(deltas) != 1 || deltas[0] != "Hello from the other instance." || !res.Success || res.AIResponse != deltas[0] || res.SessionID != sid {
				t.Fatalf("deltas %q, result %+v", deltas, res)
			}
		})
	}
}

func TestAttachWithNothingInProgress(t *testing.T) {
	f := newFixture(t, false, nil)
	uid := f.user(t, "USER")
	sid := f.newSession(t, uid)
	if a, err := f.svc.Attach(context.Background(), uid, sid); a != nil || err != nil {
		t.Fatalf("attach = %v %v, want nothing in progress", a, err)
	}
	if _, err := f.svc.Attach(context.Background(), uid, uuid.New()); !errors.Is(err, apperr.ErrNotFound) {
		t.Fatalf("unknown session: %v", err)
	}
}

func TestNewCallsOnAnotherUsersSessionAreNotFoundAndChangeNothing(t *testing.T) {
	f := newFixture(t, true, nil)
	owner, other := f.user(t, "USER"), f.user(t, "USER")
	sid := f.newSession(t, owner)
	h := f.hold(1, "Still ", "mine.")
	turn := f.begin(t, f.svc, owner, sid, "private", h)
	ctx := context.Background()
	if _, err := f.svc.Attach(ctx, other, sid); !errors.Is(err, apperr.ErrNotFound) {
		t.Errorf("Attach: %v", err)
	}
	if _, _, err := f.svc.Stop(ctx, other, sid); !errors.Is(err, apperr.ErrNotFound) {
		t.Errorf("Stop: %v", err)
	}
	if _, err := f.svc.Retry(ctx, other, sid, false); !errors.Is(err, apperr.ErrNotFound) {
		t.Errorf("Retry: %v", err)
	}
	close(h.resume)
	if res := follow(t, turn, nil); !res.Success || res.Stopped || res.AIResponse != "Still mine." {
		t.Fatalf("the owner's reply was disturbed: %+v", res)
	}
	if n := f.usage(t, other, usageKindMessages); n != 0 {
		t.Fatalf("the intruder's quota moved: %d", n)
	}
}

func TestStopFromAnotherInstanceStoresWhatArrived(t *testing.T) {
	f := newFixture(t, true, nil)
	other := f.instance(t, Options{PollInterval: time.Hour})
	uid := f.user(t, "USER")
	sid := f.newSession(t, uid)
	h := f.hold(2, "Half ", "an ", "answer ", "never sent.")
	turn := f.begin(t, f.svc, uid, sid, "tell me", h)

	stopped := make(chan *Message, 1)
	go func() {
		m, inProgress, err := other.Stop(context.Background(), uid, sid)
		if err != nil || !inProgress {
			t.Errorf("stop: %v %v", inProgress, err)
		}
		stopped <- m
	}()
	m := within(t, stopped, "the stop")
	if m == nil || m.Content != "Half an " || m.Status != StatusStopped || m.Role != "assistant" {
		t.Fatalf("stopped reply = %+v", m)
	}
	res := follow(t, turn, nil)
	if !res.Success || !res.Stopped || res.Status != StatusStopped || res.AIResponse != "Half an " {
		t.Fatalf("result = %+v", res)
	}
	d := f.lastMessages(t, uid, sid)
	if d.ReplyInProgress || d.Messages[len(d.Messages)-1].Status != StatusStopped {
		t.Fatalf("detail = %+v", d)
	}
	// A stopped reply with text counts as a reply.
	if n := f.usage(t, uid, usageKindMessages); n != 2 {
		t.Fatalf("daily count = %d, want 2", n)
	}
	if _, inProgress, err := other.Stop(context.Background(), uid, sid); inProgress || err != nil {
		t.Fatalf("second stop: %v %v, want nothing in progress", inProgress, err)
	}
}

func TestStopBeforeAnyTextLeavesTheMessageFreeToRetry(t *testing.T) {
	f := newFixture(t, true, nil)
	uid := f.user(t, "USER")
	sid := f.newSession(t, uid)
	h := f.hold(llmtest.PauseImmediately, "never ", "sent")
	turn := f.begin(t, f.svc, uid, sid, "tell me", h)
	m, inProgress, err := f.svc.Stop(context.Background(), uid, sid)
	if err != nil || !inProgress || m != nil {
		t.Fatalf("stop = %+v %v %v", m, inProgress, err)
	}
	res := follow(t, turn, nil)
	if res.Success || !res.Stopped || res.Error != MsgReplyStopped {
		t.Fatalf("result = %+v", res)
	}
	if n := f.usage(t, uid, usageKindMessages); n != 1 {
		t.Fatalf("daily count = %d: a reply stopped before any text must not count", n)
	}
	f.llm.Enqueue(llmtest.Script{Chunks: []string{"Here it is."}})
	retried, err := f.svc.Retry(context.Background(), uid, sid, false)
	if err != nil {
		t.Fatal(err)
	}
	if res := follow(t, retried, nil); !res.Success || res.AIResponse != "Here it is." {
		t.Fatalf("retry = %+v", res)
	}
	d := f.lastMessages(t, uid, sid)
	if n := countContent(d, "tell me"); n != 1 || d.Messages[len(d.Messages)-1].Content != "Here it is." {
		t.Fatalf("messages = %+v", d.Messages)
	}
}

func countContent(d Detail, content string) int {
	n := 0
	for _, m := range d.Messages {
		if m.Content == content {
			n++
		}
	}
	return n
}

func TestRetryAnswersTheSavedMessageOnce(t *testing.T) {
	f := newFixture(t, true, nil)
	uid := f.user(t, "USER")
	sid := f.newSession(t, uid)
	ctx := context.Background()

	// A reply cut part-way is stored as interrupted, and the retry replaces it.
	f.llm.Enqueue(llmtest.Script{Chunks: []string{"Part ", "of it ", "lost"}, CutAfter: 2})
	res, err := f.svc.Send(ctx, uid, SendInput{SessionID: &sid, Message: "What should I do?"}, nil)
	if err != nil || res.Success {
		t.Fatalf("send = %+v %v", res, err)
	}
	f.llm.Enqueue(llmtest.Script{Chunks: []string{"Try one ", "small step."}, CompletionTokens: 4})
	var deltas []string
	turn, err := f.svc.Retry(ctx, uid, sid, false)
	if err != nil {
		t.Fatal(err)
	}
	res = follow(t, turn, func(s string) error { deltas = append(deltas, s); return nil })
	if !res.Success || res.AIResponse != "Try one small step." || strings.Join(deltas, "|") != "Try one |small step." {
		t.Fatalf("retry = %+v, deltas %q", res, deltas)
	}
	d := f.lastMessages(t, uid, sid)
	if n := countContent(d, "What should I do?"); n != 1 {
		t.Fatalf("the message is stored %d times", n)
	}
	for _, m := range d.Messages {
		if m.Status != StatusComplete {
			t.Fatalf("the interrupted reply was kept: %+v", d.Messages)
		}
	}
	if want := companion.EstimateTokens("What should I do?") + 4; d.TokensUsed != want {
		t.Fatalf("tokens used = %d, want %d (the partial reply's tokens go with it)", d.TokensUsed, want)
	}
	// The retried model request carried the saved message, and not the partial reply.
	reqs := f.llm.Requests()
	msgs := reqs[len(reqs)-1].Messages
	if msgs[len(msgs)-1].Content != "What should I do?" || strings.Contains(msgs[len(msgs)-2].Content, "Part of it") {
		t.Fatalf("retry prompt = %+v", msgs)
	}
	// Failed once (given back), answered once: one use of the daily limit for the message.
	if n := f.usage(t, uid, usageKindMessages); n != 2 {
		t.Fatalf("daily count = %d, want 2", n)
	}

	var coded *apperr.Error
	if _, err := f.svc.Retry(ctx, uid, sid, false); !errors.As(err, &coded) || coded.Code != "ALREADY_ANSWERED" || !errors.Is(err, apperr.ErrConflict) {
		t.Fatalf("retry of an answered message: %v", err)
	}
	if _, err := f.svc.Retry(ctx, uid, uuid.New(), false); !errors.Is(err, apperr.ErrNotFound) {
		t.Fatalf("retry in an unknown session: %v", err)
	}
	if _, err := f.svc.End(ctx, uid, sid, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Retry(ctx, uid, sid, false); !errors.As(err, &coded) || coded.Code != "CONFLICT" {
		t.Fatalf("retry in an ended session: %v", err)
	}
}

func TestNoSendOrRetryWhileAReplyIsInProgress(t *testing.T) {
	f := newFixture(t, true, nil)
	uid := f.user(t, "USER")
	sid := f.newSession(t, uid)
	h := f.hold(1, "Wait ", "for me.")
	turn := f.begin(t, f.svc, uid, sid, "first", h)
	ctx := context.Background()
	var coded *apperr.Error
	if _, err := f.svc.Send(ctx, uid, SendInput{SessionID: &sid, Message: "second"}, nil); !errors.As(err, &coded) || coded.Code != "REPLY_IN_PROGRESS" {
		t.Fatalf("send: %v", err)
	}
	if _, err := f.svc.Retry(ctx, uid, sid, false); !errors.As(err, &coded) || coded.Code != "REPLY_IN_PROGRESS" {
		t.Fatalf("retry: %v", err)
	}
	close(h.resume)
	follow(t, turn, nil)
	if d := f.lastMessages(t, uid, sid); countContent(d, "second") != 0 {
		t.Fatal("a refused message was stored")
	}
	// The refusals used none of the quota: the opening and "first".
	if n := f.usage(t, uid, usageKindMessages); n != 2 {
		t.Fatalf("daily count = %d, want 2", n)
	}
}

func TestAFailedReplyGivesItsQuotaBack(t *testing.T) {
	lim := DefaultLimits()
	lim.Tiers = lim.Tiers.With(entitlement.Overrides{MessagesPerDay: map[string]int{"USER": 2}})
	f := newFixture(t, true, &lim)
	uid := f.user(t, "USER")
	sid := f.newSession(t, uid) // 1 of 2
	ctx := context.Background()
	for i := 0; i < 3; i++ {
		f.llm.Enqueue(llmtest.Script{Fail: 500}, llmtest.Script{Fail: 500})
		res, err := f.svc.Send(ctx, uid, SendInput{SessionID: &sid, Message: "are you there?"}, nil)
		if err != nil || res.Success {
			t.Fatalf("failed send %d: %+v %v", i, res, err)
		}
	}
	// Three failed replies later, the last message of the day is still there to use.
	if res, err := f.svc.Send(ctx, uid, SendInput{SessionID: &sid, Message: "now?"}, nil); err != nil || !res.Success {
		t.Fatalf("send after failures: %+v %v", res, err)
	}
	var lerr *apperr.LimitError
	if _, err := f.svc.Send(ctx, uid, SendInput{SessionID: &sid, Message: "one more"}, nil); !errors.As(err, &lerr) {
		t.Fatalf("over the limit: %v", err)
	}
}

func TestStalledModelFailsWithoutRetryButAFailedConnectionIsTriedAgain(t *testing.T) {
	f := newStallFixture(t, nil) // the model's stall timeout is stallTimeout
	uid := f.user(t, "USER")
	sid := f.newSession(t, uid)
	ctx := context.Background()

	f.llm.Enqueue(llmtest.Script{StallAfter: llmtest.StallImmediately})
	res, err := f.svc.Send(ctx, uid, SendInput{SessionID: &sid, Message: "hello?"}, nil)
	if err != nil || res.Success || res.Error != MsgModelFailed {
		t.Fatalf("stalled: %+v %v", res, err)
	}
	if n := f.llm.RequestCount(); n != 1 {
		t.Fatalf("%d model requests after a stall, want 1 (no retry)", n)
	}

	// A connection dropped before any byte is tried once more: the queued reply answers.
	f.llm.Enqueue(llmtest.Script{CutAfter: llmtest.CutImmediately}, llmtest.Script{Chunks: []string{"too late"}})
	turn, err := f.svc.Retry(ctx, uid, sid, false)
	if err != nil {
		t.Fatal(err)
	}
	if res := follow(t, turn, nil); !res.Success || res.AIResponse != "too late" {
		t.Fatalf("retried connection: %+v", res)
	}
	if n := f.llm.RequestCount(); n != 3 {
		t.Fatalf("%d model requests, want 3", n)
	}

	// Only once.
	f.llm.Enqueue(llmtest.Script{CutAfter: llmtest.CutImmediately}, llmtest.Script{CutAfter: llmtest.CutImmediately}, llmtest.Script{Chunks: []string{"unused"}})
	res, err = f.svc.Send(ctx, uid, SendInput{SessionID: &sid, Message: "and now?"}, nil)
	if err != nil || res.Success {
		t.Fatalf("twice dropped: %+v %v", res, err)
	}
	if n := f.llm.RequestCount(); n != 5 {
		t.Fatalf("%d model requests, want 5", n)
	}
}

func TestShutdownStoresAnUnfinishedReplyAsInterrupted(t *testing.T) {
	f := newFixture(t, true, nil)
	uid := f.user(t, "USER")
	sid := f.newSession(t, uid)
	h := f.hold(1, "Cut ", "by the restart.")
	turn := f.begin(t, f.svc, uid, sid, "hi", h)
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the grace is over: stop what is in progress
	f.svc.Shutdown(ctx)
	res := follow(t, turn, nil)
	if res.Success || res.Status != StatusInterrupted || res.Error != MsgModelFailed {
		t.Fatalf("result = %+v", res)
	}
	d := f.lastMessages(t, uid, sid)
	if last := d.Messages[len(d.Messages)-1]; last.Content != "Cut " || last.Status != StatusInterrupted || d.ReplyInProgress {
		t.Fatalf("stored = %+v", d.Messages)
	}
	if _, err := f.svc.Begin(context.Background(), uid, SendInput{SessionID: &sid, Message: "again"}); !errors.Is(err, apperr.ErrUnavailable) {
		t.Fatalf("send during shutdown: %v", err)
	}
}

func TestShutdownLetsAReplyFinishWithinTheGrace(t *testing.T) {
	f := newFixture(t, true, nil)
	uid := f.user(t, "USER")
	sid := f.newSession(t, uid)
	h := f.hold(1, "Finished ", "in time.")
	turn := f.begin(t, f.svc, uid, sid, "hi", h)
	done := make(chan struct{})
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		f.svc.Shutdown(ctx)
		close(done)
	}()
	// Once the service refuses new sends, it is shutting down; then the model finishes.
	for {
		f.svc.replies.mu.Lock()
		closing := f.svc.replies.closing
		f.svc.replies.mu.Unlock()
		if closing {
			break
		}
		time.Sleep(time.Millisecond)
	}
	close(h.resume)
	within(t, done, "the shutdown")
	if res := follow(t, turn, nil); !res.Success || res.AIResponse != "Finished in time." {
		t.Fatalf("result = %+v", res)
	}
}

func TestPlainSendDoesNotPaceWords(t *testing.T) {
	f := newFixture(t, false, nil)
	// An offline engine that would take an hour a word if it paced this reply.
	slow := New(f.st, &companion.Offline{WordDelay: time.Hour}, Options{Queue: queuetest.New(t, f.st), Logger: quiet})
	uid := f.user(t, "USER")
	sid := f.newSession(t, uid)
	done := make(chan SendResult, 1)
	go func() {
		res, err := slow.Send(context.Background(), uid, SendInput{SessionID: &sid, Message: "I feel a bit anxious today."}, nil)
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	if res := within(t, done, "an unpaced reply"); !res.Success || len(strings.Fields(res.AIResponse)) < 10 {
		t.Fatalf("result = %+v", res)
	}
}

func TestStreamedOfflineReplyIsPaced(t *testing.T) {
	f := newFixture(t, false, nil)
	const delay = 20 * time.Millisecond
	paced := New(f.st, &companion.Offline{WordDelay: delay}, Options{Queue: queuetest.New(t, f.st), Logger: quiet})
	uid := f.user(t, "USER")
	sid := f.newSession(t, uid)
	var at []time.Time
	res, err := paced.Send(context.Background(), uid, SendInput{SessionID: &sid, Message: "I feel a bit anxious today.", Paced: true},
		func(string) error { at = append(at, time.Now()); return nil })
	if err != nil || !res.Success {
		t.Fatal(res, err)
	}
	// Each word waits the delay; the first few may arrive together, written while the message
	// was being committed, so half the total is a safe lower bound that only pacing meets.
	if n := len(at); n < 10 || at[n-1].Sub(at[0]) < time.Duration(n-1)*delay/2 {
		t.Fatalf("%d words in %v: not paced", n, at[n-1].Sub(at[0]))
	}
}

func TestAFailedCommitCancelsTheReplyAndStoresNothing(t *testing.T) {
	lim := DefaultLimits()
	lim.MaxMessageChars = 30000 // past the database's own limit, so that the insert fails
	f := newFixture(t, true, &lim)
	// Asked, the model would wait longer than the test: only a cancelled request ends it.
	f.provider = companion.NewOpenAIWithConfig(f.llm.ClientConfig(), "test-model", companion.OpenAIOptions{IdleTimeout: time.Hour})
	svc := f.instance(t, Options{})
	uid := f.user(t, "USER")
	sid := f.newSession(t, uid)
	f.hold(llmtest.PauseImmediately, "never shown")
	turn, err := svc.Begin(context.Background(), uid, SendInput{SessionID: &sid, Message: strings.Repeat("a", 25000)})
	if err == nil || turn != nil {
		t.Fatalf("begin = %v, %v: want the failed commit's error and no turn to follow", turn, err)
	}
	ended := make(chan struct{})
	go func() {
		svc.replies.wg.Wait()
		close(ended)
	}()
	within(t, ended, "the discarded reply to end")
	d := f.lastMessages(t, uid, sid)
	if len(d.Messages) != 2 || d.ReplyInProgress {
		t.Fatalf("after a failed commit: %d messages, in progress %v", len(d.Messages), d.ReplyInProgress)
	}
	if n := f.usage(t, uid, usageKindMessages); n != 1 {
		t.Fatalf("daily count = %d, want 1", n)
	}
}

// FollowFlushing flushes what it passed on before it waits for more: the text sent before a
// pause is flushed during the pause, not when the reply goes on.
func TestFollowFlushingFlushesBeforeItWaits(t *testing.T) {
	f := newFixture(t, true, nil)
	uid := f.user(t, "USER")
	sid := f.newSession(t, uid)
	h := f.hold(1, "One ", "two.")
	turn, err := f.svc.Begin(context.Background(), uid, SendInput{SessionID: &sid, Message: "count for me"})
	if err != nil {
		t.Fatal(err)
	}
	within(t, h.paused, "the model to pause")
	var mu sync.Mutex
	var got, flushed strings.Builder
	flushedOne := make(chan struct{})
	var once sync.Once
	done := make(chan SendResult, 1)
	go func() {
		res, err := turn.FollowFlushing(context.Background(), func(text string) error {
			mu.Lock()
			defer mu.Unlock()
			got.WriteString(text)
			return nil
		}, func() error {
			mu.Lock()
			defer mu.Unlock()
			flushed.Reset()
			flushed.WriteString(got.String())
			if flushed.String() == "One " {
				once.Do(func() { close(flushedOne) })
			}
			return nil
		})
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	within(t, flushedOne, "the text before the pause to be flushed")
	close(h.resume)
	if res := within(t, done, "the stored reply"); !res.Success || res.AIResponse != "One two." {
		t.Fatalf("result %+v", res)
	}
}
