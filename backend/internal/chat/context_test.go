package chat

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/llmtest"
	"github.com/percolate/percolate/backend/internal/entitlement"
	"github.com/percolate/percolate/backend/internal/queue/queuetest"
)

// TestLongSessionsEarlierPartIsSummarisedByTheModel: once a session's history outgrows the
// context budget, the model summarises the earlier part in the background, and later prompts
// carry that summary instead of the turns it covers.
func TestLongSessionsEarlierPartIsSummarisedByTheModel(t *testing.T) {
	l := DefaultLimits()
	l.ContextBudget = 120
	l.Tiers = l.Tiers.With(entitlement.Overrides{SessionTokens: map[string]int{"USER": 100000}})
	f := newFixture(t, true, &l)
	uid := f.user(t, "USER")
	sid := f.newSession(t, uid)
	ctx := context.Background()
	send := func(msg string) {
		t.Helper()
		if res, err := f.svc.Send(ctx, uid, SendInput{SessionID: &sid, Message: msg}, nil); err != nil || !res.Success {
			t.Fatalf("send %q: %+v %v", msg, res, err)
		}
	}
	for i := range 8 {
		f.llm.Enqueue(llmtest.Script{Chunks: []string{fmt.Sprintf("Reply %d: that sounds like a lot to carry this week.", i)}})
		send(fmt.Sprintf("Message %d: my statistics midterm is on Tuesday and my shifts at the cafe keep running late.", i))
	}
	if n := len(queuetest.Jobs(t, f.q, ContextSummaryJobKind)); n != 1 {
		t.Fatalf("%d context summary jobs queued, want one (unique while it waits)", n)
	}
	const summary = "Sam has a statistics midterm on Tuesday and late cafe shifts with Maya."
	f.llm.Enqueue(llmtest.Script{Chunks: []string{`{"summary":"` + summary + `","emotions":["stress"]}`}})
	queuetest.Start(t, f.q)
	queuetest.Drain(t, f.q)
	if n := summaryRequests(f.llm); n != 1 {
		t.Fatalf("the model was asked for %d summaries, want 1", n)
	}
	var asked string
	for _, r := range f.llm.Requests() {
		if len(r.Messages) > 1 && strings.HasPrefix(r.Messages[0].Content, "Summarise the conversation") {
			asked = r.Messages[1].Content
		}
	}
	if !strings.Contains(asked, "Message 0:") || strings.Contains(asked, "Message 7:") {
		t.Fatalf("the summary was asked of the wrong turns (want the earliest, not the newest):\n%s", asked)
	}

	f.llm.Enqueue(llmtest.Script{Chunks: []string{"Thanks for telling me."}})
	send("Message 8: and now my roommate is upset with me.")
	reqs := f.llm.Requests()
	last := reqs[len(reqs)-1]
	sys := last.Messages[0].Content
	if !strings.Contains(sys, "Summary of the earlier part of this conversation:\n"+summary) {
		t.Fatalf("the next prompt does not carry the model's summary:\n%s", sys)
	}
	for _, m := range last.Messages[1:] {
		if strings.Contains(m.Content, "Message 0:") {
			t.Fatalf("a covered turn is still in the prompt's history: %q", m.Content)
		}
	}
	if !strings.HasSuffix(last.Messages[len(last.Messages)-1].Content, "roommate is upset with me.") {
		t.Fatalf("the prompt does not end with the new message")
	}

	// The summary is a running one: the next is asked of the stored summary and the turns
	// that left the window since, not of the whole session again.
	const second = "Sam also has a roommate who is upset, on top of the midterm."
	f.llm.Route(companion.SummaryInstructionPrefix, llmtest.Script{Chunks: []string{`{"summary":"` + second + `","emotions":["stress"]}`}})
	for i := 9; i < 16; i++ {
		f.llm.Enqueue(llmtest.Script{Chunks: []string{fmt.Sprintf("Reply %d: that sounds like a lot to carry this week.", i)}})
		send(fmt.Sprintf("Message %d: my statistics midterm is on Tuesday and my shifts at the cafe keep running late.", i))
	}
	queuetest.Drain(t, f.q)
	if n := summaryRequests(f.llm); n < 2 {
		t.Fatalf("the model was asked for %d summaries, want a second", n)
	}
	// The queue runs while the messages are sent: the second summary may come after any of
	// them, and a third after it.
	asked = ""
	n := 0
	for _, r := range f.llm.Requests() {
		if len(r.Messages) > 1 && strings.HasPrefix(r.Messages[0].Content, companion.SummaryInstructionPrefix) {
			if n++; n == 2 {
				asked = r.Messages[1].Content
			}
		}
	}
	if !strings.HasPrefix(asked, summaryRole+": "+summary+"\n") || !strings.Contains(asked, "Message 8:") ||
		strings.Contains(asked, "Message 0:") || strings.Contains(asked, "Message 15:") {
		t.Fatalf("the second summary was not asked of the first and the turns after it (and only those):\n%s", asked)
	}
	var stored string
	if err := f.st.Pool().QueryRow(ctx, `SELECT context_summary FROM chat_sessions WHERE id = $1`, sid).Scan(&stored); err != nil || stored != second {
		t.Fatalf("stored summary %q (%v), want the second", stored, err)
	}
}

// TestOfflineEngineNeedsNoContextSummary: without a model, nothing is queued; the quick
// summary built without a model is enough.
func TestOfflineEngineNeedsNoContextSummary(t *testing.T) {
	l := DefaultLimits()
	l.ContextBudget = 60
	l.Tiers = l.Tiers.With(entitlement.Overrides{SessionTokens: map[string]int{"USER": 100000}})
	f := newFixture(t, false, &l)
	uid := f.user(t, "USER")
	sid := f.newSession(t, uid)
	for i := range 6 {
		msg := fmt.Sprintf("Message %d: my statistics midterm is on Tuesday and my shifts keep running late.", i)
		if res, err := f.svc.Send(context.Background(), uid, SendInput{SessionID: &sid, Message: msg}, nil); err != nil || !res.Success {
			t.Fatalf("send: %+v %v", res, err)
		}
	}
	if n := len(queuetest.Jobs(t, f.q, ContextSummaryJobKind)); n != 0 {
		t.Fatalf("%d context summary jobs queued without a model", n)
	}
}
