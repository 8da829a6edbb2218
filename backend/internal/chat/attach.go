package chat

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/companion"
	dbgen "github.com/percolate/percolate/gen/db"
)

// stopWait bounds how long Stop waits for another instance to store the stopped reply.
const stopWait = 15 * time.Second

// Attachment follows a reply in progress (see Attach).
type Attachment struct {
	s                 *Service
	live              *liveReply // nil when another instance writes it
	userID, sessionID uuid.UUID
}

// Attach re-attaches to the reply in progress of one of the caller's sessions; nil when
// none is in progress.
func (s *Service) Attach(ctx context.Context, userID, sessionID uuid.UUID) (*Attachment, error) {
	sess, err := s.store.Queries().GetSessionForUser(ctx, dbgen.GetSessionForUserParams{ID: sessionID, UserID: userID})
	if err != nil {
		return nil, notFound("attach", err)
	}
	a := &Attachment{s: s, live: s.replies.local(sessionID), userID: userID, sessionID: sessionID}
	if a.live == nil && !s.replyInProgress(sess) {
		return nil, nil
	}
	return a, nil
}

// Follow passes the reply to onDelta (may be nil) and returns it once stored: here, the text
// written so far as one piece and then the rest as it comes; for a reply another instance
// writes, the stored reply as one piece. ctx's error when the follower gives up first.
func (a *Attachment) Follow(ctx context.Context, onDelta func(string) error) (SendResult, error) {
	return a.FollowFlushing(ctx, onDelta, nil)
}

// FollowFlushing is Follow, calling flush (may be nil) as Turn.FollowFlushing does: each time
// onDelta has had all the text there is, before waiting for more.
func (a *Attachment) FollowFlushing(ctx context.Context, onDelta func(string) error, flush func() error) (SendResult, error) {
	if a.live != nil {
		return a.live.follow(ctx, true, onDelta, flush)
	}
	if flush != nil {
		if err := flush(); err != nil {
			return SendResult{}, err
		}
	}
	res, text, err := a.s.awaitStored(ctx, a.userID, a.sessionID)
	if err != nil {
		return SendResult{}, err
	}
	if text != "" && onDelta != nil {
		if err := onDelta(text); err != nil {
			return SendResult{}, err
		}
	}
	return res, nil
}

// Stop ends the reply in progress of one of the caller's sessions on purpose, whichever
// instance writes it, and returns the reply as stored once it is (nil when nothing had been
// written). inProgress is false when there was no reply to stop.
func (s *Service) Stop(ctx context.Context, userID, sessionID uuid.UUID) (reply *Message, inProgress bool, err error) {
	q := s.store.Queries()
	sess, err := q.GetSessionForUser(ctx, dbgen.GetSessionForUserParams{ID: sessionID, UserID: userID})
	if err != nil {
		return nil, false, notFound("stop reply", err)
	}
	if l := s.replies.local(sessionID); l != nil {
		l.cancel(errStopped)
		if _, err := l.follow(ctx, false, nil, nil); err != nil {
			return nil, true, err
		}
	} else {
		if !s.replyInProgress(sess) {
			return nil, false, nil
		}
		if err := q.Notify(ctx, dbgen.NotifyParams{Channel: notifyChannel, Payload: "stop " + sessionID.String()}); err != nil {
			return nil, true, err
		}
		// A living instance stores the stopped reply at once. One that died never will (its
		// reply stops counting as in progress only at reply_until), so the wait is bounded
		// and the answer is then what the database has.
		wctx, cancel := context.WithTimeout(ctx, stopWait)
		_, _, err := s.awaitStored(wctx, userID, sessionID)
		cancel()
		if err != nil && ctx.Err() != nil {
			return nil, true, err
		}
	}
	last, err := s.lastMessage(ctx, userID, sessionID)
	if err != nil || last == nil || last.Role != companion.RoleAssistant {
		return nil, true, err
	}
	m := messageView(*last)
	return &m, true, nil
}

// awaitStored waits until the session's reply is no longer in progress and returns it as
// stored, with its text (also for an interrupted reply). status is what the "done"
// notification said, when one was heard.
func (s *Service) awaitStored(ctx context.Context, userID, sessionID uuid.UUID) (SendResult, string, error) {
	woken, unwait := s.replies.wait(sessionID)
	defer unwait()
	tick := time.NewTicker(s.poll)
	defer tick.Stop()
	heard := ""
	for {
		sess, err := s.store.Queries().GetSessionForUser(ctx, dbgen.GetSessionForUserParams{ID: sessionID, UserID: userID})
		if err != nil {
			return SendResult{}, "", notFound("wait for reply", err)
		}
		if !s.replyInProgress(sess) {
			return s.storedResult(ctx, userID, sess, heard)
		}
		select {
		case st := <-woken:
			if st != "" {
				heard = st
			}
		case <-tick.C:
		case <-ctx.Done():
			return SendResult{}, "", ctx.Err()
		}
	}
}

// storedResult is the result of the session's last reply as the database has it.
func (s *Service) storedResult(ctx context.Context, userID uuid.UUID, sess dbgen.ChatSession, heard string) (SendResult, string, error) {
	res := SendResult{SessionID: sess.ID, Title: sess.Title, TokensUsed: int(sess.TokensUsed), TokenLimit: int(sess.TokenLimit)}
	if sess.Status == statusEnded && sess.EndReason != nil && *sess.EndReason == EndReasonTokenLimit {
		res.SessionEnded, res.EndReason = true, EndReasonTokenLimit
	}
	last, err := s.lastMessage(ctx, userID, sess.ID)
	if err != nil {
		return SendResult{}, "", err
	}
	if last != nil && last.Role == companion.RoleAssistant {
		return resultOf(res, last.Content, last.Status), last.Content, nil
	}
	if heard == "stopped" {
		return resultOf(res, "", StatusStopped), "", nil
	}
	return resultOf(res, "", StatusInterrupted), "", nil
}

func (s *Service) lastMessage(ctx context.Context, userID, sessionID uuid.UUID) (*dbgen.Message, error) {
	rows, err := s.store.Queries().ListRecentMessages(ctx, dbgen.ListRecentMessagesParams{SessionID: sessionID, UserID: userID, MaxRows: 1})
	if err != nil {
		return nil, fmt.Errorf("last message: %w", err)
	}
	if len(rows) == 0 {
		return nil, nil
	}
	return &rows[0], nil
}
