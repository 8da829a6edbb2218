package app

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/percolate/percolate/backend/internal/auth"
	"github.com/percolate/percolate/backend/internal/config"
	"github.com/percolate/percolate/backend/internal/store"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
	dbgen "github.com/percolate/percolate/gen/db"
)

// TestTwoInstancesOneDatabase runs two app instances, each with its own data dir, on one
// database, with the signing keys kept in the database and with PERCOLATE_SECRET_KEY: a login
// begun on A is accepted and refreshed on B, a second refresh of the same token on A inside
// the grace window gets the pair B handed out, and a logout or an account deletion on A is
// refused on B within 1 s.
func TestTwoInstancesOneDatabase(t *testing.T) {
	if testing.Short() {
		t.Skip("runs two servers")
	}
	for _, c := range []struct {
		name   string
		secret string
	}{
		{"keys in the database", ""},
		{"PERCOLATE_SECRET_KEY", "a long and random secret that both instances are given"},
	} {
		t.Run(c.name, func(t *testing.T) {
			url := pgtest.URL(t)
			st, err := store.Open(context.Background(), url)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(st.Close)
			email, password := createUser(t, st)

			a := startInstance(t, "A", url, c.secret)
			b := startInstance(t, "B", url, c.secret)

			var login struct{ AccessToken, RefreshToken string }
			if code := a.call(t, "POST", "/api/auth/login", "", map[string]string{"email": email, "password": password}, &login); code != http.StatusOK {
				t.Fatalf("login on A: %d", code)
			}
			if code := b.call(t, "GET", "/api/auth/me", login.AccessToken, nil, nil); code != http.StatusOK {
				t.Fatalf("B refuses A's access token: %d", code)
			}

			// B refreshes the login begun on A; A, asked again with the same token at once
			// (a second tab), hands back the very pair B did.
			var onB, onA struct{ AccessToken, RefreshToken string }
			if code := b.call(t, "POST", "/api/auth/refresh", "", map[string]string{"refreshToken": login.RefreshToken}, &onB); code != http.StatusOK {
				t.Fatalf("refresh on B of a login begun on A: %d", code)
			}
			if code := a.call(t, "POST", "/api/auth/refresh", "", map[string]string{"refreshToken": login.RefreshToken}, &onA); code != http.StatusOK {
				t.Fatalf("refresh on A inside the grace window after B's: %d", code)
			}
			if onA.RefreshToken != onB.RefreshToken || onB.RefreshToken == login.RefreshToken {
				t.Fatal("the grace window did not hand A the refresh token B had rotated to")
			}
			for _, in := range []*server{a, b} {
				for _, tok := range []string{onA.AccessToken, onB.AccessToken} {
					if code := in.call(t, "GET", "/api/auth/me", tok, nil, nil); code != http.StatusOK {
						t.Fatalf("%s refuses a refreshed access token: %d", in.name, code)
					}
				}
			}

			var keys int
			if err := st.Pool().QueryRow(context.Background(), `SELECT count(*) FROM signing_keys`).Scan(&keys); err != nil {
				t.Fatal(err)
			}
			if want := map[bool]int{true: 0, false: 1}[c.secret != ""]; keys != want {
				t.Fatalf("%d signing keys in the database, want %d", keys, want)
			}

			// Logout on A: B refuses the login's access token within a second.
			if code := a.call(t, "POST", "/api/auth/logout", onB.AccessToken, nil, nil); code != http.StatusNoContent {
				t.Fatalf("logout on A: %d", code)
			}
			refusedWithinASecond(t, b, onA.AccessToken, "a login closed on A")
			if code := b.call(t, "POST", "/api/auth/refresh", "", map[string]string{"refreshToken": onB.RefreshToken}, nil); code != http.StatusUnauthorized {
				t.Fatalf("B refreshed a login closed on A: %d", code)
			}

			// A password reset on A ends the logins B has just checked (and so cached) as quickly.
			var before struct{ AccessToken, RefreshToken string }
			if code := b.call(t, "POST", "/api/auth/login", "", map[string]string{"email": email, "password": password}, &before); code != http.StatusOK {
				t.Fatalf("login on B: %d", code)
			}
			if code := b.call(t, "GET", "/api/auth/me", before.AccessToken, nil, nil); code != http.StatusOK {
				t.Fatalf("B refuses its own login: %d", code)
			}
			resetTok, resetHash, err := auth.NewOpaqueToken()
			if err != nil {
				t.Fatal(err)
			}
			u, err := st.Queries().GetUserByEmail(context.Background(), email)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := st.Queries().CreateEmailToken(context.Background(), dbgen.CreateEmailTokenParams{UserID: u.ID, Purpose: "reset", TokenHash: resetHash, ExpiresAt: time.Now().Add(time.Hour)}); err != nil {
				t.Fatal(err)
			}
			password = "a-new-pot-of-coffee"
			if code := a.call(t, "PUT", "/api/public/reset-password?token="+resetTok, "", map[string]string{"password": password, "confirmPassword": password}, nil); code != http.StatusOK {
				t.Fatalf("reset on A: %d", code)
			}
			refusedWithinASecond(t, b, before.AccessToken, "a login ended by a password reset on A")

			// Deleting the account on A ends its logins on B as quickly.
			var again struct{ AccessToken, RefreshToken string }
			if code := b.call(t, "POST", "/api/auth/login", "", map[string]string{"email": email, "password": password}, &again); code != http.StatusOK {
				t.Fatalf("login on B: %d", code)
			}
			if code := a.call(t, "DELETE", "/api/profile", again.AccessToken, nil, nil); code != http.StatusNoContent {
				t.Fatalf("delete the account on A: %d", code)
			}
			refusedWithinASecond(t, b, again.AccessToken, "an account deleted on A")
		})
	}
}

// refusedWithinASecond asks in for the signed-in user with token until it answers 401,
// failing when a second has passed.
func refusedWithinASecond(t *testing.T, in *server, token, what string) {
	t.Helper()
	deadline := time.Now().Add(time.Second)
	for {
		code := in.call(t, "GET", "/api/auth/me", token, nil, nil)
		if code == http.StatusUnauthorized {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s still answers %d to the access token of %s a second ago", in.name, code, what)
		}
	}
}

func createUser(t *testing.T, st *store.Store) (email, password string) {
	t.Helper()
	email, password = "ada@example.com", "brew-a-fresh-pot"
	h := auth.NewHasher(auth.Argon2Params{MemoryKiB: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}, 0)
	hash, err := h.Hash(context.Background(), password)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if _, err := st.Queries().CreateUser(context.Background(), dbgen.CreateUserParams{Email: email, Name: "Ada", PasswordHash: &hash, EmailVerifiedAt: &now}); err != nil {
		t.Fatal(err)
	}
	return email, password
}

// server is one app instance started by Serve.
type server struct {
	name, url string
}

// startInstance runs Serve on its own data dir and address until the test ends.
func startInstance(t *testing.T, name, databaseURL, secret string) *server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	vars := map[string]string{
		"DATABASE_URL": databaseURL, "PERCOLATE_ADDR": addr, "PERCOLATE_DATA_DIR": t.TempDir(),
		"PERCOLATE_LOG_LEVEL": "error", "PERCOLATE_SECRET_KEY": secret,
		// Behind one load balancer, every instance has the same public URL (the tokens' issuer).
		"PERCOLATE_PUBLIC_URL": "https://percolate.test",
	}
	cfg, err := config.Load(func(k string) string { return vars[k] })
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, cfg, slog.New(slog.DiscardHandler), "test") }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("serve: %v", err)
			}
		case <-time.After(time.Minute):
			t.Error("serve did not stop")
		}
	})
	s := &server{name: name, url: "http://" + addr}
	deadline := time.Now().Add(time.Minute)
	for {
		select {
		case err := <-done:
			t.Fatalf("serve stopped: %v", err)
		default:
		}
		if res, err := http.Get(s.url + "/api/health"); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				// The public URL is https, so the proxy in front ends TLS: the plain HTTP the
				// instance sees is answered with HSTS all the same.
				if res.Header.Get("Strict-Transport-Security") == "" {
					t.Error("an https public URL, and no Strict-Transport-Security")
				}
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("instance not healthy in time")
		}
		time.Sleep(20 * time.Millisecond)
	}
	return s
}

// call sends a JSON request and decodes a JSON answer into out (when not nil).
func (s *server) call(t *testing.T, method, path, token string, body, out any) int {
	t.Helper()
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, s.url+path, r)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if out != nil && res.StatusCode < 300 {
		if err := json.NewDecoder(res.Body).Decode(out); err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
	}
	return res.StatusCode
}
