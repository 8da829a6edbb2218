package httpapi

import (
	"net/http"
	"testing"

	"github.com/percolate/percolate/backend/internal/auth"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
)

// TestAuthenticationIsOneQuery checks a bearer token with the verifier on a pool of its own
// whose statements are counted: each authenticated request costs one statement (the login's
// liveness and the user's current role together), before and after a logout.
func TestAuthenticationIsOneQuery(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	s := e.signUp("Ada", "ada@example.com", "brew-a-fresh-pot")

	st, counter := pgtest.Traced(t, e.st.Pool().Config())
	tokens, err := auth.NewTokens(st, auth.Config{Keys: e.keys, Issuer: testPublicURL})
	if err != nil {
		t.Fatal(err)
	}
	e.h = newTestHandler(t, Deps{Logger: e.svc.Logger(), DB: e.st, Verifier: NewTokenVerifier(tokens), Accounts: e.svc})
	e.api = apiClient(t, e.h, e.ip)

	// Batches and single statements alike: each is a round trip.
	sent := func() int { b, q, _ := counter.Take(); return b + q }
	for i := range 3 {
		sent()
		e.wantMe(t, s.access, http.StatusOK)
		if n := sent(); n != 1 {
			t.Fatalf("request %d: authentication took %d statements, want 1", i, n)
		}
	}
	e.wantLogout(t, s.access, http.StatusNoContent)
	sent()
	e.wantMe(t, s.access, http.StatusUnauthorized)
	if n := sent(); n != 1 {
		t.Fatalf("refusing a closed login took %d statements, want 1", n)
	}
}
