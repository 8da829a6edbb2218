package companioneval

import (
	"strings"
	"time"

	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/safetyeval"
)

// Exchange is one turn of a run: the student's message, the reply, and whether the engine
// wrote it (the welcome, the check-in and the crisis reply are fixed texts of the send path).
type Exchange struct {
	Turn    Turn
	Reply   string
	Engine  bool
	Elapsed time.Duration
}

// Run is one conversation as the chat would hold it with no model configured.
type Run struct {
	Conv      Conversation
	Exchanges []Exchange
	// Memories are what the offline engine kept from the session; Recall is the next
	// session's opening (the welcome with its thread, as the send path writes it).
	Memories []string
	Recall   string
}

// Converse runs a conversation through the send path's safety decisions (as
// safetyeval.Converse mirrors chat.decide: the message alone, or in its context after a risky
// message or a check-in; the first message of a session is answered after the AI notice) and the engine.
func Converse(c Conversation, engine *companion.Offline) Run {
	run := Run{Conv: c}
	var s safetyeval.Sender
	var userTexts []string
	for _, t := range c.Turns {
		ex := Exchange{Turn: t}
		outcome, reply := s.Send(t.User, func(p companion.Prompt) string {
			start := time.Now()
			defer func() { ex.Elapsed, ex.Engine = time.Since(start), true }()
			return engine.Compose(p)
		})
		ex.Reply = reply
		if outcome == safetyeval.Answered {
			userTexts = append(userTexts, t.User)
		}
		run.Exchanges = append(run.Exchanges, ex)
	}
	for _, f := range companion.OfflineMemoriesAt(userTexts, companion.Profile{}, sessionAt) {
		run.Memories = append(run.Memories, f.Text)
	}
	if c.Followup != nil {
		run.Recall = companion.WelcomeWithThread("Sam", false,
			companion.ThreadOn(run.Memories, companion.Profile{}, sessionAt.Add(nextSessionAfter), sessionAt))
	}
	return run
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
