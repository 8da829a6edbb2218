package chat

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/store"
	dbgen "github.com/percolate/percolate/gen/db"
)

// Causes a reply is cancelled with, which decide how it is stored.
var (
	errStopped   = errors.New("the reply was stopped")
	errShutdown  = errors.New("the server is shutting down")
	errDiscarded = errors.New("the message was not stored")
)

// storeTimeout bounds storing a reply. It runs after the reply's own deadline if need be, so
// that what was written is kept.
const storeTimeout = 10 * time.Second

// notifyChannel is the PostgreSQL channel on which instances tell each other that a reply was
// stored ("done <session id> <status>") or must stop ("stop <session id>").
const notifyChannel = "percolate_chat"

// produce writes the turn's reply into its live reply and stores it, on its own goroutine and
// under the reply's own deadline, whatever happens to the request that asked for it. A model
// reply starts at once; committed says whether the message was stored, and nothing is stored
// (or shown: the live reply is published only after the commit) for a message that was not.
func (s *Service) produce(t *Turn, committed <-chan bool) {
	l := t.live
	defer s.replies.finished(l)
	var (
		text   string
		tokens int
		err    error
	)
	if t.kind == replyModel {
		text, tokens, err = t.modelReply(l)
	}
	if !<-committed {
		l.finish(SendResult{Error: MsgModelFailed})
		return
	}
	if t.kind != replyModel {
		text = t.fixedText()
		tokens = companion.EstimateTokens(text)
		l.append(text)
	}
	status := StatusComplete
	if err != nil {
		status = StatusInterrupted
		if errors.Is(context.Cause(l.ctx), errStopped) {
			status = StatusStopped
		} else {
			s.log.Warn("companion reply failed", "session_id", t.session.ID, "partial", text != "", "error", err.Error())
		}
	}
	l.finish(t.store(text, tokens, status))
}

// modelReply streams the companion's reply into l and returns what arrived, as it is to be
// stored, with its tokens. On a failure the text is what arrived before it.
func (t *Turn) modelReply(l *liveReply) (string, int, error) {
	var model strings.Builder
	if t.notice != "" {
		l.append(t.notice + "\n\n")
	}
	reply, err := t.s.provider.Stream(l.ctx, t.prompt(), func(chunk string) error {
		model.WriteString(chunk)
		l.append(chunk)
		return nil
	})
	got := model.String()
	if strings.TrimSpace(got) == "" {
		if err == nil {
			err = fmt.Errorf("%w: empty reply", companion.ErrModel)
		}
		return "", 0, err
	}
	text := got
	if t.notice != "" {
		text = t.notice + "\n\n" + got
	}
	if companion.Screen(got) != companion.RiskNone {
		// Whatever the model said, a reply that touches on risk carries the resources.
		extra := "\n\n" + companion.CrisisResources
		text += extra
		l.append(extra)
	}
	tokens := companion.EstimateTokens(text)
	if err == nil && reply.Usage.Reported {
		tokens = reply.Usage.CompletionTokens + companion.EstimateTokens(t.notice)
	}
	return text, tokens, err
}

// fixedText is the reply that needs no model: the welcome, or the crisis reply (after the AI
// notice when one is due, and in place of the welcome in a new session).
func (t *Turn) fixedText() string {
	switch {
	case t.kind == replyWelcome:
		return companion.Welcome(t.user.Name, t.checkIn)
	case t.newSession:
		return companion.Disclosure + " " + companion.CrisisReply
	case t.notice != "":
		return t.notice + "\n\n" + companion.CrisisReply
	default:
		return companion.CrisisReply
	}
}

// store saves the reply (when any text was written) with its status, counts its tokens, ends
// the reply in progress, and ends the session at its token limit. A reply that failed, or was
// stopped before any text, gives back the daily quotas its message took: only a reply counts.
func (t *Turn) store(text string, tokens int, status string) SendResult {
	s := t.s
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	uid, sid := t.user.ID, t.session.ID
	res := SendResult{SessionID: sid, Title: t.session.Title, TokensUsed: int(t.session.TokensUsed), TokenLimit: int(t.session.TokenLimit)}
	charged := text != "" && status != StatusInterrupted
	b := &store.Batch{}
	if text != "" {
		store.QueueExec(b, func(q *dbgen.Queries) error {
			_, err := q.InsertMessage(ctx, dbgen.InsertMessageParams{
				ID: uuid.New(), SessionID: sid, UserID: uid, Role: companion.RoleAssistant, Content: text,
				TokenCount: int32(tokens), Status: status,
			})
			return err
		})
	}
	add := int32(tokens)
	if t.newSession || text == "" {
		add = 0 // the opening exchange of a session is free
	}
	fin := store.Queue(b, func(q *dbgen.Queries) (dbgen.ChatSession, error) {
		return q.FinishReply(ctx, dbgen.FinishReplyParams{Tokens: add, LastMessage: preview(text), ID: sid, UserID: uid})
	})
	if !charged {
		for _, kind := range t.counted.kinds() {
			store.QueueExec(b, func(q *dbgen.Queries) error {
				return q.ReleaseUsage(ctx, dbgen.ReleaseUsageParams{UserID: uid, Day: t.counted.day, Kind: kind})
			})
		}
	}
	outcome := status
	switch {
	case text == "" && status == StatusStopped:
		outcome = "stopped"
	case text == "":
		outcome = "failed"
	}
	store.QueueExec(b, func(q *dbgen.Queries) error {
		return q.Notify(ctx, dbgen.NotifyParams{Channel: notifyChannel, Payload: "done " + sid.String() + " " + outcome})
	})
	err := func() error {
		tx, err := s.store.SendTx(ctx, b)
		if err != nil {
			return err
		}
		defer rollback(ctx, tx)
		sess, err := fin.Get()
		if err != nil {
			return err
		}
		if sess.Status == statusActive && sess.TokensUsed >= sess.TokenLimit {
			if sess, err = s.endSession(ctx, s.store.Tx(tx), sess, EndReasonTokenLimit); err != nil {
				return err
			}
		}
		res.TokensUsed, res.TokenLimit, res.Title = int(sess.TokensUsed), int(sess.TokenLimit), sess.Title
		if sess.Status == statusEnded && sess.EndReason != nil && *sess.EndReason == EndReasonTokenLimit {
			res.SessionEnded, res.EndReason = true, EndReasonTokenLimit
		}
		return tx.Commit(ctx)
	}()
	if err != nil {
		s.log.Error("store reply", "session_id", sid, "error", err.Error())
		return SendResult{SessionID: sid, Title: res.Title, TokensUsed: res.TokensUsed, TokenLimit: res.TokenLimit, Error: MsgModelFailed}
	}
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
	if err := s.queueSummary(ctx, q, sess); err != nil {
		return sess, err
	}
	return ended, nil
}

// prompt builds the model prompt: persona, profile, the newest turns that fit the budget and
// a running summary of the older ones loaded with them.
func (t *Turn) prompt() companion.Prompt {
	p := profileOf(t.user)
	kept, older := companion.TrimHistory(t.history, t.s.limits.ContextBudget)
	return companion.Prompt{System: companion.BuildSystemPrompt(p, older), History: kept, Message: t.message, Profile: p, Paced: t.paced}
}

func profileOf(u dbgen.User) companion.Profile {
	p := companion.Profile{FocusAreas: u.FocusAreas, PrimaryConcerns: u.PrimaryConcerns, SensitiveTopics: u.SensitiveTopics}
	if u.Age != nil {
		p.Age = int(*u.Age)
	}
	return p
}
