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

func queueUser(ctx context.Context, b *store.Batch, email string) {
	store.QueueExec(b, func(q *dbgen.Queries) error {
		_, err := q.CreateUser(ctx, dbgen.CreateUserParams{Email: email, Name: "N"})
		return err
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

	first := &store.Batch{}
	queueUser(ctx, first, "opened@example.com")
	tx, err := s.SendOpen(ctx, first)
	if err != nil {
		t.Fatalf("SendOpen: %v", err)
	}
	if present(t, s, "opened@example.com") {
		t.Fatal("the first batch's write is visible before the commit")
	}
	tr.Take()
	write := &store.Batch{}
	queueUser(ctx, write, "written@example.com")
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
	first := &store.Batch{}
	queueUser(ctx, first, "first@example.com")
	tx, err := s.SendOpen(ctx, first)
	if err != nil {
		t.Fatalf("SendOpen: %v", err)
	}
	write := &store.Batch{}
	queueUser(ctx, write, "second@example.com")
	queueUser(ctx, write, "taken@example.com") // a unique violation
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
	b := &store.Batch{}
	queueUser(ctx, b, "after@example.com")
	if err := s.Send(ctx, b); err != nil || !present(t, s, "after@example.com") {
		t.Errorf("a write after the failed commit: err %v", err)
	}
}

// TestOpenTxRollback checks that a rolled-back transaction leaves nothing, and that it can
// no longer be committed.
func TestOpenTxRollback(t *testing.T) {
	s, _ := tracedStore(t)
	ctx := context.Background()
	first := &store.Batch{}
	queueUser(ctx, first, "rolled@example.com")
	tx, err := s.SendOpen(ctx, first)
	if err != nil {
		t.Fatalf("SendOpen: %v", err)
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatalf("Rollback: %v", err)
	}
	if err := tx.SendCommit(ctx, &store.Batch{}); err == nil {
		t.Error("SendCommit after Rollback succeeded")
	}
	if present(t, s, "rolled@example.com") {
		t.Error("a rolled-back write is stored")
	}
}
