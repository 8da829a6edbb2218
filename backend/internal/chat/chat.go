package chat

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"
	"time"
	"unicode"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/config"
	"github.com/percolate/percolate/backend/internal/entitlement"
	"github.com/percolate/percolate/backend/internal/queue"
	"github.com/percolate/percolate/backend/internal/store"
	dbgen "github.com/percolate/percolate/gen/db"
	"github.com/percolate/percolate/gen/limits"
)

// Texts and values of the chat rules.
const (
	// DefaultTitle names a session until its first real message gives it a title.
	DefaultTitle = "New Chat"
	// StarterMessage is what the web app sends to open a new chat.
	StarterMessage = "Hello! I'd like to start a new conversation."
	// EndReasonUser and EndReasonTokenLimit are the end reasons.
	EndReasonUser       = "Ended by user"
	EndReasonTokenLimit = "Token limit reached" // #nosec G101 -- the reason a session ended, shown to the user
	// MsgSessionEnded refuses a message to an ended session.
	MsgSessionEnded = "This session has ended. You cannot send new messages."
	// MsgModelFailed is the error of a reply the companion could not give.
	MsgModelFailed = "The companion couldn't answer just now. Your message is saved; please try again in a moment."
	// MsgReplyStopped is the error of a reply stopped before any text was written.
	MsgReplyStopped = "The reply was stopped before it began. Your message is saved; you can ask again."
	// MsgReplyInProgress refuses a send or a retry while the session's reply is being written.
	MsgReplyInProgress = "Percolate is still replying to your last message. Please wait for it, or stop it first."
	// MsgAlreadyAnswered refuses a retry of a message that already has a complete reply.
	MsgAlreadyAnswered = "Your last message already has a reply."
	// SummaryJobKind is the job that summarises an ended session.
	SummaryJobKind = "chat.summary"

	// StatusComplete, StatusInterrupted and StatusStopped say how a stored reply ended: whole,
	// cut short by a model failure, or stopped by the user.
	StatusComplete    = "complete"
	StatusInterrupted = "interrupted"
	StatusStopped     = "stopped"

	usageKindMessages = "chat_message"
	statusActive      = "ACTIVE"
	statusEnded       = "ENDED"
	lastMessageMax    = 300
	titleMax          = 60
	riskyTitle        = "A difficult moment"
)

// Limits are the chat's limits; the per-tier ones come from the entitlement table.
type Limits struct {
	// Tiers holds each role's messages a day, session tokens and whether it sees summaries.
	Tiers entitlement.Table
	// MaxMessageChars is the longest message accepted.
	MaxMessageChars int
	// ContextBudget is the token budget of the history sent to a model.
	ContextBudget int
	// BurstPerMinute limits how fast one user may send, across instances (0: no limit).
	BurstPerMinute int
}

// DefaultLimits are the product's defaults.
func DefaultLimits() Limits {
	return Limits{
		Tiers:           entitlement.Default(),
		MaxMessageChars: limits.SendMessageRequestMessageMaxLength,
		ContextBudget:   companion.DefaultContextBudget,
		BurstPerMinute:  20,
	}
}

// Service is the chat domain service.
type Service struct {
	store    *store.Store
	queue    *queue.Queue
	provider companion.Provider
	limits   Limits
	now      func() time.Time
	log      *slog.Logger
	// replyTimeout is a reply's own deadline; poll is how often a wait for a reply written
	// by another instance looks at the database besides listening for its notification.
	replyTimeout time.Duration
	poll         time.Duration
	replies      replies
	listener     *store.Listener // shared, from Options; nil: Start runs its own
	details      detailCache     // the sessions' details last read, by version (detailcache.go)
	states       sendStates      // what the next send to a session needs, as its last reply left it (sendstate.go)
	keptSends    atomic.Int64    // sends written from a kept state, in one round trip
}

// Options tune a Service; zero values take the defaults, except Queue.
type Options struct {
	// Queue runs the chat's background jobs (session summaries). Required: New registers
	// the chat's workers on it, so build the service before the queue starts.
	Queue  *queue.Queue
	Limits *Limits
	Now    func() time.Time
	Logger *slog.Logger
	// ReplyTimeout is a reply's own deadline, whatever happens to its request (default
	// config.DefaultReplyTimeout).
	ReplyTimeout time.Duration
	// Listener, when set, is the instance's shared notification listener, which listens on
	// NotifyChannel and whose Run is its owner's; without it Start runs one of its own (and
	// with it a connection of its own).
	Listener *store.Listener
	// PollInterval is how often a wait for a reply written by another instance re-reads the
	// database, in case a notification was missed (default 2 s).
	PollInterval time.Duration
	// DetailCacheBytes is how much of session details the instance keeps, to answer a read of
	// an unchanged session without reading its messages again (default
	// DefaultDetailCacheBytes; negative: none).
	DetailCacheBytes int
	// SendStateBytes is how much the instance keeps of what the next send to a session needs,
	// so that the send is written in one round trip (default DefaultSendStateBytes; negative:
	// none).
	SendStateBytes int
}

// New returns the chat service. Start makes it take part in replies across instances;
// Shutdown lets its replies in progress finish.
func New(st *store.Store, provider companion.Provider, opts Options) *Service {
	if opts.Queue == nil {
		panic("chat: Options.Queue is required")
	}
	s := &Service{
		store: st, queue: opts.Queue, provider: provider, limits: DefaultLimits(), now: time.Now, log: slog.Default(),
		replyTimeout: config.DefaultReplyTimeout, poll: 2 * time.Second,
	}
	if opts.Limits != nil {
		s.limits = *opts.Limits
	}
	if s.limits.MaxMessageChars <= 0 {
		s.limits.MaxMessageChars = limits.SendMessageRequestMessageMaxLength
	}
	if opts.Now != nil {
		s.now = opts.Now
	}
	if opts.Logger != nil {
		s.log = opts.Logger
	}
	if opts.ReplyTimeout > 0 {
		s.replyTimeout = opts.ReplyTimeout
	}
	if opts.PollInterval > 0 {
		s.poll = opts.PollInterval
	}
	s.listener = opts.Listener
	s.details = newDetailCache(cmp.Or(opts.DetailCacheBytes, DefaultDetailCacheBytes))
	s.states = newSendStates(cmp.Or(opts.SendStateBytes, DefaultSendStateBytes))
	s.replies.init()
	s.registerWorkers(opts.Queue)
	return s
}

// Session is a session as the caller may see it. Summary and Emotions are set only for
// roles other than USER and only once the session has ended.
type Session struct {
	ID          uuid.UUID
	Title       string
	Status      string
	Active      bool
	TokensUsed  int
	TokenLimit  int
	LastMessage string
	UpdatedAt   time.Time
	EndReason   *string
	Summary     *string
	Emotions    []string
	// ClosingFeeling is how the user felt as the session ended ("better", "same", "worse"),
	// when they said; nil otherwise.
	ClosingFeeling *string
	// SafetyPinned is the kind of danger the session's resources are pinned for, nil while
	// nothing is (migration 00025).
	SafetyPinned *string
	// CheckinID is the check-in the session was started from ("Talk about it"), nil when it
	// was not or once that check-in is deleted.
	CheckinID *uuid.UUID
}

// Message is one message of a session. Status says how a reply ended (StatusComplete,
// StatusInterrupted, StatusStopped); a user's message is always complete.
type Message struct {
	ID         uuid.UUID
	Role       string
	Content    string
	TokenCount int
	CreatedAt  time.Time
	Status     string
}

// Detail is a session with its messages. ReplyInProgress says a reply is being written
// (Attach follows it). Messages may be shared with the service's cache: it must not be
// changed.
type Detail struct {
	Session
	Messages        []Message
	ReplyInProgress bool
	// Version is the session's version (chat_sessions.version) at which its row and its
	// messages were both read, or -1 when not known (a write came between the two reads, or
	// the session is too large to cache). Two details of one session at one version ≥ 0 hold
	// the same messages.
	Version int64
}

func messageView(m dbgen.Message) Message {
	return Message{ID: m.ID, Role: m.Role, Content: m.Content, TokenCount: int(m.TokenCount), CreatedAt: m.CreatedAt, Status: m.Status}
}

func view(s dbgen.ChatSession, ent entitlement.Entitlements) Session {
	v := Session{
		ID: s.ID, Title: s.Title, Status: s.Status, Active: s.Status == statusActive,
		TokensUsed: int(s.TokensUsed), TokenLimit: int(s.TokenLimit), LastMessage: s.LastMessage,
		UpdatedAt: s.UpdatedAt, EndReason: s.EndReason, Emotions: []string{}, ClosingFeeling: s.ClosingFeeling,
		SafetyPinned: s.SafetyPinned, CheckinID: s.CheckinID,
	}
	if v.Title == "" {
		v.Title = DefaultTitle
	}
	if ent.Summaries && s.Status == statusEnded {
		v.Summary = s.Summary
		if s.Emotions != nil {
			v.Emotions = s.Emotions
		}
	}
	return v
}

// listed is a list row as the session it shows, for view: a field of the list is added here
// and in view. The columns a list item does not show are not read, and left zero: the tokens
// and the end reason among them.
func listed(r dbgen.ListSessionsPageRow) dbgen.ChatSession {
	return dbgen.ChatSession{
		ID: r.ID, Title: r.Title, Status: r.Status, Summary: r.Summary, Emotions: r.Emotions,
		LastMessage: r.LastMessage, UpdatedAt: r.UpdatedAt, ClosingFeeling: r.ClosingFeeling,
		CheckinID: r.CheckinID,
	}
}

// user reads the caller's row from the database (its role not from the token, which may be stale).
func (s *Service) user(ctx context.Context, q *dbgen.Queries, userID uuid.UUID) (dbgen.User, error) {
	u, err := q.GetUserByID(ctx, userID)
	return u, userErr(err)
}

// userErr is a read of the caller's account's error: a missing account (deleted since its
// token was checked) is signed out.
func userErr(err error) error {
	if store.IsNotFound(err) {
		return fmt.Errorf("load user: %w", apperr.ErrUnauthorized)
	}
	if err != nil {
		return fmt.Errorf("load user: %w", err)
	}
	return nil
}

func notFound(what string, err error) error {
	if store.IsNotFound(err) {
		return fmt.Errorf("%s: %w", what, apperr.ErrNotFound)
	}
	return fmt.Errorf("%s: %w", what, err)
}

// TitleFrom makes a session title from a message: its first sentence, at most 60
// characters, cut at a word; never empty.
func TitleFrom(msg string) string {
	s := strings.Join(strings.Fields(msg), " ")
	if i := strings.IndexAny(s, ".!?\n"); i > 0 {
		s = s[:i]
	}
	s = strings.TrimFunc(s, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSpace(r) })
	if r := []rune(s); len(r) > titleMax {
		cut := string(r[:titleMax])
		if i := strings.LastIndex(cut, " "); i > titleMax/2 {
			cut = cut[:i]
		}
		s = strings.TrimRight(cut, " ,;:-") + "…"
	}
	if s == "" {
		return DefaultTitle
	}
	return s
}

func preview(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > lastMessageMax {
		s = string(r[:lastMessageMax-1]) + "…"
	}
	return s
}

// startOfNextDay is the next UTC midnight after t.
func startOfNextDay(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d+1, 0, 0, 0, 0, time.UTC)
}

func day(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}
