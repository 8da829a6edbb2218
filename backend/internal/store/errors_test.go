package store_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/percolate/percolate/backend/internal/store"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
	dbgen "github.com/percolate/percolate/gen/db"
)

func TestIsUnavailableTellsAnOutageFromARefusal(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{nil, false},
		{pgx.ErrNoRows, false},
		{&pgconn.PgError{Code: "23505"}, false}, // unique violation
		{&pgconn.PgError{Code: "42P01"}, false}, // a bug: undefined table
		{&pgconn.PgError{Code: "08006"}, true},  // connection failure
		{&pgconn.PgError{Code: "53300"}, true},  // too many connections
		{&pgconn.PgError{Code: "57P01"}, true},  // admin shutdown
		{&pgconn.PgError{Code: "57P03"}, true},  // cannot connect now (starting up)
		{fmt.Errorf("check login: %w", io.ErrUnexpectedEOF), true},
		{errors.New("something else"), false},
	} {
		if got := store.IsUnavailable(c.err); got != c.want {
			t.Errorf("IsUnavailable(%v) = %v, want %v", c.err, got, c.want)
		}
	}

	st := pgtest.New(t)
	st.Close()
	_, err := st.Queries().GetRateLimit(context.Background(), dbgen.GetRateLimitParams{Key: "k", WindowStart: time.Now()})
	if !store.IsUnavailable(err) {
		t.Errorf("a closed pool: %v is not unavailable", err)
	}
}

// TestARefusedConnectionIsUnavailable makes a real server that is up refuse the app's new
// connections in each of the ways an operator's change does (maintenance, a restore, a
// revoked privilege, a rotated password): each failure to connect is "unavailable", whatever
// the server's code, and the same pool works again once the refusal is lifted.
func TestARefusedConnectionIsUnavailable(t *testing.T) {
	db := pgtest.NewRefusable(t)
	st := db.Open(t)
	ctx := context.Background()
	read := func() error {
		_, err := st.Queries().GetRateLimit(ctx, dbgen.GetRateLimitParams{Key: "k", WindowStart: time.Now()})
		if store.IsNotFound(err) {
			return nil
		}
		return err
	}
	if err := read(); err != nil {
		t.Fatalf("before any refusal: %v", err)
	}
	for _, r := range pgtest.Refusals {
		t.Run(r.Code, func(t *testing.T) {
			db.Refuse(t, r.Code)
			st.Pool().Reset() // no connection left from before: the next read needs a new one
			err := read()
			var pgErr *pgconn.PgError
			if !errors.As(err, &pgErr) || pgErr.Code != r.Code {
				t.Fatalf("%s: the read failed with %v, want the server's %s", r.What, err, r.Code)
			}
			if !store.IsUnavailable(err) {
				t.Errorf("%s: %v is not unavailable", r.What, err)
			}
			db.Allow(t, r.Code)
			if err := read(); err != nil {
				t.Errorf("%s, lifted: the same pool fails: %v", r.What, err)
			}
		})
	}
}
