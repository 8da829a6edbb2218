package store_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/percolate/percolate/backend/internal/store"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
	dbgen "github.com/percolate/percolate/gen/db"
)

// tracedStore is a store on a fresh database whose pool counts what it sends.
func tracedStore(t *testing.T) (*store.Store, *pgtest.Sent) {
	t.Helper()
	cfg, err := pgxpool.ParseConfig(pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	return pgtest.Traced(t, cfg)
}

// newUsers is a batch that creates a user of each email.
func newUsers(ctx context.Context, emails ...string) *store.Batch {
	return store.NewBatch(func(q *dbgen.Queries) {
		for _, e := range emails {
			_, _ = q.CreateUser(ctx, dbgen.CreateUserParams{Email: e, Name: "N"})
		}
	})
}

func present(t *testing.T, s *store.Store, email string) bool {
	t.Helper()
	_, err := s.Queries().GetUserByEmail(context.Background(), email)
	if err != nil && !store.IsNotFound(err) {
		t.Fatalf("read %s: %v", email, err)
	}
	return err == nil
}

// TestSendCommitWritesAndCommitsInOneRoundTrip checks the transaction of a chat send: opened
// with its first batch, then written and committed by one more batch (the COMMIT in it),
// nothing else sent; nothing is visible before the commit.
func TestSendCommitWritesAndCommitsInOneRoundTrip(t *testing.T) {
	s, tr := tracedStore(t)
	ctx := context.Background()
	tr.Take()

	first := newUsers(ctx, "opened@example.com")
	tx, err := s.SendOpen(ctx, first)
	if err != nil {
		t.Fatalf("SendOpen: %v", err)
	}
	if present(t, s, "opened@example.com") {
		t.Fatal("the first batch's write is visible before the commit")
	}
	tr.Take()
	write := newUsers(ctx, "written@example.com")
	if err := tx.SendCommit(ctx, write); err != nil {
		t.Fatalf("SendCommit: %v", err)
	}
	if b, q, sql := tr.Take(); b != 1 || q != 0 {
		t.Errorf("SendCommit sent %d batches and %d statements (%q), want one batch and nothing else", b, q, sql)
	}
	for _, e := range []string{"opened@example.com", "written@example.com"} {
		if !present(t, s, e) {
			t.Errorf("%s is not stored after SendCommit", e)
		}
	}
	if st := s.Pool().Stat(); st.AcquiredConns() != 0 {
		t.Errorf("%d connections still taken after the commit", st.AcquiredConns())
	}
}

// TestSendCommitStoresNothingWhenAWriteFails checks that the COMMIT queued after the writes
// runs only when every write succeeded: a failed write leaves nothing of the transaction,
// and the connection goes back to the pool outside any transaction.
func TestSendCommitStoresNothingWhenAWriteFails(t *testing.T) {
	s, _ := tracedStore(t)
	ctx := context.Background()
	if err := s.WithTx(ctx, func(q *dbgen.Queries) error {
		_, err := q.CreateUser(ctx, dbgen.CreateUserParams{Email: "taken@example.com", Name: "N"})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	first := newUsers(ctx, "first@example.com")
	tx, err := s.SendOpen(ctx, first)
	if err != nil {
		t.Fatalf("SendOpen: %v", err)
	}
	write := newUsers(ctx, "second@example.com", "taken@example.com") // the second a unique violation
	if err := tx.SendCommit(ctx, write); err == nil {
		t.Fatal("SendCommit succeeded with a failed write")
	}
	for _, e := range []string{"first@example.com", "second@example.com"} {
		if present(t, s, e) {
			t.Errorf("%s is stored although a write of its transaction failed", e)
		}
	}
	if st := s.Pool().Stat(); st.AcquiredConns() != 0 {
		t.Errorf("%d connections still taken after the failed commit", st.AcquiredConns())
	}
	// The pool's connections are fit for use: a write outside the failed transaction is stored.
	b := newUsers(ctx, "after@example.com")
	if err := s.Send(ctx, b); err != nil || !present(t, s, "after@example.com") {
		t.Errorf("a write after the failed commit: err %v", err)
	}
}

// TestOpenTxRollback checks that a rolled-back transaction leaves nothing, and that it can
// no longer be committed.
func TestOpenTxRollback(t *testing.T) {
	s, _ := tracedStore(t)
	ctx := context.Background()
	first := newUsers(ctx, "rolled@example.com")
	tx, err := s.SendOpen(ctx, first)
	if err != nil {
		t.Fatalf("SendOpen: %v", err)
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatalf("Rollback: %v", err)
	}
	if err := tx.SendCommit(ctx, store.NewBatch(nil)); err == nil {
		t.Error("SendCommit after Rollback succeeded")
	}
	if present(t, s, "rolled@example.com") {
		t.Error("a rolled-back write is stored")
	}
}

// TestBatchCallsGetTheirOwnResults checks that the calls of a batch, sent in one round trip,
// each return their own outcome: a row, a not-found, a list, as the same calls would alone.
func TestBatchCallsGetTheirOwnResults(t *testing.T) {
	s, tr := tracedStore(t)
	ctx := context.Background()
	u, err := s.Queries().CreateUser(ctx, dbgen.CreateUserParams{Email: "batch@example.com", Name: "Batched"})
	if err != nil {
		t.Fatal(err)
	}
	tr.Take()
	var (
		got, missing       dbgen.User
		gotErr, missingErr error
		role               string
		roleErr            error
	)
	b := store.NewBatch(func(q *dbgen.Queries) {
		got, gotErr = q.GetUserByEmail(ctx, "batch@example.com")
		missing, missingErr = q.GetUserByEmail(ctx, "nobody@example.com")
		role, roleErr = q.GetUserRole(ctx, u.ID)
	})
	if b.Len() != 3 {
		t.Fatalf("Len = %d, want 3", b.Len())
	}
	if err := s.Send(ctx, b); err != nil {
		t.Fatalf("Send: %v", err)
	}
	if n, q, _ := tr.Take(); n != 1 || q != 0 {
		t.Errorf("Send sent %d batches and %d statements, want one batch", n, q)
	}
	if gotErr != nil || got.ID != u.ID || got.Name != "Batched" {
		t.Errorf("the found user: %+v, %v", got, gotErr)
	}
	if !store.IsNotFound(missingErr) || missing.ID != (dbgen.User{}).ID {
		t.Errorf("the missing user: %+v, %v (want not found)", missing, missingErr)
	}
	if roleErr != nil || role != u.Role {
		t.Errorf("role %q, %v; want %q", role, roleErr, u.Role)
	}
}

// TestBatchThatDecidesOnAResultPanics checks that a batch's function that makes other calls
// once its results are there (it decided on one) is refused, not answered with the results
// of other statements.
func TestBatchThatDecidesOnAResultPanics(t *testing.T) {
	s, _ := tracedStore(t)
	ctx := context.Background()
	b := store.NewBatch(func(q *dbgen.Queries) {
		if _, err := q.GetUserByEmail(ctx, "x@example.com"); err != nil && !store.IsNotFound(err) {
			_, _ = q.GetUserByEmail(ctx, "y@example.com") // only while recording
		}
	})
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	_ = s.Send(ctx, b)
}
