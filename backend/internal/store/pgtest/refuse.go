package pgtest

// Databases a test can make the server refuse connections to, the way a PostgreSQL server
// that is up refuses them during maintenance, a restore or a credential rotation.

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/percolate/percolate/backend/internal/store"
	"github.com/percolate/percolate/backend/internal/store/pglocal"
)

// Refusal is one way a server that is up refuses new connections to a database: what the
// operator does, and the SQLSTATE the server then answers a connection with.
type Refusal struct {
	Code string // the SQLSTATE of the server's answer to a new connection
	What string // what the operator did
}

// Refusals are the refusals a Refusable database can be put through.
var Refusals = []Refusal{
	{"55000", "ALTER DATABASE … ALLOW_CONNECTIONS false (maintenance)"},
	{"3D000", "the database renamed away (a restore in progress)"},
	{"42501", "REVOKE CONNECT ON DATABASE from PUBLIC and the app's role"},
	{"28P01", "the app role's password rotated (credential rotation)"},
}

// Refusable is a migrated database of a test's own on a private PostgreSQL cluster, which
// the app reaches as an ordinary role with a password (scram-sha-256), as in production.
// The cluster is private because the shared server trusts every connection and a test may
// not change its pg_hba.conf; the cluster is started once per test process.
//
// Every Refusable of a process shares the app's role, so refusing 28P01 (its password) holds
// for all of them: tests that refuse connections must not run in parallel with each other.
type Refusable struct {
	// URL is the app's connection URL: its role and password, over the cluster's socket.
	URL  string
	db   string
	role string
	pass string
	c    *refusalCluster
}

// refusalCluster is the private cluster, its superuser connection and the app's role.
type refusalCluster struct {
	cluster  *pglocal.Cluster
	admin    *pgxpool.Pool
	template string
}

const (
	refusalRole     = "percolate_app"
	refusalPassword = "correct-horse-battery-staple"
	refusalRotated  = "rotated-horse-battery-staple"
)

var (
	refusalOnce sync.Once
	theRefusal  *refusalCluster
	refusalErr  error
)

// NewRefusable returns a fresh migrated database on the private cluster, owned by the app's
// role (so the app needs no superuser), dropped when the test ends. It skips the test when
// no PostgreSQL installation is there to run a private cluster.
func NewRefusable(t testing.TB) *Refusable {
	t.Helper()
	refusalOnce.Do(func() { theRefusal, refusalErr = startRefusalCluster() })
	if errors.Is(refusalErr, pglocal.ErrNotInstalled) {
		t.Skip("initdb/pg_ctl not found: refusing connections needs a private cluster whose pg_hba.conf the test controls")
	}
	if refusalErr != nil {
		t.Fatalf("pgtest: %v", refusalErr)
	}
	c := theRefusal
	name := "refuse_" + randomHex(6)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := c.admin.Exec(ctx, fmt.Sprintf("CREATE DATABASE %s TEMPLATE %s OWNER %s",
		pgx.Identifier{name}.Sanitize(), pgx.Identifier{c.template}.Sanitize(), refusalRole)); err != nil {
		t.Fatalf("pgtest: create database %s: %v", name, err)
	}
	r := &Refusable{db: name, role: refusalRole, pass: refusalPassword, c: c}
	r.URL = c.urlFor(refusalRole, refusalPassword, name)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		// Whatever the test left refused, let it go before dropping.
		for _, ref := range Refusals {
			_ = r.allow(ctx, ref.Code)
		}
		if _, err := c.admin.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)"); err != nil {
			t.Errorf("pgtest: drop database %s: %v", name, err)
		}
	})
	return r
}

func startRefusalCluster() (*refusalCluster, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	// A short path, so that the socket directory is dir/run; the whole directory goes when
	// the process exits (RemoveOnExit).
	dir, err := os.MkdirTemp("/tmp", "pgrefuse-")
	if err != nil {
		return nil, fmt.Errorf("create a directory for the private cluster: %w", err)
	}
	if os.Geteuid() == 0 { // run as root, the cluster's user must reach its directory
		if err := os.Chmod(dir, 0o711); err != nil { // #nosec G302 -- the directory must be traversable (not listable) by the PostgreSQL user the cluster runs as
			return nil, err
		}
	}
	cluster, err := pglocal.Start(ctx, dir, nil)
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	if err := cluster.RemoveOnExit(); err != nil {
		_ = cluster.Stop(ctx)
		return nil, err
	}
	// The superuser keeps trust over the socket; every other role needs its password.
	hba := "local all postgres trust\nlocal all all scram-sha-256\n"
	if err := os.WriteFile(filepath.Join(cluster.DataDir(), "pg_hba.conf"), []byte(hba), 0o600); err != nil { // #nosec G306 -- the private cluster's own file
		return nil, fmt.Errorf("write pg_hba.conf: %w", err)
	}
	admin, err := pgxpool.New(ctx, cluster.URL())
	if err != nil {
		return nil, fmt.Errorf("connect to the private cluster: %w", err)
	}
	c := &refusalCluster{cluster: cluster, admin: admin, template: "refuse_template"}
	for _, sql := range []string{
		"SELECT pg_reload_conf()",
		fmt.Sprintf("CREATE ROLE %s LOGIN PASSWORD '%s'", refusalRole, refusalPassword),
		fmt.Sprintf("CREATE DATABASE %s OWNER %s", c.template, refusalRole),
	} {
		if _, err := admin.Exec(ctx, sql); err != nil {
			admin.Close()
			return nil, fmt.Errorf("set up the private cluster: %s: %w", sql, err)
		}
	}
	// Migrated by the app's role, which so owns every table, as the app does in production.
	if err := migrate(ctx, c.urlFor(refusalRole, refusalPassword, c.template)); err != nil {
		admin.Close()
		return nil, fmt.Errorf("migrate the private cluster's template: %w", err)
	}
	return c, nil
}

// urlFor is the URL of database as role with password, over the cluster's socket.
func (c *refusalCluster) urlFor(role, password, database string) string {
	u, _ := url.Parse(c.cluster.URL())
	u.User = url.UserPassword(role, password)
	u.Path = "/" + database
	return u.String()
}

// Database is the name of the database.
func (r *Refusable) Database() string { return r.db }

// AdminURL is the URL of a superuser connection to the cluster's "postgres" database.
func (r *Refusable) AdminURL() string { return r.c.cluster.URL() }

// Open returns a store on the database as the app's role, closed when the test ends.
func (r *Refusable) Open(t testing.TB) *store.Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, err := store.Open(ctx, r.URL)
	if err != nil {
		t.Fatalf("pgtest: open %s: %v", r.db, err)
	}
	t.Cleanup(st.Close)
	return st
}

// Refuse makes the server refuse new connections of the app's role to the database with
// code, and ends the role's sessions there, as the operator's change would be followed by.
func (r *Refusable) Refuse(t testing.TB, code string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := r.refuse(ctx, code); err != nil {
		t.Fatalf("pgtest: refuse %s: %v", code, err)
	}
}

// Allow undoes Refuse: the database takes the app's connections again.
func (r *Refusable) Allow(t testing.TB, code string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := r.allow(ctx, code); err != nil {
		t.Fatalf("pgtest: allow %s: %v", code, err)
	}
}

func (r *Refusable) refuse(ctx context.Context, code string) error {
	db, role := pgx.Identifier{r.db}.Sanitize(), pgx.Identifier{r.role}.Sanitize()
	var steps []string
	switch code {
	case "55000":
		steps = []string{"ALTER DATABASE " + db + " ALLOW_CONNECTIONS false"}
	case "3D000":
		// A database with sessions cannot be renamed: close it to new ones first, end them,
		// rename it, and open the renamed one again (nothing connects to that name).
		away := pgx.Identifier{r.db + "_away"}.Sanitize()
		steps = []string{
			"ALTER DATABASE " + db + " ALLOW_CONNECTIONS false",
			r.terminate(),
			"ALTER DATABASE " + db + " RENAME TO " + away,
			"ALTER DATABASE " + away + " ALLOW_CONNECTIONS true",
		}
	case "42501":
		steps = []string{"REVOKE CONNECT ON DATABASE " + db + " FROM PUBLIC, " + role}
	case "28P01":
		steps = []string{fmt.Sprintf("ALTER ROLE %s PASSWORD '%s'", role, refusalRotated)}
	default:
		return fmt.Errorf("no refusal with code %s", code)
	}
	steps = append(steps, r.terminate())
	for _, sql := range steps {
		// pg_terminate_backend only signals: a session it ended can hold the database for a
		// moment longer, and a rename waits for it to go (55006 meanwhile).
		for try := 0; ; try++ {
			_, err := r.c.admin.Exec(ctx, sql)
			var pgErr *pgconn.PgError
			if errors.As(err, &pgErr) && pgErr.Code == "55006" && try < 100 {
				time.Sleep(50 * time.Millisecond)
				continue
			}
			if err != nil {
				return fmt.Errorf("%s: %w", sql, err)
			}
			break
		}
	}
	return nil
}

func (r *Refusable) allow(ctx context.Context, code string) error {
	db, role := pgx.Identifier{r.db}.Sanitize(), pgx.Identifier{r.role}.Sanitize()
	var sql string
	switch code {
	case "55000":
		sql = "ALTER DATABASE " + db + " ALLOW_CONNECTIONS true"
	case "3D000":
		var away bool
		if err := r.c.admin.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", r.db+"_away").Scan(&away); err != nil || !away {
			return err
		}
		sql = "ALTER DATABASE " + pgx.Identifier{r.db + "_away"}.Sanitize() + " RENAME TO " + db
	case "42501":
		sql = "GRANT CONNECT ON DATABASE " + db + " TO PUBLIC, " + role
	case "28P01":
		sql = fmt.Sprintf("ALTER ROLE %s PASSWORD '%s'", role, refusalPassword)
	default:
		return fmt.Errorf("no refusal with code %s", code)
	}
	if _, err := r.c.admin.Exec(ctx, sql); err != nil {
		return fmt.Errorf("%s: %w", sql, err)
	}
	return nil
}

// terminate is the statement that ends the app role's sessions on the database.
func (r *Refusable) terminate() string {
	return fmt.Sprintf("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '%s' AND datname IN ('%s', '%s_away') AND pid <> pg_backend_pid()",
		r.role, r.db, r.db)
}
