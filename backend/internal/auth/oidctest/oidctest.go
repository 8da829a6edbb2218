// Package oidctest is an in-process OpenID Connect provider for tests: real discovery, a
// JWKS with an RSA key, and the authorization-code flow with PKCE (S256), state and nonce.
// Its /authorize signs in the User set on the provider at once, without a login page.
package oidctest

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// User is who the provider signs in.
type User struct {
	Subject       string
	Email         string
	EmailVerified bool
	Name          string
}

type grant struct {
	clientID, redirectURI, challenge, nonce string
	user                                    User
	expires                                 time.Time
}

// Provider is a running test provider.
type Provider struct {
	ClientID, ClientSecret string

	srv *httptest.Server
	key *rsa.PrivateKey
	kid string

	mu     sync.Mutex
	user   User
	codes  map[string]grant
	tokens int
	tamper func(claims jwt.MapClaims)
}

// SetTamper makes the provider change the claims of the ID tokens it issues from now on
// (e.g. a wrong nonce or audience); nil stops it.
func (p *Provider) SetTamper(f func(claims jwt.MapClaims)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.tamper = f
}

// Start runs a provider for the test's lifetime.
func Start(t testing.TB, clientID, clientSecret string) *Provider {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	p := &Provider{ClientID: clientID, ClientSecret: clientSecret, key: key, kid: "test-key-1", codes: map[string]grant{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/openid-configuration", p.discovery)
	mux.HandleFunc("GET /jwks", p.jwks)
	mux.HandleFunc("GET /authorize", p.authorize)
	mux.HandleFunc("POST /token", p.token)
	p.srv = httptest.NewServer(mux)
	t.Cleanup(p.srv.Close)
	return p
}

// Issuer is the provider's issuer URL (its discovery base).
func (p *Provider) Issuer() string { return p.srv.URL }

// SetUser chooses who the next authorizations sign in.
func (p *Provider) SetUser(u User) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.user = u
}

// TokenRequests counts successful code exchanges.
func (p *Provider) TokenRequests() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.tokens
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func (p *Provider) discovery(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{
		"issuer":                                p.Issuer(),
		"authorization_endpoint":                p.Issuer() + "/authorize",
		"token_endpoint":                        p.Issuer() + "/token",
		"jwks_uri":                              p.Issuer() + "/jwks",
		"response_types_supported":              []string{"code"},
		"subject_types_supported":               []string{"public"},
		"id_token_signing_alg_values_supported": []string{"RS256"},
		"code_challenge_methods_supported":      []string{"S256"},
		"scopes_supported":                      []string{"openid", "email", "profile"},
		"token_endpoint_auth_methods_supported": []string{"client_secret_basic", "client_secret_post"},
	})
}

func (p *Provider) jwks(w http.ResponseWriter, _ *http.Request) {
	b64 := base64.RawURLEncoding
	writeJSON(w, http.StatusOK, map[string]any{"keys": []map[string]string{{
		"kty": "RSA", "use": "sig", "alg": "RS256", "kid": p.kid,
		"n": b64.EncodeToString(p.key.N.Bytes()),
		"e": b64.EncodeToString(big.NewInt(int64(p.key.E)).Bytes()),
	}}})
}

func randomCode() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

func (p *Provider) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	redirect, err := url.Parse(q.Get("redirect_uri"))
	if err != nil || q.Get("redirect_uri") == "" {
		http.Error(w, "bad redirect_uri", http.StatusBadRequest)
		return
	}
	switch {
	case q.Get("client_id") != p.ClientID,
		q.Get("response_type") != "code",
		q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "",
		q.Get("state") == "", q.Get("nonce") == "":
		http.Error(w, "bad authorization request", http.StatusBadRequest)
		return
	}
	code := randomCode()
	p.mu.Lock()
	p.codes[code] = grant{clientID: q.Get("client_id"), redirectURI: q.Get("redirect_uri"), challenge: q.Get("code_challenge"),
		nonce: q.Get("nonce"), user: p.user, expires: time.Now().Add(time.Minute)}
	p.mu.Unlock()
	v := redirect.Query()
	v.Set("code", code)
	v.Set("state", q.Get("state"))
	redirect.RawQuery = v.Encode()
	http.Redirect(w, r, redirect.String(), http.StatusFound) // #nosec G710 -- the test identity provider sends the browser back to the redirect_uri the test registered
}

func (p *Provider) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_request"})
		return
	}
	id, secret, ok := r.BasicAuth()
	if !ok {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	if id != p.ClientID || subtle.ConstantTimeCompare([]byte(secret), []byte(p.ClientSecret)) != 1 {
		writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_client"})
		return
	}
	code := r.PostForm.Get("code")
	p.mu.Lock()
	g, found := p.codes[code]
	delete(p.codes, code)
	p.mu.Unlock()
	sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
	if r.PostForm.Get("grant_type") != "authorization_code" || !found || time.Now().After(g.expires) ||
		g.redirectURI != r.PostForm.Get("redirect_uri") || g.clientID != id ||
		base64.RawURLEncoding.EncodeToString(sum[:]) != g.challenge {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant"})
		return
	}
	now := time.Now()
	claims := jwt.MapClaims{
		"iss": p.Issuer(), "sub": g.user.Subject, "aud": p.ClientID, "iat": now.Unix(), "exp": now.Add(5 * time.Minute).Unix(),
		"nonce": g.nonce, "email": g.user.Email, "email_verified": g.user.EmailVerified, "name": g.user.Name,
	}
	p.mu.Lock()
	tamper := p.tamper
	p.tokens++
	p.mu.Unlock()
	if tamper != nil {
		tamper(claims)
	}
	tok := jwt.NewWithClaims(jwt.SigningMethodRS256, claims)
	tok.Header["kid"] = p.kid
	idToken, err := tok.SignedString(p.key)
	if err != nil {
		writeJSON(w, http.StatusInternalServerError, map[string]string{"error": "server_error"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"access_token": randomCode(), "token_type": "Bearer", "expires_in": 300, "id_token": idToken})
}
