package httpapi

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/percolate/percolate/backend/internal/auth"
	"github.com/percolate/percolate/backend/internal/store"
)

// queryCounter counts the statements (and batches) sent on a pool.
type queryCounter struct{ n atomic.Int64 }

func (c *queryCounter) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	c.n.Add(1)
	return ctx
}
func (c *queryCounter) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}
func (c *queryCounter) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	c.n.Add(1)
	return ctx
}
func (c *queryCounter) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}
func (c *queryCounter) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData)     {}

// TestAuthenticationIsOneQuery checks a bearer token with the verifier on a pool of its own
// whose statements are counted: each authenticated request costs one statement (the login's
// liveness and the user's current role together), before and after a logout.
func TestAuthenticationIsOneQuery(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	s := e.signUp("Ada", "ada@example.com", "brew-a-fresh-pot")

	cfg := e.st.Pool().Config()
	var counter queryCounter
	cfg.ConnConfig.Tracer = &counter
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	tokens, err := auth.NewTokens(store.FromPool(pool), auth.Config{Keys: e.keys, Issuer: testPublicURL})
	if err != nil {
		t.Fatal(err)
	}
	e.h = newTestHandler(t, Deps{Logger: e.svc.Logger(), DB: e.st, Verifier: NewTokenVerifier(tokens), Accounts: e.svc})
	e.api = apiClient(t, e.h, e.ip)

	for i := range 3 {
		before := counter.n.Load()
		e.wantMe(t, s.access, http.StatusOK)
		if n := counter.n.Load() - before; n != 1 {
			t.Fatalf("request %d: authentication took %d statements, want 1", i, n)
		}
	}
	e.wantLogout(t, s.access, http.StatusNoContent)
	before := counter.n.Load()
	e.wantMe(t, s.access, http.StatusUnauthorized)
	if n := counter.n.Load() - before; n != 1 {
		t.Fatalf("refusing a closed login took %d statements, want 1", n)
	}
}
