package account

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/google/uuid"
	"golang.org/x/oauth2"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/auth"
	"github.com/percolate/percolate/backend/internal/store"
	dbgen "github.com/percolate/percolate/gen/db"
	"github.com/percolate/percolate/gen/limits"
)

// Why a third-party sign-in did not finish. The callback sends the browser to
// /login?oauthError=<code> with one of these (the contract's OidcSignInError), never with
// text: the page shows a fixed message for each code (frontend/src/pages/Login/oauthErrors.ts,
// held to this list by a test), so nobody can make it show their words.
type OIDCFailure string

// The codes of OIDCFailure.
const (
	OIDCUnavailable     OIDCFailure = "unavailable"
	OIDCFailed          OIDCFailure = "failed"
	OIDCCancelled       OIDCFailure = "cancelled"
	OIDCEmailUnverified OIDCFailure = "email_unverified"
	OIDCNoEmail         OIDCFailure = "no_email"
)

// OIDCFailures are all the codes of OIDCFailure.
var OIDCFailures = []OIDCFailure{OIDCUnavailable, OIDCFailed, OIDCCancelled, OIDCEmailUnverified, OIDCNoEmail}

const (
	MsgLoginCodeBad = "This sign-in link has expired. Please sign in again."
	oidcFlowTTL     = 10 * time.Minute
	loginCodeTTL    = time.Minute
)

// OIDCConfig configures third-party sign-in.
type OIDCConfig struct {
	Issuer, ClientID, ClientSecret string
	// RedirectURL is the callback address registered with the provider.
	RedirectURL string
	// Keys sign the flow cookie (state, nonce and PKCE verifier): the keys that sign access
	// tokens, so the callback may reach another instance than the start.
	Keys *auth.Keyring
	// HTTPClient talks to the provider (http.DefaultClient when nil).
	HTTPClient *http.Client
}

// OIDC runs the authorization-code flow with PKCE, state and nonce against one provider.
// Discovery happens on first use, so a provider that is down does not stop start-up.
type OIDC struct {
	cfg OIDCConfig
	svc *Service

	mu       sync.Mutex
	oauth    *oauth2.Config
	verifier *oidc.IDTokenVerifier
}

// NewOIDC returns the sign-in flow; it is not Configured without a client id and secret.
func NewOIDC(svc *Service, cfg OIDCConfig) *OIDC {
	return &OIDC{cfg: cfg, svc: svc}
}

// Configured reports whether third-party sign-in is offered.
func (o *OIDC) Configured() bool {
	return o != nil && o.cfg.ClientID != "" && o.cfg.ClientSecret != "" && o.cfg.Keys != nil
}

// OIDCError is a refusal whose Code /login turns into a fixed message.
type OIDCError struct {
	Code OIDCFailure
	Err  error
}

func (e *OIDCError) Error() string {
	if e.Err != nil {
		return "third-party sign-in " + string(e.Code) + ": " + e.Err.Error()
	}
	return "third-party sign-in " + string(e.Code)
}

func (e *OIDCError) Unwrap() error { return e.Err }

func oidcFail(code OIDCFailure, err error) error { return &OIDCError{Code: code, Err: err} }

func (o *OIDC) client(ctx context.Context) context.Context {
	if o.cfg.HTTPClient != nil {
		return oidc.ClientContext(ctx, o.cfg.HTTPClient)
	}
	return ctx
}

func (o *OIDC) setup(ctx context.Context) (*oauth2.Config, *oidc.IDTokenVerifier, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.oauth != nil {
		return o.oauth, o.verifier, nil
	}
	p, err := oidc.NewProvider(o.client(ctx), o.cfg.Issuer)
	if err != nil {
		return nil, nil, fmt.Errorf("oidc discovery: %w", err)
	}
	o.oauth = &oauth2.Config{
		ClientID: o.cfg.ClientID, ClientSecret: o.cfg.ClientSecret, RedirectURL: o.cfg.RedirectURL,
		Endpoint: p.Endpoint(), Scopes: []string{oidc.ScopeOpenID, "email", "profile"},
	}
	o.verifier = p.Verifier(&oidc.Config{ClientID: o.cfg.ClientID, SupportedSigningAlgs: []string{oidc.RS256, oidc.ES256, oidc.EdDSA}})
	return o.oauth, o.verifier, nil
}

// flow is what the browser carries between the start and the callback, signed.
type flow struct {
	State    string `json:"s"`
	Nonce    string `json:"n"`
	Verifier string `json:"v"`
	// Browser is the hash of the browser nonce the tab that began the sign-in holds.
	Browser string `json:"b"`
	Expires int64  `json:"e"`
}

// Binding the one-time code to the browser (issue 33, item 2). Without it, anyone could
// finish a sign-in to their own account in their own browser, stop at the redirect to
// /login?oauthCode=<code> and send that link to someone else, whose browser would then be
// signed in to the sender's account and store what they write there. The web app makes a
// random nonce when the user clicks the button, keeps it in the tab's sessionStorage (which
// no other site, and no link, can write) and passes it to the start path; the signed flow
// cookie carries its hash to the callback, which stores the code under a hash of code and
// nonce together. So the exchange finds the code only when it brings the same nonce: from
// another browser or tab it is, as the contract says, an unknown code.
//
// A nonce in sessionStorage rather than a second cookie: a cookie could be planted by a
// sibling subdomain or replaced over plain HTTP, and the flow cookie is scoped to /oauth2/
// (and is SameSite=None over HTTPS, for providers that answer with a cross-site POST), so it
// does not reach the API; the nonce needs no new cookie and no new column.

// browserHash is what the flow keeps of a browser nonce.
func browserHash(nonce string) string {
	sum := sha256.Sum256([]byte("percolate oidc browser\x00" + nonce))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// loginCodeHash is the stored form of a one-time code: the hash of the code together with
// the hash of the browser nonce it is bound to.
func loginCodeHash(code, browser string) []byte {
	return auth.HashToken(code + "\x00" + browser)
}

func randomString() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

func sign(key auth.Key, payload []byte) []byte {
	m := hmac.New(sha256.New, key.CookieKey())
	m.Write([]byte("percolate oidc flow\x00"))
	m.Write(payload)
	return m.Sum(nil)
}

// sealFlow signs the flow as kid.payload.signature.
func (o *OIDC) sealFlow(f flow) string {
	b, _ := json.Marshal(f)
	key := o.cfg.Keys.Signer()
	return key.ID + "." + base64.RawURLEncoding.EncodeToString(b) + "." + base64.RawURLEncoding.EncodeToString(sign(key, b))
}

func (o *OIDC) openFlow(ctx context.Context, v string) (flow, bool) {
	var f flow
	kid, rest, ok1 := strings.Cut(v, ".")
	p, s, ok2 := strings.Cut(rest, ".")
	if !ok1 || !ok2 {
		return f, false
	}
	key, ok := o.cfg.Keys.Lookup(ctx, kid)
	if !ok {
		return f, false
	}
	b, err1 := base64.RawURLEncoding.DecodeString(p)
	sig, err2 := base64.RawURLEncoding.DecodeString(s)
	if err1 != nil || err2 != nil || !hmac.Equal(sig, sign(key, b)) || json.Unmarshal(b, &f) != nil {
		return f, false
	}
	return f, time.Now().Unix() < f.Expires
}

// Start begins a sign-in: it returns the provider's authorization URL and the flow cookie
// value to set (HttpOnly) for the callback.
// browserNonce is the tab's nonce (see browserHash), as long as the contract requires.
func (o *OIDC) Start(ctx context.Context, browserNonce string) (authURL, cookie string, err error) {
	if !o.Configured() {
		return "", "", oidcFail(OIDCUnavailable, nil)
	}
	if len(browserNonce) < limits.StartOidcSignInBrowserNonceMinLength {
		return "", "", oidcFail(OIDCFailed, errors.New("no browser nonce"))
	}
	oc, _, err := o.setup(ctx)
	if err != nil {
		return "", "", oidcFail(OIDCFailed, err)
	}
	f := flow{State: randomString(), Nonce: randomString(), Verifier: oauth2.GenerateVerifier(), Browser: browserHash(browserNonce), Expires: time.Now().Add(oidcFlowTTL).Unix()}
	u := oc.AuthCodeURL(f.State, oidc.Nonce(f.Nonce), oauth2.S256ChallengeOption(f.Verifier))
	return u, o.sealFlow(f), nil
}

// Callback finishes a sign-in: it checks state, exchanges the code (with the PKCE verifier),
// verifies the ID token and its nonce, finds or links or creates the account, and returns a
// one-time login code for the SPA to exchange.
func (o *OIDC) Callback(ctx context.Context, code, state, providerError, cookie string) (string, error) {
	if !o.Configured() {
		return "", oidcFail(OIDCUnavailable, nil)
	}
	if providerError != "" {
		return "", oidcFail(OIDCCancelled, errors.New("provider error"))
	}
	f, ok := o.openFlow(ctx, cookie)
	if !ok || f.Browser == "" || state == "" || code == "" || subtle.ConstantTimeCompare([]byte(f.State), []byte(state)) != 1 {
		return "", oidcFail(OIDCFailed, errors.New("state mismatch or expired flow"))
	}
	oc, verifier, err := o.setup(ctx)
	if err != nil {
		return "", oidcFail(OIDCFailed, err)
	}
	tok, err := oc.Exchange(o.client(ctx), code, oauth2.VerifierOption(f.Verifier))
	if err != nil {
		return "", oidcFail(OIDCFailed, fmt.Errorf("code exchange: %w", err))
	}
	raw, _ := tok.Extra("id_token").(string)
	idt, err := verifier.Verify(o.client(ctx), raw)
	if err != nil {
		return "", oidcFail(OIDCFailed, fmt.Errorf("id token: %w", err))
	}
	if subtle.ConstantTimeCompare([]byte(idt.Nonce), []byte(f.Nonce)) != 1 {
		return "", oidcFail(OIDCFailed, errors.New("nonce mismatch"))
	}
	var c struct {
		Email         string `json:"email"`
		EmailVerified any    `json:"email_verified"`
		Name          string `json:"name"`
	}
	if err := idt.Claims(&c); err != nil {
		return "", oidcFail(OIDCFailed, err)
	}
	verified := c.EmailVerified == true || c.EmailVerified == "true"
	userID, err := o.svc.linkIdentity(ctx, providerKey(idt.Issuer), idt.Subject, strings.TrimSpace(c.Email), verified, strings.TrimSpace(c.Name))
	if err != nil {
		return "", err
	}
	loginCode, _, err := auth.NewOpaqueToken()
	if err != nil {
		return "", err
	}
	if err := o.svc.st.Queries().CreateLoginCode(ctx, dbgen.CreateLoginCodeParams{CodeHash: loginCodeHash(loginCode, f.Browser), UserID: userID, ExpiresAt: time.Now().Add(loginCodeTTL)}); err != nil {
		return "", fmt.Errorf("create login code: %w", err)
	}
	return loginCode, nil
}

// providerKey names an issuer within the 64 characters of external_identities.provider.
func providerKey(issuer string) string {
	if len(issuer) <= 64 {
		return issuer
	}
	sum := sha256.Sum256([]byte(issuer))
	return "sha256:" + hex.EncodeToString(sum[:])[:57]
}

// linkIdentity finds the account of an identity (issuer + subject), else links the account
// with that e-mail when the provider says the address is verified, else creates an account.
// An account with that e-mail that was never verified is taken over for the mailbox owner
// (see ClaimUnverifiedUser) rather than linked as it is.
func (s *Service) linkIdentity(ctx context.Context, provider, subject, email string, verified bool, name string) (uuid.UUID, error) {
	var id uuid.UUID
	err := s.st.InTx(ctx, func(q store.Tx) error {
		uid, err := q.GetExternalIdentityUser(ctx, dbgen.GetExternalIdentityUserParams{Provider: provider, Subject: subject})
		if err == nil {
			id = uid
			return nil
		}
		if !store.IsNotFound(err) {
			return err
		}
		if email == "" || checkEmail(email) != "" {
			return oidcFail(OIDCNoEmail, nil)
		}
		if !verified {
			return oidcFail(OIDCEmailUnverified, nil)
		}
		name = OneLine(name)
		if name == "" {
			name, _, _ = strings.Cut(email, "@")
		}
		for utf8.RuneCountInString(name) > MaxName {
			r := []rune(name)
			name = string(r[:MaxName])
		}
		u, err := q.GetUserByEmail(ctx, email)
		switch {
		case err == nil && u.EmailVerifiedAt == nil:
			// Registered but never verified: whoever registered it never proved the
			// mailbox is theirs, and may not be its owner, who is signing in now. Their
			// password, name, open links and logins go, so they cannot sign in to the
			// owner's account; the owner is told, and can set a password by reset.
			if u, err = q.ClaimUnverifiedUser(ctx, dbgen.ClaimUnverifiedUserParams{ID: u.ID, Name: name}); err != nil {
				return err
			}
			if err := q.InvalidateAllEmailTokens(ctx, u.ID); err != nil {
				return err
			}
			if err := s.tokens.RevokeAll(ctx, q.Queries, u.ID, uuid.Nil, revokeReasonClaimed); err != nil {
				return err
			}
			if err := s.queueMail(ctx, q, mailClaimed, u.ID); err != nil {
				return err
			}
		case err == nil:
			// A verified account: its owner proved the mailbox, and the provider vouches
			// for it too, so both are the same person.
		case store.IsNotFound(err):
			now := time.Now()
			u, err = q.CreateUser(ctx, dbgen.CreateUserParams{Email: email, Name: name, EmailVerifiedAt: &now})
			if err != nil {
				return err
			}
		default:
			return err
		}
		id = u.ID
		return q.CreateExternalIdentity(ctx, dbgen.CreateExternalIdentityParams{UserID: u.ID, Provider: provider, Subject: subject, Email: &email})
	})
	return id, err
}

// ExchangeLoginCode trades a one-time code from the sign-in callback for a session. The
// browser nonce must be the one the sign-in began with: the code is found by both.
func (s *Service) ExchangeLoginCode(ctx context.Context, code, browserNonce, clientIP string) (Session, error) {
	q := s.st.Queries()
	uid, err := q.UseLoginCode(ctx, loginCodeHash(code, browserHash(browserNonce)))
	if store.IsNotFound(err) {
		if err := s.tokenFailed(ctx, clientIP); err != nil {
			return Session{}, err
		}
		return Session{}, apperr.New(apperr.ErrUnauthorized, "INVALID_LOGIN_CODE", MsgLoginCodeBad)
	}
	if err != nil {
		return Session{}, fmt.Errorf("exchange login code: %w", err)
	}
	u, err := q.GetUserByID(ctx, uid)
	if err != nil {
		return Session{}, fmt.Errorf("exchange login code: %w", err)
	}
	pair, err := s.tokens.StartSession(ctx, q, u.ID, u.Role)
	if err != nil {
		return Session{}, err
	}
	return Session{Pair: pair, User: userOf(u)}, nil
}
