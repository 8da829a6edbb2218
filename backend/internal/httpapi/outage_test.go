package httpapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/percolate/percolate/backend/internal/account"
	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/auth"
	"github.com/percolate/percolate/backend/internal/mail"
	"github.com/percolate/percolate/backend/internal/queue/queuetest"
	"github.com/percolate/percolate/backend/internal/store"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
	"github.com/percolate/percolate/gen/api"
	dbgen "github.com/percolate/percolate/gen/db"
)

// outageEnv is an account service whose database can be taken away.
type outageEnv struct {
	*accEnv
	gate *pgtest.Gate
}

func newOutageEnv(t *testing.T) *outageEnv {
	t.Helper()
	st, gate := pgtest.Through(t, pgtest.URL(t))
	return &outageEnv{accEnv: newAccountsOn(t, st), gate: gate}
}

// newAccountsOn is the account service and the server on st, with one verified account
// (ada@example.com, "brew-a-fresh-pot").
func newAccountsOn(t *testing.T, st *store.Store) *accEnv {
	t.Helper()
	ctx := context.Background()
	tokens, err := auth.NewTokens(st, auth.Config{Key: make([]byte, 32), Issuer: testPublicURL})
	if err != nil {
		t.Fatal(err)
	}
	hasher := auth.NewHasher(cheapArgon, 0)
	svc := account.NewService(st, hasher, tokens, discardSender{}, queuetest.New(t, st), account.Config{PublicURL: testPublicURL, Logger: discardLogger()})
	hash, err := hasher.Hash(ctx, "brew-a-fresh-pot")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if _, err := st.Queries().CreateUser(ctx, dbgen.CreateUserParams{Email: "ada@example.com", Name: "Ada", PasswordHash: &hash, EmailVerifiedAt: &now}); err != nil {
		t.Fatal(err)
	}
	h := newTestHandler(t, Deps{DB: st, Verifier: NewTokenVerifier(tokens), Accounts: svc, Version: "test"})
	ip := "198.51.100.7"
	return &accEnv{t: t, st: st, h: h, svc: svc, tokens: tokens, ip: ip, api: apiClient(t, h, ip)}
}

// unavailable checks the rest of the contract's "try again" answer, once its status is 503:
// the common error shape with code SERVICE_UNAVAILABLE, and a Retry-After of a second or more.
func unavailable(t *testing.T, what string, body *api.ServiceUnavailable, retryAfter *int) {
	t.Helper()
	if body.Code != "SERVICE_UNAVAILABLE" {
		t.Errorf("%s: code = %q, want SERVICE_UNAVAILABLE", what, body.Code)
	}
	if body.Message == "" {
		t.Errorf("%s: message is empty", what)
	}
	if body.Error == "" {
		t.Errorf("%s: error is empty", what)
	}
	if retryAfter == nil || *retryAfter < 1 {
		t.Errorf("%s: Retry-After = %v, want a second or more", what, retryAfter)
	}
}

// unavailableForAccounts checks that reading the caller, refreshing and signing in each get
// the "try again" answer.
func (e *accEnv) unavailableForAccounts(t *testing.T, s session) {
	t.Helper()
	ctx := context.Background()
	me, err := e.api.GetCurrentUserWithResponse(ctx, bearer(s.access))
	wantStatus(t, me, err, http.StatusServiceUnavailable)
	unavailable(t, "a valid access token", me.JSON503, me.Headers503.RetryAfter)

	refresh, err := e.api.RefreshTokensWithResponse(ctx, api.RefreshTokensJSONRequestBody{RefreshToken: s.refresh})
	wantStatus(t, refresh, err, http.StatusServiceUnavailable)
	unavailable(t, "a refresh", refresh.JSON503, refresh.Headers503.RetryAfter)

	login, err := e.api.LoginWithResponse(ctx, api.LoginJSONRequestBody{Email: "ada@example.com", Password: "brew-a-fresh-pot"})
	wantStatus(t, login, err, http.StatusServiceUnavailable)
	unavailable(t, "a sign-in", login.JSON503, login.Headers503.RetryAfter)
}

func TestADatabaseOutageSignsNobodyOut(t *testing.T) {
	e := newOutageEnv(t)
	ctx := context.Background()
	s := e.login("ada@example.com", "brew-a-fresh-pot")
	before, err := e.api.GetCurrentUserWithResponse(ctx, bearer(s.access))
	wantStatus(t, before, err, http.StatusOK)

	e.gate.Close()

	e.unavailableForAccounts(t, s)
	profile, err := e.api.GetProfileWithResponse(ctx, bearer(s.access))
	wantStatus(t, profile, err, http.StatusServiceUnavailable)
	unavailable(t, "a profile read", profile.JSON503, profile.Headers503.RetryAfter)
	link, err := e.api.RequestLoginLinkWithResponse(ctx, api.RequestLoginLinkJSONRequestBody{Email: "ada@example.com"})
	wantStatus(t, link, err, http.StatusServiceUnavailable)
	unavailable(t, "a sign-in link", link.JSON503, link.Headers503.RetryAfter)
	// A token that is no good is still refused as such: the signature needs no database.
	forged, err := e.api.GetCurrentUserWithResponse(ctx, bearer("not-a-token"))
	wantStatus(t, forged, err, http.StatusUnauthorized)
	if forged.JSON401.Code != "UNAUTHORIZED" {
		t.Errorf("a forged token with the database down: code = %q, want UNAUTHORIZED", forged.JSON401.Code)
	}

	live, err := e.api.GetHealthWithResponse(ctx)
	wantStatus(t, live, err, http.StatusOK)
	wantHealth(t, "liveness with the database down", *live.JSON200, api.HealthStatusOk, "", "test")
	ready, err := e.api.GetReadinessWithResponse(ctx)
	wantStatus(t, ready, err, http.StatusServiceUnavailable)
	wantHealth(t, "readiness with the database down", *ready.JSON503, api.HealthStatusUnavailable, api.HealthDatabaseUnavailable, "test")
	if r := ready.Headers503.RetryAfter; r == nil || *r < 1 {
		t.Errorf("readiness with the database down: Retry-After = %v, want a second or more", r)
	}
}

func TestAClosedPoolIsUnavailableNotUnauthorized(t *testing.T) {
	e := newOutageEnv(t)
	s := e.login("ada@example.com", "brew-a-fresh-pot")
	e.st.Close()
	e.unavailableForAccounts(t, s)
}

func TestHealthIsLivenessAndReadinessChecksTheDatabase(t *testing.T) {
	e := newOutageEnv(t)
	live, err := e.api.GetHealthWithResponse(context.Background())
	wantStatus(t, live, err, http.StatusOK)
	wantHealth(t, "liveness", *live.JSON200, api.HealthStatusOk, "", "test")
	ready, err := e.api.GetReadinessWithResponse(context.Background())
	wantStatus(t, ready, err, http.StatusOK)
	wantHealth(t, "readiness", *ready.JSON200, api.HealthStatusOk, api.HealthDatabaseOk, "test")
}

// TestADatabaseRefusingConnectionsSignsNobodyOut makes the real server, up all along, refuse
// the app's new connections in each way an operator's change does (maintenance, a restore, a
// revoked CONNECT privilege, a rotated password). A valid access token, a refresh and a
// sign-in each get 503 with Retry-After, never 401 (signed out) or 500; a token that is no
// good is still 401; once the refusal is lifted the same access and refresh tokens work.
func TestADatabaseRefusingConnectionsSignsNobodyOut(t *testing.T) {
	db := pgtest.NewRefusable(t)
	e := newAccountsOn(t, db.Open(t))
	ctx := context.Background()
	for _, r := range pgtest.Refusals {
		t.Run(r.Code, func(t *testing.T) {
			s := e.login("ada@example.com", "brew-a-fresh-pot")
			before, err := e.api.GetCurrentUserWithResponse(ctx, bearer(s.access))
			wantStatus(t, before, err, http.StatusOK)

			db.Refuse(t, r.Code)
			t.Cleanup(func() { db.Allow(t, r.Code) }) // the next case starts on an open database
			// The pool's connections from before are gone (the refusal ended them): each
			// request needs a new one, which the server refuses.
			e.st.Pool().Reset()
			if err := e.st.Ping(ctx); err == nil {
				t.Fatalf("%s: the database still takes connections", r.What)
			}

			e.unavailableForAccounts(t, s)
			forged, err := e.api.GetCurrentUserWithResponse(ctx, bearer("not-a-token"))
			wantStatus(t, forged, err, http.StatusUnauthorized)

			db.Allow(t, r.Code)
			after, err := e.api.GetCurrentUserWithResponse(ctx, bearer(s.access))
			wantStatus(t, after, err, http.StatusOK)
			refreshed, err := e.api.RefreshTokensWithResponse(ctx, api.RefreshTokensJSONRequestBody{RefreshToken: s.refresh})
			wantStatus(t, refreshed, err, http.StatusOK)
		})
	}
}

// failingVerifier fails every check with its error.
type failingVerifier struct{ err error }

func (f failingVerifier) VerifyAccessToken(context.Context, string) (Caller, error) {
	return Caller{}, f.err
}

// TestOnlyAnInvalidTokenIsUnauthorized: a verifier's error that does not say "this token is
// not valid" means the token could not be checked, which is no reason to sign anyone out.
func TestOnlyAnInvalidTokenIsUnauthorized(t *testing.T) {
	for _, c := range []struct {
		name       string
		err        error
		wantStatus int
	}{
		{"not valid", fmt.Errorf("access token: %w", apperr.ErrUnauthorized), http.StatusUnauthorized},
		{"a closed login", apperr.New(apperr.ErrUnauthorized, "INVALID_REFRESH_TOKEN", "expired"), http.StatusUnauthorized},
		{"anything else", errors.New("read signing keys: none in the database"), http.StatusServiceUnavailable},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := buildHandler(t, Deps{Verifier: failingVerifier{c.err}})
			req := httptest.NewRequest(http.MethodGet, "/api/auth/me", nil)
			req.Header.Set("Authorization", "Bearer some-token")
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != c.wantStatus {
				t.Fatalf("GET /api/auth/me with the verifier failing with %q: %d %s, want %d", c.err, rec.Code, rec.Body, c.wantStatus)
			}
			if c.wantStatus == http.StatusServiceUnavailable {
				if ra := rec.Header().Get("Retry-After"); ra == "" || ra == "0" {
					t.Errorf("Retry-After = %q, want a second or more", ra)
				}
				if !strings.Contains(rec.Body.String(), `"SERVICE_UNAVAILABLE"`) {
					t.Errorf("body %s, want the code SERVICE_UNAVAILABLE", rec.Body)
				}
			}
		})
	}
}

type discardSender struct{}

func (discardSender) Send(context.Context, mail.Message) error { return nil }
