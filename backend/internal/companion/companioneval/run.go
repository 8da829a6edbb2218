package companioneval

import (
	"strings"
	"time"

	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/safety"
	"github.com/percolate/percolate/backend/internal/companion/safetyeval"
)

// Exchange is one turn of a run: the student's message, the reply, and whether the companion
// (the offline engine or the model) wrote it (the welcome, the check-in and the crisis reply
// are fixed texts of the send path).
type Exchange struct {
	Turn    Turn
	Reply   string
	Engine  bool
	Elapsed time.Duration
	// Outcome is the send path's decision for the turn.
	Outcome safetyeval.Outcome
	// Risk: the turn showed risk to the app, by the send path's decision, the local screen
	// reading the message alone, or (with a model) a positive model-side safety signal.
	Risk bool
	// Spared: a model's classification spared the turn the check-in its screen asked for
	// (Sender.ModelSaysSafe); the turn then shows no risk to the app.
	Spared bool
	// Failed: the model failed to write the reply (Reply is what arrived before it failed,
	// and Engine is false: the figures leave it out and count it as failed).
	Failed bool
}

// Run is one conversation as the chat would hold it.
type Run struct {
	Conv      Conversation
	Exchanges []Exchange
	// Memories are what the companion kept from the session (the offline extractor, or the
	// model's); Recall is the next session's opening (the welcome with its thread, as the
	// send path writes it).
	Memories []string
	Recall   string
	// Thread is the part of Recall picked up from the memories ("" when none was): only it
	// can recall a fact.
	Thread string
	// MemoryFailed: the model failed to extract the session's memories.
	MemoryFailed bool
}

// Converse runs a conversation through the send path's safety decisions (as
// safetyeval.Converse mirrors chat.decide: the message alone, or in its context after a risky
// message or a check-in; the first message of a session is answered after the AI notice) and
// the offline engine.
func Converse(c Conversation, engine *companion.Offline) Run {
	return converse(c, func(s *safetyeval.Sender, ex *Exchange) {
		ex.Outcome, ex.Reply = s.Send(ex.Turn.User, func(p companion.Prompt) string {
			start := time.Now()
			defer func() { ex.Elapsed, ex.Engine = time.Since(start), true }()
			return engine.Compose(p)
		})
	}, func(userTexts []string) ([]string, bool) {
		var out []string
		for _, f := range companion.OfflineMemoriesAt(userTexts, companion.Profile{}, sessionAt) {
			out = append(out, f.Text)
		}
		return out, false
	})
}

// converse runs the turns through send, which decides and writes each reply with the session's
// Sender, then keeps the session's memories with remember (from the messages that got an
// ordinary reply: nothing flagged is remembered) and writes the next session's opening.
func converse(c Conversation, send func(*safetyeval.Sender, *Exchange), remember func([]string) ([]string, bool)) Run {
	run := Run{Conv: c}
	var s safetyeval.Sender
	var userTexts []string
	for _, t := range c.Turns {
		ex := Exchange{Turn: t}
		send(&s, &ex)
		ex.Risk = ex.Risk || ex.Outcome != safetyeval.Answered || !ex.Spared && safety.Screen(t.User, safety.Context{}).Risky()
		if ex.Outcome == safetyeval.Answered {
			userTexts = append(userTexts, t.User)
		}
		run.Exchanges = append(run.Exchanges, ex)
	}
	run.Memories, run.MemoryFailed = remember(userTexts)
	run.opening()
	return run
}

// opening writes the next session's welcome from the run's memories, with the thread it
// picks up (none without memories).
func (run *Run) opening() {
	run.Recall, run.Thread = "", ""
	if run.Conv.Followup == nil {
		return
	}
	run.Thread = companion.ThreadOn(run.Memories, companion.Profile{}, sessionAt.Add(nextSessionAfter), sessionAt)
	run.Recall = companion.WelcomeWithThread("Sam", false, run.Thread)
}

// sessionAt is when every scripted session is held (a Monday evening), so that relative days
// ("tomorrow", "next thursday") resolve the same on every run; the follow-up session opens
// nextSessionAfter later, when the events of the first have passed.
var sessionAt = time.Date(2026, time.November, 23, 18, 0, 0, 0, time.UTC)

const nextSessionAfter = 12 * 24 * time.Hour

// userWords are the lower-case words of a text, apostrophes dropped.
func userWords(s string) []string {
	s = strings.NewReplacer("'", "", "’", "").Replace(strings.ToLower(s))
	return strings.FieldsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127)
	})
}
