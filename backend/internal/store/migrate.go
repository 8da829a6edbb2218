package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"

	"github.com/percolate/percolate/db"
)

// migrationLockID is the key of the session-level advisory lock held while
// migrating, so that several app instances starting at once migrate one
// after the other rather than racing (the later ones then find nothing to
// do). It is an arbitrary constant: the first 8 bytes of "percolat".
const migrationLockID int64 = 0x70657263_6f6c6174

// MigrationsFS returns the embedded goose migrations, rooted so that the
// .sql files sit at its top level.
func MigrationsFS() fs.FS {
	sub, err := fs.Sub(db.Migrations, "migrations")
	if err != nil {
		// fs.Sub only fails on an invalid path, which "migrations" is not.
		panic(fmt.Sprintf("store: embedded migrations: %v", err))
	}
	return sub
}

// Migrate applies every pending migration to the database behind pool:
// River's (the tables of the job queue, versioned by River itself) and then
// ours (goose). It is safe to call from several processes at once: a
// PostgreSQL advisory lock makes them take turns. The pool must allow at
// least two connections (one holds the lock while the migrations use
// another).
func Migrate(ctx context.Context, pool *pgxpool.Pool) error {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("migrate: acquire connection: %w", err)
	}
	defer conn.Release()

	// pg_advisory_lock blocks until the lock is free; pgx cancels the wait
	// if ctx is done.
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", migrationLockID); err != nil {
		return fmt.Errorf("migrate: take advisory lock: %w", err)
	}
	defer func() {
		if _, err := conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", migrationLockID); err != nil {
			// Closing the session releases the lock for certain.
			_ = conn.Conn().Close(context.WithoutCancel(ctx))
		}
	}()

	// River first: a goose migration moves the jobs of the queue River replaced
	// into River's table.
	river, err := RiverMigrator(pool)
	if err != nil {
		return err
	}
	if _, err := river.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return fmt.Errorf("migrate: river: %w", err)
	}

	sqlDB := stdlib.OpenDBFromPool(pool)
	defer sqlDB.Close() // does not close the pool

	provider, err := goose.NewProvider(goose.DialectPostgres, sqlDB, MigrationsFS())
	if err != nil {
		return fmt.Errorf("migrate: load migrations: %w", err)
	}
	if _, err := provider.Up(ctx); err != nil {
		var partial *goose.PartialError
		if errors.As(err, &partial) && partial.Failed != nil && partial.Failed.Source != nil {
			return fmt.Errorf("migrate: apply %s: %w", partial.Failed.Source.Path, partial.Err)
		}
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}

// Migrate applies every pending migration to the store's database; see the
// package-level Migrate.
func (s *Store) Migrate(ctx context.Context) error {
	return Migrate(ctx, s.pool)
}

// MigrationVersion returns the version of the newest migration applied to
// the database behind pool, 0 when none is.
func MigrationVersion(ctx context.Context, pool *pgxpool.Pool) (int64, error) {
	sqlDB := stdlib.OpenDBFromPool(pool)
	defer sqlDB.Close()
	provider, err := goose.NewProvider(goose.DialectPostgres, sqlDB, MigrationsFS())
	if err != nil {
		return 0, fmt.Errorf("migration version: load migrations: %w", err)
	}
	v, err := provider.GetDBVersion(ctx)
	if err != nil {
		return 0, fmt.Errorf("migration version: %w", err)
	}
	return v, nil
}

// RiverMigrator returns River's migrator for the database behind pool. With a
// nil pool it can only list River's migrations (AllVersions), which is enough
// to tell whether they changed.
func RiverMigrator(pool *pgxpool.Pool) (*rivermigrate.Migrator[pgx.Tx], error) {
	m, err := rivermigrate.New(riverpgxv5.New(pool), &rivermigrate.Config{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		return nil, fmt.Errorf("migrate: river: %w", err)
	}
	return m, nil
}
