// Package pglocal runs a private PostgreSQL server from the machine's
// PostgreSQL installation, the app's embedded default when no DATABASE_URL
// is configured (the way `coder server` runs a built-in PostgreSQL).
//
// The cluster lives under a directory of the caller's choosing, listens on a
// unix socket only (never on TCP) and trusts local connections, which are
// limited to its own user and root by the socket directory's mode 0700.
package pglocal

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// DatabaseName is the database Start creates for the app.
const DatabaseName = "percolate"

// socketName is the file the server creates in its socket directory (for
// the default port 5432, which is harmless as nothing listens on TCP).
const socketName = ".s.PGSQL.5432"

// maxSocketPath is the longest unix socket path Linux accepts (sun_path is
// 108 bytes including the terminating NUL).
const maxSocketPath = 107

// Cluster is a running private PostgreSQL server.
type Cluster struct {
	dir       string // the directory given to Start
	dataDir   string // dir/pgdata
	socketDir string
	// tempSocketDir is set when socketDir was made under /tmp because dir
	// was too long for a socket path; Stop removes it.
	tempSocketDir bool
	// started is false when Start found the server already running (left by
	// a previous run that crashed, or shared with another process) and only
	// connected to it; Stop then leaves it running.
	started bool
	run     *runner
	logger  *slog.Logger

	stopOnce sync.Once
	stopErr  error
}

// Start starts (initializing it on first use) a PostgreSQL cluster under
// dir: data in dir/pgdata, server logs in dir/pgdata/log, socket in dir/run.
// It creates the database "percolate" if missing. When dir already holds a
// running server, Start connects to it instead of starting another.
//
// Binaries are found on PATH, then through pg_config, then in
// /usr/lib/postgresql/*/bin; without any Start returns ErrNotInstalled.
// Run as root, the server runs as the "postgres" system user.
func Start(ctx context.Context, dir string, logger *slog.Logger) (*Cluster, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("built-in database: resolve %s: %w", dir, err)
	}
	// pg_ctl hands paths to a shell inside double quotes.
	if strings.ContainsAny(dir, "\"$`\\\n'") {
		return nil, fmt.Errorf("built-in database: the directory %q contains a quote, $, backslash or newline, which PostgreSQL's tools cannot handle", dir)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("built-in database: create %s: %w", dir, err)
	}

	// Two app processes sharing a data directory take turns to start it.
	unlock, err := lockDir(ctx, filepath.Join(dir, "pglocal.lock"))
	if err != nil {
		return nil, fmt.Errorf("built-in database: %w", err)
	}
	defer unlock()

	c := &Cluster{dir: dir, dataDir: filepath.Join(dir, "pgdata"), logger: logger}
	if err := c.start(ctx); err != nil {
		return nil, fmt.Errorf("built-in database: %w", err)
	}
	return c, nil
}

func (c *Cluster) start(ctx context.Context) error {
	wantMajor, err := dataMajor(c.dataDir)
	if err != nil {
		return err
	}
	inst, err := findBinDir(ctx, wantMajor)
	if err != nil {
		return err
	}
	if c.run, err = newRunner(inst.binDir, c.dataDir); err != nil {
		return err
	}
	if err := c.run.ensureReachable(c.dir); err != nil {
		return err
	}

	if wantMajor == 0 {
		if err := c.initdb(ctx); err != nil {
			return err
		}
	}

	pid, pidSocketDir := readPidFile(c.dataDir)
	if pid > 0 && c.run.run(ctx, "pg_ctl", "status", "-D", c.dataDir) == nil {
		// A server is already running on this data directory: use it.
		c.socketDir = pidSocketDir
		if err := c.waitReady(ctx, 30*time.Second); err != nil {
			return fmt.Errorf("a PostgreSQL server (pid %d) is running on %s but does not answer on %s: stop it, or remove %s/postmaster.pid if no such process exists: %w",
				pid, c.dataDir, pidSocketDir, c.dataDir, err)
		}
		c.logger.Info("built-in database already running, reusing it", "pid", pid, "data_dir", c.dataDir)
	} else {
		if err := c.startServer(ctx); err != nil {
			return err
		}
	}
	return c.createDatabase(ctx)
}

// initdb initializes the data directory in a scratch directory first and
// renames it into place, so a crash half-way never leaves a broken pgdata.
func (c *Cluster) initdb(ctx context.Context) error {
	begin := time.Now()
	if _, err := os.Stat(c.dataDir); err == nil {
		return fmt.Errorf("%s exists but is not a PostgreSQL data directory (no PG_VERSION): move it away", c.dataDir)
	}
	scratch := c.dataDir + ".init"
	if err := os.RemoveAll(scratch); err != nil {
		return fmt.Errorf("remove leftover %s: %w", scratch, err)
	}
	if err := c.run.mkdirOwned(scratch); err != nil {
		return err
	}
	args := []string{"-D", scratch, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-instructions"}
	// C.UTF-8 keeps sorting byte-wise but gives lower()/upper() Unicode case
	// rules (the plain C locale folds ASCII only); not every libc has it.
	err := c.run.run(ctx, "initdb", append(args, "--locale=C.UTF-8")...)
	if err != nil {
		c.logger.Debug("initdb with C.UTF-8 failed, retrying with the C locale", "error", err)
		_ = os.RemoveAll(scratch)
		if err := c.run.mkdirOwned(scratch); err != nil {
			return err
		}
		if err := c.run.run(ctx, "initdb", append(args, "--locale=C")...); err != nil {
			return err
		}
	}
	if err := os.Rename(scratch, c.dataDir); err != nil {
		return fmt.Errorf("move the new data directory into place: %w", err)
	}
	c.logger.Info("built-in database initialized", "data_dir", c.dataDir, "took", time.Since(begin).Round(time.Millisecond))
	return nil
}

func (c *Cluster) startServer(ctx context.Context) error {
	if err := c.prepareSocketDir(); err != nil {
		return err
	}
	logDir := filepath.Join(c.dataDir, "log")
	if err := c.run.mkdirOwned(logDir); err != nil {
		return err
	}
	// Settings go on the command line so they hold whatever the data
	// directory's postgresql.conf says. The collector keeps a week of daily
	// logs, overwriting the oldest.
	opts := strings.Join([]string{
		"-c listen_addresses=''",
		"-c unix_socket_directories='" + c.socketDir + "'",
		"-c unix_socket_permissions=0700",
		"-c logging_collector=on",
		"-c log_directory=log",
		"-c log_filename='postgresql-%a.log'",
		"-c log_truncate_on_rotation=on",
		"-c log_rotation_age=1440",
		"-c log_rotation_size=0",
	}, " ")
	begin := time.Now()
	err := c.run.run(ctx, "pg_ctl", "start", "-w", "-t", "120", "-D", c.dataDir,
		"-l", filepath.Join(logDir, "startup.log"), "-o", opts)
	if err != nil {
		if tail := logTail(logDir); tail != "" {
			return fmt.Errorf("start PostgreSQL: %w\nserver log:\n%s", err, tail)
		}
		return fmt.Errorf("start PostgreSQL: %w", err)
	}
	c.started = true
	if err := c.waitReady(ctx, 30*time.Second); err != nil {
		return fmt.Errorf("PostgreSQL started but does not answer: %w", err)
	}
	c.logger.Info("built-in database started", "data_dir", c.dataDir, "socket_dir", c.socketDir,
		"took", time.Since(begin).Round(time.Millisecond))
	return nil
}

// prepareSocketDir picks dir/run, or a fresh directory under /tmp when that
// path would be too long for a unix socket.
func (c *Cluster) prepareSocketDir() error {
	c.socketDir = filepath.Join(c.dir, "run")
	if len(c.socketDir)+1+len(socketName) <= maxSocketPath {
		return c.run.mkdirOwned(c.socketDir)
	}
	tmp, err := os.MkdirTemp("/tmp", "pglocal-")
	if err != nil {
		return fmt.Errorf("create a short socket directory: %w", err)
	}
	c.socketDir, c.tempSocketDir = tmp, true
	return c.run.chown(tmp)
}

// readPidFile returns the postmaster's pid and socket directory from
// postmaster.pid, or zero values when there is none.
func readPidFile(dataDir string) (int, string) {
	b, err := os.ReadFile(filepath.Join(dataDir, "postmaster.pid")) // #nosec G304 -- a file of the cluster's own data directory
	if err != nil {
		return 0, ""
	}
	lines := strings.Split(string(b), "\n")
	if len(lines) < 5 {
		return 0, ""
	}
	pid, err := strconv.Atoi(strings.TrimSpace(lines[0]))
	if err != nil {
		return 0, ""
	}
	return pid, strings.TrimSpace(lines[4])
}

// URL returns the connection URL of the app's database: user postgres over
// the unix socket, e.g. postgres://postgres@/percolate?host=/data/run.
func (c *Cluster) URL() string {
	return c.urlFor(DatabaseName)
}

func (c *Cluster) urlFor(database string) string {
	u := url.URL{
		Scheme:   "postgres",
		User:     url.User("postgres"),
		Path:     "/" + database,
		RawQuery: url.Values{"host": {c.socketDir}}.Encode(),
	}
	return u.String()
}

// DataDir returns the cluster's data directory.
func (c *Cluster) DataDir() string { return c.dataDir }

// Stop shuts the server down (fast mode: open sessions are ended, no data
// is lost) if Start started it; a server that Start found already running
// is left alone. Calling Stop more than once is harmless.
func (c *Cluster) Stop(ctx context.Context) error {
	c.stopOnce.Do(func() {
		if !c.started {
			return
		}
		err := c.run.run(ctx, "pg_ctl", "stop", "-w", "-t", "60", "-m", "fast", "-D", c.dataDir)
		// Someone else (a Ctrl-C to the whole process group, an operator)
		// may have stopped it already: that is not a failure.
		if err != nil && c.run.run(ctx, "pg_ctl", "status", "-D", c.dataDir) == nil {
			c.stopErr = fmt.Errorf("stop built-in database: %w", err)
			return
		}
		if c.tempSocketDir {
			_ = os.RemoveAll(c.socketDir)
		}
		c.logger.Info("built-in database stopped", "data_dir", c.dataDir)
	})
	return c.stopErr
}
