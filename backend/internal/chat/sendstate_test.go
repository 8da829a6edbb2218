package chat

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	openai "github.com/sashabaranov/go-openai"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/cache"
	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/llmtest"
	"github.com/percolate/percolate/backend/internal/entitlement"
	"github.com/percolate/percolate/backend/internal/queue/queuetest"
	dbgen "github.com/percolate/percolate/gen/db"
)

// transcript is what the model was asked, as text.
func transcript(req openai.ChatCompletionRequest) string {
	var b strings.Builder
	for _, m := range req.Messages {
		b.WriteString(m.Role + ": " + m.Content + "\n")
	}
	return b.String()
}

// messageCount is how many messages the session holds.
func (f *fixture) messageCount(t *testing.T, sid uuid.UUID) int {
	t.Helper()
	var n int
	if err := f.st.Pool().QueryRow(context.Background(), `SELECT count(*) FROM messages WHERE session_id = $1`, sid).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// untilNoState waits until svc keeps no send state of the user (a notification of a change
// of the user's row or memories reached it).
func untilNoState(t *testing.T, svc *Service, uid uuid.UUID) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		held := false
		for st := range svc.states.Values() {
			held = held || st.session.UserID == uid
		}
		if !held {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the user's send state was kept after the change was notified")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// A send from a kept state asks the model exactly what the usual send asks, and stores the
// same: two users with the same profile say the same things, one through an instance that
// keeps send states and one through an instance that keeps none.
func TestSendFromKeptStateIsTheUsualSend(t *testing.T) {
	f := newFixture(t, true, nil)
	plain := f.instance(t, Options{SendStateBytes: -1})
	msgs := []string{"I have two exams this week.", "Chemistry worries me most.", "I slept badly, too.", "Maybe a walk would help."}
	run := func(svc *Service) (uuid.UUID, []string) {
		uid := f.user(t, "USER")
		f.setProfile(t, uid, 19, "Sleep", "exams", "")
		res, err := svc.Send(context.Background(), uid, SendInput{Message: StarterMessage}, nil)
		if err != nil || !res.Success {
			t.Fatalf("open: %+v %v", res, err)
		}
		sid := res.SessionID
		var asked []string
		for _, m := range msgs {
			f.llm.Enqueue(llmtest.Script{Chunks: []string{"I hear you: ", m}})
			before := f.llm.RequestCount()
			res, err := svc.Send(context.Background(), uid, SendInput{SessionID: &sid, Message: m}, nil)
			if err != nil || !res.Success {
				t.Fatalf("send %q: %+v %v", m, res, err)
			}
			reqs := f.llm.Requests()
			if len(reqs) != before+1 {
				t.Fatalf("send %q asked the model %d times", m, len(reqs)-before)
			}
			asked = append(asked, transcript(reqs[len(reqs)-1]))
		}
		return sid, asked
	}
	keptBefore := f.svc.keptSends.Load()
	sidKept, kept := run(f.svc)
	if n := f.svc.keptSends.Load() - keptBefore; n != int64(len(msgs)) {
		t.Fatalf("%d of %d sends were written from a kept state", n, len(msgs))
	}
	sidPlain, usual := run(plain)
	if plain.keptSends.Load() != 0 {
		t.Fatal("an instance that keeps no state wrote from one")
	}
	for i := range msgs {
		if kept[i] != usual[i] {
			t.Fatalf("send %d asked the model\n%s\nfrom a kept state, and\n%s\nthe usual way", i, kept[i], usual[i])
		}
	}
	for _, sid := range []uuid.UUID{sidKept, sidPlain} {
		if n := f.messageCount(t, sid); n != 2+2*len(msgs) {
			t.Fatalf("session holds %d messages", n)
		}
	}
	a, err := f.svc.Get(context.Background(), mustOwner(t, f, sidKept), sidKept)
	if err != nil {
		t.Fatal(err)
	}
	b, err := plain.Get(context.Background(), mustOwner(t, f, sidPlain), sidPlain)
	if err != nil {
		t.Fatal(err)
	}
	if a.Title != b.Title || a.TokensUsed != b.TokensUsed || a.LastMessage != b.LastMessage {
		t.Fatalf("sessions differ: %+v and %+v", a, b)
	}
}

func mustOwner(t *testing.T, f *fixture, sid uuid.UUID) uuid.UUID {
	t.Helper()
	var uid uuid.UUID
	if err := f.st.Pool().QueryRow(context.Background(), `SELECT user_id FROM chat_sessions WHERE id = $1`, sid).Scan(&uid); err != nil {
		t.Fatal(err)
	}
	return uid
}

// A reply stored through another instance drops the state this instance kept of the session
// (its notification carries the session's new version), and the next send here is made the
// usual way, from what the database holds. (A state that moved before the notification came is
// refused by the send's own statements: TestKeptStateChecks.)
func TestKeptStateDroppedWhenAnotherInstanceReplies(t *testing.T) {
	f := newFixture(t, true, nil)
	other := f.instance(t, Options{})
	uid := f.user(t, "USER")
	sid := f.newSession(t, uid)
	send := func(svc *Service, msg, reply string) SendResult {
		t.Helper()
		f.llm.Enqueue(llmtest.Script{Chunks: []string{reply}})
		res, err := svc.Send(context.Background(), uid, SendInput{SessionID: &sid, Message: msg}, nil)
		if err != nil || !res.Success {
			t.Fatalf("send %q: %+v %v", msg, res, err)
		}
		return res
	}
	send(f.svc, "First, on this instance.", "One.")
	if f.svc.states.Len() != 1 {
		t.Fatal("the instance that stored the reply keeps no state")
	}
	// Another instance writes to the session: the kept state's version is behind.
	send(other, "Second, on the other instance.", "Two.")
	untilNoState(t, f.svc, uid)
	if other.states.Len() != 1 {
		t.Fatal("the instance that stored the reply dropped its own state on its own notification")
	}
	kept := f.svc.keptSends.Load()
	res := send(f.svc, "Third, back here.", "Three.")
	if f.svc.keptSends.Load() != kept {
		t.Fatal("a send was written from a state whose session moved")
	}
	if res.AIResponse != "Three." {
		t.Fatalf("reply = %q, want the usual send's", res.AIResponse)
	}
	reqs := f.llm.Requests()
	if last := transcript(reqs[len(reqs)-1]); !strings.Contains(last, "Second, on the other instance.") || !strings.Contains(last, "Two.") {
		t.Fatalf("the prompt lacks the other instance's turn:\n%s", last)
	}
	d, err := f.svc.Detail(context.Background(), uid, sid)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, m := range d.Messages {
		texts = append(texts, m.Content)
	}
	got := strings.Join(texts[2:], "|")
	if want := "First, on this instance.|One.|Second, on the other instance.|Two.|Third, back here.|Three."; got != want {
		t.Fatalf("messages = %s, want %s", got, want)
	}
}

// Each check of a send from a kept state refuses it with nothing written: the user's row
// changed, the memories changed, the session moved, or the daily limit is reached.
func TestKeptStateChecks(t *testing.T) {
	lim := DefaultLimits()
	lim.Tiers = lim.Tiers.With(entitlement.Overrides{MessagesPerDay: map[string]int{"USER": 20}})
	f := newFixture(t, true, &lim)
	uid := f.user(t, "USER")
	sid := f.newSession(t, uid)
	ctx := context.Background()
	fresh := func() *sendState {
		t.Helper()
		if _, err := f.svc.Send(ctx, uid, SendInput{SessionID: &sid, Message: "Keep going."}, nil); err != nil {
			t.Fatal(err)
		}
		st := f.svc.states.take(sid)
		if st == nil {
			t.Fatal("no state kept")
		}
		return st
	}
	refused := func(name string, st *sendState) {
		t.Helper()
		msgs, used, reqs := f.messageCount(t, sid), f.usage(t, uid, usageKindMessages), f.llm.RequestCount()
		tn, ok, err := f.svc.continueKept(ctx, st, uid, sid, "Is this stored?", screenAlone("Is this stored?"), SendInput{})
		if ok || tn != nil || err != nil {
			t.Fatalf("%s: the kept state was used (%v, %v)", name, ok, err)
		}
		if n := f.messageCount(t, sid); n != msgs {
			t.Fatalf("%s: %d messages stored", name, n-msgs)
		}
		if n := f.usage(t, uid, usageKindMessages); n != used {
			t.Fatalf("%s: usage %d, want %d", name, n, used)
		}
		if f.llm.RequestCount() > reqs+1 {
			t.Fatalf("%s: the model was asked %d times", name, f.llm.RequestCount()-reqs)
		}
	}

	st := fresh()
	f.setProfile(t, uid, 30, "Work", "deadlines", "")
	refused("profile changed", st)

	st = fresh()
	key := "event:exam"
	if err := f.st.Queries().UpsertMemory(ctx, dbgen.UpsertMemoryParams{UserID: uid, Text: "Has an exam on Monday", Key: &key}); err != nil {
		t.Fatal(err)
	}
	refused("memory added", st)

	st = fresh()
	if _, err := f.st.Pool().Exec(ctx, `UPDATE memories SET text = 'Has an exam on Tuesday' WHERE user_id = $1`, uid); err != nil {
		t.Fatal(err)
	}
	refused("memory changed", st)

	st = fresh()
	if _, err := f.svc.Send(ctx, uid, SendInput{SessionID: &sid, Message: "Another message first."}, nil); err != nil {
		t.Fatal(err)
	}
	refused("session moved", st)

	st = fresh()
	if _, err := f.st.Pool().Exec(ctx, `UPDATE usage_counters SET count = 20 WHERE user_id = $1`, uid); err != nil {
		t.Fatal(err)
	}
	refused("daily limit reached", st)
	_, err := f.svc.Send(ctx, uid, SendInput{SessionID: &sid, Message: "One more?"}, nil)
	var le *apperr.LimitError
	if !errors.As(err, &le) || !strings.HasPrefix(le.Message, "You've reached today's limit of 20 messages.") {
		t.Fatalf("send at the limit: %v", err)
	}

	// Someone else's session: the state is not used, and their session is not found.
	if _, err := f.st.Pool().Exec(ctx, `UPDATE usage_counters SET count = 0 WHERE user_id = $1`, uid); err != nil {
		t.Fatal(err)
	}
	st = fresh()
	stranger := f.user(t, "USER")
	reqs := f.llm.RequestCount()
	if _, ok, _ := f.svc.continueKept(ctx, st, stranger, sid, "Hello?", screenAlone("Hello?"), SendInput{}); ok {
		t.Fatal("another user's send used the owner's state")
	}
	if f.llm.RequestCount() != reqs {
		t.Fatal("the model was asked with the owner's history for another user")
	}
	f.svc.states.keep(st)
	if _, err := f.svc.Send(ctx, stranger, SendInput{SessionID: &sid, Message: "Hello?"}, nil); !errors.Is(err, apperr.ErrNotFound) {
		t.Fatalf("another user's send: %v", err)
	}
}

// A change of the user's row or memories empties the user's states on every instance.
func TestChangesOfUserAndMemoriesDropKeptStates(t *testing.T) {
	f := newFixture(t, true, nil)
	other := f.instance(t, Options{})
	ctx := context.Background()
	uid := f.user(t, "USER")
	sidA, sidB := f.newSession(t, uid), f.newSession(t, uid)
	for _, c := range []struct {
		name, sql string
	}{
		{"profile", `UPDATE users SET focus_areas = 'Running' WHERE id = $1`},
		{"memory", `INSERT INTO memories (user_id, text) VALUES ($1, 'Runs on Sundays')`},
		{"memory deleted", `DELETE FROM memories WHERE user_id = $1`},
	} {
		if _, err := f.svc.Send(ctx, uid, SendInput{SessionID: &sidA, Message: "Hi again."}, nil); err != nil {
			t.Fatal(err)
		}
		if _, err := other.Send(ctx, uid, SendInput{SessionID: &sidB, Message: "Hi there."}, nil); err != nil {
			t.Fatal(err)
		}
		if f.svc.states.Len() == 0 || other.states.Len() == 0 {
			t.Fatalf("%s: no state kept", c.name)
		}
		if _, err := f.st.Pool().Exec(ctx, c.sql, uid); err != nil {
			t.Fatal(err)
		}
		untilNoState(t, f.svc, uid)
		untilNoState(t, other, uid)
	}
}

// ForgetUser drops the user's kept states on this instance at once, and no one else's.
func TestForgetUserDropsOnlyTheUsersStates(t *testing.T) {
	f := newFixture(t, false, nil)
	ctx := context.Background()
	a, b := f.user(t, "USER"), f.user(t, "USER")
	sa, sb := f.newSession(t, a), f.newSession(t, b)
	if f.svc.states.Len() != 2 {
		t.Fatalf("%d states kept, want one for each user's session", f.svc.states.Len())
	}
	f.svc.ForgetUser(a)
	if f.svc.states.take(sa) != nil || f.svc.states.take(sb) == nil {
		t.Fatal("ForgetUser did not drop exactly the user's state")
	}
	kept := f.svc.keptSends.Load()
	if _, err := f.svc.Send(ctx, a, SendInput{SessionID: &sa, Message: "Still here."}, nil); err != nil {
		t.Fatal(err)
	}
	if f.svc.keptSends.Load() != kept {
		t.Fatal("a send used a state dropped by ForgetUser")
	}
}

// A deleted session leaves no kept state (its messages) on the instance that deleted it.
func TestDeleteDropsTheKeptState(t *testing.T) {
	f := newFixture(t, false, nil)
	uid := f.user(t, "USER")
	sid := f.newSession(t, uid)
	if f.svc.states.Len() != 1 {
		t.Fatal("no state kept")
	}
	if err := f.svc.Delete(context.Background(), uid, sid); err != nil {
		t.Fatal(err)
	}
	if f.svc.states.Len() != 0 {
		t.Fatal("the deleted session's state is still kept")
	}
}

// Opening a chat (Detail) on an instance that holds nothing of it keeps the next send's
// state: the first message after it is written in one round trip, and asks the model what
// the usual send asks. A chat the instance holds, one that has ended, or another user's,
// keeps nothing.
func TestOpeningAChatKeepsTheNextSendsState(t *testing.T) {
	f := newFixture(t, true, nil)
	plain := f.instance(t, Options{SendStateBytes: -1})
	ctx := context.Background()
	first := func() (uuid.UUID, uuid.UUID) {
		t.Helper()
		uid := f.user(t, "USER")
		f.setProfile(t, uid, 20, "Sleep", "exams", "")
		sid := f.newSession(t, uid)
		f.llm.Enqueue(llmtest.Script{Chunks: []string{"Tell me more."}})
		if res, err := f.svc.Send(ctx, uid, SendInput{SessionID: &sid, Message: "Exams again."}, nil); err != nil || !res.Success {
			t.Fatalf("send: %+v %v", res, err)
		}
		return uid, sid
	}
	open := func(svc *Service, uid, sid uuid.UUID) string {
		t.Helper()
		if _, err := svc.Detail(ctx, uid, sid); err != nil {
			t.Fatal(err)
		}
		f.llm.Enqueue(llmtest.Script{Chunks: []string{"That sounds heavy."}})
		before := f.llm.RequestCount()
		res, err := svc.Send(ctx, uid, SendInput{SessionID: &sid, Message: "I can't sleep before them."}, nil)
		if err != nil || !res.Success || res.AIResponse != "That sounds heavy." {
			t.Fatalf("send after opening: %+v %v", res, err)
		}
		reqs := f.llm.Requests()
		if len(reqs) != before+1 {
			t.Fatalf("the send asked the model %d times", len(reqs)-before)
		}
		return transcript(reqs[len(reqs)-1])
	}

	uid, sid := first()
	f.svc.states.Clear() // as after a restart, or for a chat another instance answered
	kept := f.svc.keptSends.Load()
	fromDetail := open(f.svc, uid, sid)
	if f.svc.keptSends.Load() != kept+1 {
		t.Fatal("the first send after opening the chat was not written from a kept state")
	}
	uid2, sid2 := first()
	if usual := open(plain, uid2, sid2); usual != fromDetail {
		t.Fatalf("the send asked the model\n%s\nafter opening the chat, and\n%s\nthe usual way", fromDetail, usual)
	}
	if n := f.messageCount(t, sid); n != f.messageCount(t, sid2) {
		t.Fatalf("sessions hold %d and %d messages", n, f.messageCount(t, sid2))
	}

	// A chat this instance holds adds no reads: a state dropped stays dropped.
	f.svc.states.Clear()
	if _, err := f.svc.Detail(ctx, uid, sid); err != nil {
		t.Fatal(err)
	}
	if f.svc.states.Len() != 0 {
		t.Fatal("a read of a chat the instance holds read the next send's state")
	}
	// Another user's read of the chat keeps nothing (and finds nothing).
	f.svc.details.evict(sid)
	if _, err := f.svc.Detail(ctx, f.user(t, "USER"), sid); !errors.Is(err, apperr.ErrNotFound) {
		t.Fatalf("another user's read: %v", err)
	}
	if f.svc.states.Len() != 0 {
		t.Fatal("another user's read kept a state of the chat")
	}
	// An ended chat takes no messages: opening it keeps nothing.
	if _, err := f.svc.End(ctx, uid, sid, ""); err != nil {
		t.Fatal(err)
	}
	f.svc.states.Clear()
	f.svc.details.evict(sid)
	if _, err := f.svc.Detail(ctx, uid, sid); err != nil {
		t.Fatal(err)
	}
	if f.svc.states.Len() != 0 {
		t.Fatal("opening an ended chat kept a state")
	}
}

// A state read as a chat is opened never replaces a later one, which a reply kept while the
// read was under way.
func TestAnEarlierStateDoesNotReplaceALaterOne(t *testing.T) {
	c := sendStates{cache.New(cache.Config[uuid.UUID, *sendState]{MaxBytes: DefaultSendStateBytes, Bytes: stateSize})}
	sid := uuid.New()
	later := &sendState{session: dbgen.ChatSession{ID: sid, Version: 5}}
	c.keep(later)
	c.keep(&sendState{session: dbgen.ChatSession{ID: sid, Version: 3}})
	if got := c.take(sid); got != later {
		t.Fatalf("kept %+v, want the later state", got)
	}
	c.keep(&sendState{session: dbgen.ChatSession{ID: sid, Version: 3}})
	c.keep(later)
	if got := c.take(sid); got != later {
		t.Fatalf("kept %+v, want the later state", got)
	}
}

// A stored context summary drops the session's kept state on every instance (the next prompt
// carries the summary), so the next send asks the model once, not once from the state and
// again the usual way.
func TestStoredSummaryDropsTheKeptState(t *testing.T) {
	l := DefaultLimits()
	l.ContextBudget = 120
	l.Tiers = l.Tiers.With(entitlement.Overrides{SessionTokens: map[string]int{"USER": 100000}})
	f := newFixture(t, true, &l)
	other := f.instance(t, Options{})
	const summary = "Sam has a statistics midterm on Tuesday."
	f.llm.Route(companion.SummaryInstructionPrefix, llmtest.Script{Chunks: []string{`{"summary":"` + summary + `","emotions":["stress"]}`}})
	uid := f.user(t, "USER")
	sid := f.newSession(t, uid)
	ctx := context.Background()
	for i := range 8 {
		msg := fmt.Sprintf("Message %d: my statistics midterm is on Tuesday and my shifts keep running late.", i)
		if res, err := f.svc.Send(ctx, uid, SendInput{SessionID: &sid, Message: msg}, nil); err != nil || !res.Success {
			t.Fatalf("send: %+v %v", res, err)
		}
	}
	if _, err := other.Detail(ctx, uid, sid); err != nil { // the other instance keeps a state too
		t.Fatal(err)
	}
	if f.svc.states.Len() != 1 || other.states.Len() != 1 {
		t.Fatalf("states kept: %d and %d, want one on each instance", f.svc.states.Len(), other.states.Len())
	}
	queuetest.Start(t, f.q)
	queuetest.Drain(t, f.q)
	if summaryRequests(f.llm) != 1 {
		t.Fatal("no summary was made")
	}
	untilNoState(t, f.svc, uid)
	untilNoState(t, other, uid)

	f.llm.Enqueue(llmtest.Script{Chunks: []string{"Tell me about the shifts."}})
	before := f.llm.RequestCount()
	res, err := f.svc.Send(ctx, uid, SendInput{SessionID: &sid, Message: "And my roommate is upset."}, nil)
	if err != nil || res.AIResponse != "Tell me about the shifts." {
		t.Fatalf("send after the summary: %+v %v", res, err)
	}
	reqs := f.llm.Requests()
	if n := len(reqs) - before; n != 1 {
		t.Fatalf("the send asked the model %d times", n)
	}
	if sys := reqs[len(reqs)-1].Messages[0].Content; !strings.Contains(sys, summary) {
		t.Fatalf("the prompt does not carry the summary:\n%s", sys)
	}
}
