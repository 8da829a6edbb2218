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
