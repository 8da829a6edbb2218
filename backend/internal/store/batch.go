package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	dbgen "github.com/percolate/percolate/gen/db"
)

// Batch is several of the sqlc-generated queries sent to PostgreSQL in one round trip, on the
// hot paths where round trips add up (a chat message before its reply can start, a read of a
// chat or of the list). Code makes ordinary calls on the *dbgen.Queries it is given:
//
//	b := store.NewBatch(func(q *dbgen.Queries) {
//		role, roleErr = q.GetUserRole(ctx, userID)
//		sess, sessErr = q.GetSessionForUser(ctx, params)
//	})
//	err := st.Send(ctx, b) // role, sess and their errors are set from here on
//
// pgx's own batch (pgx.Batch) decodes each result in a callback written by hand, a second copy
// of sqlc's scan; sqlc's batch annotations (:batchone, :batchexec) send one statement many
// times, a batch per statement, and need each query written again under a second name. So
// the function is run twice instead: NewBatch
// runs it against a recorder that notes each statement and its arguments and answers every
// call with an error, and Send runs it again against the batch's results, so that the
// generated code decodes its own rows and the assignments end up holding the real outcomes.
// The SQL stays in db/queries, checked by sqlc, with no second copy.
//
// The function therefore only makes calls and keeps what they return: which calls it makes
// may depend on what was known before (a flag, a parameter), never on a call's result. A
// function that makes other calls the second time panics, found by the first test that runs
// it.
//
// A statement that fails fails the batch, and the send returns its error (the calls after it
// get it too), so a write's own error need not be kept; a read that finds no row is only that
// call's outcome (IsNotFound).
//
// The statements of a batch run in order on one connection. Sent on a pool, they run in one
// implicit transaction; after BeginTx they open a transaction that the caller commits.
type Batch struct {
	b  pgx.Batch
	fn func(q *dbgen.Queries)
}

// NewBatch records the calls fn makes as one batch (fn may be nil: an empty batch).
func NewBatch(fn func(q *dbgen.Queries)) *Batch {
	b := &Batch{fn: fn}
	if fn != nil {
		fn(dbgen.New(recorder{&b.b}))
	}
	return b
}

// errRecorded is what the recorder answers: the statement was noted, not run.
var errRecorded = errors.New("store: recorded for a batch")

// Len is the number of queued queries.
func (b *Batch) Len() int { return len(b.b.QueuedQueries) }

// Send runs the batch on the pool, in one round trip, and decodes every result. Its error is
// the batch's own (connection lost, a statement that failed); an ordinary outcome of one
// query, such as pgx.ErrNoRows, is only what that call returned.
func (s *Store) Send(ctx context.Context, b *Batch) error {
	return b.run(s.pool.SendBatch(ctx, b.fresh()))
}

// fresh returns the batch's statements as a new pgx.Batch. pgx keeps what it learns while
// sending (each statement's description) in the queued statements themselves, and a send cut
// off half-way leaves them unfit to be sent again; a fresh copy for every send lets a batch
// be tried again after a lost connection.
func (b *Batch) fresh() *pgx.Batch {
	out := &pgx.Batch{}
	for _, q := range b.b.QueuedQueries {
		out.Queue(q.SQL, q.Arguments...)
	}
	return out
}

// SendTx runs the batch in a new transaction, opened by the same round trip, and returns the
// transaction for the caller to go on with and then commit or roll back. On error the
// transaction is already rolled back.
func (s *Store) SendTx(ctx context.Context, b *Batch) (pgx.Tx, error) {
	var full pgx.Batch
	full.BeginTx(pgx.TxOptions{})
	full.QueuedQueries = append(full.QueuedQueries, b.fresh().QueuedQueries...)
	br := s.pool.SendBatch(ctx, &full)
	tx := br.Tx()
	if err := b.runOpening(ctx, br, tx.Rollback); err != nil {
		return nil, err
	}
	return tx, nil
}

// SendIn runs the batch inside an open transaction, in one round trip.
func SendIn(ctx context.Context, tx pgx.Tx, b *Batch) error {
	return b.run(tx.SendBatch(ctx, b.fresh()))
}

// runOpening decodes the results of a batch that begins a transaction and then runs b's
// statements (SendTx, SendOpen). On error the transaction is ended by rollback.
func (b *Batch) runOpening(ctx context.Context, br pgx.BatchResults, rollback func(context.Context) error) error {
	if _, err := br.Exec(); err != nil { // the BEGIN
		_ = br.Close()
		_ = rollback(context.WithoutCancel(ctx))
		return fmt.Errorf("begin transaction: %w", err)
	}
	if err := b.run(br); err != nil {
		_ = rollback(context.WithoutCancel(ctx))
		return err
	}
	return nil
}

func (b *Batch) run(br pgx.BatchResults) error {
	return b.runThen(br, nil)
}

// runThen decodes the batch's results, then (when not nil) reads the result of what was
// queued after the batch's own statements with then, and closes the results.
func (b *Batch) runThen(br pgx.BatchResults, then func() error) error {
	if b.fn != nil {
		r := &replayer{br: br, want: b.b.QueuedQueries}
		b.fn(dbgen.New(r))
		if r.bad || r.n != len(r.want) {
			// A programming error, found by the first test that runs the code.
			_ = br.Close()
			panic("store: a batch's function made other calls on its results than when it was queued; it must decide nothing on a result")
		}
	}
	var err error
	if then != nil {
		err = then()
	}
	if cerr := br.Close(); cerr != nil {
		return fmt.Errorf("batch: %w", cerr)
	}
	return err
}

// recorder is a DBTX that queues each statement it is given instead of running it.
type recorder struct{ b *pgx.Batch }

func (r recorder) Exec(_ context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	r.b.Queue(sql, args...)
	return pgconn.CommandTag{}, errRecorded
}

func (r recorder) Query(_ context.Context, sql string, args ...any) (pgx.Rows, error) {
	r.b.Queue(sql, args...)
	return nil, errRecorded
}

func (r recorder) QueryRow(_ context.Context, sql string, args ...any) pgx.Row {
	r.b.Queue(sql, args...)
	return errRow{}
}

type errRow struct{}

func (errRow) Scan(...any) error { return errRecorded }

// replayer is a DBTX that answers each call with the batch's next result, when it is the
// call recorded at that place (bad notes one that is not, answered with an error).
type replayer struct {
	br   pgx.BatchResults
	want []*pgx.QueuedQuery
	n    int
	bad  bool
}

func (r *replayer) next(sql string) bool {
	if r.bad || r.n >= len(r.want) || r.want[r.n].SQL != sql {
		r.bad = true
		return false
	}
	r.n++
	return true
}

func (r *replayer) Exec(_ context.Context, sql string, _ ...any) (pgconn.CommandTag, error) {
	if !r.next(sql) {
		return pgconn.CommandTag{}, errRecorded
	}
	return r.br.Exec()
}

func (r *replayer) Query(_ context.Context, sql string, _ ...any) (pgx.Rows, error) {
	if !r.next(sql) {
		return nil, errRecorded
	}
	return r.br.Query()
}

func (r *replayer) QueryRow(_ context.Context, sql string, _ ...any) pgx.Row {
	if !r.next(sql) {
		return errRow{}
	}
	return r.br.QueryRow()
}

// Conn is one connection of the pool, held for a few statements in a row.
type Conn struct {
	c *pgxpool.Conn
	q *dbgen.Queries
}

// Acquire takes a connection from the pool; Release gives it back.
func (s *Store) Acquire(ctx context.Context) (*Conn, error) {
	c, err := s.pool.Acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("acquire connection: %w", err)
	}
	return &Conn{c: c, q: dbgen.New(c)}, nil
}

// Queries returns the generated queries on this connection.
func (c *Conn) Queries() *dbgen.Queries { return c.q }

// Send runs the batch on this connection, like Store.Send.
func (c *Conn) Send(ctx context.Context, b *Batch) error {
	return b.run(c.c.SendBatch(ctx, b.fresh()))
}

// Release gives the connection back to the pool.
func (c *Conn) Release() { c.c.Release() }

// OpenTx is a transaction opened by SendOpen on a connection of its own. It ends with
// SendCommit, which writes and commits in one round trip, or Rollback.
type OpenTx struct {
	c *pgxpool.Conn
}

// SendOpen runs the batch in a new transaction, opened by the same round trip, like SendTx;
// the transaction is then ended by SendCommit or Rollback. On error it is already rolled back.
func (s *Store) SendOpen(ctx context.Context, b *Batch) (*OpenTx, error) {
	c, err := s.pool.Acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("acquire connection: %w", err)
	}
	t := &OpenTx{c: c}
	full := &pgx.Batch{}
	full.Queue("begin")
	full.QueuedQueries = append(full.QueuedQueries, b.fresh().QueuedQueries...)
	if err := b.runOpening(ctx, c.SendBatch(ctx, full), t.Rollback); err != nil {
		return nil, err
	}
	return t, nil
}

// ErrCommitRolledBack is SendCommit's error when PostgreSQL answered the COMMIT with a
// rollback (a deferred constraint failed).
var ErrCommitRolledBack = errors.New("store: the commit was rolled back")

// SendCommit runs the batch in the transaction and commits it, in one round trip: the COMMIT
// is queued after the batch's statements, and runs only if all of them succeeded. It ends the
// transaction either way (rolled back on error) and gives the connection back. An error after
// the batch was sent may leave it unknown whether the commit happened only when the
// connection was lost (as with any commit).
func (t *OpenTx) SendCommit(ctx context.Context, b *Batch) error {
	if t.c == nil {
		return pgx.ErrTxClosed
	}
	full := b.fresh()
	full.Queue("commit")
	br := t.c.SendBatch(ctx, full)
	err := b.runThen(br, func() error {
		tag, err := br.Exec() // the COMMIT
		if err == nil && tag.String() == "ROLLBACK" {
			err = ErrCommitRolledBack
		}
		return err
	})
	if err != nil {
		_ = t.Rollback(context.WithoutCancel(ctx))
		return err
	}
	t.c.Release()
	t.c = nil
	return nil
}

// Rollback ends the transaction without storing anything and gives the connection back. It
// does nothing after the transaction ended.
func (t *OpenTx) Rollback(ctx context.Context) error {
	if t.c == nil {
		return pgx.ErrTxClosed
	}
	c := t.c
	t.c = nil
	defer c.Release() // a connection left in a transaction is closed by the pool, not reused
	if c.Conn().PgConn().TxStatus() == 'I' {
		return nil
	}
	_, err := c.Exec(ctx, "rollback")
	return err
}
