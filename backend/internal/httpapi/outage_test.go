package httpapi

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/percolate/percolate/backend/internal/account"
	"github.com/percolate/percolate/backend/internal/auth"
	"github.com/percolate/percolate/backend/internal/mail"
	"github.com/percolate/percolate/backend/internal/queue/queuetest"
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
	return &outageEnv{accEnv: &accEnv{t: t, st: st, h: h, svc: svc, tokens: tokens, ip: ip, api: apiClient(t, h, ip)}, gate: gate}
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
func (e *outageEnv) unavailableForAccounts(t *testing.T, s session) {
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

type discardSender struct{}

func (discardSender) Send(context.Context, mail.Message) error { return nil }
