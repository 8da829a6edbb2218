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
	risk        safety.Result
	screen      *screening // the message's screen on its own
	kind        replyKind
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
	paced     bool
	counted   *counters // what a failed reply gives back
	live      *liveReply
}

// open starts a new session with the message.
func (s *Service) open(ctx context.Context, userID uuid.UUID, msg string, sc *screening, in SendInput) (*Turn, error) {
	r := &reads{}
	lock := &store.Batch{}
	// The user row is locked first, then session rows, then the usage counter rows (no deadlocks).
	user := queueUserLock(ctx, lock, userID)
	checkins := store.Queue(lock, func(q *dbgen.Queries) (int64, error) { return q.TakePendingCheckins(ctx, userID) })
	c := s.queueCounters(ctx, lock, userID, in.Quotas)
	tx, err := s.prepare(ctx, s.readUser(ctx, r, userID), lock)
	if err != nil {
		return nil, err
	}
	t := &Turn{s: s, message: msg, messageID: uuid.New(), newSession: true, paced: in.Paced, counted: c, screen: sc}
	err = func() error {
		if err := userPresent(user); err != nil {
			return err
		}
		if t.user, err = r.userOrErr(); err != nil {
			return err
		}
		t.memories = r.memories
		if err := s.check(c, t.user.Role); err != nil {
			return err
		}
		n, err := checkins.Get()
		if err != nil {
			return fmt.Errorf("take check-ins: %w", err)
		}
		t.checkIn = n > 0
		return nil
	}()
	if err != nil {
		rollback(ctx, tx)
		return nil, err
	}
	t.decide(t.screen, safety.Context{}, nil, uuid.Nil)
	t.openWith(t.checkIn)

	sessionID := uuid.New()
	write := &store.Batch{}
	sess := store.Queue(write, func(q *dbgen.Queries) (dbgen.ChatSession, error) {
		return q.OpenSession(ctx, dbgen.OpenSessionParams{
			ID: sessionID, UserID: userID, Title: s.titleFor(msg, t.risk),
			TokenLimit: int32(s.limits.Tiers.For(t.user.Role).SessionTokens), DisclosedAt: &c.now, // #nosec G115 -- a configured per-tier limit, validated at start-up
			LastMessage: preview(msg), CheckinPending: t.risk.Risky(), ReplyUntil: s.replyUntil(),
		})
	})
	queueMessage(ctx, write, t, sessionID)
	recordRisk(ctx, write, t.risk.Level, c.day)
	return s.startIn(ctx, tx, t, sessionID, write, sess)
}

// continueSession adds the message to the caller's active session.
func (s *Service) continueSession(ctx context.Context, userID, sessionID uuid.UUID, msg string, sc *screening, in SendInput) (*Turn, error) {
	if st := s.states.take(sessionID); st != nil && len(in.Quotas) == 0 {
		if t, ok, err := s.continueKept(ctx, st, userID, sessionID, msg, sc, in); ok {
			return t, err
		}
	}
	r := &reads{}
	lock := &store.Batch{}
	user := queueUserLock(ctx, lock, userID)
	locked := queueLock(ctx, lock, userID, sessionID)
	c := s.queueCounters(ctx, lock, userID, in.Quotas)
	tx, err := s.prepare(ctx, s.readUserAndHistory(ctx, r, userID, sessionID), lock)
	if err != nil {
		return nil, err
	}
	t := &Turn{s: s, message: msg, messageID: uuid.New(), paced: in.Paced, counted: c, screen: sc}
	err = func() error {
		if err := userPresent(user); err != nil {
			return err
		}
		if t.session, err = s.activeSession(locked); err != nil {
			return err
		}
		if t.user, err = r.userOrErr(); err != nil {
			return err
		}
		t.memories = r.memories
		if err := s.check(c, t.user.Role); err != nil {
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
	write := &store.Batch{}
	sess := s.queueContinue(ctx, write, t, sessionID, r.needed, c.now)
	return s.startIn(ctx, tx, t, sessionID, write, sess)
}

// queueContinue queues a send's writes to the session it continues, once its reply is
// decided: the session row (title, AI notice, tokens, preview, check-in, the reply in
// progress, how many rows the next send reads), the message and any safety referral.
func (s *Service) queueContinue(ctx context.Context, b *store.Batch, t *Turn, sessionID uuid.UUID, needed int, now time.Time) *store.Result[dbgen.ChatSession] {
	title := t.session.Title
	if title == DefaultTitle || title == "" {
		title = s.titleFor(t.message, t.risk)
	}
	disclosed := t.dueNotice(now)
	sess := store.Queue(b, func(q *dbgen.Queries) (dbgen.ChatSession, error) {
		return q.ContinueSession(ctx, dbgen.ContinueSessionParams{
			Title: title, DisclosedAt: disclosed, Tokens: int32(companion.EstimateTokens(t.message)), // #nosec G115 -- an estimate for a message of at most MaxMessageChars characters
			LastMessage: preview(t.message), CheckinPending: t.risk.Risky(), ReplyUntil: s.replyUntil(),
			ContextRows: contextRows(needed), ID: sessionID, UserID: t.user.ID,
		})
	})
	queueMessage(ctx, b, t, sessionID)
	recordRisk(ctx, b, t.risk.Level, day(now))
	return sess
}

// queueMessage queues the insert of the turn's message.
func queueMessage(ctx context.Context, b *store.Batch, t *Turn, sessionID uuid.UUID) {
	alone := int16(t.screen.alone().Level) // #nosec G115 -- safety levels are 0, 1 and 2
	store.QueueExec(b, func(q *dbgen.Queries) error {
		_, err := q.InsertMessage(ctx, dbgen.InsertMessageParams{
			ID: t.messageID, SessionID: sessionID, UserID: t.user.ID, Role: companion.RoleUser, Content: t.message,
			TokenCount: int32(companion.EstimateTokens(t.message)), Status: StatusComplete, // #nosec G115 -- an estimate for a message of at most MaxMessageChars characters
			RiskLevel: int16(t.risk.Level), AloneLevel: &alone, // #nosec G115 -- safety levels are 0, 1 and 2
		})
		return err
	})
}

// recordRisk queues what a message that screened positive leaves behind besides its session's
// check-in flag and its stored level: one more in the day's count of its tier (referrals for
// a clear risk, check-ins for a possible one), without user or content.
func recordRisk(ctx context.Context, b *store.Batch, level safety.Level, day time.Time) {
	switch level {
	case safety.Clear:
		store.QueueExec(b, func(q *dbgen.Queries) error { return q.IncrementSafetyReferrals(ctx, day) })
	case safety.Possible:
		store.QueueExec(b, func(q *dbgen.Queries) error { return q.IncrementSafetyCheckins(ctx, day) })
	}
}

// Retry answers the session's last user message again, for a reply that failed, was
// interrupted or was stopped: the message is not stored again, and a partial reply is
// replaced. It counts against the daily limit like a send (a failed reply gives it back).
func (s *Service) Retry(ctx context.Context, userID, sessionID uuid.UUID, paced bool) (*Turn, error) {
	r := &reads{}
	lock := &store.Batch{}
	user := queueUserLock(ctx, lock, userID)
	locked := queueLock(ctx, lock, userID, sessionID)
	last := store.Queue(lock, func(q *dbgen.Queries) ([]dbgen.Message, error) {
		return q.ListRecentMessages(ctx, dbgen.ListRecentMessagesParams{SessionID: sessionID, UserID: userID, MaxRows: 2})
	})
	c := s.queueCounters(ctx, lock, userID, nil)
	tx, err := s.prepare(ctx, s.readUserAndHistory(ctx, r, userID, sessionID), lock)
	if err != nil {
		return nil, err
	}
	t := &Turn{s: s, paced: paced, counted: c}
	var partial *dbgen.Message
	err = func() error {
		if err := userPresent(user); err != nil {
			return err
		}
		if t.session, err = s.activeSession(locked); err != nil {
			return err
		}
		rows, err := last.Get()
		if err != nil {
			return fmt.Errorf("last messages: %w", err)
		}
		answered, p, err := unanswered(rows)
		if err != nil {
			return err
		}
		t.message, t.messageID, partial = answered.Content, answered.ID, p
		if t.user, err = r.userOrErr(); err != nil {
			return err
		}
		t.memories = r.memories
		if err := s.check(c, t.user.Role); err != nil {
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
	write := &store.Batch{}
	var removed int32
	if partial != nil {
		removed = partial.TokenCount
		store.QueueExec(write, func(q *dbgen.Queries) error {
			_, err := q.DeleteMessageForUser(ctx, dbgen.DeleteMessageForUserParams{ID: partial.ID, UserID: userID})
			return err
		})
	}
	sess := store.Queue(write, func(q *dbgen.Queries) (dbgen.ChatSession, error) {
		return q.ContinueSession(ctx, dbgen.ContinueSessionParams{
			Title: t.session.Title, DisclosedAt: disclosed, Tokens: -removed,
			LastMessage: preview(t.message), ReplyUntil: s.replyUntil(), ContextRows: contextRows(r.needed),
			ID: sessionID, UserID: userID,
		})
	})
	return s.startIn(ctx, tx, t, sessionID, write, sess)
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

// queueUserLock queues the key-share lock of the caller's row, the first statement of a
// send's transaction. An account deletion locks that row before it deletes the sessions and
// counters; taken first here too, the two wait for each other instead of deadlocking
// (PostgreSQL would cancel one of them after a second), and a send that comes second finds
// the account gone (401).
func queueUserLock(ctx context.Context, b *store.Batch, userID uuid.UUID) *store.Result[uuid.UUID] {
	return store.Queue(b, func(q *dbgen.Queries) (uuid.UUID, error) { return q.LockUserForWrite(ctx, userID) })
}

// userPresent says whether the locked user row was there: a deleted account is signed out.
func userPresent(r *store.Result[uuid.UUID]) error {
	_, err := r.Get()
	if store.IsNotFound(err) {
		return fmt.Errorf("lock user: %w", apperr.ErrUnauthorized)
	}
	if err != nil {
		return fmt.Errorf("lock user: %w", err)
	}
	return nil
}

func queueLock(ctx context.Context, b *store.Batch, userID, sessionID uuid.UUID) *store.Result[dbgen.ChatSession] {
	return store.Queue(b, func(q *dbgen.Queries) (dbgen.ChatSession, error) {
		return q.GetSessionForUserForUpdate(ctx, dbgen.GetSessionForUserForUpdateParams{ID: sessionID, UserID: userID})
	})
}

// activeSession is the locked session a message may go to: the caller's, active, and not
// still being answered.
func (s *Service) activeSession(r *store.Result[dbgen.ChatSession]) (dbgen.ChatSession, error) {
	sess, err := r.Get()
	if err != nil {
		return sess, notFound("send message", err)
	}
	if sess.Status != statusActive {
		return sess, apperr.New(apperr.ErrConflict, "CONFLICT", MsgSessionEnded)
	}
	if s.replyInProgress(sess) {
		return sess, apperr.New(apperr.ErrConflict, "REPLY_IN_PROGRESS", MsgReplyInProgress)
	}
	return sess, nil
}

// rollback ends a transaction that is not to be stored.
func rollback(ctx context.Context, tx interface{ Rollback(context.Context) error }) {
	_ = tx.Rollback(context.WithoutCancel(ctx))
}

// commitTimeout bounds the writes and the commit of a send. They do not stop when the client
// goes away: a message the user sent is stored if it can be.
const commitTimeout = 15 * time.Second

// startIn is start for a send whose first round trip opened tx: write is sent in it, with
// its COMMIT, in one round trip.
func (s *Service) startIn(ctx context.Context, tx *store.OpenTx, t *Turn, sessionID uuid.UUID, write *store.Batch, sess *store.Result[dbgen.ChatSession]) (*Turn, error) {
	return s.start(ctx, t, sessionID, sess, func(ctx context.Context) error {
		// The COMMIT runs only if every write succeeded. The session row is locked by the
		// transaction and was found active, so its write always has its row.
		return tx.SendCommit(ctx, write)
	}, func() { rollback(ctx, tx) })
}

// start stores the turn's message with commit while the reply starts: the model does not
// wait for the commit, the slowest part of a send. The reply is published (to Follow, Attach
// and Stop) and stored only once the message is committed; if the commit fails, the reply is
// cancelled and discarded, and the error returned. sess is the session row the commit
// writes; abandon ends what the send opened when the reply cannot start.
func (s *Service) start(ctx context.Context, t *Turn, sessionID uuid.UUID, sess *store.Result[dbgen.ChatSession], commit func(context.Context) error, abandon func()) (*Turn, error) {
	l, err := s.replies.add(sessionID, s.replyTimeout)
	if err != nil {
		abandon()
		return nil, err
	}
	t.live = l
	committed := make(chan bool, 1)
	go s.produce(t, committed)

	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), commitTimeout)
	defer cancel()
	err = commit(wctx)
	if err == nil {
		t.session, err = sess.Get()
	}
	if err != nil {
		l.cancel(errDiscarded)
		committed <- false
		return nil, fmt.Errorf("store message: %w", err)
	}
	s.replies.publish(l)
	committed <- true
	return t, nil
}

// replyUntil is when a reply starting now stops counting as in progress even if nobody
// stored it (its instance died): its deadline plus the time to store it.
func (s *Service) replyUntil() *time.Time {
	t := s.now().Add(s.replyTimeout + StoreTimeout)
	return &t
}

// replyInProgress says whether the session row shows a reply being written.
func (s *Service) replyInProgress(sess dbgen.ChatSession) bool {
	return sess.ReplyUntil != nil && sess.ReplyUntil.After(s.now())
}
