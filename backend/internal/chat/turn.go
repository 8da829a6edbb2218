package chat

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/safety"
	"github.com/percolate/percolate/backend/internal/store"
	dbgen "github.com/percolate/percolate/gen/db"
)

// A send takes two round trips to the database, and the model does not wait for the second:
//
//  1. At once, concurrently: a read of the user and the newest messages (outside any
//     transaction), and a batch that opens the transaction, locks the session (or takes the
//     pending check-ins of a new one) and takes the burst limit and the daily quotas.
//  2. In Go: every check and decision (limits, the safety step, title, AI notice).
//  3. One batch writes the session row once (title, notice time, tokens, preview, the reply
//     in progress), the message and any safety referral, with the COMMIT queued after them
//     in the same round trip. The reply starts at the same time; nothing of it is shown or
//     stored before the commit, and a failed commit cancels it.
//
// A send to a session whose state this instance kept when it stored the session's last reply
// skips the first round trip: it decides from the kept state, and its one round trip takes the
// locks with checks that the state still holds, then writes (sendstate.go).

// Turn is a stored message whose reply is being produced.
type Turn struct {
	s    *Service
	user dbgen.User
	// session is the session row as the send left it; set before the commit completes, read
	// by the reply only after it.
	session    dbgen.ChatSession
	earlier    earlier // what the prompt knows of the session's earlier part
	message    string
	messageID  uuid.UUID
	newSession bool
	// threadAsked is set when the welcome asked how a remembered event went: store records it.
	threadAsked bool
	checkIn     bool
	opening     string // SendInput.Opening
	// thread is what the prompt may carry of the session a new one continues
	// (SendInput.Continues); empty otherwise.
	thread continuedThread
	risk   safety.Result
	screen *screening // the message's screen on its own
	kind   replyKind
	// What the reply needs of the session's safety state, read as the send decides (t.session
	// is set only as the message is committed, while a model reply has already started):
	// afterCrisis says the reply before the message was the crisis reply or an
	// acknowledgement (see companion.Prompt.AfterCrisis), crises how many the session has had,
	// and pinned the kind of danger its resources are pinned for (nil: none).
	afterCrisis bool
	crises      int32
	pinned      *string
	// signalled is set when a model-side safety signal completed the model's reply with the
	// check-in and the resources.
	signalled bool
	notice    string           // the repeated AI disclosure, when due
	history   []companion.Turn // the turns before the message, oldest first
	memories  []string         // remembered from earlier sessions, newest first
	checkins  []dbgen.ListRecentCheckinsForPromptRow
	paced     bool
	counted   *counters // what a failed reply gives back
	live      *liveReply
}

// open starts a new session with the message.
func (s *Service) open(ctx context.Context, userID uuid.UUID, msg string, sc *screening, in SendInput) (*Turn, error) {
	r := &reads{}
	c := s.newCounters(in.Quotas)
	var (
		checkins                        int64
		continued                       dbgen.ChatSession
		lockErr, checkinsErr, threadErr error
	)
	lock := store.NewBatch(func(q *dbgen.Queries) {
		// The user row is locked first, then session rows, then the usage counter rows (no deadlocks).
		lockErr = lockUser(ctx, q, userID)
		checkins, checkinsErr = q.TakePendingCheckins(ctx, userID)
		if in.Continues != nil {
			continued, threadErr = q.GetSessionForUser(ctx, dbgen.GetSessionForUserParams{ID: *in.Continues, UserID: userID})
		}
		s.count(ctx, q, c, userID)
	})
	tx, err := s.prepare(ctx, s.readUser(ctx, r, userID), lock)
	if err != nil {
		return nil, err
	}
	t := &Turn{s: s, message: msg, messageID: uuid.New(), newSession: true, paced: in.Paced, counted: c, screen: sc, opening: in.Opening}
	err = func() error {
		if lockErr != nil {
			return lockErr
		}
		if err := t.admit(r, c); err != nil {
			return err
		}
		if checkinsErr != nil {
			return fmt.Errorf("take check-ins: %w", checkinsErr)
		}
		t.checkIn = checkins > 0
		if threadErr != nil {
			return notFound("continued session", threadErr)
		}
		t.thread = threadOf(continued, t.user.MemoryEnabled)
		return nil
	}()
	if err != nil {
		rollback(ctx, tx)
		return nil, err
	}
	t.decide(t.screen, safety.Context{}, nil, uuid.Nil)
	t.openWith(t.checkIn)

	sessionID := uuid.New()
	open := dbgen.OpenSessionParams{
		ID: sessionID, UserID: userID, Title: s.titleFor(msg, t.risk),
		TokenLimit: int32(s.limits.Tiers.For(t.user.Role).SessionTokens), DisclosedAt: &c.now, // #nosec G115 -- a configured per-tier limit, validated at start-up
		LastMessage: preview(msg), CheckinPending: t.risk.Risky(), ReplyUntil: s.replyUntil(), CheckinID: in.CheckinID,
	}
	message, level := messageParams(t, sessionID), t.risk.Level
	var w sessionWrite
	write := store.NewBatch(func(q *dbgen.Queries) {
		w.row, w.err = q.OpenSession(ctx, open)
		_, _ = q.InsertMessage(ctx, message)
		recordRisk(ctx, q, level, c.day)
	})
	return s.startIn(ctx, tx, t, sessionID, write, &w)
}

// continueSession adds the message to the caller's active session.
func (s *Service) continueSession(ctx context.Context, userID, sessionID uuid.UUID, msg string, sc *screening, in SendInput) (*Turn, error) {
	if st := s.states.take(sessionID); st != nil && len(in.Quotas) == 0 {
		if t, ok, err := s.continueKept(ctx, st, userID, sessionID, msg, sc, in); ok {
			return t, err
		}
	}
	r := &reads{}
	c := s.newCounters(in.Quotas)
	var l sessionLock
	lock := store.NewBatch(func(q *dbgen.Queries) {
		l.take(ctx, q, userID, sessionID)
		s.count(ctx, q, c, userID)
	})
	tx, err := s.prepare(ctx, s.readUserAndHistory(ctx, r, userID, sessionID), lock)
	if err != nil {
		return nil, err
	}
	t := &Turn{s: s, message: msg, messageID: uuid.New(), paced: in.Paced, counted: c, screen: sc}
	err = func() error {
		if t.session, err = s.activeSession(l); err != nil {
			return err
		}
		if err := t.admit(r, c); err != nil {
			return err
		}
		t.history, t.earlier = turnsBefore(uncovered(t.session, r.recent), uuid.Nil), earlierOf(t.session)
		return nil
	}()
	if err != nil {
		rollback(ctx, tx)
		return nil, err
	}
	t.decide(t.screen, safetyContext(r.recent, uuid.Nil), r.recent, uuid.Nil)
	session, message, level := s.continueParams(t, sessionID, r.needed, c.now), messageParams(t, sessionID), t.risk.Level
	var w sessionWrite
	write := store.NewBatch(func(q *dbgen.Queries) {
		w.row, w.err = q.ContinueSession(ctx, session)
		_, _ = q.InsertMessage(ctx, message)
		recordRisk(ctx, q, level, c.day)
	})
	return s.startIn(ctx, tx, t, sessionID, write, &w)
}

// Retry answers the session's last user message again, for a reply that failed, was
// interrupted or was stopped: the message is not stored again, and a partial reply is
// replaced. It counts against the daily limit like a send (a failed reply gives it back).
func (s *Service) Retry(ctx context.Context, userID, sessionID uuid.UUID, paced bool) (*Turn, error) {
	r := &reads{}
	c := s.newCounters(nil)
	var (
		l       sessionLock
		last    []dbgen.Message
		lastErr error
	)
	lock := store.NewBatch(func(q *dbgen.Queries) {
		l.take(ctx, q, userID, sessionID)
		last, lastErr = q.ListRecentMessages(ctx, dbgen.ListRecentMessagesParams{SessionID: sessionID, UserID: userID, MaxRows: 2})
		s.count(ctx, q, c, userID)
	})
	tx, err := s.prepare(ctx, s.readUserAndHistory(ctx, r, userID, sessionID), lock)
	if err != nil {
		return nil, err
	}
	t := &Turn{s: s, paced: paced, counted: c}
	var partial *dbgen.Message
	err = func() error {
		if t.session, err = s.activeSession(l); err != nil {
			return err
		}
		if lastErr != nil {
			return fmt.Errorf("last messages: %w", lastErr)
		}
		answered, p, err := unanswered(last)
		if err != nil {
			return err
		}
		t.message, t.messageID, partial = answered.Content, answered.ID, p
		if err := t.admit(r, c); err != nil {
			return err
		}
		t.history, t.earlier = turnsBefore(uncovered(t.session, r.recent), t.messageID), earlierOf(t.session)
		return nil
	}()
	if err != nil {
		rollback(ctx, tx)
		return nil, err
	}
	// The risk was recorded when the message was sent; only the reply is decided again.
	t.newSession = len(t.history) == 0
	t.decide(t.s.screen(t.message), safetyContext(r.recent, t.messageID), r.recent, t.messageID)
	var disclosed *time.Time
	if t.newSession {
		t.openWith(false)
	} else {
		disclosed = t.dueNotice(c.now)
	}
	var removed int32
	if partial != nil {
		removed = partial.TokenCount
	}
	session := dbgen.ContinueSessionParams{
		Title: t.session.Title, DisclosedAt: disclosed, Tokens: -removed,
		LastMessage: preview(t.message), ReplyUntil: s.replyUntil(), ContextRows: contextRows(r.needed),
		ID: sessionID, UserID: userID,
	}
	var w sessionWrite
	write := store.NewBatch(func(q *dbgen.Queries) {
		if partial != nil {
			_, _ = q.DeleteMessageForUser(ctx, dbgen.DeleteMessageForUserParams{ID: partial.ID, UserID: userID})
		}
		w.row, w.err = q.ContinueSession(ctx, session)
	})
	return s.startIn(ctx, tx, t, sessionID, write, &w)
}

// unanswered finds, in the session's newest two messages (newest first), the user's message
// a retry answers, and the partial reply it replaces (nil when there is none).
func unanswered(rows []dbgen.Message) (dbgen.Message, *dbgen.Message, error) {
	refuse := apperr.New(apperr.ErrConflict, "ALREADY_ANSWERED", MsgAlreadyAnswered)
	switch {
	case len(rows) > 0 && rows[0].Role == companion.RoleUser:
		return rows[0], nil, nil
	case len(rows) > 1 && rows[0].Role == companion.RoleAssistant && rows[0].Status != StatusComplete && rows[1].Role == companion.RoleUser:
		return rows[1], &rows[0], nil
	default:
		return dbgen.Message{}, nil, refuse
	}
}

// continuedThread is what a new session's prompt may carry of the session it continues.
type continuedThread struct {
	title, summary string
}

// threadOf is what a new session's prompt may carry of the session it continues: its title,
// and its summary while memory is on and unless the session had a crisis (its resources
// pinned or a crisis reply given), whose summary may hold what the screen flagged.
func threadOf(sess dbgen.ChatSession, memory bool) continuedThread {
	if sess.ID == uuid.Nil {
		return continuedThread{}
	}
	th := continuedThread{title: sess.Title}
	if memory && sess.Summary != nil && sess.SafetyPinned == nil && sess.CrisisReplies == 0 {
		th.summary = *sess.Summary
	}
	return th
}

// openWith sets the notice of a new session's reply from the companion: the welcome answers
// only the app's starter message, so a session opened with the student's own words gets a
// reply to them, after the AI disclosure every session starts with (and the check-in the
// welcome would have carried after a positive screen in an earlier session).
func (t *Turn) openWith(checkIn bool) {
	if !t.newSession || t.kind != replyModel {
		return
	}
	t.notice = companion.Disclosure
	if checkIn {
		t.notice += " " + companion.CheckInOpening
	}
}

// dueNotice sets the turn's repeated AI disclosure when DisclosureInterval has passed, and
// returns the time to record for it (nil when not due).
func (t *Turn) dueNotice(now time.Time) *time.Time {
	if last := t.session.LastDisclosureAt; last != nil && now.Sub(*last) < companion.DisclosureInterval {
		return nil
	}
	age := 0
	if t.user.Age != nil {
		age = int(*t.user.Age)
	}
	t.notice = companion.RepeatedDisclosure(age)
	return &now
}

// admit gives the turn its user, memories and recent check-ins from the send's reads, and
// checks the user's quotas and rate (c) for their role.
func (t *Turn) admit(r *reads, c *counters) error {
	u, err := r.userOrErr()
	if err != nil {
		return err
	}
	t.user, t.memories, t.checkins = u, r.memories, r.checkins
	return t.s.check(c, u.Role)
}
