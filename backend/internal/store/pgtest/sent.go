package pgtest

import (
	"context"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/percolate/percolate/backend/internal/store"
)

// Sent counts what a pool's connections send to PostgreSQL: batches, and single statements
// with their SQL. Traced puts one on a pool of its own.
type Sent struct {
	mu               sync.Mutex
	batches, queries int
	sql              []string
}

// TraceQueryStart counts a single statement.
func (s *Sent) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queries++
	s.sql = append(s.sql, d.SQL)
	return ctx
}

// TraceQueryEnd does nothing.
func (s *Sent) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// TraceBatchStart counts a batch.
func (s *Sent) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.batches++
	return ctx
}

// TraceBatchQuery does nothing.
func (s *Sent) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}

// TraceBatchEnd does nothing.
func (s *Sent) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData) {}

// Take returns what was sent since the last Take (or since the pool opened), and counts
// from zero again.
func (s *Sent) Take() (batches, queries int, sql []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	batches, queries, sql = s.batches, s.queries, s.sql
	s.batches, s.queries, s.sql = 0, 0, nil
	return batches, queries, sql
}

// Traced returns a store on a new pool with cfg's settings, whose connections report what they
// send to the returned Sent. The pool is closed when the test ends.
func Traced(t testing.TB, cfg *pgxpool.Config) (*store.Store, *Sent) {
	t.Helper()
	cfg = cfg.Copy()
	sent := &Sent{}
	cfg.ConnConfig.Tracer = sent
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	t.Cleanup(pool.Close)
	return store.FromPool(pool), sent
}
