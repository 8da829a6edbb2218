package chat

import (
	"context"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/cache"
	"github.com/percolate/percolate/backend/internal/ratelimit"
	"github.com/percolate/percolate/backend/internal/store"
	dbgen "github.com/percolate/percolate/gen/db"
)

// A send usually reads what it needs (the user, the memories, the newest messages) and locks
// the session in a first round trip, and writes and commits in a second (turn.go). The
// instance that stores a reply reads the same in the reply's own transaction, after its
// writes, and keeps it as the session's send state: what the next send to the session needs
// to know before it writes. Opening a chat (Detail) reads it too, when the instance holds
// nothing of the chat, so that the first message after it finds it. A send that finds its
// session's state decides and builds the prompt at once, asks the model at once, and writes
// in one round trip whose statements check that the state still holds (migration 00020): the
// user's row unchanged (its fingerprint), the session at the kept version (every write of its
// messages moves it), the prompt's memories the same, the quotas not reached. When any check
// fails the round trip writes nothing, the model's answer is discarded unseen, and the send is
// made the usual way.
//
// A state is used once (taken), is kept only while the service listens for changes (a user's
// row or memories changing empties that user's states on every instance, and a lost
// connection all of them), and the instance keeps at most DefaultSendStateBytes of them.

// DefaultSendStateBytes is how much of send states an instance keeps by default.
const DefaultSendStateBytes = 8 << 20

// sendState is what a send to a session needs to know before it writes, as the session's
// last stored reply left it.
type sendState struct {
	session  dbgen.ChatSession
	user     dbgen.User
	userFP   string // the user row's fingerprint (GetUserForSend)
	memories []string
	// checkins are the recent check-ins as the reply's store read them: one made since shows
	// from the send after next.
	checkins []dbgen.ListRecentCheckinsForPromptRow
	recent   []dbgen.Message // newest first, as readUserAndHistory reads them
	needed   int
}

// sendStates are the instance's send states, by session, kept while the service's listener
// listens (Start follows it).
type sendStates struct {
	*cache.Cache[uuid.UUID, *sendState]
}

func newSendStates(maxBytes int) sendStates {
	return sendStates{cache.New(cache.Config[uuid.UUID, *sendState]{MaxBytes: maxBytes, Bytes: stateSize, Followed: true})}
}

// wanted says whether a state would be kept now.
func (c sendStates) wanted() bool { return c.Keeps() }

// wantedFor says whether a state of the session would be kept now, none being kept.
func (c sendStates) wantedFor(sessionID uuid.UUID) bool { return c.Keeps() && !c.Has(sessionID) }

// keep keeps st as its session's state, in place of one of the same or an earlier version (a
// chat's read may come back after a reply kept a later one).
func (c sendStates) keep(st *sendState) {
	c.SetUnless(st.session.ID, st, func(held *sendState) bool { return held.session.Version > st.session.Version })
}

// take returns the session's state and forgets it (nil when there is none).
func (c sendStates) take(sessionID uuid.UUID) *sendState {
	st, _ := c.Take(sessionID)
	return st
}

// forgetUser drops the states of the user's sessions.
func (c sendStates) forgetUser(userID uuid.UUID) {
	c.DeleteWhere(func(st *sendState) bool { return st.session.UserID == userID })
}

func (c sendStates) forget(sessionID uuid.UUID) { c.Delete(sessionID) }

// forgetOlder drops the session's state if it was kept at a version before version.
func (c sendStates) forgetOlder(sessionID uuid.UUID, version int64) {
	c.DeleteIf(sessionID, func(st *sendState) bool { return st.session.Version < version })
}

// stateSize estimates what a state holds in memory, in bytes.
func stateSize(st *sendState) int {
	n := 2048 + len(st.session.Title) + len(st.session.LastMessage) + len(st.session.ContextSummary)
	for _, m := range st.recent {
		n += 256 + len(m.Content)
	}
	for _, m := range st.memories {
		n += 16 + len(m)
	}
	n += 128 * len(st.checkins)
	return n
}

// stateReads are the reads a reply's store makes after its writes, in the same batch, for
// the session's next send.
type stateReads struct {
	user                      dbgen.GetUserForSendRow
	memories                  []string
	checkins                  []dbgen.ListRecentCheckinsForPromptRow
	first                     []dbgen.Message
	userErr, memErr, firstErr error
	checkinsErr               error
}

func (r *stateReads) read(ctx context.Context, s *Service, q *dbgen.Queries, userID, sessionID uuid.UUID) {
	r.user, r.userErr = q.GetUserForSend(ctx, userID)
	r.memories, r.memErr = q.ListMemoryTextsForPrompt(ctx, userID)
	r.checkins, r.checkinsErr = s.recentCheckins(ctx, q, userID)
	r.first, r.firstErr = readFirstPage(ctx, q, userID, sessionID)
}

// state is the send state the reads give for the session as sess (written by the same
// transaction, or read just before the reads: Detail): nil when the session no longer takes
// messages, or when the first page of its messages does not hold all the next prompt needs
// (the next send reads further back).
func (r *stateReads) state(s *Service, sess dbgen.ChatSession) *sendState {
	if sess.Status != statusActive || sess.ReplyUntil != nil {
		return nil
	}
	if r.userErr != nil || r.memErr != nil || r.checkinsErr != nil || r.firstErr != nil {
		return nil
	}
	needed, enough := s.neededIn(r.first, max(historyPage, int(sess.ContextRows)))
	if !enough {
		return nil
	}
	return &sendState{session: sess, user: r.user.User, userFP: r.user.Fingerprint, memories: r.memories, checkins: r.checkins, recent: r.first, needed: needed}
}

// ForgetUser drops what this instance kept for the next sends of the user's chats: the
// caller changed the user's profile or memories, which a prompt carries. Every instance
// drops it anyway when the change is notified (migration 00020); the instance that made the
// change does it before it answers, so that the user's next message never starts from it.
func (s *Service) ForgetUser(userID uuid.UUID) { s.states.forgetUser(userID) }

// continueKept is continueSession from the session's kept state, in one round trip. ok false
// means the state could not be used: nothing was written, and the send is to be made the
// usual way.
func (s *Service) continueKept(ctx context.Context, st *sendState, userID, sessionID uuid.UUID, msg string, sc *screening, in SendInput) (_ *Turn, ok bool, _ error) {
	limit := s.limits.Tiers.For(st.user.Role).MessagesPerDay
	if st.session.ID != sessionID || st.session.UserID != userID || st.user.ID != userID ||
		st.session.Status != statusActive || s.replyInProgress(st.session) || limit <= 0 {
		return nil, false, nil
	}
	now := s.now()
	c := &counters{day: day(now), now: now}
	t := &Turn{s: s, user: st.user, session: st.session, memories: st.memories, checkins: st.checkins, message: msg, messageID: uuid.New(), paced: in.Paced, counted: c, screen: sc}
	t.history, t.earlier = turnsBefore(uncovered(st.session, st.recent), uuid.Nil), earlierOf(st.session)
	t.decide(sc, safetyContext(st.recent, uuid.Nil), st.recent, uuid.Nil)

	session, message, level := s.continueParams(t, sessionID, st.needed, now), messageParams(t, sessionID), t.risk.Level
	var w sessionWrite
	b := store.NewBatch(func(q *dbgen.Queries) {
		// The same locks in the same order as a send's first round trip (user, session,
		// counters), each with its check.
		_, _ = q.ExpectSendState(ctx, dbgen.ExpectSendStateParams{
			UserID: userID, Fingerprint: st.userFP, SessionID: sessionID, Version: st.session.Version, Memories: nonNil(st.memories),
		})
		if s.limits.BurstPerMinute > 0 {
			rl := ratelimit.New(q)
			rl.Now = s.now
			_ = rl.HitWithin(ctx, burstRule(s.limits.BurstPerMinute), userID.String())
		}
		_, _ = q.TakeUsageWithin(ctx, dbgen.TakeUsageWithinParams{UserID: userID, Day: c.day, Kind: usageKindMessages, MaxCount: int32(limit)}) // #nosec G115 -- a configured per-tier limit
		w.row, w.err = q.ContinueSession(ctx, session)
		_, _ = q.InsertMessage(ctx, message)
		recordRisk(ctx, q, level, c.day)
	})
	out, err := s.start(ctx, t, sessionID, &w, func(ctx context.Context) error {
		// No BEGIN and no COMMIT: a batch is one pipeline with one Sync, which PostgreSQL runs
		// as one implicit transaction, committed at the Sync only if every statement succeeded.
		return s.store.Send(ctx, b)
	}, func() {})
	if store.IsExpectationFailed(err) {
		return nil, false, nil
	}
	if err == nil {
		s.keptSends.Add(1)
	}
	return out, true, err
}

// nonNil is ss, or an empty slice (an empty array, not NULL, in a statement).
func nonNil(ss []string) []string {
	if ss == nil {
		return []string{}
	}
	return ss
}
