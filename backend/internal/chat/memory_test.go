package chat

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river/rivertype"

	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/llmtest"
	"github.com/percolate/percolate/backend/internal/memory"
	"github.com/percolate/percolate/backend/internal/queue/queuetest"
	dbgen "github.com/percolate/percolate/gen/db"
)

// talk opens a session, sends msgs in it and ends it.
func (f *fixture) talk(t *testing.T, uid uuid.UUID, msgs ...string) uuid.UUID {
	t.Helper()
	sid := f.newSession(t, uid)
	for _, m := range msgs {
		if res, err := f.svc.Send(context.Background(), uid, SendInput{SessionID: &sid, Message: m}, nil); err != nil || !res.Success {
			t.Fatalf("send %q: %+v %v", m, res, err)
		}
	}
	if _, err := f.svc.End(context.Background(), uid, sid, ""); err != nil {
		t.Fatal(err)
	}
	return sid
}

// memories are the user's remembered texts, newest first.
func (f *fixture) memories(t *testing.T, uid uuid.UUID) []string {
	t.Helper()
	rows, err := memory.New(f.st).List(context.Background(), uid)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range rows {
		out = append(out, m.Text)
	}
	return out
}

func (f *fixture) welcome(t *testing.T, uid uuid.UUID) string {
	t.Helper()
	return f.open(t, uid).AIResponse
}

func TestAnEndedSessionIsRememberedAndPickedUpInTheNextWelcome(t *testing.T) {
	f := newFixture(t, false, nil)
	uid := f.user(t, "USER")
	other := f.user(t, "USER")
	sid := f.talk(t, uid, "My statistics midterm is on Tuesday and I'm nervous.", "My friend Maya said she'd help me revise.")
	// Ending again queues nothing more: the extraction is one job per session.
	if _, err := f.svc.End(context.Background(), uid, sid, ""); err != nil {
		t.Fatal(err)
	}
	if js := queuetest.Jobs(t, f.q, MemoryJobKind); len(js) != 1 {
		t.Fatalf("%d memory jobs, want 1", len(js))
	}
	queuetest.Start(t, f.q)
	queuetest.Drain(t, f.q)
	if got := strings.Join(f.memories(t, uid), "|"); got != "Has a friend called Maya|Has a statistics midterm on "+coming(time.Tuesday) {
		t.Fatalf("memories: %q", got)
	}
	rows, _ := memory.New(f.st).List(context.Background(), uid)
	if rows[0].SessionID == nil || *rows[0].SessionID != sid {
		t.Fatalf("memory session: %v", rows[0].SessionID)
	}
	// The midterm is still to come: the welcome picks up the other thread, and asks how the
	// midterm went only after its day (companion.TestThreadAsksAfterTheDayOnce).
	w := f.welcome(t, uid)
	if !strings.Contains(w, "Last time you mentioned that you have a friend called Maya.") || strings.Contains(w, "midterm") {
		t.Fatalf("welcome does not pick up the thread: %q", w)
	}
	if w := f.welcome(t, other); strings.Contains(w, "Last time") {
		t.Fatalf("another user's welcome picks up a thread: %q", w)
	}
}

func TestMemorySkipsFlaggedMessagesTheOneAfterAndSensitiveTopics(t *testing.T) {
	f := newFixture(t, false, nil)
	uid := f.user(t, "USER")
	f.setProfile(t, uid, 20, "", "", "dad")
	f.talk(t, uid,
		"My chemistry exam is on Friday.",
		"Sometimes I want to kill myself.",
		"yes. My driving test is on Monday.",
		"My dad's birthday party is on Saturday.",
		"I want to start running again.",
	)
	queuetest.Start(t, f.q)
	queuetest.Drain(t, f.q)
	if got := strings.Join(f.memories(t, uid), "|"); got != "Wants to start running again|Has a chemistry exam on "+coming(time.Friday) {
		t.Fatalf("memories: %q", got)
	}
}

func TestMemoryOffLearnsAndUsesNothing(t *testing.T) {
	f := newFixture(t, true, nil)
	uid := f.user(t, "USER")
	key := "event:midterm"
	if err := f.st.Queries().UpsertMemory(context.Background(), dbgen.UpsertMemoryParams{UserID: uid, Text: "Has a statistics midterm on Tuesday", Key: &key}); err != nil {
		t.Fatal(err)
	}
	sid := f.newSession(t, uid)
	f.llm.Enqueue(llmtest.Script{Chunks: []string{"I hear you."}})
	if _, err := f.svc.Send(context.Background(), uid, SendInput{SessionID: &sid, Message: "It went fine."}, nil); err != nil {
		t.Fatal(err)
	}
	reqs := f.llm.Requests()
	if sys := reqs[len(reqs)-1].Messages[0].Content; !strings.Contains(sys, "What you know from earlier sessions") || !strings.Contains(sys, "- Has a statistics midterm on Tuesday") {
		t.Fatalf("memory on: the system prompt lacks the memory:\n%s", sys)
	}

	if _, err := f.st.Pool().Exec(context.Background(), `UPDATE users SET memory_enabled = false WHERE id = $1`, uid); err != nil {
		t.Fatal(err)
	}
	if w := f.welcome(t, uid); strings.Contains(w, "Last time") {
		t.Fatalf("memory off: the welcome picks up a thread: %q", w)
	}
	f.llm.Enqueue(llmtest.Script{Chunks: []string{"I hear you."}})
	if _, err := f.svc.Send(context.Background(), uid, SendInput{SessionID: &sid, Message: "My friend Maya said she'd help. My essay is due on Friday."}, nil); err != nil {
		t.Fatal(err)
	}
	reqs = f.llm.Requests()
	if sys := reqs[len(reqs)-1].Messages[0].Content; strings.Contains(sys, "statistics midterm") {
		t.Fatalf("memory off: the system prompt holds a memory:\n%s", sys)
	}
	if _, err := f.svc.End(context.Background(), uid, sid, ""); err != nil {
		t.Fatal(err)
	}
	queuetest.Start(t, f.q)
	queuetest.Drain(t, f.q)
	if n := memoryRequests(f.llm); n != 0 {
		t.Fatalf("memory off: the model was asked %d times", n)
	}
	if got := f.memories(t, uid); len(got) != 1 {
		t.Fatalf("memory off: memories %q", got)
	}
}

func memoryRequests(llm *llmtest.Server) int {
	n := 0
	for _, r := range llm.Requests() {
		if len(r.Messages) > 0 && strings.HasPrefix(r.Messages[0].Content, companion.MemoryInstructionPrefix) {
			n++
		}
	}
	return n
}

func TestModelMemoriesAreValidatedAndMerged(t *testing.T) {
	f := newFixture(t, true, nil)
	uid := f.user(t, "BASIC")
	f.setProfile(t, uid, 20, "", "", "money")
	key := "event:midterm"
	if err := f.st.Queries().UpsertMemory(context.Background(), dbgen.UpsertMemoryParams{UserID: uid, Text: "Has a statistics midterm on Tuesday", Key: &key}); err != nil {
		t.Fatal(err)
	}
	sid := f.newSession(t, uid)
	f.llm.SetDefault(llmtest.Script{Chunks: []string{"I hear you."}})
	for _, m := range []string{"The midterm moved to Thursday.", "I want to die.", "yes", "Maya and I work late shifts at the café."} {
		if _, err := f.svc.Send(context.Background(), uid, SendInput{SessionID: &sid, Message: m}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.svc.End(context.Background(), uid, sid, ""); err != nil {
		t.Fatal(err)
	}
	f.llm.SetDefault(llmtest.Script{Chunks: []string{`{"summary":"You talked.","emotions":["calm"]}`}})
	f.llm.Route(companion.MemoryInstructionPrefix, llmtest.Script{Chunks: []string{`{"memories":[]}`}},
		llmtest.Script{Fail: 500},
		llmtest.Script{Chunks: []string{"not json at all"}},
		llmtest.Script{Chunks: []string{`{"memories":[` +
			`{"text":"Has a statistics midterm on Thursday","replaces":1},` +
			`{"text":"Works late shifts at a café with Maya","replaces":null},` +
			`{"text":"Worries about money","replaces":null},` +
			`{"text":"Wants to kill themselves","replaces":null},` +
			`{"text":"` + strings.Repeat("long ", 50) + `","replaces":null}]}`}},
	)
	queuetest.Start(t, f.q)
	queuetest.Drain(t, f.q)
	if got := strings.Join(f.memories(t, uid), "|"); got != "Works late shifts at a café with Maya|Has a statistics midterm on Thursday" {
		t.Fatalf("memories: %q", got)
	}
	js := queuetest.Jobs(t, f.q, MemoryJobKind)
	if len(js) != 1 || js[0].State != rivertype.JobStateCompleted || js[0].Attempt != 3 {
		t.Fatalf("memory jobs %s, want one completed at its third attempt", describeJobs(js))
	}
	// The model saw the existing memory, and none of the flagged message or the answer after it.
	var asked string
	for _, r := range f.llm.Requests() {
		if strings.HasPrefix(r.Messages[0].Content, companion.MemoryInstructionPrefix) {
			asked = r.Messages[1].Content
		}
	}
	if !strings.Contains(asked, "1. Has a statistics midterm on Tuesday") || !strings.Contains(asked, "- The midterm moved to Thursday.") ||
		strings.Contains(asked, "die") || strings.Contains(asked, "- yes") {
		t.Fatalf("memory request:\n%s", asked)
	}
}

func TestModelMemoriesFallBackToTheOfflineExtractorOnTheLastAttempt(t *testing.T) {
	f := newFixture(t, true, nil)
	uid := f.user(t, "BASIC")
	f.llm.Route(companion.MemoryInstructionPrefix, llmtest.Script{Fail: 500})
	f.llm.SetDefault(llmtest.Script{Chunks: []string{"I hear you."}})
	f.talk(t, uid, "My chemistry exam is on Friday.")
	f.llm.SetDefault(llmtest.Script{Chunks: []string{`{"summary":"You talked.","emotions":["calm"]}`}})
	queuetest.Start(t, f.q)
	queuetest.Drain(t, f.q)
	if n := memoryRequests(f.llm); n != memoryAttempts {
		t.Fatalf("the model was asked %d times, want %d", n, memoryAttempts)
	}
	if got := strings.Join(f.memories(t, uid), "|"); got != "Has a chemistry exam on "+coming(time.Friday) {
		t.Fatalf("memories: %q", got)
	}
}

func TestAtMostFiftyMemoriesAreKeptTheOldestGoFirst(t *testing.T) {
	f := newFixture(t, false, nil)
	uid := f.user(t, "USER")
	for i := 0; i < memory.Max; i++ {
		key := fmt.Sprintf("old:%d", i)
		if err := f.st.Queries().UpsertMemory(context.Background(), dbgen.UpsertMemoryParams{UserID: uid, Text: fmt.Sprintf("Old fact number %d", i), Key: &key}); err != nil {
			t.Fatal(err)
		}
	}
	f.talk(t, uid, "My chemistry exam is on Friday. My friend Maya is helping.")
	queuetest.Start(t, f.q)
	queuetest.Drain(t, f.q)
	got := f.memories(t, uid)
	if len(got) != memory.Max || got[0] != "Has a friend called Maya" || got[1] != "Has a chemistry exam on "+coming(time.Friday) || got[memory.Max-1] != "Old fact number 2" {
		t.Fatalf("%d memories: first %q, last %q", len(got), got[:2], got[len(got)-1])
	}
	// A later session about the same exam supersedes the memory instead of adding one.
	f.talk(t, uid, "My chemistry exam moved, it is on Monday now.")
	queuetest.Drain(t, f.q)
	got = f.memories(t, uid)
	if len(got) != memory.Max || got[0] != "Has a chemistry exam on "+coming(time.Monday) || strings.Contains(strings.Join(got, "|"), coming(time.Friday)) {
		t.Fatalf("superseded: %d %q", len(got), got[:3])
	}
}

// coming is the date a weekday said today names, as the offline extractor keeps it: the next
// such day after today.
func coming(d time.Weekday) string {
	now := time.Now()
	ahead := (int(d) - int(now.Weekday()) + 7) % 7
	if ahead == 0 {
		ahead = 7
	}
	return now.AddDate(0, 0, ahead).Format("Monday 2 January 2006")
}

// TestTheWelcomeAsksHowAPastEventWentOnce: the welcome asks how a remembered event went
// after its day, records that it asked, and the next new chat moves on.
func TestTheWelcomeAsksHowAPastEventWentOnce(t *testing.T) {
	f := newFixture(t, false, nil)
	uid := f.user(t, "USER")
	now := *f.now.Load()
	key, text := "event:driving test", "Has a driving test on "+now.AddDate(0, 0, 1).Format("Monday 2 January 2006")
	if err := f.st.Queries().UpsertMemory(context.Background(), dbgen.UpsertMemoryParams{UserID: uid, Text: text, Key: &key}); err != nil {
		t.Fatal(err)
	}
	if w := f.welcome(t, uid); strings.Contains(w, "driving test") {
		t.Fatalf("asked before the test: %q", w)
	}
	later := now.AddDate(0, 0, 3)
	f.now.Store(&later)
	if w := f.welcome(t, uid); !strings.Contains(w, "Last time you mentioned your driving test. How did it go?") {
		t.Fatalf("not asked after the test: %q", w)
	}
	u, err := f.st.Queries().GetUserByID(context.Background(), uid)
	if err != nil || u.ThreadAskedAt == nil || !u.ThreadAskedAt.Equal(later) {
		t.Fatalf("the question is not recorded: %v %v", u.ThreadAskedAt, err)
	}
	next := later.Add(2 * time.Hour)
	f.now.Store(&next)
	if w := f.welcome(t, uid); strings.Contains(w, "driving test") {
		t.Fatalf("asked again at the next new chat: %q", w)
	}
}
