package chat

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/store"
	dbgen "github.com/percolate/percolate/gen/db"
)

// A send's transaction (turn.go): the locks its first round trip takes, the writes its
// second one makes, and the commit that lets its reply, already started, be shown.

// lockUser takes the key-share lock of the caller's row, the first statement of a send's
// transaction. An account deletion locks that row before it deletes the sessions and
// counters; taken first here too, the two wait for each other instead of deadlocking
// (PostgreSQL would cancel one of them after a second), and a send that comes second finds
// the account gone (401).
func lockUser(ctx context.Context, q *dbgen.Queries, userID uuid.UUID) error {
	_, err := q.LockUserForWrite(ctx, userID)
	if store.IsNotFound(err) {
		return fmt.Errorf("lock user: %w", apperr.ErrUnauthorized)
	}
	if err != nil {
		return fmt.Errorf("lock user: %w", err)
	}
	return nil
}

// sessionLock is the first round trip's locks of a send to a session: the user's row, then
// the session's.
type sessionLock struct {
	userErr error
	session dbgen.ChatSession
	err     error
}

func (l *sessionLock) take(ctx context.Context, q *dbgen.Queries, userID, sessionID uuid.UUID) {
	l.userErr = lockUser(ctx, q, userID)
	l.session, l.err = q.GetSessionForUserForUpdate(ctx, dbgen.GetSessionForUserForUpdateParams{ID: sessionID, UserID: userID})
}

// activeSession is the locked session a message may go to: the caller's, active, and not
// still being answered (an account deleted meanwhile is signed out).
func (s *Service) activeSession(l sessionLock) (dbgen.ChatSession, error) {
	if l.userErr != nil {
		return l.session, l.userErr
	}
	sess, err := l.session, l.err
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
func (s *Service) startIn(ctx context.Context, tx *store.OpenTx, t *Turn, sessionID uuid.UUID, write *store.Batch, sess *sessionWrite) (*Turn, error) {
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
func (s *Service) start(ctx context.Context, t *Turn, sessionID uuid.UUID, sess *sessionWrite, commit func(context.Context) error, abandon func()) (*Turn, error) {
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
		t.session, err = sess.row, sess.err
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

// sessionWrite is the session row a send's writes leave, read once they are committed.
type sessionWrite struct {
	row dbgen.ChatSession
	err error
}

// continueParams are a send's write of the session it continues, once its reply is decided:
// title, AI notice (due now or not), tokens, preview, check-in, the reply in progress, how
// many rows the next send reads.
func (s *Service) continueParams(t *Turn, sessionID uuid.UUID, needed int, now time.Time) dbgen.ContinueSessionParams {
	title := t.session.Title
	if title == DefaultTitle || title == "" {
		title = s.titleFor(t.message, t.risk)
	}
	return dbgen.ContinueSessionParams{
		Title: title, DisclosedAt: t.dueNotice(now), Tokens: int32(companion.EstimateTokens(t.message)), // #nosec G115 -- an estimate for a message of at most MaxMessageChars characters
		LastMessage: preview(t.message), CheckinPending: t.risk.Risky(), ReplyUntil: s.replyUntil(),
		ContextRows: contextRows(needed), ID: sessionID, UserID: t.user.ID,
	}
}

// messageParams are the insert of the turn's message.
func messageParams(t *Turn, sessionID uuid.UUID) dbgen.InsertMessageParams {
	alone := int16(t.screen.alone().Level) // #nosec G115 -- safety levels are 0, 1 and 2
	return dbgen.InsertMessageParams{
		ID: t.messageID, SessionID: sessionID, UserID: t.user.ID, Role: companion.RoleUser, Content: t.message,
		TokenCount: int32(companion.EstimateTokens(t.message)), Status: StatusComplete, // #nosec G115 -- an estimate for a message of at most MaxMessageChars characters
		RiskLevel: int16(t.risk.Level), AloneLevel: &alone, // #nosec G115 -- safety levels are 0, 1 and 2
	}
}
