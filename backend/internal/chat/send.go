package chat

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/ratelimit"
	"github.com/percolate/percolate/backend/internal/store"
	dbgen "github.com/percolate/percolate/gen/db"
)

// SendInput is one message to send. Without SessionID a new session starts, whose reply is
// the welcome.
type SendInput struct {
	SessionID *uuid.UUID
	Message   string
}

// SendResult is the outcome of a send. Success is false, with Error set, when the companion
// could not reply; the user's message is stored either way.
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
}

// Turn is a message accepted and stored, waiting for its reply (see Begin).
type Turn struct {
	s       *Service
	user    dbgen.User
	session dbgen.ChatSession
	message string
	newSess bool
	checkIn bool
	risk    companion.Risk
	notice  string // the repeated AI disclosure, when due
	history []dbgen.Message
}

// SessionID is the id of the turn's session.
func (t *Turn) SessionID() uuid.UUID { return t.session.ID }

// Send stores the message and gets its reply; onDelta (may be nil) receives the reply's
// text as it is produced. Errors are for requests refused before anything is stored
// (validation, unknown or ended session, daily limit); a failed reply is a SendResult with
// Success false.
func (s *Service) Send(ctx context.Context, userID uuid.UUID, in SendInput, onDelta func(string) error) (SendResult, error) {
	t, err := s.Begin(ctx, userID, in)
	if err != nil {
		return SendResult{}, err
	}
	return t.Reply(ctx, onDelta), nil
}

// Begin validates the message and, in one transaction, checks the session (the caller's,
// active) and the daily quota, creates the session when there is none, and stores the
// message. The reply comes from Turn.Reply.
func (s *Service) Begin(ctx context.Context, userID uuid.UUID, in SendInput) (*Turn, error) {
	msg := strings.TrimSpace(in.Message)
	if msg == "" {
		return nil, apperr.Invalid("message", "Please enter a message.")
	}
	if n := utf8.RuneCountInString(msg); n > s.limits.MaxMessageChars {
		return nil, apperr.Invalid("message", fmt.Sprintf("Messages can be at most %d characters (this one has %d).", s.limits.MaxMessageChars, n))
	}
	now := s.now()
	if s.limits.BurstPerMinute > 0 {
		rl := ratelimit.New(s.store.Queries())
		rl.Now = s.now
		rule := ratelimit.Rule{Name: "chat_send", Limit: s.limits.BurstPerMinute, Window: time.Minute, Message: "You're sending messages very quickly. Please wait a moment and try again."}
		if err := rl.Hit(ctx, rule, userID.String()); err != nil {
			return nil, err
		}
	}
	t := &Turn{s: s, message: msg, risk: companion.Screen(msg)}
	err := s.store.WithTx(ctx, func(q *dbgen.Queries) error {
		u, err := s.user(ctx, q, userID)
		if err != nil {
			return err
		}
		t.user = u
		if in.SessionID != nil {
			sess, err := q.GetSessionForUserForUpdate(ctx, dbgen.GetSessionForUserForUpdateParams{ID: *in.SessionID, UserID: userID})
			if err != nil {
				return notFound("send message", err)
			}
			if sess.Status != statusActive {
				return apperr.New(apperr.ErrConflict, "CONFLICT", MsgSessionEnded)
			}
			t.session = sess
		}
		if in.SessionID == nil {
			// Session rows are always locked before the usage counter row (no deadlocks).
			n, err := q.TakePendingCheckins(ctx, userID)
			if err != nil {
				return fmt.Errorf("take check-ins: %w", err)
			}
			t.checkIn = n > 0
		}
		if err := s.takeQuota(ctx, q, u, now); err != nil {
			return err
		}
		if in.SessionID == nil {
			sess, err := q.CreateSession(ctx, dbgen.CreateSessionParams{
				UserID: userID, Title: s.titleFor(msg, t.risk), TokenLimit: int32(tierValue(s.limits.SessionTokens, u.Role)),
			})
			if err != nil {
				return fmt.Errorf("create session: %w", err)
			}
			if err := q.SetSessionDisclosure(ctx, dbgen.SetSessionDisclosureParams{At: &now, ID: sess.ID, UserID: userID}); err != nil {
				return fmt.Errorf("set disclosure: %w", err)
			}
			t.session, t.newSess = sess, true
		} else {
			if t.session.Title == DefaultTitle || t.session.Title == "" {
				title := s.titleFor(msg, t.risk)
				if err := q.SetSessionTitle(ctx, dbgen.SetSessionTitleParams{Title: title, ID: t.session.ID, UserID: userID}); err != nil {
					return fmt.Errorf("set title: %w", err)
				}
				t.session.Title = title
			}
			if last := t.session.LastDisclosureAt; last == nil || now.Sub(*last) >= companion.DisclosureInterval {
				age := 0
				if u.Age != nil {
					age = int(*u.Age)
				}
				t.notice = companion.RepeatedDisclosure(age)
				if err := q.SetSessionDisclosure(ctx, dbgen.SetSessionDisclosureParams{At: &now, ID: t.session.ID, UserID: userID}); err != nil {
					return fmt.Errorf("set disclosure: %w", err)
				}
			}
		}
		if t.risk != companion.RiskNone {
			// Counted without user or content; the next session opens with a check-in.
			if err := q.IncrementSafetyReferrals(ctx, day(now)); err != nil {
				return fmt.Errorf("count referral: %w", err)
			}
			if err := q.MarkSessionCheckin(ctx, dbgen.MarkSessionCheckinParams{ID: t.session.ID, UserID: userID}); err != nil {
				return fmt.Errorf("mark check-in: %w", err)
			}
		}
		if !t.newSess {
			hist, err := q.ListMessagesBySession(ctx, dbgen.ListMessagesBySessionParams{SessionID: t.session.ID, UserID: userID})
			if err != nil {
				return fmt.Errorf("load history: %w", err)
			}
			t.history = hist
		}
		m, err := q.CreateMessage(ctx, dbgen.CreateMessageParams{
			SessionID: t.session.ID, UserID: userID, Role: companion.RoleUser, Content: msg,
			TokenCount: int32(companion.EstimateTokens(msg)),
		})
		if err != nil {
			return fmt.Errorf("store message: %w", err)
		}
		// The opening exchange of a session (the starter and the welcome) is free.
		tokens := m.TokenCount
		if t.newSess {
			tokens = 0
		}
		sess, err := q.AddSessionTokens(ctx, dbgen.AddSessionTokensParams{Tokens: tokens, LastMessage: preview(msg), ID: t.session.ID, UserID: userID})
		if err != nil {
			return fmt.Errorf("count tokens: %w", err)
		}
		t.session = sess
		return nil
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// isStarter says whether msg is the web app's StarterMessage, which opens a new chat.
func isStarter(msg string) bool {
	return strings.EqualFold(strings.TrimSpace(msg), StarterMessage)
}

func (s *Service) titleFor(msg string, risk companion.Risk) string {
	if risk != companion.RiskNone {
		return riskyTitle
	}
	if isStarter(msg) {
		return DefaultTitle
	}
	return TitleFrom(msg)
}

// takeQuota counts the message against the user's daily limit, atomically with the insert
// (same transaction; the counter row is locked by the upsert).
func (s *Service) takeQuota(ctx context.Context, q *dbgen.Queries, u dbgen.User, now time.Time) error {
	limit := tierValue(s.limits.MessagesPerDay, u.Role)
	resets := startOfNextDay(now)
	refuse := &apperr.LimitError{
		Message:    fmt.Sprintf("You've reached today's limit of %d messages. It resets at midnight UTC, in %s.", limit, roundDuration(resets.Sub(now))),
		RetryAfter: resets.Sub(now),
	}
	if limit <= 0 {
		return refuse
	}
	_, err := q.IncrementUsageWithinLimit(ctx, dbgen.IncrementUsageWithinLimitParams{UserID: u.ID, Day: day(now), Kind: usageKindMessages, MaxCount: int32(limit)})
	if store.IsNotFound(err) {
		return refuse
	}
	if err != nil {
		return fmt.Errorf("count message: %w", err)
	}
	return nil
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

// Reply produces, streams and stores the reply to the turn's message. Fixed replies (the
// welcome, the crisis reply) need no model; the crisis reply replaces whatever a model
// would say. A model failure gives Success false; the user's message stays stored.
func (t *Turn) Reply(ctx context.Context, onDelta func(string) error) SendResult {
	s := t.s
	if onDelta == nil {
		onDelta = func(string) error { return nil }
	}
	res := SendResult{
		SessionID: t.session.ID, Title: t.session.Title,
		TokensUsed: int(t.session.TokensUsed), TokenLimit: int(t.session.TokenLimit),
	}
	var (
		text       string
		tokenCount int
	)
	switch {
	case t.newSess:
		text = companion.Welcome(t.user.Name, t.checkIn)
		if t.risk != companion.RiskNone {
			text = companion.Disclosure + " " + companion.CrisisReply
		}
		if err := onDelta(text); err != nil {
			return t.failed(res, err)
		}
	case t.risk != companion.RiskNone:
		text = companion.CrisisReply
		if t.notice != "" {
			text = t.notice + "\n\n" + text
		}
		if err := onDelta(text); err != nil {
			return t.failed(res, err)
		}
	default:
		var b strings.Builder
		if t.notice != "" {
			b.WriteString(t.notice + "\n\n")
			if err := onDelta(t.notice + "\n\n"); err != nil {
				return t.failed(res, err)
			}
		}
		reply, err := s.provider.Stream(ctx, t.prompt(), onDelta)
		if err != nil {
			return t.failed(res, err)
		}
		b.WriteString(reply.Text)
		if companion.Screen(reply.Text) != companion.RiskNone {
			// Whatever the model said, a reply that touches on risk carries the resources.
			extra := "\n\n" + companion.CrisisResources
			b.WriteString(extra)
			_ = onDelta(extra)
		}
		text = b.String()
		if reply.Usage.Reported {
			tokenCount = reply.Usage.CompletionTokens + companion.EstimateTokens(t.notice)
		}
	}
	if tokenCount <= 0 {
		tokenCount = companion.EstimateTokens(text)
	}
	if err := t.store(ctx, text, tokenCount, &res); err != nil {
		return t.failed(res, err)
	}
	res.Success = true
	res.AIResponse = text
	return res
}

func (t *Turn) failed(res SendResult, err error) SendResult {
	if !errors.Is(err, context.Canceled) {
		t.s.log.Warn("companion reply failed", "session_id", t.session.ID, "error", err.Error())
	}
	res.Success = false
	res.Error = MsgModelFailed
	return res
}

// store saves the reply, counts its tokens and ends the session at its token limit.
func (t *Turn) store(ctx context.Context, text string, tokens int, res *SendResult) error {
	ctx = context.WithoutCancel(ctx) // the reply was produced: keep it even if the client left
	uid := t.user.ID
	return t.s.store.InTx(ctx, func(q store.Tx) error {
		if _, err := q.CreateMessage(ctx, dbgen.CreateMessageParams{
			SessionID: t.session.ID, UserID: uid, Role: companion.RoleAssistant, Content: text, TokenCount: int32(tokens),
		}); err != nil {
			return fmt.Errorf("store reply: %w", err)
		}
		add := int32(tokens)
		if t.newSess {
			add = 0
		}
		sess, err := q.AddSessionTokens(ctx, dbgen.AddSessionTokensParams{Tokens: add, LastMessage: preview(text), ID: t.session.ID, UserID: uid})
		if err != nil {
			return fmt.Errorf("count tokens: %w", err)
		}
		if sess.Status == statusActive && sess.TokensUsed >= sess.TokenLimit {
			if sess, err = t.s.endSession(ctx, q, sess, EndReasonTokenLimit); err != nil {
				return err
			}
		}
		res.TokensUsed, res.TokenLimit, res.Title = int(sess.TokensUsed), int(sess.TokenLimit), sess.Title
		if sess.Status == statusEnded && sess.EndReason != nil && *sess.EndReason == EndReasonTokenLimit {
			res.SessionEnded, res.EndReason = true, EndReasonTokenLimit
		}
		return nil
	})
}

// endSession ends an active session and queues its summary, in the same transaction.
func (s *Service) endSession(ctx context.Context, q store.Tx, sess dbgen.ChatSession, reason string) (dbgen.ChatSession, error) {
	ended, err := q.EndSessionForUser(ctx, dbgen.EndSessionForUserParams{EndReason: &reason, ID: sess.ID, UserID: sess.UserID})
	if err != nil {
		return sess, notFound("end session", err)
	}
	if err := s.queueSummary(ctx, q, sess); err != nil {
		return sess, err
	}
	return ended, nil
}

// prompt builds the model prompt: persona, profile, trimmed history with a running summary.
func (t *Turn) prompt() companion.Prompt {
	p := profileOf(t.user)
	var hist []companion.Turn
	for _, m := range t.history {
		if m.Role == companion.RoleUser || m.Role == companion.RoleAssistant {
			hist = append(hist, companion.Turn{Role: m.Role, Content: m.Content})
		}
	}
	kept, older := companion.TrimHistory(hist, t.s.limits.ContextBudget)
	return companion.Prompt{System: companion.BuildSystemPrompt(p, older), History: kept, Message: t.message, Profile: p}
}

func profileOf(u dbgen.User) companion.Profile {
	p := companion.Profile{FocusAreas: u.FocusAreas, PrimaryConcerns: u.PrimaryConcerns, SensitiveTopics: u.SensitiveTopics}
	if u.Age != nil {
		p.Age = int(*u.Age)
	}
	return p
}
