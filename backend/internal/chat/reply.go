package chat

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/safety"
	"github.com/percolate/percolate/backend/internal/store"
	dbgen "github.com/percolate/percolate/gen/db"
)

// Causes a reply is cancelled with, which decide how it is stored.
var (
	errStopped   = errors.New("the reply was stopped")
	errShutdown  = errors.New("the server is shutting down")
	errDiscarded = errors.New("the message was not stored")
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

// notifyChannel is the PostgreSQL channel on which instances tell each other that a reply was
// stored ("done <session id> <status> <version>"), that a reply must stop ("stop <session
// id>"), or that a user's row or memories changed ("user <user id>", migration 00020).
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
		signal := t.askSignal(l)
		text, tokens, err = t.modelReply(l)
		if signal != nil && <-signal {
			text, tokens, err = t.withSignal(l, text, tokens, err)
		}
	}
	if !<-committed {
		l.finish(SendResult{Error: MsgModelFailed})
		return
	}
	if t.kind != replyModel {
		// The welcome, crisis and check-in replies are Percolate's, not the student's: free.
		text = t.fixedText()
		tokens = 0
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
	res := t.store(text, tokens, status)
	// Stored: an Attach from now on finds nothing in progress (and the stored reply), also
	// when it comes the moment the follower has the result, before this goroutine ends.
	s.replies.unpublish(l)
	l.finish(res)
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
	if !t.s.provider.Offline() && t.pinned == nil && companion.Screen(got) != companion.RiskNone {
		// Whatever the model said, a reply that touches on risk carries the resources. The
		// offline engine's words are not screened as if the user had written them: its lines
		// are checked at build time (companion.TestEngineWordingNamesNoHarm), and it never
		// quotes a flagged message. Once the session's resources are pinned, they are not
		// added again.
		extra := "\n\n" + companion.ResourcesFor(t.where().Country)
		text += extra
		l.append(extra)
	}
	// Only the model's own words count: the AI notice and the resources are free.
	tokens := companion.EstimateTokens(got)
	if err == nil && reply.Usage.Reported {
		tokens = reply.Usage.CompletionTokens
	}
	return text, tokens, err
}

// askSignal asks the provider, when it can give one, for a model-side safety signal about the
// message, in parallel with the reply. The channel gets true for a positive signal; a failed,
// slow (past the provider's budget) or unreadable one is false, and nil means no provider
// signal (the offline engine).
func (t *Turn) askSignal(l *liveReply) <-chan bool {
	sg, ok := t.s.provider.(companion.Signaller)
	if !ok || t.s.provider.Offline() {
		return nil
	}
	out := make(chan bool, 1)
	go func() {
		risky, err := sg.Signal(l.ctx, t.message)
		if err != nil && l.ctx.Err() == nil {
			// t.session is not read here: it is set as the message is committed.
			t.s.log.Warn("safety signal failed; the local screen decides alone", "session_id", l.sessionID, "error", err.Error())
		}
		out <- err == nil && risky
	}()
	return out
}

// withSignal completes a model reply after a positive model-side signal, the local screen
// having found nothing: the reply, already streaming, keeps what it said and gets the
// check-in question and the resources added at its end, so that the next message is screened
// as an answer to a check-in. A model that failed before any text gives the check-in reply
// instead of an error; a reply the user stopped is left as it is.
func (t *Turn) withSignal(l *liveReply, text string, tokens int, err error) (string, int, error) {
	if errors.Is(context.Cause(l.ctx), errStopped) {
		return text, tokens, err
	}
	t.signalled = true
	if text == "" {
		checkIn := companion.CheckInReplyFor(t.where())
		reply := checkIn
		if t.notice != "" {
			reply = t.notice + "\n\n" + reply // the notice was already written
		}
		l.append(checkIn)
		return reply, 0, nil // a check-in is never charged
	}
	extra := "\n\n" + companion.CheckInQuestion
	// Resources pinned earlier in the session are not added again.
	if !companion.HasResources(text) && t.pinned == nil {
		extra += " " + companion.ResourcesFor(t.where().Country)
	}
	l.append(extra)
	return text + extra, tokens, err // the check-in question and resources are free
}

// fixedText is the reply that needs no model: the welcome, the crisis reply or the check-in
// (after the AI notice when one is due, and in place of the welcome in a new session).
func (t *Turn) fixedText() string {
	if t.kind == replyWelcome {
		// A remembered event is asked about once after its day: since is when the welcome
		// last asked (migration 00029), and store records this one when it asks.
		var since time.Time
		if t.user.ThreadAskedAt != nil {
			since = *t.user.ThreadAskedAt
		}
		thread := companion.ThreadOn(t.memories, profileOf(t.user), t.s.now(), since)
		t.threadAsked = companion.AsksHowItWent(thread)
		return companion.WelcomeWithThread(t.user.Name, t.checkIn, thread)
	}
	var reply string
	switch t.kind {
	case replyCheckIn:
		reply = companion.CheckInReplyFor(t.where())
	case replyFollowUp:
		reply = companion.FollowUpReply
	case replyAck:
		reply = companion.CrisisAck(int(t.crises))
	default:
		reply = companion.CrisisReplyFor(companion.Risk(t.risk.Category), t.where())
	}
	switch {
	case t.kind == replyCrisis && t.risk.Category == safety.Attempt:
		// An attempt under way: the emergency number comes first, before any notice.
		if t.newSession {
			return reply + "\n\n" + companion.Disclosure
		}
		if t.notice != "" {
			return reply + "\n\n" + t.notice
		}
		return reply
	case t.newSession:
		return companion.Disclosure + " " + reply
	case t.notice != "":
		return t.notice + "\n\n" + reply
	default:
		return reply
	}
}

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
	askedAt, day, released := s.now(), t.counted.day, []string(nil)
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
			_ = q.IncrementSafetyCheckins(ctx, day)
		}
		for _, kind := range released {
			_ = q.ReleaseUsage(ctx, dbgen.ReleaseUsageParams{UserID: uid, Day: day, Kind: kind})
		}
		if next != nil {
			next.read(ctx, q, uid, sid)
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

// prompt builds the model prompt: persona, profile, what is remembered from earlier
// sessions, the newest turns that fit the budget and a summary of the earlier part (the
// model's, see context.go, and a quick one of the older turns it does not cover).
func (t *Turn) prompt() companion.Prompt {
	p := profileOf(t.user)
	kept, older := companion.TrimHistory(t.history, t.s.limits.ContextBudget)
	system := companion.BuildSystemPrompt(p, t.earlierPart(older), t.memories...)
	if t.crises > 0 {
		system += "\n\n" + companion.AfterCrisisGuidance
	}
	return companion.Prompt{
		System: system, History: kept, Message: t.message,
		Profile: p, Memories: t.memories, Paced: t.paced,
		Crises: int(t.crises), AfterCrisis: t.afterCrisis,
	}
}

func profileOf(u dbgen.User) companion.Profile {
	p := companion.Profile{FocusAreas: u.FocusAreas, PrimaryConcerns: u.PrimaryConcerns, SensitiveTopics: u.SensitiveTopics}
	if u.Country != nil {
		p.Country = *u.Country
	}
	if u.Age != nil {
		p.Age = int(*u.Age)
	}
	return p
}

// where is what the crisis texts need of the user: the country whose lines they give and the
// age.
func (t *Turn) where() companion.Where {
	p := profileOf(t.user)
	return companion.Where{Country: p.Country, Age: p.Age}
}
