package pglocal

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// waitReady connects to the server's "postgres" database until it answers or
// the timeout passes (a server can still be recovering after a crash).
func (c *Cluster) waitReady(ctx context.Context, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	for {
		conn, err := c.connect(ctx, "postgres")
		if err == nil {
			return conn.Close(ctx)
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func (c *Cluster) connect(ctx context.Context, database string) (*pgx.Conn, error) {
	cfg, err := pgx.ParseConfig(c.urlFor(database))
	if err != nil {
		return nil, fmt.Errorf("parse built-in database URL: %w", err)
	}
	cfg.ConnectTimeout = 5 * time.Second
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connect to the built-in database: %w", err)
	}
	return conn, nil
}

// createDatabase creates the app's database unless it exists.
func (c *Cluster) createDatabase(ctx context.Context) error {
	conn, err := c.connect(ctx, "postgres")
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))

	var exists bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", DatabaseName).Scan(&exists); err != nil {
		return fmt.Errorf("look for database %s: %w", DatabaseName, err)
	}
	if exists {
		return nil
	}
	_, err = conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{DatabaseName}.Sanitize())
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "42P04" { // duplicate_database: created meanwhile
		return nil
	}
	if err != nil {
		return fmt.Errorf("create database %s: %w", DatabaseName, err)
	}
	c.logger.Info("built-in database created", "database", DatabaseName)
	return nil
}

// lockDir takes an exclusive flock on path, waiting (polling, so that ctx
// can cancel the wait) while another process holds it. The lock goes away
// with the process if it dies.
func lockDir(ctx context.Context, path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600) // #nosec G304 -- the lock file the app keeps in its data directory
	if err != nil {
		return nil, fmt.Errorf("open lock file: %w", err)
	}
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() {
				_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
				_ = f.Close()
			}, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			_ = f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		select {
		case <-ctx.Done():
			_ = f.Close()
			return nil, fmt.Errorf("wait for another process starting the database in the same directory: %w", ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}
