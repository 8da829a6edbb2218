package store_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"

	"github.com/percolate/percolate/backend/internal/store"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
	dbgen "github.com/percolate/percolate/gen/db"
)

func TestWithTxCommitsOrRollsBack(t *testing.T) {
	s := pgtest.New(t)
	ctx := context.Background()
	errBoom := errors.New("boom")
	create := func(email string) func(q *dbgen.Queries) error {
		return func(q *dbgen.Queries) error {
			_, err := q.CreateUser(ctx, dbgen.CreateUserParams{Email: email, Name: "N"})
			return err
		}
	}

	if err := s.WithTx(ctx, create("kept@example.com")); err != nil {
		t.Fatalf("WithTx: %v", err)
	}
	err := s.WithTx(ctx, func(q *dbgen.Queries) error {
		if err := create("rolled-back@example.com")(q); err != nil {
			return err
		}
		return errBoom
	})
	if !errors.Is(err, errBoom) {
		t.Fatalf("WithTx returned %v, want the callback's error as is", err)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("the panic did not propagate out of WithTx")
			}
		}()
		_ = s.WithTx(ctx, func(q *dbgen.Queries) error {
			_ = create("panicked@example.com")(q)
			panic("boom")
		})
	}()

	for email, want := range map[string]bool{"kept@example.com": true, "rolled-back@example.com": false, "panicked@example.com": false} {
		_, err := s.Queries().GetUserByEmail(ctx, email)
		if got := err == nil; got != want {
			t.Errorf("%s present = %v, want %v (err=%v)", email, got, want, err)
		}
	}
}

func TestMigrateConcurrentlyIsSafe(t *testing.T) {
	url := pgtest.EmptyURL(t)
	ctx := context.Background()
	const instances = 4
	var wg sync.WaitGroup
	errs := make([]error, instances)
	for i := range instances {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := store.Open(ctx, url)
			if err != nil {
				errs[i] = err
				return
			}
			defer s.Close()
			errs[i] = s.Migrate(ctx)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("instance %d: %v", i, err)
		}
	}

	s, err := store.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Migrate(ctx); err != nil {
		t.Errorf("migrating an up-to-date database: %v", err)
	}
}

// TestMigrationsGoDownAndUpAgain checks every migration's Down section.
func TestMigrationsGoDownAndUpAgain(t *testing.T) {
	s := pgtest.New(t)
	ctx := context.Background()
	sqlDB := stdlib.OpenDBFromPool(s.Pool())
	defer sqlDB.Close()
	p, err := goose.NewProvider(goose.DialectPostgres, sqlDB, store.MigrationsFS())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.DownTo(ctx, 0); err != nil {
		t.Fatalf("down to 0: %v", err)
	}
	var tables int
	if err := s.Pool().QueryRow(ctx, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'goose_db_version'").Scan(&tables); err != nil {
		t.Fatal(err)
	}
	if tables != 0 {
		t.Errorf("%d tables left after migrating down to 0", tables)
	}
	if err := s.Migrate(ctx); err != nil {
		t.Fatalf("up again: %v", err)
	}
}

func TestOpenDoesNotLeakPassword(t *testing.T) {
	_, err := store.Open(context.Background(), "postgres://u:s3cret-pw@%zz/db")
	if err == nil {
		t.Fatal("Open accepted an invalid URL")
	}
	if strings.Contains(err.Error(), "s3cret-pw") {
		t.Errorf("error reveals the password: %v", err)
	}
}
