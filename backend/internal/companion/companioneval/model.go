package companioneval

import (
	"context"
	"strings"
	"time"

	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/safetyeval"
)

// Model is the model-backed companion as the send path drives it (chat.Turn.prompt,
// modelReply, askSignal and withSignal): the app's system prompt and message building, the
// reply screened for risk, and the model-side safety signal asked alongside.
type Model struct {
	// Provider writes the replies (companion.NewOpenAI with the app's configuration). When it
	// is also a companion.Signaller the model-side safety signal is asked for each message, and
	// a companion.MemoryExtractor extracts the session's memories.
	Provider companion.Provider
	// Profile is the student's profile (the benchmark's student gives none).
	Profile companion.Profile
	// ContextBudget is the token budget of the history sent (companion.DefaultContextBudget when 0).
	ContextBudget int
	// ReplyTimeout is each reply's own deadline (2 minutes when 0).
	ReplyTimeout time.Duration
}

// Converse runs a conversation through the send path's safety decisions and the model.
func (m *Model) Converse(ctx context.Context, c Conversation) Run {
	pinned := false // the session's resources are pinned (chat.Turn.pins): no resources added again
	sg, signals := m.Provider.(companion.Signaller)
	signals = signals && !m.Provider.Offline()
	return converse(c, func(s *safetyeval.Sender, ex *Exchange) {
		if signals {
			s.ModelSaysSafe = func(msg string) bool {
				risky, err := sg.Signal(ctx, msg)
				ex.Spared = err == nil && !risky
				return ex.Spared
			}
		}
		signalled := false
		ex.Outcome, ex.Reply = s.Send(ex.Turn.User, func(p companion.Prompt) string {
			start := time.Now()
			text, sig, err := m.reply(ctx, p, pinned)
			ex.Elapsed, signalled = time.Since(start), sig
			ex.Engine, ex.Failed = err == nil, err != nil
			return text
		})
		if signalled {
			s.AskedCheckIn()
			ex.Risk = true
		}
		pinned = pinned || signalled || ex.Outcome != safetyeval.Answered
	}, func(userTexts []string) ([]string, bool) {
		ex, ok := m.Provider.(companion.MemoryExtractor)
		if !ok || len(userTexts) == 0 {
			return nil, false
		}
		ctx, cancel := context.WithTimeout(ctx, m.timeout())
		defer cancel()
		facts, err := ex.ExtractMemories(ctx, userTexts, nil)
		if err != nil {
			return nil, true
		}
		var out []string
		for _, f := range facts {
			if text, ok := companion.ValidFact(f.Text, m.Profile); ok {
				out = append(out, text)
			}
		}
		return out, false
	})
}

func (m *Model) timeout() time.Duration {
	if m.ReplyTimeout > 0 {
		return m.ReplyTimeout
	}
	return 2 * time.Minute
}

// Prompt is the prompt the send path gives the model for p (chat.Turn.prompt): the system
// prompt with the profile and the quick summary of the turns that no longer fit the budget,
// the after-crisis guidance in a session that had a crisis reply, and the newest turns.
func (m *Model) Prompt(p companion.Prompt) companion.Prompt {
	budget := m.ContextBudget
	if budget <= 0 {
		budget = companion.DefaultContextBudget
	}
	kept, older := companion.TrimHistory(p.History, budget)
	system := companion.BuildSystemPrompt(m.Profile, older)
	if p.Crises > 0 {
		system += "\n\n" + companion.AfterCrisisGuidance
	}
	p.System, p.History, p.Profile = system, kept, m.Profile
	return p
}

// reply writes the model's reply as chat.Turn.modelReply stores it: what the model said, with
// the resources added when its words screen as risky and none are pinned; after a positive
// model-side signal (chat.Turn.withSignal) with the check-in question (and the resources)
// added, or the check-in reply in place of a model that failed before any text.
func (m *Model) reply(ctx context.Context, p companion.Prompt, pinned bool) (text string, signalled bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, m.timeout())
	defer cancel()
	var signal chan bool
	if sg, ok := m.Provider.(companion.Signaller); ok && !m.Provider.Offline() {
		signal = make(chan bool, 1)
		go func() {
			risky, err := sg.Signal(ctx, p.Message)
			signal <- err == nil && risky
		}()
	}
	var got strings.Builder
	_, err = m.Provider.Stream(ctx, m.Prompt(p), func(chunk string) error {
		got.WriteString(chunk)
		return nil
	})
	text = got.String()
	if strings.TrimSpace(text) == "" {
		text = ""
		if err == nil {
			err = companion.ErrModel
		}
	}
	country := m.Profile.Country
	if text != "" && !pinned && companion.Screen(text) != companion.RiskNone {
		text += "\n\n" + companion.ResourcesFor(country)
	}
	if signal != nil && <-signal {
		signalled = true
		if text == "" {
			return companion.CheckInReplyFor(companion.Where{Country: country, Age: m.Profile.Age}), true, nil
		}
		extra := "\n\n" + companion.CheckInQuestion
		if !companion.HasResources(text) && !pinned {
			extra += " " + companion.ResourcesFor(country)
		}
		text += extra
	}
	return text, signalled, err
}
