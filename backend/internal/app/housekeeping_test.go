package app

import (
	"context"
	"testing"
	"time"

	"github.com/percolate/percolate/backend/internal/contact"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
)

func TestHousekeepDeletesOnlyWhatCanNoLongerBeUsed(t *testing.T) {
	ctx := context.Background()
	st := pgtest.New(t)
	pool := st.Pool()
	user := pgtest.User(t, st, "USER").ID
	now := time.Now()
	old, recent, future := now.Add(-48*time.Hour), now.Add(-time.Hour), now.Add(time.Hour)

	// Each table gets rows that must go (old) and rows that must stay (live or recently spent).
	pgtest.Exec(t, st, `INSERT INTO rate_limits (key, window_start, count) VALUES ('old', $1, 3), ('live', $2, 1)`, old, recent)
	pgtest.Exec(t, st, `INSERT INTO refresh_token_families (user_id, expires_at, revoked_at) VALUES
		($1, $2, NULL), ($1, $3, $2), ($1, $3, NULL), ($1, $3, $4)`, user, old, future, recent)
	pgtest.Exec(t, st, `INSERT INTO refresh_tokens (family_id, user_id, token_hash, expires_at)
		SELECT id, user_id, decode(md5(id::text), 'hex'), expires_at FROM refresh_token_families`)
	pgtest.Exec(t, st, `INSERT INTO email_tokens (user_id, purpose, token_hash, expires_at, used_at) VALUES
		($1, 'verify', '\x01', $2, NULL), ($1, 'reset', '\x02', $3, $2),
		($1, 'verify', '\x03', $3, NULL), ($1, 'reset', '\x04', $3, $4)`, user, old, future, recent)
	pgtest.Exec(t, st, `INSERT INTO login_codes (code_hash, user_id, expires_at) VALUES ('\x01', $1, $2), ('\x02', $1, $3)`, user, old, future)
	// Contact messages are kept for contact.Retention (90 days), however old is "old" elsewhere.
	pgtest.Exec(t, st, `INSERT INTO contact_messages (name, email, message, created_at) VALUES
		('A', 'a@example.com', 'hello', $1), ('B', 'b@example.com', 'hello', $2), ('C', 'c@example.com', 'hello', $3)`,
		now.Add(-contact.Retention-time.Hour), now.Add(-contact.Retention+time.Hour), old)

	deleted, err := housekeep(ctx, st.Queries(), now)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{"rate_limit_windows": 1, "refresh_families": 2, "email_tokens": 2, "login_codes": 1, "contact_messages": 1}
	for k, n := range want {
		if deleted[k] != n {
			t.Errorf("deleted %s = %d, want %d (all: %v)", k, deleted[k], n, deleted)
		}
	}
	for table, left := range map[string]int{"rate_limits": 1, "refresh_token_families": 2, "refresh_tokens": 2, "email_tokens": 2, "login_codes": 1, "users": 1, "contact_messages": 2} {
		var n int
		if err := pool.QueryRow(ctx, "SELECT count(*) FROM "+table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != left {
			t.Errorf("%s has %d rows left, want %d", table, n, left)
		}
	}

	// A second run finds nothing more to do.
	again, err := housekeep(ctx, st.Queries(), now)
	if err != nil {
		t.Fatal(err)
	}
	for k, n := range again {
		if n != 0 {
			t.Errorf("second run deleted %d %s", n, k)
		}
	}
}
