package chat

import (
	"strings"
	"testing"
	"time"

	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/llmtest"
	"github.com/percolate/percolate/backend/internal/companion/safety"
)

// Issue 36: safety and system texts never count against the student's tokens. A check-in, a
// crisis reply, the resources and the AI notice are Percolate's words; only the student's
// message and the model's own words are charged.
func TestSafetyAndSystemTextsAreNotCharged(t *testing.T) {
	f := newFixture(t, true, nil)
	uid := f.user(t, "USER")
	sid := f.newSession(t, uid)
	f.llm.SetDefault(llmtest.Script{Chunks: []string{"the model must not be used"}})
	before := f.send(t, uid, sid, "hello there").TokensUsed

	// The model, asked about the possible risk, agrees with the screen.
	f.llm.SetModeration(llmtest.Moderation{Flagged: []string{"self-harm"}})
	res := f.send(t, uid, sid, possibleRisk)
	f.llm.SetModeration(llmtest.Moderation{})
	if !strings.Contains(res.AIResponse, companion.CheckInQuestion) {
		t.Fatalf("possible risk got %q", res.AIResponse)
	}
	if got, want := res.TokensUsed-before, companion.EstimateTokens(possibleRisk); got != want {
		t.Fatalf("the check-in cost %d tokens beyond the message's %d", got-want, want)
	}
	before = res.TokensUsed
	res = f.send(t, uid, sid, "tonight")
	if !strings.Contains(res.AIResponse, companion.CrisisReplyFor(companion.Risk(safety.Suicide), companion.Where{})) {
		t.Fatalf("the answer to the check-in got %q", res.AIResponse)
	}
	if got, want := res.TokensUsed-before, companion.EstimateTokens("tonight"); got != want {
		t.Fatalf("the crisis reply cost %d tokens beyond the message's %d", got-want, want)
	}

	// A model reply after the AI notice is due again: the notice is free, the model's words not.
	f.llm.SetDefault(llmtest.Script{Chunks: []string{"That sounds like a lot to carry."}})
	f.advance(3*time.Hour + time.Minute)
	before = res.TokensUsed
	res = f.send(t, uid, sid, "thanks, i am ok now, just tired")
	if !strings.HasPrefix(res.AIResponse, companion.Disclosure) {
		t.Fatalf("no AI notice: %q", res.AIResponse)
	}
	// The scripted model reports its own usage, so the model's words cost at most their estimate.
	most := companion.EstimateTokens("thanks, i am ok now, just tired") + companion.EstimateTokens("That sounds like a lot to carry.")
	if got := res.TokensUsed - before; got > most || got <= companion.EstimateTokens("thanks, i am ok now, just tired") {
		t.Fatalf("the exchange cost %d tokens, want the message and the model's words only (at most %d)", got, most)
	}
}
