package store_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/riverqueue/river/rivermigrate"

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

// TestInTxSharesTheTransaction checks that what is written through Tx.Pgx (River's job
// inserts) commits and rolls back with the queries of the same transaction.
func TestInTxSharesTheTransaction(t *testing.T) {
	s := pgtest.New(t)
	ctx := context.Background()
	errBoom := errors.New("boom")
	write := func(email string, fail bool) error {
		return s.InTx(ctx, func(tx store.Tx) error {
			if _, err := tx.CreateUser(ctx, dbgen.CreateUserParams{Email: email, Name: "N"}); err != nil {
				return err
			}
			if _, err := tx.Pgx().Exec(ctx, `INSERT INTO rate_limits (key, window_start, count) VALUES ($1, now(), 1)`, email); err != nil {
				return err
			}
			if fail {
				return errBoom
			}
			return nil
		})
	}
	if err := write("kept@example.com", false); err != nil {
		t.Fatalf("InTx: %v", err)
	}
	if err := write("gone@example.com", true); !errors.Is(err, errBoom) {
		t.Fatalf("InTx returned %v, want the callback's error as is", err)
	}
	for email, want := range map[string]int{"kept@example.com": 1, "gone@example.com": 0} {
		var n int
		if err := s.Pool().QueryRow(ctx, `SELECT (SELECT count(*) FROM users WHERE email = $1) + (SELECT count(*) FROM rate_limits WHERE key = $1)`, email).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 2*want {
			t.Errorf("%s: %d rows, want %d (both writes or neither)", email, n, 2*want)
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

// migratedUpTo opens an empty database with River's tables and our migrations up to version,
// to upgrade with data of that version in it.
func migratedUpTo(t *testing.T, version int64) *store.Store {
	t.Helper()
	ctx := context.Background()
	s, err := store.Open(ctx, pgtest.EmptyURL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	river, err := store.RiverMigrator(s.Pool())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := river.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		t.Fatal(err)
	}
	sqlDB := stdlib.OpenDBFromPool(s.Pool())
	t.Cleanup(func() { _ = sqlDB.Close() })
	p, err := goose.NewProvider(goose.DialectPostgres, sqlDB, store.MigrationsFS())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, version); err != nil {
		t.Fatalf("up to %d: %v", version, err)
	}
	return s
}

// TestSummariesWaitingInTheOldQueueMoveToRiver upgrades a database whose hand-written job
// queue still holds work: the summaries not yet done become River jobs, nothing else does.
func TestSummariesWaitingInTheOldQueueMoveToRiver(t *testing.T) {
	s := migratedUpTo(t, 3)
	ctx := context.Background()
	if _, err := s.Pool().Exec(ctx, `INSERT INTO jobs (kind, payload, state) VALUES
		('chat.summary', '{"sessionId":"00000000-0000-0000-0000-000000000001","userId":"00000000-0000-0000-0000-000000000002"}', 'pending'),
		('chat.summary', '{"sessionId":"00000000-0000-0000-0000-000000000003","userId":"00000000-0000-0000-0000-000000000002"}', 'done'),
		('chat.summary', '{"sessionId":"00000000-0000-0000-0000-000000000004","userId":"00000000-0000-0000-0000-000000000002"}', 'failed')`); err != nil {
		t.Fatal(err)
	}
	if err := s.Migrate(ctx); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	var kind, args, state, queue string
	var n int
	if err := s.Pool().QueryRow(ctx, `SELECT count(*) OVER (), kind, args->>'sessionId', state::text, queue FROM river_job`).Scan(&n, &kind, &args, &state, &queue); err != nil {
		t.Fatalf("river_job: %v", err)
	}
	if n != 1 || kind != "chat.summary" || args != "00000000-0000-0000-0000-000000000001" || state != "available" || queue != "default" {
		t.Fatalf("river_job holds %d jobs, the first %s %s %s on %s; want the pending summary only, available", n, kind, args, state, queue)
	}
	var old *string
	if err := s.Pool().QueryRow(ctx, "SELECT to_regclass('public.jobs')::text").Scan(&old); err != nil || old != nil {
		t.Fatalf("the old jobs table is still there (%v)", err)
	}
}

// TestPendingPasswordsMoveToTheirLinks upgrades a database with an unverified account that
// has a password of its own and an open verification link: the password moves to the link
// and to a registration row, and leaves the account; a verified account keeps its password.
func TestPendingPasswordsMoveToTheirLinks(t *testing.T) {
	s := migratedUpTo(t, 21)
	ctx := context.Background()
	if _, err := s.Pool().Exec(ctx, `
		INSERT INTO users (id, email, name, password_hash, email_verified_at) VALUES
			('00000000-0000-0000-0000-00000000000a', 'new@example.com', 'New', 'hash-new', NULL),
			('00000000-0000-0000-0000-00000000000b', 'old@example.com', 'Old', 'hash-old', now());
		INSERT INTO email_tokens (user_id, purpose, token_hash, expires_at) VALUES
			('00000000-0000-0000-0000-00000000000a', 'verify', 'link', now() + interval '1 day');`); err != nil {
		t.Fatal(err)
	}
	if err := s.Migrate(ctx); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	var newHash, oldHash *string
	if err := s.Pool().QueryRow(ctx, `SELECT
		(SELECT password_hash FROM users WHERE email = 'new@example.com'),
		(SELECT password_hash FROM users WHERE email = 'old@example.com')`).Scan(&newHash, &oldHash); err != nil {
		t.Fatal(err)
	}
	if newHash != nil || oldHash == nil || *oldHash != "hash-old" {
		t.Fatalf("after the migration: unverified account's password %v (want none), verified one's %v", newHash, oldHash)
	}
	var link, pending int
	if err := s.Pool().QueryRow(ctx, `SELECT
		count(*) FILTER (WHERE token_hash = 'link' AND password_hash = 'hash-new' AND name = 'New'),
		count(*) FILTER (WHERE token_hash IS NULL AND password_hash = 'hash-new' AND name = 'New' AND used_at IS NULL)
		FROM email_tokens`).Scan(&link, &pending); err != nil {
		t.Fatal(err)
	}
	if link != 1 || pending != 1 {
		t.Fatalf("the open link carries the password: %d (want 1); registration rows: %d (want 1)", link, pending)
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
	river, err := store.RiverMigrator(s.Pool())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := river.Migrate(ctx, rivermigrate.DirectionDown, &rivermigrate.MigrateOpts{TargetVersion: -1}); err != nil {
		t.Fatalf("river down: %v", err)
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

// TestDescriptionCacheOnlyForCacheDescribe: the pool's connections keep a description cache
// only in the mode that reads it, and queries with arguments work in both.
func TestDescriptionCacheOnlyForCacheDescribe(t *testing.T) {
	ctx := context.Background()
	u := pgtest.URL(t)
	for _, c := range []struct {
		mode, url string
		want      int
	}{
		{"default", u, 0},
		{"cache_describe", u + sep(u) + "default_query_exec_mode=cache_describe", 512},
	} {
		st, err := store.Open(ctx, c.url)
		if err != nil {
			t.Fatal(err)
		}
		if got := st.Pool().Config().ConnConfig.DescriptionCacheCapacity; got != c.want {
			t.Errorf("%s: description cache capacity %d, want %d", c.mode, got, c.want)
		}
		var n int
		if err := st.Pool().QueryRow(ctx, "SELECT $1::int + 1", 41).Scan(&n); err != nil || n != 42 {
			t.Errorf("%s: query with an argument: %d, %v", c.mode, n, err)
		}
		st.Close()
	}
}

func sep(u string) string {
	if strings.Contains(u, "?") {
		return "&"
	}
	return "?"
}
