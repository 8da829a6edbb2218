package chat

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/store"
	dbgen "github.com/percolate/percolate/gen/db"
)

// StoreTimeout bounds storing a reply. It runs after the reply's own deadline if need be, so
// that what was written is kept.
const StoreTimeout = 10 * time.Second

// A reply's store that found the database unavailable is tried again after retryStoreFirst,
// then twice as long each time up to retryStoreMax, within StoreTimeout.
const (
	retryStoreFirst = 100 * time.Millisecond
	retryStoreMax   = time.Second
)

// store saves the reply (when any text was written) with its status, counts its tokens, ends
// the reply in progress, and ends the session at its token limit. A reply that failed, or was
// stopped before any text, gives back the daily quotas its message took: only a reply counts.
func (t *Turn) store(text string, tokens int, status string) SendResult {
	s := t.s
	ctx, cancel := context.WithTimeout(context.Background(), StoreTimeout)
	defer cancel()
	uid, sid := t.user.ID, t.session.ID
	res := SendResult{SessionID: sid, Title: t.session.Title, TokensUsed: int(t.session.TokensUsed), TokenLimit: int(t.session.TokenLimit)}
	charged := text != "" && status != StatusInterrupted
	add := int32(tokens) // #nosec G115 -- a reply's tokens are bounded by the model's max_tokens
	if t.newSession || text == "" {
		add = 0 // the opening exchange of a session is free
	}
	reply := dbgen.InsertMessageParams{
		ID: uuid.New(), SessionID: sid, UserID: uid, Role: companion.RoleAssistant, Content: text,
		TokenCount: int32(tokens), Status: status, RiskLevel: t.replyLevel(), // #nosec G115 -- a reply's tokens are bounded by the model's max_tokens
	}
	finish := dbgen.FinishReplyParams{
		Tokens: add, LastMessage: preview(text), CheckinPending: t.signalled, LimitReason: EndReasonTokenLimit, ID: sid, UserID: uid,
		CrisisReplies: t.crisisReplies(),
	}
	if text != "" {
		finish.SafetyPinned = t.pins()
	}
	outcome := status
	switch {
	case text == "" && status == StatusStopped:
		outcome = "stopped"
	case text == "":
		outcome = "failed"
	}
	askedAt, today, released := s.now(), t.counted.day, []string(nil)
	if !charged {
		released = t.counted.kinds()
	}
	// What the session's next send needs, read after the writes in the same transaction (the
	// session row stays locked until the commit, so the messages are those of its version).
	var next *stateReads
	if s.states.wanted() {
		next = &stateReads{}
	}
	var (
		was, sess       dbgen.ChatSession
		userErr, wasErr error
		finErr          error
	)
	b := store.NewBatch(func(q *dbgen.Queries) {
		// The user row first, as in a send: an account deletion waits for the reply to be
		// stored, or the reply finds the account gone.
		_, userErr = q.LockUserForWrite(ctx, uid)
		if t.threadAsked && text != "" {
			_ = q.MarkThreadAsked(ctx, dbgen.MarkThreadAskedParams{AskedAt: askedAt, ID: uid})
		}
		if text != "" {
			_, _ = q.InsertMessage(ctx, reply)
		}
		// The session as it was (locked, as FinishReply would lock it), to tell whether the
		// reply's own tokens end it.
		was, wasErr = q.GetSessionForUserForUpdate(ctx, dbgen.GetSessionForUserForUpdateParams{ID: sid, UserID: uid})
		sess, finErr = q.FinishReply(ctx, finish)
		if t.signalled {
			_ = q.IncrementSafetyCheckins(ctx, today)
		}
		for _, kind := range released {
			_ = q.ReleaseUsage(ctx, dbgen.ReleaseUsageParams{UserID: uid, Day: today, Kind: kind})
		}
		if next != nil {
			next.read(ctx, t.s, q, uid, sid)
		}
		_ = q.NotifyReplyStored(ctx, dbgen.NotifyReplyStoredParams{Channel: notifyChannel, Outcome: outcome, SessionID: sid, UserID: uid})
	})
	gone := func(err error) bool {
		return store.IsNotFound(userErr) || store.IsUserGone(err)
	}
	// committing is set once the commit is asked for: from then on a lost connection leaves
	// unknown whether the reply was stored.
	var committing bool
	var kept *sendState
	attempt := func() error {
		committing, kept = false, nil
		tx, err := s.store.SendTx(ctx, b)
		if err != nil {
			return err
		}
		defer rollback(ctx, tx)
		if wasErr != nil {
			return wasErr
		}
		if finErr != nil {
			return finErr
		}
		if was.Status == statusActive && sess.Status == statusEnded {
			// FinishReply ended the session at its token limit.
			if err := s.queueEnded(ctx, s.store.Tx(tx), sess); err != nil {
				return err
			}
		}
		if next != nil {
			kept = next.state(s, sess)
		}
		res.TokensUsed, res.TokenLimit, res.Title = int(sess.TokensUsed), int(sess.TokenLimit), sess.Title
		res.SafetyPinned = sess.SafetyPinned
		if sess.Status == statusEnded && sess.EndReason != nil && *sess.EndReason == EndReasonTokenLimit {
			res.SessionEnded, res.EndReason = true, EndReasonTokenLimit
		}
		committing = true
		return tx.Commit(ctx)
	}
	// The message is committed and its session shows the reply in progress until this is
	// stored: given up on, the session would refuse every message until its reply_until (the
	// reply's whole deadline) although no reply is being written. So while the database is
	// unavailable (restarting, failing over), the store is tried again until StoreTimeout,
	// unless the connection was lost during the commit (it may have been stored).
	err := attempt()
	for wait := retryStoreFirst; err != nil && store.IsUnavailable(err) && (!committing || pgconn.SafeToRetry(err)) && ctx.Err() == nil; wait = min(2*wait, retryStoreMax) {
		s.log.Warn("store reply: database unavailable, trying again", "session_id", sid, "in", wait, "error", err.Error())
		select {
		case <-ctx.Done():
		case <-time.After(wait):
			err = attempt()
		}
	}
	if err != nil && gone(err) {
		// The account was deleted while its reply was written: nothing of it is left to keep.
		s.log.Info("reply not stored: the account was deleted", "session_id", sid)
		return SendResult{SessionID: sid, Error: MsgModelFailed, AccountGone: true}
	}
	if err != nil {
		s.log.Error("store reply", "session_id", sid, "error", err.Error())
		return SendResult{SessionID: sid, Title: res.Title, TokensUsed: res.TokensUsed, TokenLimit: res.TokenLimit, Error: MsgModelFailed}
	}
	if kept != nil {
		s.states.keep(kept)
	}
	t.queueContextSummary(ctx)
	return resultOf(res, text, status)
}

// resultOf completes a result with the reply's text and how it ended.
func resultOf(res SendResult, text, status string) SendResult {
	switch {
	case text != "" && status != StatusInterrupted:
		res.Success, res.AIResponse, res.Status, res.Stopped = true, text, status, status == StatusStopped
	case status == StatusStopped:
		res.Error, res.Stopped = MsgReplyStopped, true
	default:
		res.Error = MsgModelFailed
		if text != "" {
			res.Status = status
		}
	}
	return res
}

// endSession ends an active session and queues its summary, in the same transaction.
func (s *Service) endSession(ctx context.Context, q store.Tx, sess dbgen.ChatSession, reason string) (dbgen.ChatSession, error) {
	ended, err := q.EndSessionForUser(ctx, dbgen.EndSessionForUserParams{EndReason: &reason, ID: sess.ID, UserID: sess.UserID})
	if err != nil {
		return sess, notFound("end session", err)
	}
	if err := s.queueEnded(ctx, q, sess); err != nil {
		return sess, err
	}
	return ended, nil
}

// queueEnded queues the jobs of a session that ended (its summary and what memory learns
// from it) in the transaction that ended it.
func (s *Service) queueEnded(ctx context.Context, q store.Tx, sess dbgen.ChatSession) error {
	if err := s.queueSummary(ctx, q, sess); err != nil {
		return err
	}
	return s.queueMemory(ctx, q, sess)
}
