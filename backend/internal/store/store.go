// Package store owns the connection to PostgreSQL: the pgx pool, transactions
// over the sqlc-generated queries in gen/db, and schema migrations.
//
// Domain packages take a *Store and call Queries for single statements or
// WithTx when a rule spans several rows (quota check + insert, token
// rotation, webhook event + role change).
package store

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	dbgen "github.com/percolate/percolate/gen/db"
)

// Store is a pool of connections to one PostgreSQL database.
type Store struct {
	pool    *pgxpool.Pool
	queries *dbgen.Queries
}

// Open connects to the database at databaseURL (a postgres:// URL or a
// keyword/value DSN) and checks that it answers.
//
// Pool settings given in the URL (pool_max_conns and friends) win; otherwise
// the pool holds up to max(10, 4×GOMAXPROCS) connections, recycles them
// hourly and closes idle ones after 30 minutes.
func Open(ctx context.Context, databaseURL string) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(databaseURL)
	if err != nil {
		// The parse error may quote the URL, password included: do not wrap it.
		return nil, errors.New("open database: the database URL is not a valid PostgreSQL connection string")
	}
	applyPoolDefaults(cfg, databaseURL)
	cfg.AfterConnect = registerUUID

	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	s := &Store{pool: pool, queries: dbgen.New(pool)}

	pingCtx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	if err := s.Ping(pingCtx); err != nil {
		pool.Close()
		return nil, err
	}
	return s, nil
}

// FromPool returns a store over a pool set up by the caller (with a query tracer, say).
func FromPool(pool *pgxpool.Pool) *Store { return &Store{pool: pool, queries: dbgen.New(pool)} }

// applyPoolDefaults fills in the settings the connection string left unset.
func applyPoolDefaults(cfg *pgxpool.Config, databaseURL string) {
	if !strings.Contains(databaseURL, "pool_max_conns") {
		cfg.MaxConns = int32(max(10, 4*runtime.GOMAXPROCS(0))) // #nosec G115 -- a few times the CPU count, far below 2^31
	}
	if !strings.Contains(databaseURL, "pool_max_conn_lifetime") {
		cfg.MaxConnLifetime = time.Hour
	}
	if !strings.Contains(databaseURL, "pool_max_conn_idle_time") {
		cfg.MaxConnIdleTime = 30 * time.Minute
	}
	if !strings.Contains(databaseURL, "connect_timeout") {
		cfg.ConnConfig.ConnectTimeout = 10 * time.Second
	}
	if _, ok := cfg.ConnConfig.RuntimeParams["application_name"]; !ok {
		cfg.ConnConfig.RuntimeParams["application_name"] = "percolate"
	}
	// The description cache serves only the cache_describe mode. In any other (the default
	// caches prepared statements) nothing reads it, and each connection would still keep a
	// map made for 512 descriptions.
	if cfg.ConnConfig.DefaultQueryExecMode != pgx.QueryExecModeCacheDescribe && !strings.Contains(databaseURL, "description_cache_capacity") {
		cfg.ConnConfig.DescriptionCacheCapacity = 0
	}
}

// Pool returns the underlying pgx pool, for the few callers that need pgx
// directly (River, the job queue; LISTEN/NOTIFY, COPY).
func (s *Store) Pool() *pgxpool.Pool { return s.pool }

// Queries returns the generated queries running on the pool, outside any
// transaction.
func (s *Store) Queries() *dbgen.Queries { return s.queries }

// Ping checks that the database answers.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.pool.Ping(ctx); err != nil {
		return fmt.Errorf("ping database: %w", err)
	}
	return nil
}

// Close closes every connection in the pool; it waits for connections in use
// to be released.
func (s *Store) Close() { s.pool.Close() }

// WithTx runs fn in a read-committed transaction. It commits when fn returns
// nil and rolls back when fn returns an error or panics (the panic goes on).
// The error from fn is returned as is, so callers can match sentinel errors.
func (s *Store) WithTx(ctx context.Context, fn func(q *dbgen.Queries) error) error {
	return s.WithTxOptions(ctx, pgx.TxOptions{}, fn)
}

// WithTxOptions is WithTx with explicit transaction options (isolation
// level, read-only).
func (s *Store) WithTxOptions(ctx context.Context, opts pgx.TxOptions, fn func(q *dbgen.Queries) error) error {
	return s.inTx(ctx, opts, func(tx Tx) error { return fn(tx.Queries) })
}

// Tx is a transaction in progress: the generated queries bound to it, and the
// pgx transaction itself for what needs it directly, such as queueing a
// background job in the same transaction (queue.Queue.InsertTx).
type Tx struct {
	*dbgen.Queries
	tx pgx.Tx
}

// Pgx returns the underlying pgx transaction. Do not commit or roll it back:
// InTx does.
func (t Tx) Pgx() pgx.Tx { return t.tx }

// Tx wraps a transaction begun elsewhere (e.g. by SendTx) for code that takes a Tx.
func (s *Store) Tx(tx pgx.Tx) Tx { return Tx{Queries: s.Queries().WithTx(tx), tx: tx} }

// InTx is WithTx for callers that also need the transaction itself, e.g. to
// queue a job that must exist exactly when the rows written beside it do.
func (s *Store) InTx(ctx context.Context, fn func(tx Tx) error) error {
	return s.inTx(ctx, pgx.TxOptions{}, fn)
}

func (s *Store) inTx(ctx context.Context, opts pgx.TxOptions, fn func(tx Tx) error) (err error) {
	tx, err := s.pool.BeginTx(ctx, opts)
	if err != nil {
		return fmt.Errorf("begin transaction: %w", err)
	}
	defer func() {
		if p := recover(); p != nil {
			_ = tx.Rollback(context.WithoutCancel(ctx))
			panic(p)
		}
		if err != nil {
			// Rollback after a failed statement or a cancelled context is
			// expected to fail too; the first error is the one that matters.
			_ = tx.Rollback(context.WithoutCancel(ctx))
		}
	}()

	if err := fn(Tx{Queries: s.queries.WithTx(tx), tx: tx}); err != nil {
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("commit transaction: %w", err)
	}
	return nil
}
