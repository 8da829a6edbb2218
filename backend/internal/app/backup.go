package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/percolate/percolate/backend/internal/config"
	"github.com/percolate/percolate/backend/internal/store"
	"github.com/percolate/percolate/backend/internal/store/pglocal"
)

// Counts are how many of the main rows a database holds, reported after a backup or restore.
type Counts struct{ Users, Sessions, Messages int64 }

func (c Counts) String() string {
	return fmt.Sprintf("%d users, %d sessions, %d messages", c.Users, c.Sessions, c.Messages)
}

func count(ctx context.Context, st *store.Store) (Counts, error) {
	var c Counts
	err := st.Pool().QueryRow(ctx, `SELECT (SELECT count(*) FROM users), (SELECT count(*) FROM chat_sessions),
		(SELECT count(*) FROM messages)`).Scan(&c.Users, &c.Sessions, &c.Messages)
	return c, err
}

// Backup writes the app's whole database (DATABASE_URL, or the built-in cluster) to file with
// pg_dump's custom format, readable by the owner only. The file appears only once it is
// complete.
func Backup(ctx context.Context, cfg config.Config, logger *slog.Logger, file string) (Counts, error) {
	db, err := OpenDatabase(ctx, cfg, logger)
	if err != nil {
		return Counts{}, err
	}
	defer db.Close()
	pgDump, err := pglocal.Tool(ctx, "pg_dump")
	if err != nil {
		return Counts{}, err
	}
	n, err := count(ctx, db.Store)
	if err != nil {
		return Counts{}, fmt.Errorf("count rows: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), "."+filepath.Base(file)+".*")
	if err != nil {
		return Counts{}, fmt.Errorf("backup file: %w", err)
	}
	_ = tmp.Close()             // only its name is wanted: pg_dump writes the file
	defer os.Remove(tmp.Name()) // after the rename, there is nothing left to remove
	if err := runTool(ctx, pgDump, "--format=custom", "--no-owner", "--no-privileges",
		"--file="+tmp.Name(), "--dbname="+db.url); err != nil {
		return Counts{}, err
	}
	if err := os.Chmod(tmp.Name(), 0o600); err != nil {
		return Counts{}, err
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		return Counts{}, fmt.Errorf("backup file: %w", err)
	}
	return n, nil
}

// ErrNotEmpty is returned by Restore when the target database already holds accounts.
var ErrNotEmpty = errors.New("the database already holds accounts: restore only into an empty database (a new DATABASE_URL, or a new PERCOLATE_DATA_DIR)")

// Restore loads a file written by Backup into the app's database, which must hold no accounts,
// in one transaction (all or nothing), then applies any migrations newer than the backup.
func Restore(ctx context.Context, cfg config.Config, logger *slog.Logger, file string) (Counts, error) {
	if _, err := os.Stat(file); err != nil {
		return Counts{}, fmt.Errorf("backup file: %w", err)
	}
	db, err := OpenDatabase(ctx, cfg, logger)
	if err != nil {
		return Counts{}, err
	}
	defer db.Close()
	pgRestore, err := pglocal.Tool(ctx, "pg_restore")
	if err != nil {
		return Counts{}, err
	}
	if n, err := count(ctx, db.Store); err != nil {
		return Counts{}, fmt.Errorf("count rows: %w", err)
	} else if n.Users > 0 {
		return Counts{}, ErrNotEmpty
	}
	// The freshly migrated, empty schema makes way for the backup's, whatever its version.
	if _, err := db.Pool().Exec(ctx, "DROP SCHEMA public CASCADE; CREATE SCHEMA public"); err != nil {
		return Counts{}, fmt.Errorf("empty the database: %w", err)
	}
	db.Store.Close()
	if err := runTool(ctx, pgRestore, "--no-owner", "--no-privileges", "--single-transaction",
		"--exit-on-error", "--dbname="+db.url, file); err != nil {
		return Counts{}, err
	}
	// A new pool: the old one's cached statements name the dropped tables.
	st, err := store.Open(ctx, db.url)
	if err != nil {
		return Counts{}, err
	}
	db.Store = st
	if err := db.Migrate(ctx); err != nil {
		return Counts{}, fmt.Errorf("migrate the restored database: %w", err)
	}
	return count(ctx, db.Store)
}

// runTool runs a PostgreSQL client program; its error output is returned in the error (it
// names tables and options, never the connection URL, which is passed as an argument).
func runTool(ctx context.Context, path string, args ...string) error {
	cmd := exec.CommandContext(ctx, path, args...) // #nosec G204 -- pg_dump/pg_restore resolved by the app, arguments built by it; no shell
	cmd.Stdout = io.Discard
	var stderr limitedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %w: %s", filepath.Base(path), err, stderr.String())
	}
	return nil
}

// limitedBuffer keeps the first 4 KiB written to it.
type limitedBuffer struct{ b []byte }

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := 4096 - len(l.b); room > 0 {
		l.b = append(l.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (l *limitedBuffer) String() string { return string(l.b) }
