package chat

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/store"
	dbgen "github.com/percolate/percolate/gen/db"
)

// A send takes three round trips to the database, and the model does not wait for the last:
//
//  1. At once, concurrently: a read of the user and the newest messages (outside any
//     transaction), and a batch that opens the transaction, locks the session (or takes the
//     pending check-ins of a new one) and takes the burst limit and the daily quotas.
//  2. In Go: every check and decision (limits, the safety step, title, AI notice).
//  3. One batch writes the session row once (title, notice time, tokens, preview, the reply
//     in progress), the message and any safety referral, and the commit follows. The reply
//     starts at the same time; nothing of it is shown or stored before the commit, and a
//     failed commit cancels it.

// Turn is a stored message whose reply is being produced.
type Turn struct {
	s    *Service
	user dbgen.User
	// session is the session row as the send left it; set before the commit completes, read
	// by the reply only after it.
	session    dbgen.ChatSession
	message    string
	messageID  uuid.UUID
	newSession bool
	checkIn    bool
	risk       companion.Risk
	kind       replyKind
	notice     string           // the repeated AI disclosure, when due
	history    []companion.Turn // the turns before the message, oldest first
	paced      bool
	counted    *counters // what a failed reply gives back
	live       *liveReply
}

// SessionID is the id of the turn's session.
func (t *Turn) SessionID() uuid.UUID { return t.session.ID }

// replyKind is what answers a message.
type replyKind int

const (
	replyModel   replyKind = iota // the companion (a model or the offline engine)
	replyWelcome                  // the fixed welcome of a new session
	replyCrisis                   // the fixed crisis reply with resources
)

// decide is the safety step of a send: the message's risk, screened with the previous turns
// as context, and the kind of reply it gets. A risky message gets the crisis reply whatever
// a model would say, and is never mirrored back. It is the one place the send path asks the
// safety screen, so the screen can change without touching the rest.
func decide(msg string, previous []companion.Turn, newSession bool) (companion.Risk, replyKind) {
	_ = previous // the current screen reads the message alone
	risk := companion.Screen(msg)
	switch {
	case risk != companion.RiskNone:
		return risk, replyCrisis
	case newSession:
		return risk, replyWelcome
	default:
		return risk, replyModel
	}
}

// open starts a new session with the message.
func (s *Service) open(ctx context.Context, userID uuid.UUID, msg string, in SendInput) (*Turn, error) {
	r := &reads{}
	lock := &store.Batch{}
	// Session rows are always locked before the usage counter rows (no deadlocks).
	checkins := store.Queue(lock, func(q *dbgen.Queries) (int64, error) { return q.TakePendingCheckins(ctx, userID) })
	c := s.queueCounters(ctx, lock, userID, in.Quotas)
	tx, err := s.prepare(ctx, s.readUser(ctx, r, userID), lock)
	if err != nil {
		return nil, err
	}
	t := &Turn{s: s, message: msg, messageID: uuid.New(), newSession: true, paced: in.Paced, counted: c}
	err = func() error {
		if t.user, err = r.userOrErr(); err != nil {
			return err
		}
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
	t.risk, t.kind = decide(msg, nil, true)

	sessionID := uuid.New()
	write := &store.Batch{}
	sess := store.Queue(write, func(q *dbgen.Queries) (dbgen.ChatSession, error) {
		return q.OpenSession(ctx, dbgen.OpenSessionParams{
			ID: sessionID, UserID: userID, Title: s.titleFor(msg, t.risk),
			TokenLimit: int32(tierValue(s.limits.SessionTokens, t.user.Role)), DisclosedAt: &c.now,
			LastMessage: preview(msg), CheckinPending: t.risk != companion.RiskNone, ReplyUntil: s.replyUntil(),
		})
	})
	queueMessage(ctx, write, t, sessionID)
	if t.risk != companion.RiskNone {
		recordRisk(ctx, write, c.day)
	}
	return s.start(ctx, tx, t, sessionID, write, sess)
}

// continueSession adds the message to the caller's active session.
func (s *Service) continueSession(ctx context.Context, userID, sessionID uuid.UUID, msg string, in SendInput) (*Turn, error) {
	r := &reads{}
	lock := &store.Batch{}
	locked := queueLock(ctx, lock, userID, sessionID)
	c := s.queueCounters(ctx, lock, userID, in.Quotas)
	tx, err := s.prepare(ctx, s.readUserAndHistory(ctx, r, userID, sessionID), lock)
	if err != nil {
		return nil, err
	}
	t := &Turn{s: s, message: msg, messageID: uuid.New(), paced: in.Paced, counted: c}
	err = func() error {
		if t.session, err = s.activeSession(locked); err != nil {
			return err
		}
		if t.user, err = r.userOrErr(); err != nil {
			return err
		}
		if err := s.check(c, t.user.Role); err != nil {
			return err
		}
		t.history = turnsBefore(r.recent, uuid.Nil)
		return nil
	}()
	if err != nil {
		rollback(ctx, tx)
		return nil, err
	}
	t.risk, t.kind = decide(msg, t.history, false)
	title := t.session.Title
	if title == DefaultTitle || title == "" {
		title = s.titleFor(msg, t.risk)
	}
	disclosed := t.dueNotice(c.now)
	write := &store.Batch{}
	sess := store.Queue(write, func(q *dbgen.Queries) (dbgen.ChatSession, error) {
		return q.ContinueSession(ctx, dbgen.ContinueSessionParams{
			Title: title, DisclosedAt: disclosed, Tokens: int32(companion.EstimateTokens(msg)),
			LastMessage: preview(msg), CheckinPending: t.risk != companion.RiskNone, ReplyUntil: s.replyUntil(),
			ID: sessionID, UserID: userID,
		})
	})
	queueMessage(ctx, write, t, sessionID)
	if t.risk != companion.RiskNone {
		recordRisk(ctx, write, c.day)
	}
	return s.start(ctx, tx, t, sessionID, write, sess)
}

// queueMessage queues the insert of the turn's message.
func queueMessage(ctx context.Context, b *store.Batch, t *Turn, sessionID uuid.UUID) {
	store.QueueExec(b, func(q *dbgen.Queries) error {
		_, err := q.InsertMessage(ctx, dbgen.InsertMessageParams{
			ID: t.messageID, SessionID: sessionID, UserID: t.user.ID, Role: companion.RoleUser, Content: t.message,
			TokenCount: int32(companion.EstimateTokens(t.message)), Status: StatusComplete,
		})
		return err
	})
}

// recordRisk queues what a message that screened positive leaves behind besides its session's
// check-in flag: one more referral in the day's count, without user or content.
func recordRisk(ctx context.Context, b *store.Batch, day time.Time) {
	store.QueueExec(b, func(q *dbgen.Queries) error { return q.IncrementSafetyReferrals(ctx, day) })
}

// Retry answers the session's last user message again, for a reply that failed, was
// interrupted or was stopped: the message is not stored again, and a partial reply is
// replaced. It counts against the daily limit like a send (a failed reply gives it back).
func (s *Service) Retry(ctx context.Context, userID, sessionID uuid.UUID, paced bool) (*Turn, error) {
	r := &reads{}
	lock := &store.Batch{}
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
		if err := s.check(c, t.user.Role); err != nil {
			return err
		}
		t.history = turnsBefore(r.recent, t.messageID)
		return nil
	}()
	if err != nil {
		rollback(ctx, tx)
		return nil, err
	}
	// The risk was recorded when the message was sent; only the reply is decided again.
	t.newSession = len(t.history) == 0
	t.risk, t.kind = decide(t.message, t.history, t.newSession)
	var disclosed *time.Time
	if !t.newSession {
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
			LastMessage: preview(t.message), ReplyUntil: s.replyUntil(), ID: sessionID, UserID: userID,
		})
	})
	return s.start(ctx, tx, t, sessionID, write, sess)
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

// prepare runs read and the locking batch at once, on two connections, and returns the open
// transaction of the locking batch. The read's connection is taken first: a transaction
// holding its locks must never wait for a connection that only the end of another such
// transaction would free (with a full pool, that would be a deadlock). The read holds no
// lock, so it always finishes and gives its connection back.
func (s *Service) prepare(ctx context.Context, read func(*store.Conn) error, lock *store.Batch) (pgx.Tx, error) {
	conn, err := s.store.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	readDone := make(chan error, 1)
	go func() {
		defer conn.Release()
		readDone <- read(conn)
	}()
	tx, err := s.store.SendTx(ctx, lock)
	readErr := <-readDone
	if err != nil {
		return nil, err
	}
	if readErr != nil {
		rollback(ctx, tx)
		return nil, readErr
	}
	return tx, nil
}

// reads is what a send reads outside its transaction.
type reads struct {
	user    dbgen.User
	userErr error
	recent  []dbgen.Message // newest first
}

func (r *reads) userOrErr() (dbgen.User, error) {
	if store.IsNotFound(r.userErr) {
		return r.user, fmt.Errorf("load user: %w", apperr.ErrUnauthorized)
	}
	if r.userErr != nil {
		return r.user, fmt.Errorf("load user: %w", r.userErr)
	}
	return r.user, nil
}

func (s *Service) readUser(ctx context.Context, r *reads, userID uuid.UUID) func(*store.Conn) error {
	return func(c *store.Conn) error {
		r.user, r.userErr = c.Queries().GetUserByID(ctx, userID)
		return nil
	}
}

// readUserAndHistory reads the user and the session's newest messages in one round trip,
// and further back only when the first page does not hold enough (see history).
func (s *Service) readUserAndHistory(ctx context.Context, r *reads, userID, sessionID uuid.UUID) func(*store.Conn) error {
	return func(c *store.Conn) error {
		b := &store.Batch{}
		user := store.Queue(b, func(q *dbgen.Queries) (dbgen.User, error) { return q.GetUserByID(ctx, userID) })
		first := store.Queue(b, func(q *dbgen.Queries) ([]dbgen.Message, error) {
			return q.ListRecentMessages(ctx, dbgen.ListRecentMessagesParams{SessionID: sessionID, UserID: userID, MaxRows: historyPage})
		})
		if err := c.Send(ctx, b); err != nil {
			return err
		}
		r.user, r.userErr = user.Get()
		rows, err := first.Get()
		if err != nil {
			return fmt.Errorf("load history: %w", err)
		}
		r.recent, err = s.history(ctx, c.Queries(), userID, sessionID, rows)
		return err
	}
}

func rollback(ctx context.Context, tx pgx.Tx) { _ = tx.Rollback(context.WithoutCancel(ctx)) }

// commitTimeout bounds the writes and the commit of a send. They do not stop when the client
// goes away: a message the user sent is stored if it can be.
const commitTimeout = 15 * time.Second

// start sends the turn's writes and commits them while the reply starts: the model does not
// wait for the commit, the slowest part of a send. The reply is published (to Follow, Attach
// and Stop) and stored only once the message is committed; if the commit fails, the reply is
// cancelled and discarded, and the error returned.
func (s *Service) start(ctx context.Context, tx pgx.Tx, t *Turn, sessionID uuid.UUID, write *store.Batch, sess *store.Result[dbgen.ChatSession]) (*Turn, error) {
	l, err := s.replies.add(sessionID, s.replyTimeout)
	if err != nil {
		rollback(ctx, tx)
		return nil, err
	}
	t.live = l
	committed := make(chan bool, 1)
	go s.produce(t, committed)

	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), commitTimeout)
	defer cancel()
	err = store.SendIn(wctx, tx, write)
	if err == nil {
		t.session, err = sess.Get()
	}
	if err == nil {
		err = tx.Commit(wctx)
	}
	if err != nil {
		rollback(ctx, tx)
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
	t := s.now().Add(s.replyTimeout + storeTimeout)
	return &t
}

// replyInProgress says whether the session row shows a reply being written.
func (s *Service) replyInProgress(sess dbgen.ChatSession) bool {
	return sess.ReplyUntil != nil && sess.ReplyUntil.After(s.now())
}

// historyPage is how many messages one read of a session's history takes, newest first.
const historyPage = 100

// history returns the session's newest messages, newest first, that a prompt can use: those
// that fit the context budget, and older ones for the running summary of what no longer fits.
// It reads backwards from first, a page at a time, and stops once it has enough, however long
// the session: one page unless the messages are very short.
func (s *Service) history(ctx context.Context, q *dbgen.Queries, userID, sessionID uuid.UUID, first []dbgen.Message) ([]dbgen.Message, error) {
	budget := s.limits.ContextBudget
	if budget <= 0 {
		budget = companion.DefaultContextBudget
	}
	rows, page, used := first, first, 0
	for {
		for _, m := range page {
			used += companion.EstimateTokens(m.Content) + 4
		}
		// The budget's worth, and half as much again for the summary of older turns.
		if len(page) < historyPage || used > budget+budget/2 {
			return rows, nil
		}
		oldest := page[len(page)-1]
		var err error
		page, err = q.ListRecentMessages(ctx, dbgen.ListRecentMessagesParams{
			SessionID: sessionID, UserID: userID, BeforeAt: &oldest.CreatedAt, BeforeID: &oldest.ID, MaxRows: historyPage,
		})
		if err != nil {
			return nil, fmt.Errorf("load history: %w", err)
		}
		rows = append(rows, page...)
	}
}

// turnsBefore turns the newest-first messages into the conversation's turns, oldest first;
// with answered set (a retry), that message and what follows it are left out.
func turnsBefore(newestFirst []dbgen.Message, answered uuid.UUID) []companion.Turn {
	var out []companion.Turn
	for i := len(newestFirst) - 1; i >= 0; i-- {
		m := newestFirst[i]
		if m.ID == answered {
			break
		}
		if m.Role == companion.RoleUser || m.Role == companion.RoleAssistant {
			out = append(out, companion.Turn{Role: m.Role, Content: m.Content})
		}
	}
	return out
}
