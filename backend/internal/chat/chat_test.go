package chat

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river/rivertype"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/llmtest"
	"github.com/percolate/percolate/backend/internal/entitlement"
	"github.com/percolate/percolate/backend/internal/queue"
	"github.com/percolate/percolate/backend/internal/queue/queuetest"
	"github.com/percolate/percolate/backend/internal/store"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
	dbgen "github.com/percolate/percolate/gen/db"
)

var quiet = slog.New(slog.DiscardHandler)

type fixture struct {
	st       *store.Store
	q        *queue.Queue // not started: a test that runs the summaries starts it
	svc      *Service
	llm      *llmtest.Server
	now      atomic.Pointer[time.Time]
	provider companion.Provider
	limits   *Limits
}

// The model's stall timeout in a fixture. heldStall is longer than any test holds a reply
// (f.hold) while it sends, retries or reads, even on a loaded machine: with 300 ms, a hold
// that outlasted it failed the held reply. Tests of stalls take stallTimeout
// (newStallFixture), so that a stall fails at once.
const (
	heldStall    = time.Minute
	stallTimeout = 300 * time.Millisecond
)

// newFixture gives a service on a fresh database; with llm it talks to an llmtest server,
// otherwise to the offline engine (no delay).
func newFixture(t *testing.T, llm bool, limits *Limits) *fixture {
	t.Helper()
	return newFixtureStalling(t, llm, limits, heldStall)
}

// newStallFixture is newFixture with a model whose stall fails its reply after stallTimeout.
func newStallFixture(t *testing.T, limits *Limits) *fixture {
	t.Helper()
	return newFixtureStalling(t, true, limits, stallTimeout)
}

func newFixtureStalling(t *testing.T, llm bool, limits *Limits, stall time.Duration) *fixture {
	t.Helper()
	f := &fixture{st: pgtest.New(t)}
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	f.now.Store(&now)
	var p companion.Provider = &companion.Offline{}
	if llm {
		f.llm = llmtest.New(t)
		// Memory requests have their own answers (see memory_test.go), so that they never
		// take the scripts a test queued for replies and summaries.
		f.llm.Route(companion.MemoryInstructionPrefix, llmtest.Script{Chunks: []string{`{"memories":[]}`}})
		p = companion.NewOpenAIWithConfig(f.llm.ClientConfig(), "test-model", companion.OpenAIOptions{IdleTimeout: stall})
	}
	f.provider, f.limits = p, limits
	f.q = queuetest.New(t, f.st)
	f.svc = f.instance(t, Options{Queue: f.q})
	return f
}

// instance starts a chat service on the fixture's database, as another app instance would
// be, and shuts it down at the end of the test. opts.Limits, Logger and Now default to the
// fixture's.
func (f *fixture) instance(t *testing.T, opts Options) *Service {
	t.Helper()
	if opts.Limits == nil {
		opts.Limits = f.limits
	}
	opts.Logger, opts.Now = quiet, func() time.Time { return *f.now.Load() }
	if opts.Queue == nil {
		opts.Queue = queuetest.New(t, f.st) // each instance has its own queue client
	}
	svc := New(f.st, f.provider, opts)
	svc.Start()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		svc.Shutdown(ctx)
	})
	return svc
}

// usage is the user's count of a daily quota today.
func (f *fixture) usage(t *testing.T, uid uuid.UUID, kind string) int {
	t.Helper()
	var n int
	err := f.st.Pool().QueryRow(context.Background(),
		`SELECT COALESCE(sum(count), 0) FROM usage_counters WHERE user_id = $1 AND kind = $2 AND day = $3`, uid, kind, day(*f.now.Load())).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func (f *fixture) advance(d time.Duration) {
	n := f.now.Load().Add(d)
	f.now.Store(&n)
}

func (f *fixture) user(t *testing.T, role string) uuid.UUID {
	t.Helper()
	return pgtest.User(t, f.st, role).ID
}

func (f *fixture) setProfile(t *testing.T, id uuid.UUID, age int, focus, concerns, sensitive string) {
	t.Helper()
	_, err := f.st.Pool().Exec(context.Background(),
		`UPDATE users SET age = $2, focus_areas = $3, primary_concerns = $4, sensitive_topics = $5 WHERE id = $1`,
		id, age, focus, concerns, sensitive)
	if err != nil {
		t.Fatal(err)
	}
}

// open starts a new session of uid with the app's starter message; its reply is the welcome.
func (f *fixture) open(t *testing.T, uid uuid.UUID) SendResult {
	t.Helper()
	res, err := f.svc.Send(context.Background(), uid, SendInput{Message: StarterMessage}, nil)
	if err != nil || !res.Success {
		t.Fatalf("new session: %+v %v", res, err)
	}
	return res
}

func (f *fixture) newSession(t *testing.T, uid uuid.UUID) uuid.UUID {
	t.Helper()
	return f.open(t, uid).SessionID
}

func TestNewSessionRepliesWithWelcomeAndDisclosure(t *testing.T) {
	f := newFixture(t, true, nil)
	uid := f.user(t, "USER")
	var deltas []string
	res, err := f.svc.Send(context.Background(), uid, SendInput{Message: "  " + StarterMessage + " "}, func(s string) error { deltas = append(deltas, s); return nil })
	if err != nil {
		t.Fatal(err)
	}
	if !res.Success || res.SessionID == uuid.Nil || res.Title != DefaultTitle || res.TokensUsed != 0 || res.TokenLimit != 4000 || res.SessionEnded {
		t.Fatalf("result = %+v", res)
	}
	if !strings.Contains(res.AIResponse, "I'm an AI, not a person or a therapist") || strings.Join(deltas, "") != res.AIResponse {
		t.Fatalf("welcome = %q, deltas %q", res.AIResponse, deltas)
	}
	if len(f.llm.Requests()) != 0 {
		t.Fatal("the welcome must not call the model")
	}
	d, err := f.svc.Detail(context.Background(), uid, res.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Messages) != 2 || d.Messages[0].Role != "user" || d.Messages[0].Content != StarterMessage || d.Messages[1].Content != res.AIResponse {
		t.Fatalf("messages = %+v", d.Messages)
	}
	if !d.Active || d.Status != "ACTIVE" || d.Summary != nil {
		t.Fatalf("detail = %+v", d.Session)
	}
}

func TestSendStreamsModelReplyAndCountsUsage(t *testing.T) {
	f := newFixture(t, true, nil)
	uid := f.user(t, "BASIC")
	sid := f.newSession(t, uid)
	f.llm.Enqueue(llmtest.Script{Chunks: []string{"It ", "sounds ", "heavy", "."}, PromptTokens: 200, CompletionTokens: 9})
	var deltas []string
	msg := "Exams are stressing me out. I can't sleep."
	res, err := f.svc.Send(context.Background(), uid, SendInput{SessionID: &sid, Message: msg}, func(s string) error { deltas = append(deltas, s); return nil })
	if err != nil {
		t.Fatal(err)
	}
	if !res.Success || res.AIResponse != "It sounds heavy." || strings.Join(deltas, "|") != "It |sounds |heavy|." {
		t.Fatalf("res %+v deltas %q", res, deltas)
	}
	userTokens := companion.EstimateTokens(msg)
	if res.TokensUsed != userTokens+9 || res.TokenLimit != 8000 {
		t.Fatalf("tokens %d/%d, want %d/8000", res.TokensUsed, res.TokenLimit, userTokens+9)
	}
	if res.Title != "Exams are stressing me out" {
		t.Fatalf("title = %q", res.Title)
	}
	d, _ := f.svc.Detail(context.Background(), uid, sid)
	last := d.Messages[len(d.Messages)-1]
	if last.Role != "assistant" || last.TokenCount != 9 || d.Messages[len(d.Messages)-2].TokenCount != userTokens {
		t.Fatalf("messages = %+v", d.Messages)
	}
	if d.TokensUsed != res.TokensUsed || d.LastMessage != "It sounds heavy." {
		t.Fatalf("session = %+v", d.Session)
	}
	// Without usage from the model the count is an estimate.
	f.llm.Enqueue(llmtest.Script{Chunks: []string{"Tell me more about that."}, CompletionTokens: 0})
	res2, _ := f.svc.Send(context.Background(), uid, SendInput{SessionID: &sid, Message: "ok"}, nil)
	if !res2.Success || res2.TokensUsed <= res.TokensUsed {
		t.Fatalf("res2 = %+v", res2)
	}
}

func TestModelFailuresKeepTheUserMessage(t *testing.T) {
	cases := map[string]struct {
		scripts  []llmtest.Script
		partial  string // stored as an interrupted reply
		requests int
	}{
		"500s":    {scripts: []llmtest.Script{{Fail: 500}, {Fail: 500}}, requests: 2},
		"stall":   {scripts: []llmtest.Script{{Chunks: []string{"a", "b"}, StallAfter: 1}}, partial: "a", requests: 1},
		"garbage": {scripts: []llmtest.Script{{Chunks: []string{"a", "b"}, Garbage: true}}, partial: "a", requests: 1},
		"cut":     {scripts: []llmtest.Script{{Chunks: []string{"a", "b", "c"}, CutAfter: 2}}, partial: "ab", requests: 1},
		"401":     {scripts: []llmtest.Script{{Fail: 401}}, requests: 1},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			f := newStallFixture(t, nil)
			uid := f.user(t, "USER")
			sid := f.newSession(t, uid)
			f.llm.Enqueue(c.scripts...)
			res, err := f.svc.Send(context.Background(), uid, SendInput{SessionID: &sid, Message: "Please keep this message"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Success || res.Error != MsgModelFailed || res.SessionID != sid {
				t.Fatalf("res = %+v", res)
			}
			if got := f.llm.RequestCount(); got != c.requests {
				t.Errorf("%d model requests, want %d", got, c.requests)
			}
			d, _ := f.svc.Detail(context.Background(), uid, sid)
			msgs := d.Messages
			wantTokens := companion.EstimateTokens("Please keep this message")
			if c.partial != "" {
				last := msgs[len(msgs)-1]
				if last.Role != "assistant" || last.Content != c.partial || last.Status != StatusInterrupted || res.Status != StatusInterrupted {
					t.Fatalf("partial reply = %+v (result status %q)", last, res.Status)
				}
				msgs = msgs[:len(msgs)-1]
				wantTokens += last.TokenCount
			}
			last := msgs[len(msgs)-1]
			if last.Role != "user" || last.Content != "Please keep this message" {
				t.Fatalf("user message lost: %+v", d.Messages)
			}
			if d.TokensUsed != wantTokens || d.ReplyInProgress {
				t.Fatalf("tokens used = %d (want %d), in progress %v", d.TokensUsed, wantTokens, d.ReplyInProgress)
			}
			// No quota is charged for a failed reply: only the opening message counts.
			if n := f.usage(t, uid, usageKindMessages); n != 1 {
				t.Fatalf("daily count = %d after a failed reply, want 1", n)
			}
		})
	}
}

func TestPromptCarriesProfileAndHistory(t *testing.T) {
	f := newFixture(t, true, nil)
	uid := f.user(t, "USER")
	f.setProfile(t, uid, 17, "Sleep and focus", "exam anxiety", "my parents' divorce")
	sid := f.newSession(t, uid)
	if _, err := f.svc.Send(context.Background(), uid, SendInput{SessionID: &sid, Message: "First thing I said"}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Send(context.Background(), uid, SendInput{SessionID: &sid, Message: "Second thing"}, nil); err != nil {
		t.Fatal(err)
	}
	reqs := f.llm.Requests()
	last := reqs[len(reqs)-1]
	sys := last.Messages[0].Content
	for _, want := range []string{"Age: 17", "Sleep and focus", "exam anxiety", "my parents' divorce", "Never claim to be human"} {
		if !strings.Contains(sys, want) {
			t.Errorf("system prompt lacks %q:\n%s", want, sys)
		}
	}
	var contents []string
	for _, m := range last.Messages[1:] {
		contents = append(contents, m.Role+":"+m.Content)
	}
	joined := strings.Join(contents, "\n")
	if !strings.Contains(joined, "user:First thing I said") || !strings.HasSuffix(joined, "user:Second thing") {
		t.Fatalf("history = %s", joined)
	}
}

func TestOfflineEngineReplies(t *testing.T) {
	f := newFixture(t, false, nil)
	uid := f.user(t, "USER")
	f.setProfile(t, uid, 20, "confidence", "", "")
	sid := f.newSession(t, uid)
	var n int
	res, err := f.svc.Send(context.Background(), uid, SendInput{SessionID: &sid, Message: "I feel anxious about my presentation tomorrow."}, func(string) error { n++; return nil })
	if err != nil || !res.Success {
		t.Fatal(res, err)
	}
	if n < 10 || !strings.Contains(res.AIResponse, "anxiety") || !strings.Contains(res.AIResponse, "confidence") || strings.Count(res.AIResponse, "?") != 1 {
		t.Fatalf("offline reply (%d deltas) = %q", n, res.AIResponse)
	}
}

func TestValidation(t *testing.T) {
	f := newFixture(t, false, nil)
	uid := f.user(t, "USER")
	var verr *apperr.ValidationError
	for _, m := range []string{"", "   \n\t ", strings.Repeat("a", 4001)} {
		if _, err := f.svc.Send(context.Background(), uid, SendInput{Message: m}, nil); !errors.As(err, &verr) || verr.Fields["message"] == "" {
			t.Errorf("Send(%d chars) err = %v, want a validation error", len(m), err)
		}
	}
	if _, err := f.svc.Send(context.Background(), uid, SendInput{Message: strings.Repeat("a", 4000)}, nil); err != nil {
		t.Errorf("4000 characters refused: %v", err)
	}
	if _, err := f.svc.Send(context.Background(), uid, SendInput{SessionID: new(uuid.New()), Message: "hi"}, nil); !errors.Is(err, apperr.ErrNotFound) {
		t.Errorf("unknown session: %v", err)
	}
}

func TestDailyLimitSaysWhenItResets(t *testing.T) {
	lim := DefaultLimits()
	lim.Tiers = lim.Tiers.With(entitlement.Overrides{MessagesPerDay: map[string]int{"USER": 3, "BASIC": 5}})
	f := newFixture(t, false, &lim)
	uid := f.user(t, "USER")
	sid := f.newSession(t, uid)
	for i := 0; i < 2; i++ {
		if _, err := f.svc.Send(context.Background(), uid, SendInput{SessionID: &sid, Message: "hello"}, nil); err != nil {
			t.Fatal(err)
		}
	}
	_, err := f.svc.Send(context.Background(), uid, SendInput{SessionID: &sid, Message: "one too many"}, nil)
	var lerr *apperr.LimitError
	if !errors.As(err, &lerr) || lerr.RetryAfter != 12*time.Hour || !strings.Contains(lerr.Message, "It resets in 12 h.") { // issue 36: no "midnight UTC"
		t.Fatalf("err = %v", err)
	}
	d, _ := f.svc.Detail(context.Background(), uid, sid)
	for _, m := range d.Messages {
		if m.Content == "one too many" {
			t.Fatal("a refused message was stored")
		}
	}
	// The next day the quota is fresh.
	f.advance(12 * time.Hour)
	if _, err := f.svc.Send(context.Background(), uid, SendInput{SessionID: &sid, Message: "new day"}, nil); err != nil {
		t.Fatalf("next day: %v", err)
	}
}

func TestParallelSendsAtTheLimitAdmitExactlyTheLimit(t *testing.T) {
	lim := DefaultLimits()
	lim.Tiers = lim.Tiers.With(entitlement.Overrides{MessagesPerDay: map[string]int{"USER": 10}})
	lim.BurstPerMinute = 0 // the daily quota alone decides
	f := newFixture(t, false, &lim)
	uid := f.user(t, "USER")
	var ok, limited atomic.Int32
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			<-start
			_, err := f.svc.Send(context.Background(), uid, SendInput{Message: fmt.Sprintf("message %d", i)}, nil)
			var lerr *apperr.LimitError
			switch {
			case err == nil:
				ok.Add(1)
			case errors.As(err, &lerr):
				limited.Add(1)
			default:
				t.Error(err)
			}
		}(i)
	}
	close(start)
	wg.Wait()
	if ok.Load() != 10 || limited.Load() != 40 {
		t.Fatalf("admitted %d, limited %d; want 10 and 40", ok.Load(), limited.Load())
	}
	var stored int
	if err := f.st.Pool().QueryRow(context.Background(), `SELECT count(*) FROM messages WHERE user_id = $1 AND role = 'user'`, uid).Scan(&stored); err != nil || stored != 10 {
		t.Fatalf("stored %d user messages (%v), want 10", stored, err)
	}
}

func TestTokenLimitEndsTheSession(t *testing.T) {
	lim := DefaultLimits()
	lim.Tiers = lim.Tiers.With(entitlement.Overrides{SessionTokens: map[string]int{"USER": 40}})
	f := newFixture(t, true, &lim)
	uid := f.user(t, "USER")
	sid := f.newSession(t, uid)
	f.llm.Enqueue(llmtest.Script{Chunks: []string{"short"}, CompletionTokens: 5})
	res, err := f.svc.Send(context.Background(), uid, SendInput{SessionID: &sid, Message: "hello there"}, nil)
	if err != nil || res.SessionEnded {
		t.Fatalf("first: %+v %v", res, err)
	}
	f.llm.Enqueue(llmtest.Script{Chunks: []string{"a longer answer"}, CompletionTokens: 35})
	res, err = f.svc.Send(context.Background(), uid, SendInput{SessionID: &sid, Message: "tell me more"}, nil)
	if err != nil || !res.Success || !res.SessionEnded || res.EndReason != EndReasonTokenLimit || res.TokensUsed < 40 {
		t.Fatalf("second: %+v %v", res, err)
	}
	_, err = f.svc.Send(context.Background(), uid, SendInput{SessionID: &sid, Message: "still there?"}, nil)
	var coded *apperr.Error
	if !errors.Is(err, apperr.ErrConflict) || !errors.As(err, &coded) || coded.Message != MsgSessionEnded {
		t.Fatalf("send to ended session: %v", err)
	}
	if js := queuetest.Jobs(t, f.q, SummaryJobKind); len(js) != 1 {
		t.Fatalf("%d summary jobs, want 1", len(js))
	}
}

func TestEndQueuesSummaryJobRetriedAfterFailure(t *testing.T) {
	f := newFixture(t, true, nil)
	uid := f.user(t, "BASIC")
	sid := f.newSession(t, uid)
	f.llm.Enqueue(llmtest.Script{Chunks: []string{"I hear you."}})
	if _, err := f.svc.Send(context.Background(), uid, SendInput{SessionID: &sid, Message: "I'm anxious and tired."}, nil); err != nil {
		t.Fatal(err)
	}
	s, err := f.svc.End(context.Background(), uid, sid, "")
	if err != nil || s.Active || s.Status != "ENDED" || s.EndReason == nil || *s.EndReason != EndReasonUser || s.Summary != nil {
		t.Fatalf("end: %+v %v", s, err)
	}
	// Ending again is harmless and queues nothing more.
	if _, err := f.svc.End(context.Background(), uid, sid, ""); err != nil {
		t.Fatal(err)
	}
	f.llm.Enqueue(llmtest.Script{Fail: 500},
		llmtest.Script{Chunks: []string{`{"summary":"You felt anxious and tired. You took a moment to reflect.","emotions":["anxiety","tiredness","not-an-emotion"]}`}})
	queuetest.Start(t, f.q)
	queuetest.Drain(t, f.q)
	if n := summaryRequests(f.llm); n != 2 {
		t.Fatalf("the model was asked for %d summaries, want 2 (one failure, one retry)", n)
	}
	d, err := f.svc.Detail(context.Background(), uid, sid)
	if err != nil {
		t.Fatal(err)
	}
	if d.Summary == nil || *d.Summary != "You felt anxious and tired. You took a moment to reflect." || strings.Join(d.Emotions, ",") != "anxiety,tiredness" {
		t.Fatalf("detail = %+v", d.Session)
	}
	js := queuetest.Jobs(t, f.q, SummaryJobKind)
	if len(js) != 1 || js[0].Attempt != 2 || js[0].State != rivertype.JobStateCompleted {
		t.Fatalf("summary jobs %s, want one completed at its second attempt", describeJobs(js))
	}
}

func TestSummaryFallsBackToTheOfflineEngineOnItsLastAttempt(t *testing.T) {
	f := newFixture(t, true, nil)
	uid := f.user(t, "BASIC")
	sid := f.newSession(t, uid)
	f.llm.SetDefault(llmtest.Script{Fail: 500})
	if _, err := f.svc.End(context.Background(), uid, sid, ""); err != nil {
		t.Fatal(err)
	}
	queuetest.Start(t, f.q)
	queuetest.Drain(t, f.q)
	js := queuetest.Jobs(t, f.q, SummaryJobKind)
	if len(js) != 1 || js[0].State != rivertype.JobStateCompleted || js[0].Attempt != summaryAttempts {
		t.Fatalf("summary jobs %s, want one completed at attempt %d", describeJobs(js), summaryAttempts)
	}
	if n := summaryRequests(f.llm); n != summaryAttempts {
		t.Fatalf("the model was asked %d times, want %d", n, summaryAttempts)
	}
	d, err := f.svc.Detail(context.Background(), uid, sid)
	if err != nil || d.Summary == nil || *d.Summary == "" {
		t.Fatalf("no summary after the model failed every time: %+v %v", d.Session, err)
	}
}

// summaryRequests counts the model calls that asked for a summary.
func summaryRequests(llm *llmtest.Server) int {
	n := 0
	for _, r := range llm.Requests() {
		if len(r.Messages) > 0 && strings.HasPrefix(r.Messages[0].Content, "Summarise the conversation") {
			n++
		}
	}
	return n
}

func describeJobs(js []*rivertype.JobRow) string {
	var b strings.Builder
	for _, j := range js {
		fmt.Fprintf(&b, "[#%d %s attempt %d by %v] ", j.ID, j.State, j.Attempt, j.AttemptedBy)
	}
	return fmt.Sprintf("%d: %s", len(js), b.String())
}

// TestSummaryRunsOnceWithTwoInstances ends sessions with two app instances on one
// database (two River clients), both of which queue each summary, and expects one job, one
// model call and one summary per session.
func TestSummaryRunsOnceWithTwoInstances(t *testing.T) {
	f := newFixture(t, true, nil)
	f.llm.SetDefault(llmtest.Script{Chunks: []string{`{"summary":"You took a moment to reflect on your week.","emotions":["calm"]}`}})
	other := queuetest.NewWith(t, f.st, queue.Config{ID: "instance-b"})
	svc2 := New(f.st, f.svc.provider, Options{Queue: other, Logger: quiet})
	ctx := context.Background()
	uid := f.user(t, "BASIC")
	const sessions = 8
	var ids []uuid.UUID
	for i := range sessions {
		var sid uuid.UUID
		if err := f.st.Pool().QueryRow(ctx, `WITH s AS (INSERT INTO chat_sessions (user_id, title) VALUES ($1, 'Week') RETURNING id)
			INSERT INTO messages (session_id, user_id, role, content) SELECT id, $1, 'user', 'A long week of exams.' FROM s RETURNING session_id`, uid).Scan(&sid); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, sid)
		ender, asker := f.svc, svc2
		if i%2 == 1 {
			ender, asker = svc2, f.svc
		}
		if _, err := ender.End(ctx, uid, sid, ""); err != nil {
			t.Fatal(err)
		}
		// The other instance asks for the same summary: still one job.
		err := f.st.InTx(ctx, func(tx store.Tx) error {
			return asker.queueSummary(ctx, tx, dbgen.ChatSession{ID: sid, UserID: uid})
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	queuetest.Start(t, f.q)
	queuetest.Start(t, other)
	queuetest.Drain(t, f.q)

	js := queuetest.Jobs(t, f.q, SummaryJobKind)
	if len(js) != sessions {
		t.Fatalf("summary jobs %s, want %d", describeJobs(js), sessions)
	}
	for _, j := range js {
		if j.State != rivertype.JobStateCompleted || j.Attempt != 1 {
			t.Fatalf("summary jobs %s, want each completed at its first attempt", describeJobs(js))
		}
	}
	if n := summaryRequests(f.llm); n != sessions {
		t.Fatalf("the model was asked for %d summaries, want %d: a job ran twice", n, sessions)
	}
	for _, sid := range ids {
		d, err := f.svc.Detail(ctx, uid, sid)
		if err != nil || d.Summary == nil || *d.Summary != "You took a moment to reflect on your week." {
			t.Fatalf("session %s: summary %v, %v", sid, d.Summary, err)
		}
	}
}

func TestSummaryOnlyForPaidRolesOnceEnded(t *testing.T) {
	f := newFixture(t, false, nil)
	free, basic := f.user(t, "USER"), f.user(t, "BASIC")
	ctx := context.Background()
	queuetest.Start(t, f.q)
	for _, uid := range []uuid.UUID{free, basic} {
		sid := f.newSession(t, uid)
		if _, err := f.svc.Send(ctx, uid, SendInput{SessionID: &sid, Message: "I'm grateful but stressed."}, nil); err != nil {
			t.Fatal(err)
		}
		active := f.newSession(t, uid)
		if _, err := f.svc.End(ctx, uid, sid, ""); err != nil {
			t.Fatal(err)
		}
		queuetest.Drain(t, f.q)
		d, _ := f.svc.Detail(ctx, uid, sid)
		list := f.list(t, uid, "")
		a, _ := f.svc.Detail(ctx, uid, active)
		if a.Summary != nil || len(a.Emotions) != 0 {
			t.Fatalf("active session shows insights: %+v", a.Session)
		}
		if uid == free {
			if d.Summary != nil || len(d.Emotions) != 0 || list[0].Summary != nil || list[1].Summary != nil {
				t.Fatalf("USER sees a summary: %+v", d.Session)
			}
			continue
		}
		if d.Summary == nil || len(d.Emotions) == 0 {
			t.Fatalf("BASIC sees no summary: %+v", d.Session)
		}
		// The summary is of what the user said, not of the app's opening exchange.
		if !strings.Contains(*d.Summary, "Stress came through most.") || strings.Contains(*d.Summary, "new conversation") {
			t.Fatalf("summary = %q", *d.Summary)
		}
	}
}

func TestSafetyScreenGivesCrisisResourcesWithoutTheModel(t *testing.T) {
	f := newFixture(t, true, nil)
	uid := f.user(t, "USER")
	ctx := context.Background()
	sid := f.newSession(t, uid)
	f.llm.SetDefault(llmtest.Script{Chunks: []string{"the model must not be used"}})
	res, err := f.svc.Send(ctx, uid, SendInput{SessionID: &sid, Message: clearRisk}, nil)
	if err != nil || !res.Success {
		t.Fatal(res, err)
	}
	for _, want := range resources {
		if !strings.Contains(res.AIResponse, want) {
			t.Errorf("crisis reply lacks %q", want)
		}
	}
	if len(f.llm.Requests()) != 0 {
		t.Fatal("the model was called for a risky message")
	}
	if res.Title == clearRisk {
		t.Fatal("the risky message became the title")
	}
	n, _ := f.st.Queries().GetSafetyReferralCount(ctx, day(*f.now.Load()))
	if n != 1 {
		t.Fatalf("referral count = %d", n)
	}
	// The next session opens with a check-in, once.
	res, _ = f.svc.Send(ctx, uid, SendInput{Message: StarterMessage}, nil)
	if !strings.Contains(res.AIResponse, companion.CheckIn) {
		t.Fatalf("no check-in: %q", res.AIResponse)
	}
	res, _ = f.svc.Send(ctx, uid, SendInput{Message: StarterMessage}, nil)
	if strings.Contains(res.AIResponse, companion.CheckIn) {
		t.Fatal("check-in repeated")
	}
}

func TestDisclosureRepeatsAfterThreeHoursWithBreakReminderForMinors(t *testing.T) {
	f := newFixture(t, false, nil)
	ctx := context.Background()
	adult, minor := f.user(t, "USER"), f.user(t, "USER")
	f.setProfile(t, minor, 15, "", "", "")
	sa, sm := f.newSession(t, adult), f.newSession(t, minor)
	f.advance(2 * time.Hour)
	res, _ := f.svc.Send(ctx, adult, SendInput{SessionID: &sa, Message: "hi"}, nil)
	if strings.Contains(res.AIResponse, companion.Disclosure) {
		t.Fatal("disclosure repeated too soon")
	}
	f.advance(61 * time.Minute)
	res, _ = f.svc.Send(ctx, adult, SendInput{SessionID: &sa, Message: "hi again"}, nil)
	if !strings.HasPrefix(res.AIResponse, companion.Disclosure) || strings.Contains(res.AIResponse, companion.BreakReminder) {
		t.Fatalf("adult reply = %q", res.AIResponse)
	}
	res, _ = f.svc.Send(ctx, adult, SendInput{SessionID: &sa, Message: "and again"}, nil)
	if strings.Contains(res.AIResponse, companion.Disclosure) {
		t.Fatal("disclosure repeated right after")
	}
	res, _ = f.svc.Send(ctx, minor, SendInput{SessionID: &sm, Message: "hi"}, nil)
	if !strings.HasPrefix(res.AIResponse, companion.Disclosure) || !strings.Contains(res.AIResponse, companion.BreakReminder) {
		t.Fatalf("minor reply = %q", res.AIResponse)
	}
}

func TestSearchAndDelete(t *testing.T) {
	f := newFixture(t, false, nil)
	ctx := context.Background()
	uid := f.user(t, "USER")
	s1 := f.newSession(t, uid)
	if _, err := f.svc.Send(ctx, uid, SendInput{SessionID: &s1, Message: "Thinking about my Chemistry exam"}, nil); err != nil {
		t.Fatal(err)
	}
	s2 := f.newSession(t, uid)
	got := func(q string) []uuid.UUID {
		list := f.list(t, uid, q)
		var ids []uuid.UUID
		for _, s := range list {
			ids = append(ids, s.ID)
		}
		return ids
	}
	if ids := got("chemistry"); len(ids) != 1 || ids[0] != s1 {
		t.Fatalf("title search = %v", ids)
	}
	if ids := got("IT SOUNDS LIKE"); len(ids) != 1 || ids[0] != s1 {
		t.Fatalf("last message search = %v", ids)
	}
	if ids := got(s2.String()[:8]); len(ids) != 1 || ids[0] != s2 {
		t.Fatalf("id search = %v", ids)
	}
	if ids := got("%"); len(ids) != 0 {
		t.Fatalf("wildcard matched: %v", ids)
	}
	if ids := got(""); len(ids) != 2 {
		t.Fatalf("empty query = %v", ids)
	}
	if err := f.svc.Delete(ctx, uid, s1); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Detail(ctx, uid, s1); !errors.Is(err, apperr.ErrNotFound) {
		t.Fatalf("deleted session: %v", err)
	}
	if err := f.svc.Delete(ctx, uid, s1); !errors.Is(err, apperr.ErrNotFound) {
		t.Fatalf("second delete: %v", err)
	}
}

func TestBurstLimit(t *testing.T) {
	lim := DefaultLimits()
	lim.BurstPerMinute = 3
	f := newFixture(t, false, &lim)
	uid := f.user(t, "USER")
	for i := 0; i < 3; i++ {
		f.newSession(t, uid)
	}
	_, err := f.svc.Send(context.Background(), uid, SendInput{Message: "hi"}, nil)
	var lerr *apperr.LimitError
	if !errors.As(err, &lerr) || lerr.RetryAfter <= 0 || lerr.RetryAfter > time.Minute {
		t.Fatalf("err = %v", err)
	}
	f.advance(time.Minute)
	if _, err := f.svc.Send(context.Background(), uid, SendInput{Message: "hi"}, nil); err != nil {
		t.Fatalf("after a minute: %v", err)
	}
}

func TestAnotherUsersSessionIsNotFoundAndUnchanged(t *testing.T) {
	f := newFixture(t, false, nil)
	ctx := context.Background()
	owner, other := f.user(t, "PREMIUM"), f.user(t, "PREMIUM")
	sid := f.newSession(t, owner)
	if _, err := f.svc.Send(ctx, owner, SendInput{SessionID: &sid, Message: "my private thoughts"}, nil); err != nil {
		t.Fatal(err)
	}
	before, _ := f.svc.Detail(ctx, owner, sid)

	calls := map[string]func() error{
		"Send": func() error {
			_, err := f.svc.Send(ctx, other, SendInput{SessionID: &sid, Message: "intrude"}, nil)
			return err
		},
		"Get":    func() error { _, err := f.svc.Get(ctx, other, sid); return err },
		"Detail": func() error { _, err := f.svc.Detail(ctx, other, sid); return err },
		"End":    func() error { _, err := f.svc.End(ctx, other, sid, ""); return err },
		"Delete": func() error { return f.svc.Delete(ctx, other, sid) },
	}
	for name, call := range calls {
		if err := call(); !errors.Is(err, apperr.ErrNotFound) {
			t.Errorf("%s on another user's session: %v, want not found", name, err)
		}
	}
	for _, q := range []string{"", "private", sid.String()} {
		if list := f.list(t, other, q); len(list) != 0 {
			t.Errorf("Search(%q) by another user found %d sessions", q, len(list))
		}
	}
	after, err := f.svc.Detail(ctx, owner, sid)
	if err != nil {
		t.Fatal(err)
	}
	if after.Status != before.Status || after.TokensUsed != before.TokensUsed || len(after.Messages) != len(before.Messages) || after.Title != before.Title || after.LastMessage != before.LastMessage {
		t.Fatalf("session changed: before %+v after %+v", before.Session, after.Session)
	}
	// The intruder's failed send used none of their quota either.
	var n int
	_ = f.st.Pool().QueryRow(ctx, `SELECT COALESCE(sum(count), 0) FROM usage_counters WHERE user_id = $1`, other).Scan(&n)
	if n != 0 {
		t.Fatalf("intruder quota used: %d", n)
	}
}

// TestEndKeepsHowTheUserFelt: the closing moment's feeling is kept with the session (also when
// given again once it has ended); anything else is refused and changes nothing.
func TestEndKeepsHowTheUserFelt(t *testing.T) {
	f := newFixture(t, false, nil)
	uid := f.user(t, "BASIC")
	sid := f.newSession(t, uid)
	ctx := context.Background()
	if _, err := f.svc.End(ctx, uid, sid, "ecstatic"); err == nil {
		t.Fatal("an unknown feeling was accepted")
	}
	if d, err := f.svc.Detail(ctx, uid, sid); err != nil || !d.Active || d.ClosingFeeling != nil {
		t.Fatalf("a refused end changed the session: %+v %v", d.Session, err)
	}
	s, err := f.svc.End(ctx, uid, sid, "better")
	if err != nil || s.Active || s.ClosingFeeling == nil || *s.ClosingFeeling != "better" {
		t.Fatalf("end with a feeling: %+v %v", s, err)
	}
	s, err = f.svc.End(ctx, uid, sid, "")
	if err != nil || s.ClosingFeeling == nil || *s.ClosingFeeling != "better" {
		t.Fatalf("ending again without a feeling lost it: %+v %v", s, err)
	}
	other := f.user(t, "BASIC")
	if _, err := f.svc.End(ctx, other, sid, "worse"); err == nil {
		t.Fatal("another user set the feeling")
	}
	list := f.list(t, uid, "")
	if len(list) != 1 || list[0].ClosingFeeling == nil || *list[0].ClosingFeeling != "better" {
		t.Fatalf("list: %+v", list)
	}
}

// TestTakeawayLeavesRiskyMessagesOut: the closing moment's takeaway comes from the
// conversation, never from a message the safety screen flagged.
func TestTakeawayLeavesRiskyMessagesOut(t *testing.T) {
	f := newFixture(t, false, nil)
	uid := f.user(t, "USER")
	sid := f.newSession(t, uid)
	ctx := context.Background()
	if _, err := f.svc.Send(ctx, uid, SendInput{SessionID: &sid, Message: "I want to kill myself with the pills in the cabinet"}, nil); err != nil {
		t.Fatal(err)
	}
	if got, err := f.svc.Takeaway(ctx, uid, sid); err != nil || got != "" {
		t.Fatalf("takeaway of a risky conversation: %q %v", got, err)
	}
	if _, err := f.svc.Send(ctx, uid, SendInput{SessionID: &sid, Message: "My statistics midterm is on Tuesday and I haven't started revising."}, nil); err != nil {
		t.Fatal(err)
	}
	got, err := f.svc.Takeaway(ctx, uid, sid)
	if err != nil || got == "" || strings.Contains(got, "pills") || strings.Contains(got, "cabinet") {
		t.Fatalf("takeaway %q %v", got, err)
	}
	if _, err := f.svc.Takeaway(ctx, f.user(t, "USER"), sid); err == nil {
		t.Fatal("another user got the takeaway")
	}
}

// TestSummaryTitlesTheSessionFromTheConversation: the summary call's title replaces the first
// message cut off; a title the model leaves out comes from the offline engine's topics.
func TestSummaryTitlesTheSessionFromTheConversation(t *testing.T) {
	for _, c := range []struct{ name, reply, want string }{
		{"model", `{"summary":"You talked about exams.","emotions":["stress"],"title":"\"Exam week and sleep.\""}`, "Exam week and sleep"},
		{"no title from the model", `{"summary":"You talked about exams.","emotions":["stress"]}`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, true, nil)
			uid := f.user(t, "BASIC")
			sid := f.newSession(t, uid)
			f.llm.Enqueue(llmtest.Script{Chunks: []string{"I hear you."}})
			first := "So basically my group project for chemistry is falling apart and my roommate Marcus keeps ignoring me"
			if _, err := f.svc.Send(context.Background(), uid, SendInput{SessionID: &sid, Message: first}, nil); err != nil {
				t.Fatal(err)
			}
			if _, err := f.svc.End(context.Background(), uid, sid, ""); err != nil {
				t.Fatal(err)
			}
			f.llm.Enqueue(llmtest.Script{Chunks: []string{c.reply}})
			queuetest.Start(t, f.q)
			queuetest.Drain(t, f.q)
			d, err := f.svc.Detail(context.Background(), uid, sid)
			if err != nil {
				t.Fatal(err)
			}
			want := c.want
			if want == "" {
				want = companion.OfflineSummary([]companion.Turn{{Role: companion.RoleUser, Content: first}}).Title
				if want == "" {
					t.Fatal("the offline engine made no title from a message about a project and a roommate")
				}
			}
			if d.Title != want || d.Title == TitleFrom(first) {
				t.Fatalf("title %q, want %q (not the first message cut off)", d.Title, want)
			}
		})
	}
}
