// Package pgtest gives each test a fresh PostgreSQL database, cloned from a
// template that has every migration applied, and drops it when the test ends.
//
// The server is, in order of preference:
//   - TEST_DATABASE_URL, when set (a postgres:// URL of a role that may
//     create databases);
//   - postgres://postgres@127.0.0.1:5432, when it answers within a second
//     (skipped when PGTEST_NO_LOCAL=1);
//   - a private cluster started with pglocal in a temporary directory, once
//     per test process, and shut down and deleted when the process exits.
//
// The template is named percolate_tmpl_<hash of the migration files>, so a
// change to the migrations makes a new one; test processes running in
// parallel build it once between them. It holds River's tables too, so tests
// can queue jobs in their transactions.
package pgtest

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/percolate/percolate/backend/internal/store"
	"github.com/percolate/percolate/backend/internal/store/pglocal"
)

const (
	// localURL is the developer's own server, if there is one.
	localURL = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
	// templateLockID is the advisory lock key that serializes building the
	// template across test processes: the first 8 bytes of "pgtest-t".
	templateLockID int64 = 0x70677465_73742d74
)

// server is the PostgreSQL server the test process uses, set up once.
type server struct {
	adminURL *url.URL
	admin    *pgxpool.Pool
	template string
}

var (
	serverOnce sync.Once
	theServer  *server
	serverErr  error
)

// New returns a store on a fresh, migrated database of its own. The database
// is dropped and the store closed when the test ends.
func New(t testing.TB) *store.Store {
	t.Helper()
	u := URL(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := store.Open(ctx, u)
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	t.Cleanup(s.Close)
	return s
}

// URL returns the connection URL of a fresh, migrated database of the
// test's own, dropped when the test ends.
func URL(t testing.TB) string {
	t.Helper()
	return newDatabase(t, true)
}

// EmptyURL returns the connection URL of a fresh database with no
// migrations applied, for tests of the migrations themselves.
func EmptyURL(t testing.TB) string {
	t.Helper()
	return newDatabase(t, false)
}

func newDatabase(t testing.TB, migrated bool) string {
	t.Helper()
	srv, err := getServer()
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	template := "template0"
	if migrated {
		template = srv.template
	}

	name := "percolate_test_" + randomHex(8)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := srv.admin.Exec(ctx, fmt.Sprintf("CREATE DATABASE %s TEMPLATE %s",
		pgx.Identifier{name}.Sanitize(), pgx.Identifier{template}.Sanitize())); err != nil {
		t.Fatalf("pgtest: create database %s from %s: %v", name, template, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if _, err := srv.admin.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)"); err != nil {
			t.Errorf("pgtest: drop database %s: %v", name, err)
		}
	})
	return srv.urlFor(name)
}

func getServer() (*server, error) {
	serverOnce.Do(func() {
		theServer, serverErr = startServer()
	})
	return theServer, serverErr
}

func startServer() (*server, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	raw, err := chooseServer(ctx)
	if err != nil {
		return nil, err
	}
	adminURL, err := url.Parse(raw)
	if err != nil || (adminURL.Scheme != "postgres" && adminURL.Scheme != "postgresql") {
		return nil, errors.New("TEST_DATABASE_URL must be a postgres:// URL")
	}
	cfg, err := pgxpool.ParseConfig(raw)
	if err != nil {
		return nil, errors.New("the test database URL is not a valid PostgreSQL URL")
	}
	cfg.MaxConns = 4
	admin, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connect to the test server: %w", err)
	}
	srv := &server{adminURL: adminURL, admin: admin}
	if srv.template, err = srv.ensureTemplate(ctx); err != nil {
		admin.Close()
		return nil, err
	}
	return srv, nil
}

// chooseServer returns the URL of an administrative connection to the
// server the tests will use.
func chooseServer(ctx context.Context) (string, error) {
	if u := os.Getenv("TEST_DATABASE_URL"); u != "" {
		return u, nil
	}
	if os.Getenv("PGTEST_NO_LOCAL") != "1" && answers(ctx, localURL) {
		return localURL, nil
	}
	dir, err := os.MkdirTemp("", "percolate-pgtest-")
	if err != nil {
		return "", fmt.Errorf("create a directory for the test database: %w", err)
	}
	cluster, err := pglocal.Start(ctx, dir, nil)
	if err != nil {
		_ = os.RemoveAll(dir)
		return "", fmt.Errorf("no TEST_DATABASE_URL, nothing on 127.0.0.1:5432, and the built-in database did not start: %w", err)
	}
	if err := cluster.RemoveOnExit(); err != nil {
		_ = cluster.Stop(ctx)
		return "", err
	}
	return cluster.URL(), nil
}

// answers reports whether a server accepts a connection at url within a second.
func answers(ctx context.Context, url string) bool {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return false
	}
	_ = conn.Close(ctx)
	return true
}

// ensureTemplate builds the migrated template unless it exists. Building
// happens in a scratch database renamed into place at the end, so a test
// process killed half-way never leaves a half-migrated template behind.
func (s *server) ensureTemplate(ctx context.Context) (string, error) {
	hash, err := migrationsHash()
	if err != nil {
		return "", err
	}
	name := "percolate_tmpl_" + hash

	conn, err := s.admin.Acquire(ctx)
	if err != nil {
		return "", fmt.Errorf("build template: %w", err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", templateLockID); err != nil {
		return "", fmt.Errorf("build template: take lock: %w", err)
	}
	defer func() {
		_, _ = conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", templateLockID)
	}()

	var exists bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		return "", fmt.Errorf("build template: look for %s: %w", name, err)
	}
	if exists {
		return name, nil
	}

	scratch := name + "_build"
	for _, sql := range []string{
		"DROP DATABASE IF EXISTS " + pgx.Identifier{scratch}.Sanitize() + " WITH (FORCE)",
		"CREATE DATABASE " + pgx.Identifier{scratch}.Sanitize() + " TEMPLATE template0",
	} {
		if _, err := conn.Exec(ctx, sql); err != nil {
			return "", fmt.Errorf("build template: %s: %w", sql, err)
		}
	}
	if err := migrate(ctx, s.urlFor(scratch)); err != nil {
		return "", fmt.Errorf("build template: %w", err)
	}
	for _, sql := range []string{
		"ALTER DATABASE " + pgx.Identifier{scratch}.Sanitize() + " RENAME TO " + pgx.Identifier{name}.Sanitize(),
		// No connections: CREATE DATABASE … TEMPLATE fails while anyone is
		// connected to the template.
		"ALTER DATABASE " + pgx.Identifier{name}.Sanitize() + " WITH IS_TEMPLATE true ALLOW_CONNECTIONS false",
	} {
		if _, err := conn.Exec(ctx, sql); err != nil {
			var pgErr *pgconn.PgError
			if errors.As(err, &pgErr) && pgErr.Code == "42P04" { // made by someone not holding our lock
				_, _ = conn.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{scratch}.Sanitize()+" WITH (FORCE)")
				return name, nil
			}
			return "", fmt.Errorf("build template: %s: %w", sql, err)
		}
	}
	return name, nil
}

func migrate(ctx context.Context, url string) error {
	s, err := store.Open(ctx, url)
	if err != nil {
		return err
	}
	defer s.Close()
	return s.Migrate(ctx)
}

// migrationsHash is the first 8 hex digits of a SHA-256 over the migration
// files' names and contents, River's included (a River upgrade that adds a
// migration makes a new template too).
func migrationsHash() (string, error) {
	h := sha256.New()
	river, err := store.RiverMigrator(nil)
	if err != nil {
		return "", err
	}
	for _, m := range river.AllVersions() {
		fmt.Fprintf(h, "river %d\x00%d\x00%s", m.Version, len(m.SQLUp), m.SQLUp)
	}
	fsys := store.MigrationsFS()
	err = fs.WalkDir(fsys, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(fsys, path)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", path, len(b))
		h.Write(b)
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("hash migrations: %w", err)
	}
	return hex.EncodeToString(h.Sum(nil))[:8], nil
}

// urlFor is the admin URL with another database name.
func (s *server) urlFor(database string) string {
	u := *s.adminURL
	u.Path = "/" + database
	u.RawPath = ""
	return u.String()
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
