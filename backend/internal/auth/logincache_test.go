package auth

import (
	"context"
	"errors"
	"log/slog"
	"testing"
	"time"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/store"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
	dbgen "github.com/percolate/percolate/gen/db"
)

// TestLoginCache checks an access token against the database once per LoginCacheTTL while
// the instance listens for login changes: a login revoked behind its back with the
// notification switched off is still accepted at once (the cache answered) and refused
// within a second (the cache expired); with the notification on, a revocation by another
// instance (plain SQL here) is refused within a second too; and revocation through Tokens
// is refused at once.
// listeningTokens gives Tokens on a fresh database whose cache follows a listener of the
// login channel, as a server's does (a server's also carries the chat's), once it listens.
func listeningTokens(t *testing.T) (*store.Store, *Tokens) {
	t.Helper()
	st := pgtest.New(t)
	tk, err := NewTokens(st, Config{Key: make([]byte, KeySize), Issuer: "https://percolate.test"})
	if err != nil {
		t.Fatal(err)
	}
	lctx, stop := context.WithCancel(context.Background())
	t.Cleanup(stop)
	l := st.NewListener(slog.New(slog.DiscardHandler), LoginChannel)
	tk.FollowLoginChanges(l)
	go l.Run(lctx)
	deadline := time.Now().Add(10 * time.Second)
	for !tk.logins.Keeps() {
		if time.Now().After(deadline) {
			t.Fatal("the listener never subscribed")
		}
		time.Sleep(10 * time.Millisecond)
	}
	return st, tk
}

func TestLoginCache(t *testing.T) {
	st, tk := listeningTokens(t)
	ctx := context.Background()
	u, err := st.Queries().CreateUser(ctx, dbgen.CreateUserParams{Email: "cache@example.com", Name: "Cache"})
	if err != nil {
		t.Fatal(err)
	}
	login := func() Pair {
		t.Helper()
		p, err := tk.StartSession(ctx, st.Queries(), u.ID, u.Role)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tk.VerifyAccess(ctx, p.Access); err != nil {
			t.Fatalf("a live login refused: %v", err)
		}
		return p
	}
	refusedWithin := func(p Pair, d time.Duration, what string) {
		t.Helper()
		until := time.Now().Add(d)
		for {
			_, err := tk.VerifyAccess(ctx, p.Access)
			if errors.Is(err, apperr.ErrUnauthorized) {
				return
			}
			if time.Now().After(until) {
				t.Fatalf("%s still accepted after %s (err %v)", what, d, err)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	revokeBySQL := func(p Pair) {
		t.Helper()
		if _, err := st.Pool().Exec(ctx, `UPDATE refresh_token_families SET revoked_at = now() WHERE id = $1`, p.Principal.Family); err != nil {
			t.Fatal(err)
		}
	}

	// No notification: the cache answers, until its half second is over.
	if _, err := st.Pool().Exec(ctx, `ALTER TABLE refresh_token_families DISABLE TRIGGER refresh_families_auth_change`); err != nil {
		t.Fatal(err)
	}
	quiet := login()
	revokeBySQL(quiet)
	if _, err := tk.VerifyAccess(ctx, quiet.Access); err != nil {
		t.Fatalf("the cache did not answer: %v", err)
	}
	refusedWithin(quiet, time.Second, "a login revoked without a notification")
	if _, err := st.Pool().Exec(ctx, `ALTER TABLE refresh_token_families ENABLE TRIGGER refresh_families_auth_change`); err != nil {
		t.Fatal(err)
	}

	// Another instance's revocation arrives as a notification.
	other := login()
	revokeBySQL(other)
	refusedWithin(other, time.Second, "a login revoked by another instance")

	// This instance's own revocation is refused at once.
	own := login()
	if err := tk.RevokeFamily(ctx, st.Queries(), u.ID, own.Principal.Family, "logout"); err != nil {
		t.Fatal(err)
	}
	if _, err := tk.VerifyAccess(ctx, own.Access); !errors.Is(err, apperr.ErrUnauthorized) {
		t.Fatalf("a login this instance revoked was accepted: %v", err)
	}
}

// TestLoginCacheOffWhileNotListening: following a listener shared with another channel, the
// cache is on while it listens, off (every token checked against the database) from a lost
// connection until it listens again, and on again after that.
func TestLoginCacheOffWhileNotListening(t *testing.T) {
	st := pgtest.New(t)
	ctx := context.Background()
	tk, err := NewTokens(st, Config{Key: make([]byte, KeySize), Issuer: "https://percolate.test"})
	if err != nil {
		t.Fatal(err)
	}
	l := st.NewListener(slog.New(slog.DiscardHandler), "percolate_other", LoginChannel)
	tk.FollowLoginChanges(l)
	// Watchers run in the order they were added, so this one sees the cache as the
	// listener's change left it.
	seen := make(chan [2]bool, 8)
	l.Watch(func(listening bool) { seen <- [2]bool{listening, tk.logins.Keeps()} })
	lctx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); l.Run(lctx) }()
	defer func() { stop(); <-done }()
	expect := func(listening bool) {
		t.Helper()
		select {
		case s := <-seen:
			if s[0] != listening || s[1] != listening {
				t.Fatalf("listening = %v with the cache on = %v, want both %v", s[0], s[1], listening)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("the listener never reported listening = %v", listening)
		}
	}
	expect(true)
	if _, err := st.Pool().Exec(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'`); err != nil {
		t.Fatal(err)
	}
	expect(false)
	expect(true)
}

// TestLoginIdentityFollowsChanges: VerifyAccess answers who the account is (what /me shows)
// with its role, from the same statement and the same cache, and a change of the e-mail, the
// name or the student status by another instance (plain SQL here) empties every instance's
// cache through its notification, as a role change does.
func TestLoginIdentityFollowsChanges(t *testing.T) {
	st, tk := listeningTokens(t)
	ctx := context.Background()
	u, err := st.Queries().CreateUser(ctx, dbgen.CreateUserParams{Email: "who@example.com", Name: "Who", IsStudent: true})
	if err != nil {
		t.Fatal(err)
	}
	p, err := tk.StartSession(ctx, st.Queries(), u.ID, u.Role)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ sql, email, name string }{
		{`UPDATE users SET name = 'Renamed' WHERE id = $1`, "who@example.com", "Renamed"},
		{`UPDATE users SET email = 'new@example.com' WHERE id = $1`, "new@example.com", "Renamed"},
		{`UPDATE users SET is_student = false WHERE id = $1`, "new@example.com", "Renamed"},
	} {
		got, err := tk.VerifyAccess(ctx, p.Access)
		if err != nil || got.Identity == nil {
			t.Fatalf("verify: %+v %v", got, err)
		}
		if !tk.logins.Has(p.Family) {
			t.Fatal("the login was not kept")
		}
		gen := tk.logins.Gen() // one more at every emptying (not at an expiry)
		if _, err := st.Pool().Exec(ctx, c.sql, u.ID); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(10 * time.Second)
		for {
			if tk.logins.Gen() != gen && !tk.logins.Has(p.Family) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: no notification emptied the cache", c.sql)
			}
			time.Sleep(5 * time.Millisecond)
		}
		got, err = tk.VerifyAccess(ctx, p.Access)
		if err != nil || got.Identity == nil || got.Identity.Email != c.email || got.Identity.Name != c.name {
			t.Fatalf("after %s: %+v %v", c.sql, got.Identity, err)
		}
	}
	got, _ := tk.VerifyAccess(ctx, p.Access)
	if got.Identity.IsStudent {
		t.Fatal("the student status did not follow")
	}
}
