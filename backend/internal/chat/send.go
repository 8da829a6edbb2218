package chat

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/companion/safety"
	"github.com/percolate/percolate/backend/internal/ratelimit"
	dbgen "github.com/percolate/percolate/gen/db"
)

// SendInput is one message to send. Without SessionID a new session starts, whose reply is
// the welcome.
type SendInput struct {
	SessionID *uuid.UUID
	Message   string
	// Paced says someone watches the reply arrive as a stream, so the offline engine may pace
	// its words; a reply nobody watches comes at once.
	Paced bool
	// Quotas are further daily quotas the message counts against, taken in the same
	// transaction as the message (voice messages).
	Quotas []Quota
	// Opening is what a new session's welcome says in place of its open question ("Talk about
	// it" on a check-in: the check-in acknowledged). It is the companion's words, never stored
	// as the user's; ignored when the session does not open with the welcome.
	Opening string
	// CheckinID is the check-in a new session is started from (chat_sessions.checkin_id); a
	// check-in that is not the user's is not linked.
	CheckinID *uuid.UUID
	// Continues is one of the user's sessions whose thread a new session picks up ("Continue
	// in a new session"): the new session's prompts carry its title, and its summary while
	// memory is on and it had no crisis (companion.ContinuedThread). Another user's session
	// is not found.
	Continues *uuid.UUID
}

// Quota is a further daily quota of a send.
type Quota struct {
	// Kind names the counter (usage_counters.kind).
	Kind string
	// Limit is the caller's number of uses a day.
	Limit int
	// Refusal is what the user reads when the limit is reached.
	Refusal string
}

// SendResult is the outcome of a send. Success is false, with Error set, when the companion
// could not reply (or the reply was stopped before any text); the user's message is stored
// either way.
type SendResult struct {
	Success      bool
	SessionID    uuid.UUID
	Title        string
	AIResponse   string
	TokensUsed   int
	TokenLimit   int
	SessionEnded bool
	EndReason    string
	Error        string
	// Status is how the stored reply ended (StatusComplete, StatusInterrupted, StatusStopped),
	// empty when no reply was stored.
	Status string
	// Stopped says the user stopped the reply.
	Stopped bool
	// AccountGone says the account was deleted while the reply was written; Send answers
	// it as a signed-out caller.
	AccountGone bool
	// SafetyPinned is the kind of danger the session's resources are pinned for (see
	// Session.SafetyPinned), nil while nothing is pinned.
	SafetyPinned *string
}

// Send stores the message and waits for its reply; onDelta (may be nil) receives the reply's
// text as it is produced. Errors are for requests refused before anything is stored
// (validation, unknown or ended session, daily limit), or ctx's error when the caller stopped
// waiting: the reply goes on and is stored all the same. A failed reply is a SendResult with
// Success false.
func (s *Service) Send(ctx context.Context, userID uuid.UUID, in SendInput, onDelta func(string) error) (SendResult, error) {
	t, err := s.Begin(ctx, userID, in)
	if err != nil {
		return SendResult{}, err
	}
	res, err := t.Follow(ctx, onDelta)
	if err == nil && res.AccountGone {
		return SendResult{}, fmt.Errorf("store reply: %w", apperr.ErrUnauthorized)
	}
	return res, err
}

// Begin validates the message and stores it, then starts its reply: in a new session (open)
// or the caller's active one (continue). The reply is produced under its own deadline, not
// ctx's, and stored even if the caller goes away; follow it with Turn.Follow.
func (s *Service) Begin(ctx context.Context, userID uuid.UUID, in SendInput) (*Turn, error) {
	msg := strings.TrimSpace(in.Message)
	if msg == "" {
		return nil, apperr.Invalid("message", "Please enter a message.")
	}
	if n := utf8.RuneCountInString(msg); n > s.limits.MaxMessageChars {
		return nil, apperr.Invalid("message", fmt.Sprintf("Messages can be at most %d characters (this one has %d).", s.limits.MaxMessageChars, n))
	}
	sc := s.screen(msg)
	if in.SessionID == nil {
		return s.open(ctx, userID, msg, sc, in)
	}
	return s.continueSession(ctx, userID, *in.SessionID, msg, sc, in)
}

// isStarter says whether msg is the web app's StarterMessage, which opens a new chat.
func isStarter(msg string) bool {
	return strings.EqualFold(strings.TrimSpace(msg), StarterMessage)
}

func (s *Service) titleFor(msg string, risk safety.Result) string {
	if risk.Risky() {
		return riskyTitle
	}
	if isStarter(msg) {
		return DefaultTitle
	}
	return TitleFrom(msg)
}

// counters are the limits a send counts against, taken in its first round trip: the burst
// limit and the daily quotas. The daily counters are taken without a ceiling, since the
// caller's role (and so its limit) arrives in the same round trip; check then refuses above
// the limit, and the rollback gives the count back. Each counter row stays locked until the
// transaction ends, so parallel sends are admitted one at a time and exactly up to the limit.
type counters struct {
	day         time.Time
	now         time.Time
	quotas      []Quota
	burstErr    error
	messages    int32
	messagesErr error
	extra       []int32 // by quota
	extraErr    []error
}

func (s *Service) newCounters(quotas []Quota) *counters {
	now := s.now()
	return &counters{day: day(now), now: now, quotas: quotas, extra: make([]int32, len(quotas)), extraErr: make([]error, len(quotas))}
}

// count takes c's counters for the user.
func (s *Service) count(ctx context.Context, q *dbgen.Queries, c *counters, userID uuid.UUID) {
	if s.limits.BurstPerMinute > 0 {
		rl := ratelimit.New(q)
		rl.Now = s.now
		c.burstErr = rl.Hit(ctx, burstRule(s.limits.BurstPerMinute), userID.String())
	}
	c.messages, c.messagesErr = q.TakeUsage(ctx, dbgen.TakeUsageParams{UserID: userID, Day: c.day, Kind: usageKindMessages})
	for i, qu := range c.quotas {
		c.extra[i], c.extraErr[i] = q.TakeUsage(ctx, dbgen.TakeUsageParams{UserID: userID, Day: c.day, Kind: qu.Kind})
	}
}

// burstRule is the limit of sends a minute.
func burstRule(perMinute int) ratelimit.Rule {
	return ratelimit.Rule{Name: "chat_send", Limit: perMinute, Window: time.Minute, Message: "You're sending messages very quickly. Please wait a moment and try again."}
}

// check refuses the send when a limit is reached.
func (s *Service) check(c *counters, role string) error {
	if c.burstErr != nil {
		return c.burstErr
	}
	resets := startOfNextDay(c.now)
	wait := resets.Sub(c.now)
	limit := s.limits.Tiers.For(role).MessagesPerDay
	if c.messagesErr != nil {
		return fmt.Errorf("count message: %w", c.messagesErr)
	}
	if limit <= 0 || int(c.messages) > limit {
		return &apperr.LimitError{
			Message:    fmt.Sprintf("You've reached today's limit of %d messages. It resets in %s.", limit, roundDuration(wait)),
			RetryAfter: wait,
		}
	}
	for i, qu := range c.quotas {
		if err := c.extraErr[i]; err != nil {
			return fmt.Errorf("count %s: %w", qu.Kind, err)
		}
		if qu.Limit <= 0 || int(c.extra[i]) > qu.Limit {
			return &apperr.LimitError{Message: qu.Refusal, RetryAfter: wait}
		}
	}
	return nil
}

// kinds are the counters a failed reply gives back.
func (c *counters) kinds() []string {
	out := []string{usageKindMessages}
	for _, qu := range c.quotas {
		out = append(out, qu.Kind)
	}
	return out
}

func roundDuration(d time.Duration) string {
	h := int(d.Hours())
	m := int(d.Minutes()) % 60
	switch {
	case h > 0 && m > 0:
		return fmt.Sprintf("%d h %d min", h, m)
	case h > 0:
		return fmt.Sprintf("%d h", h)
	case m > 0:
		return fmt.Sprintf("%d min", m)
	default:
		return "less than a minute"
	}
}
