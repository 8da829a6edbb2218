package chat

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/llmtest"
	"github.com/percolate/percolate/backend/internal/companion/safety"
	dbgen "github.com/percolate/percolate/gen/db"
)

// A possible risk asks the configured model before it interrupts: the model's classification
// (here its moderation endpoint, on the OpenAI-compatible test server) decides within the
// signal budget, and the offline verdict stands when the model cannot answer.

func TestPossibleRiskTheModelFindsSafeGetsAnOrdinaryReply(t *testing.T) {
	if safety.Screen(possibleRisk, safety.Context{}).Level != safety.Possible {
		t.Fatal("possibleRisk no longer screens as possible")
	}
	f := signalFixture(t, 5*time.Second)
	uid := f.user(t, "BASIC")
	sid := f.newSession(t, uid)
	f.llm.SetModeration(llmtest.Moderation{}) // nothing flagged
	f.llm.Enqueue(llmtest.Script{Chunks: []string{"That sounds ", "like a lot."}})
	res := f.send(t, uid, sid, possibleRisk)
	if res.AIResponse != "That sounds like a lot." {
		t.Fatalf("reply = %q", res.AIResponse)
	}
	if res.Title == riskyTitle {
		t.Fatalf("title = %q", res.Title)
	}
	if in := f.llm.Moderated(); len(in) == 0 || in[0] != possibleRisk {
		t.Fatalf("moderation inputs = %q", in)
	}
	if r, c := f.counts(t); r != 0 || c != 0 {
		t.Fatalf("referrals %d, check-ins %d; want 0, 0", r, c)
	}
	// Stored as a message that showed no risk, with an ordinary reply.
	rows, err := f.st.Queries().ListMessagesBySession(context.Background(), dbgen.ListMessagesBySessionParams{SessionID: sid, UserID: uid})
	if err != nil {
		t.Fatal(err)
	}
	var levels []int16
	for _, m := range rows {
		levels = append(levels, m.RiskLevel)
		if m.Role == companion.RoleUser && m.Content == possibleRisk && (m.AloneLevel == nil || *m.AloneLevel != 0) {
			t.Fatalf("alone level %v, want 0", m.AloneLevel)
		}
	}
	if want := []int16{0, 0, 0, 0}; !equal(levels, want) {
		t.Fatalf("risk levels %v, want %v", levels, want)
	}
	// So a short answer after it is not read as confirming a risk.
	f.llm.Enqueue(llmtest.Script{Chunks: []string{"Tell me more."}})
	if res := f.send(t, uid, sid, "yes"); res.AIResponse != "Tell me more." {
		t.Fatalf("the next message got %q", res.AIResponse)
	}
}

func TestPossibleRiskTheModelFindsRiskyGetsTheCheckIn(t *testing.T) {
	f := signalFixture(t, 5*time.Second)
	uid := f.user(t, "BASIC")
	sid := f.newSession(t, uid)
	f.llm.SetModeration(llmtest.Moderation{Flagged: []string{"self-harm/intent"}})
	f.llm.SetDefault(llmtest.Script{Chunks: []string{"the model must not write this reply"}})
	if res := f.send(t, uid, sid, possibleRisk); res.AIResponse != companion.CheckInReply {
		t.Fatalf("reply = %q", res.AIResponse)
	}
	if in := f.llm.Moderated(); len(in) != 1 || in[0] != possibleRisk {
		t.Fatalf("moderation inputs = %q", in)
	}
	if r, c := f.counts(t); r != 0 || c != 1 {
		t.Fatalf("referrals %d, check-ins %d; want 0, 1", r, c)
	}
	if res := f.send(t, uid, sid, "tonight"); res.AIResponse != companion.CrisisReply {
		t.Fatalf("the answer got %q", res.AIResponse)
	}
}

func TestPossibleRiskWithTheModelUnableToAnswerGetsTheCheckIn(t *testing.T) {
	for name, m := range map[string]llmtest.Moderation{
		"slow past the budget": {Stall: true},
		"erroring":             {Fail: http.StatusInternalServerError},
		"down":                 {Fail: http.StatusServiceUnavailable},
		"garbled":              {Garbage: true},
	} {
		t.Run(name, func(t *testing.T) {
			f := signalFixture(t, 300*time.Millisecond)
			uid := f.user(t, "BASIC")
			sid := f.newSession(t, uid)
			f.llm.SetModeration(m)
			f.llm.SetDefault(llmtest.Script{Chunks: []string{"the model must not write this reply"}})
			if res := f.send(t, uid, sid, possibleRisk); res.AIResponse != companion.CheckInReply {
				t.Fatalf("reply = %q", res.AIResponse)
			}
			if in := f.llm.Moderated(); len(in) != 1 {
				t.Fatalf("moderation inputs = %q", in)
			}
			if r, c := f.counts(t); r != 0 || c != 1 {
				t.Fatalf("referrals %d, check-ins %d; want 0, 1", r, c)
			}
		})
	}
}

// The model without a moderation endpoint is asked through its chat completions, and a
// classification it answers that cannot be read leaves the check-in.
func TestPossibleRiskClassifiedByTheChatModel(t *testing.T) {
	for answer, want := range map[string]string{"SAFE": "That sounds like a lot.", "RISK": companion.CheckInReply, "perhaps": companion.CheckInReply} {
		t.Run(answer, func(t *testing.T) {
			f := signalFixture(t, 5*time.Second)
			uid := f.user(t, "BASIC")
			sid := f.newSession(t, uid)
			f.llm.SetModeration(llmtest.Moderation{Fail: http.StatusNotFound})
			f.llm.Route("You are a safety classifier", llmtest.Script{Chunks: []string{answer}})
			f.llm.Enqueue(llmtest.Script{Chunks: []string{"That sounds ", "like a lot."}})
			if res := f.send(t, uid, sid, possibleRisk); res.AIResponse != want {
				t.Fatalf("reply = %q, want %q", res.AIResponse, want)
			}
		})
	}
}

func TestClearRiskNeverWaitsForTheModel(t *testing.T) {
	f := signalFixture(t, 5*time.Second)
	uid := f.user(t, "BASIC")
	sid := f.newSession(t, uid)
	f.llm.SetModeration(llmtest.Moderation{}) // would say safe if asked
	f.llm.SetDefault(llmtest.Script{Chunks: []string{"SAFE"}})
	if res := f.send(t, uid, sid, clearRisk); res.AIResponse != companion.CrisisReply {
		t.Fatalf("reply = %q", res.AIResponse)
	}
	if n := len(f.llm.Moderated()) + len(f.llm.Requests()); n != 0 {
		t.Fatalf("the model was asked %d times about a clear risk", n)
	}
}

func TestOrdinaryMessageAsksNoClassificationBeforeItsReply(t *testing.T) {
	f := signalFixture(t, 5*time.Second)
	uid := f.user(t, "BASIC")
	sid := f.newSession(t, uid)
	f.llm.SetModeration(llmtest.Moderation{})
	f.llm.Enqueue(llmtest.Script{Chunks: []string{"Good luck with it."}})
	if res := f.send(t, uid, sid, noRisk); res.AIResponse != "Good luck with it." {
		t.Fatalf("reply = %q", res.AIResponse)
	}
	// Only the signal asked alongside the reply (askSignal); the safety step asked nothing.
	if in := f.llm.Moderated(); len(in) != 1 {
		t.Fatalf("moderation inputs = %q, want the reply's signal only", in)
	}
}
