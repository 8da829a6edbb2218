package chat

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/store"
	dbgen "github.com/percolate/percolate/gen/db"
)

// prepare runs read and the locking batch at once, on two connections, and returns the open
// transaction of the locking batch. The read's connection is taken first: a transaction
// holding its locks must never wait for a connection that only the end of another such
// transaction would free (with a full pool, that would be a deadlock). The read holds no
// lock, so it always finishes and gives its connection back.
func (s *Service) prepare(ctx context.Context, read func(*store.Conn) error, lock *store.Batch) (*store.OpenTx, error) {
	conn, err := s.store.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	readDone := make(chan error, 1)
	go func() {
		defer conn.Release()
		readDone <- read(conn)
	}()
	tx, err := s.store.SendOpen(ctx, lock)
	readErr := <-readDone
	if store.IsUserGone(err) {
		// The account was deleted just before: a counter row could not be made for it.
		return nil, fmt.Errorf("%w: %w", apperr.ErrUnauthorized, err)
	}
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
	// needed is how many of recent the prompt needs (see history).
	needed int
	// memories are what is remembered from the user's earlier sessions, newest first (none
	// while memory is off).
	memories []string
	// checkins are the user's check-ins of the last seven days (see recentCheckins).
	checkins []dbgen.ListRecentCheckinsForPromptRow
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
		var memErr, checkinsErr error
		b := store.NewBatch(func(q *dbgen.Queries) {
			r.user, r.userErr = q.GetUserByID(ctx, userID)
			r.memories, memErr = q.ListMemoryTextsForPrompt(ctx, userID)
			r.checkins, checkinsErr = s.recentCheckins(ctx, q, userID)
		})
		if err := c.Send(ctx, b); err != nil {
			return err
		}
		return memoriesErr(memErr, checkinsErr)
	}
}

// memoriesErr is the error of what a prompt reads beyond the session: the memories, then the
// recent check-ins.
func memoriesErr(memErr, checkinsErr error) error {
	if memErr != nil {
		return fmt.Errorf("load memories: %w", memErr)
	}
	if checkinsErr != nil {
		return fmt.Errorf("load check-ins: %w", checkinsErr)
	}
	return nil
}

// recentCheckins reads what a prompt carries of the user's check-ins: those of the last seven
// days, without notes and without any whose note the crisis screen flagged.
func (s *Service) recentCheckins(ctx context.Context, q *dbgen.Queries, userID uuid.UUID) ([]dbgen.ListRecentCheckinsForPromptRow, error) {
	return q.ListRecentCheckinsForPrompt(ctx, dbgen.ListRecentCheckinsForPromptParams{UserID: userID, Since: s.now().AddDate(0, 0, -7)})
}

// moodCheckins is the companion's form of the recent check-ins.
func moodCheckins(rows []dbgen.ListRecentCheckinsForPromptRow) []companion.MoodCheckin {
	out := make([]companion.MoodCheckin, 0, len(rows))
	for _, r := range rows {
		c := companion.MoodCheckin{Mood: int(r.Mood), Emotions: r.Emotions, Tags: r.Tags, Day: r.LocalDate}
		if r.Energy != nil {
			c.Energy = int(*r.Energy)
		}
		out = append(out, c)
	}
	return out
}

// readUserAndHistory reads the user and the session's newest messages in one round trip,
// and further back only when the first page does not hold enough (see history).
func (s *Service) readUserAndHistory(ctx context.Context, r *reads, userID, sessionID uuid.UUID) func(*store.Conn) error {
	return func(c *store.Conn) error {
		var (
			limit                      int32
			first                      []dbgen.Message
			limitErr, firstErr, memErr error
			checkinsErr                error
		)
		b := store.NewBatch(func(q *dbgen.Queries) {
			r.user, r.userErr = q.GetUserByID(ctx, userID)
			limit, limitErr = q.GetSessionContextRows(ctx, dbgen.GetSessionContextRowsParams{ID: sessionID, UserID: userID})
			first, firstErr = readFirstPage(ctx, q, userID, sessionID)
			r.memories, memErr = q.ListMemoryTextsForPrompt(ctx, userID)
			r.checkins, checkinsErr = s.recentCheckins(ctx, q, userID)
		})
		if err := c.Send(ctx, b); err != nil {
			return err
		}
		if err := memoriesErr(memErr, checkinsErr); err != nil {
			return err
		}
		if firstErr != nil {
			return fmt.Errorf("load history: %w", firstErr)
		}
		if limitErr != nil && !store.IsNotFound(limitErr) { // not found: the session's lock refuses the send
			return fmt.Errorf("load history: %w", limitErr)
		}
		var err error
		r.recent, r.needed, err = s.history(ctx, c.Queries(), userID, sessionID, first, max(historyPage, int(limit)))
		return err
	}
}

// readFirstPage is the first read of a session's history (ListContextMessages), newest first.
func readFirstPage(ctx context.Context, q *dbgen.Queries, userID, sessionID uuid.UUID) ([]dbgen.Message, error) {
	return q.ListContextMessages(ctx, dbgen.ListContextMessagesParams{SessionID: sessionID, UserID: userID, MinRows: historyPage})
}

// historyPage is how many messages one read of a session's history takes at least, newest
// first. The first read takes more when the session's previous send needed more
// (chat_sessions.context_rows, see contextRows).
const historyPage = 100

// contextRows is what a send stores as the number of messages the next send should read at
// first: as many as this one needed, the message and its reply, and a few more in case the
// next messages are shorter. Only the first read's size depends on it; history reads on
// when that was not enough.
func contextRows(needed int) int32 {
	return int32(min(needed+2+8, 10000)) // #nosec G115 -- at most 10,000
}

// history returns the session's newest messages, newest first, that a prompt can use: those
// that fit the context budget, and older ones for the running summary of what no longer fits.
// It reads backwards from first and stops once it has enough, however long the session: one
// read unless the messages are much shorter than at the previous send (or the session has no
// previous send to go by), and then usually one more, sized by the rows read so far.
// needed is how many of the rows were needed: up to the one that went past the budget, or all.
// firstLimit is the first read's limit: a first page shorter than that holds every message
// the prompt can use (the session's start or its stored summary was reached).
func (s *Service) history(ctx context.Context, q *dbgen.Queries, userID, sessionID uuid.UUID, first []dbgen.Message, firstLimit int) (_ []dbgen.Message, needed int, _ error) {
	enough := s.historyTokens()
	rows, page, used, asked := first, first, 0, firstLimit
	for {
		used, needed = countNeeded(page, used, needed, enough)
		if len(page) < asked || used > enough {
			return rows, needed, nil
		}
		// The next read takes what the rest needs at the size of the rows read so far, and a
		// fifth more: one more read, not a page at a time.
		asked = nextPage(enough-used, used, needed)
		oldest := page[len(page)-1]
		var err error
		page, err = q.ListRecentMessages(ctx, dbgen.ListRecentMessagesParams{
			SessionID: sessionID, UserID: userID, BeforeAt: &oldest.CreatedAt, BeforeID: &oldest.ID, MaxRows: int32(asked), // #nosec G115 -- at most 10,000
		})
		if err != nil {
			return nil, 0, fmt.Errorf("load history: %w", err)
		}
		rows = append(rows, page...)
	}
}

// historyTokens is how many tokens of history a prompt can use: the budget's worth, and half
// as much again for the summary of older turns.
func (s *Service) historyTokens() int {
	budget := s.limits.ContextBudget
	if budget <= 0 {
		budget = companion.DefaultContextBudget
	}
	return budget + budget/2
}

// countNeeded goes on counting, over the next page of newest-first messages, the tokens used
// and the messages needed until they are more than enough.
func countNeeded(page []dbgen.Message, used, needed, enough int) (int, int) {
	for _, m := range page {
		if used > enough {
			break
		}
		used += companion.EstimateTokens(m.Content) + 4
		needed++
	}
	return used, needed
}

// neededIn is history for a first page alone: how many of its rows the prompt needs, and
// whether the page holds all the prompt can use (history would read no further).
func (s *Service) neededIn(first []dbgen.Message, firstLimit int) (needed int, enough bool) {
	limit := s.historyTokens()
	used, needed := countNeeded(first, 0, 0, limit)
	return needed, len(first) < firstLimit || used > limit
}

// nextPage is how many more rows a history read asks for to find rest more tokens, when rows
// rows held used tokens: at their average size and a fifth more, at least historyPage and at
// most 10,000.
func nextPage(rest, used, rows int) int {
	n := historyPage
	if used > 0 && rows > 0 {
		n = max(n, rest*rows*6/(used*5)+1)
	}
	return min(n, 10000)
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
			out = append(out, turnOf(m))
		}
	}
	return out
}

// turnOf is a stored message as the companion is given it: a user's message that screened
// risky is withheld, so that neither a model nor a summary can quote it back.
func turnOf(m dbgen.Message) companion.Turn {
	if m.Role == companion.RoleUser && m.RiskLevel > 0 {
		return companion.Turn{Role: m.Role, Content: companion.Withheld}
	}
	return companion.Turn{Role: m.Role, Content: m.Content}
}
