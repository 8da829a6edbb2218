package httpapi

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/account"
	"github.com/percolate/percolate/backend/internal/auth"
	"github.com/percolate/percolate/backend/internal/auth/oidctest"
)

type oidcEnv struct {
	*accEnv
	idp *oidctest.Provider
}

func newOIDCEnv(t *testing.T) *oidcEnv {
	e := newAccEnv(t, cheapArgon)
	idp := oidctest.Start(t, "percolate-client", "client-secret")
	o := account.NewOIDC(e.svc, account.OIDCConfig{
		Issuer: idp.Issuer(), ClientID: idp.ClientID, ClientSecret: idp.ClientSecret,
		RedirectURL: testPublicURL + "/oauth2/callback/google",
		Keys:        e.keys,
	})
	e.h = newTestHandler(t, Deps{Logger: e.svc.Logger(), DB: e.st, Verifier: NewTokenVerifier(e.tokens), Accounts: e.svc, OIDC: o, SecureCookies: true})
	return &oidcEnv{accEnv: e, idp: idp}
}

func (e *oidcEnv) get(target string, cookies ...*http.Cookie) *httptest.ResponseRecorder {
	req := httptest.NewRequest("GET", target, nil)
	req.RemoteAddr = e.ip + ":1"
	for _, c := range cookies {
		req.AddCookie(c)
	}
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, req)
	return rec
}

// start begins a sign-in and lets the provider authorize it; it returns the callback path
// and the flow cookie.
func (e *oidcEnv) start() (string, *http.Cookie) {
	e.t.Helper()
	rec := e.get("/oauth2/authorization/google")
	if rec.Code != http.StatusFound {
		e.t.Fatalf("start: %d %s", rec.Code, rec.Body)
	}
	authURL := rec.Header().Get("Location")
	if !strings.HasPrefix(authURL, e.idp.Issuer()+"/authorize?") {
		e.t.Fatalf("start redirects to %q", authURL)
	}
	q, _ := url.Parse(authURL)
	for _, p := range []string{"state", "nonce", "code_challenge"} {
		if q.Query().Get(p) == "" {
			e.t.Fatalf("authorization request lacks %s: %s", p, authURL)
		}
	}
	cookies := rec.Result().Cookies()
	if len(cookies) != 1 || !cookies[0].HttpOnly || !cookies[0].Secure || cookies[0].SameSite != http.SameSiteNoneMode {
		e.t.Fatalf("flow cookie %+v", cookies)
	}
	if strings.Contains(cookies[0].Value, q.Query().Get("code_challenge")) {
		e.t.Fatal("cookie carries the challenge instead of the verifier")
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Get(authURL)
	if err != nil {
		e.t.Fatal(err)
	}
	res.Body.Close()
	cb, err := url.Parse(res.Header.Get("Location"))
	if err != nil || res.StatusCode != http.StatusFound || !strings.HasPrefix(cb.String(), testPublicURL+"/oauth2/callback/google?") {
		e.t.Fatalf("provider answered %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	return cb.RequestURI(), cookies[0]
}

// finish calls the callback and returns where it sends the browser.
func (e *oidcEnv) finish(callback string, cookie *http.Cookie) *url.URL {
	e.t.Helper()
	var rec *httptest.ResponseRecorder
	if cookie == nil {
		rec = e.get(callback)
	} else {
		rec = e.get(callback, cookie)
	}
	if rec.Code != http.StatusFound {
		e.t.Fatalf("callback: %d %s", rec.Code, rec.Body)
	}
	u, _ := url.Parse(rec.Header().Get("Location"))
	if u.Path != "/login" {
		e.t.Fatalf("callback redirects to %s", u)
	}
	return u
}

func (e *oidcEnv) exchange(code string) reply {
	return e.call("POST", "/api/auth/oidc/exchange", "", map[string]string{"code": code})
}

func TestOIDCSignInCreatesAndFindsTheAccount(t *testing.T) {
	e := newOIDCEnv(t)
	e.idp.SetUser(oidctest.User{Subject: "g-123", Email: "gina@example.com", EmailVerified: true, Name: "Gina"})
	cb, cookie := e.start()
	to := e.finish(cb, cookie)
	code := to.Query().Get("oauthCode")
	if code == "" || to.Query().Get("oauthError") != "" {
		t.Fatalf("callback: %s", to)
	}
	r := e.exchange(code)
	if r.code != http.StatusOK {
		t.Fatalf("exchange: %d %s", r.code, r.body)
	}
	m := r.json(t)
	user := m["user"].(map[string]any)
	if user["email"] != "gina@example.com" || user["name"] != "Gina" || user["role"] != "USER" {
		t.Fatalf("user %v", user)
	}
	if r := e.call("GET", "/api/auth/me", m["accessToken"].(string), nil); r.code != http.StatusOK {
		t.Fatalf("me: %d", r.code)
	}
	if r := e.refresh(m["refreshToken"].(string)); r.code != http.StatusOK {
		t.Fatalf("refresh: %d", r.code)
	}
	// The code is single-use.
	if r := e.exchange(code); r.code != http.StatusUnauthorized {
		t.Fatalf("second exchange: %d %s", r.code, r.body)
	}
	if n := e.count(`SELECT count(*) FROM login_codes WHERE code_hash = convert_to($1, 'UTF8')`, code); n != 0 {
		t.Fatal("login code stored in clear")
	}
	// Signing in again finds the same account, even under a changed e-mail.
	e.idp.SetUser(oidctest.User{Subject: "g-123", Email: "gina.new@example.com", EmailVerified: true, Name: "Gina"})
	cb, cookie = e.start()
	r = e.exchange(e.finish(cb, cookie).Query().Get("oauthCode"))
	if r.code != http.StatusOK || r.json(t)["user"].(map[string]any)["id"] != user["id"] {
		t.Fatalf("second sign-in: %d %s", r.code, r.body)
	}
	if n := e.count(`SELECT count(*) FROM users`); n != 1 {
		t.Fatalf("%d accounts", n)
	}
	// An expired code is refused.
	cb, cookie = e.start()
	code = e.finish(cb, cookie).Query().Get("oauthCode")
	e.exec(`UPDATE login_codes SET expires_at = now() - interval '1 second'`)
	if r := e.exchange(code); r.code != http.StatusUnauthorized {
		t.Fatalf("expired code: %d", r.code)
	}
}

func TestOIDCLinksOnlyVerifiedEmails(t *testing.T) {
	e := newOIDCEnv(t)
	owner := e.signUp("Ada", "ada@example.com", "brew-a-fresh-pot")

	// The provider does not vouch for the address: no link, no account, an error on /login.
	e.idp.SetUser(oidctest.User{Subject: "evil-1", Email: "ada@example.com", EmailVerified: false, Name: "Not Ada"})
	cb, cookie := e.start()
	to := e.finish(cb, cookie)
	if to.Query().Get("oauthCode") != "" || to.Query().Get("oauthError") != account.MsgOIDCUnverified {
		t.Fatalf("unverified e-mail: %s", to)
	}
	if n := e.count(`SELECT count(*) FROM external_identities`); n != 0 {
		t.Fatal("an unverified e-mail was linked")
	}

	// Verified: linked to the existing account.
	e.idp.SetUser(oidctest.User{Subject: "ada-google", Email: "ADA@example.com", EmailVerified: true, Name: "Ada G"})
	cb, cookie = e.start()
	r := e.exchange(e.finish(cb, cookie).Query().Get("oauthCode"))
	if r.code != http.StatusOK || r.json(t)["user"].(map[string]any)["id"] != owner.user.Id.String() {
		t.Fatalf("link: %d %s", r.code, r.body)
	}
	// The password still works, and the name is unchanged.
	s := e.login("ada@example.com", "brew-a-fresh-pot")
	if s.user.Name != "Ada" {
		t.Fatalf("linking changed the account: %v", s.user)
	}
}

// An attacker registers the victim's address and never verifies it; the victim later signs
// in with the provider, which vouches for the address. The attacker must not keep a way into
// the account the victim then uses (issue 15, finding 1).
func TestOIDCSignInTakesAnUnverifiedAccountAwayFromItsRegistrant(t *testing.T) {
	e := newOIDCEnv(t)
	const addr, attackerPassword = "vic@example.com", "attacker-knows-this"
	r := e.call("POST", "/api/auth/register", "", map[string]string{"name": "Attacker", "email": addr, "password": attackerPassword, "confirmPassword": attackerPassword})
	if r.code != http.StatusCreated {
		t.Fatalf("register: %d %s", r.code, r.body)
	}
	oldVerify := e.lastLink(addr, testPublicURL+"/email-verified?t=")
	// A login of the unverified account, however it came about, must not survive either.
	var attackerID uuid.UUID
	if err := e.st.Pool().QueryRow(context.Background(), `SELECT id FROM users WHERE email = $1`, addr).Scan(&attackerID); err != nil {
		t.Fatal(err)
	}
	pair, err := e.tokens.StartSession(context.Background(), e.st.Queries(), attackerID, "USER")
	if err != nil {
		t.Fatal(err)
	}
	mailsBefore := e.mailsTo(addr)

	e.idp.SetUser(oidctest.User{Subject: "victim-google", Email: addr, EmailVerified: true, Name: "Victoria"})
	cb, cookie := e.start()
	v := e.exchange(e.finish(cb, cookie).Query().Get("oauthCode"))
	if v.code != http.StatusOK {
		t.Fatalf("victim's sign-in: %d %s", v.code, v.body)
	}
	victim := v.json(t)
	if u := victim["user"].(map[string]any); u["name"] != "Victoria" || u["email"] != addr {
		t.Fatalf("the account keeps the registrant's details: %v", u)
	}

	// The registrant's password no longer opens the account: the same answer as any wrong
	// password, not "verify your e-mail".
	if r := e.call("POST", "/api/auth/login", "", map[string]string{"email": addr, "password": attackerPassword}); r.code != http.StatusUnauthorized || r.json(t)["code"] != account.CodeBadCredentials {
		t.Fatalf("registrant's password: %d %s", r.code, r.body)
	}
	if n := e.count(`SELECT count(*) FROM users WHERE email = $1 AND password_hash IS NULL AND email_verified_at IS NOT NULL`, addr); n != 1 {
		t.Fatal("the registrant's password hash was kept")
	}
	if r := e.refresh(pair.Refresh); r.code != http.StatusUnauthorized {
		t.Fatalf("registrant's login still refreshes: %d %s", r.code, r.body)
	}
	if r := e.call("GET", "/api/auth/me", pair.Access, nil); r.code != http.StatusUnauthorized {
		t.Fatalf("registrant's access token still works: %d %s", r.code, r.body)
	}
	if r := e.call("GET", "/api/auth/verify?t="+url.QueryEscape(queryParam(t, oldVerify, "t")), "", nil); r.code == http.StatusOK {
		t.Fatalf("the old verification link still works: %d %s", r.code, r.body)
	}
	// The victim's own sign-in works, and the address is told what happened.
	if r := e.call("GET", "/api/auth/me", victim["accessToken"].(string), nil); r.code != http.StatusOK {
		t.Fatalf("victim's token: %d %s", r.code, r.body)
	}
	if e.mailsTo(addr) != mailsBefore+1 || !strings.Contains(e.lastMailSubject(addr), "signed in to Percolate with Google") {
		t.Fatalf("no notice mailed to the address (subject %q)", e.lastMailSubject(addr))
	}
	// The owner can set a password of their own by reset, and sign in with it.
	if r := e.call("POST", "/api/public/reset-password-email?email="+url.QueryEscape(addr), "", nil); r.code != http.StatusOK {
		t.Fatalf("reset mail: %d %s", r.code, r.body)
	}
	tok := queryParam(t, e.lastLink(addr, testPublicURL+"/reset?token="), "token")
	if r := e.call("PUT", "/api/public/reset-password?token="+url.QueryEscape(tok), "", map[string]string{"password": "victorias-own-pass", "confirmPassword": "victorias-own-pass"}); r.code != http.StatusOK {
		t.Fatalf("reset: %d %s", r.code, r.body)
	}
	if s := e.login(addr, "victorias-own-pass"); s.user.Id.String() != victim["user"].(map[string]any)["id"] {
		t.Fatal("reset signed in to another account")
	}
	if n := e.count(`SELECT count(*) FROM users`); n != 1 {
		t.Fatalf("%d accounts", n)
	}
}

func TestOIDCRefusesForgedFlows(t *testing.T) {
	e := newOIDCEnv(t)
	e.idp.SetUser(oidctest.User{Subject: "g-1", Email: "g@example.com", EmailVerified: true, Name: "G"})
	refused := func(name string, to *url.URL) {
		t.Helper()
		if to.Query().Get("oauthCode") != "" || to.Query().Get("oauthError") == "" {
			t.Errorf("%s: %s", name, to)
		}
	}

	cb, _ := e.start()
	refused("no cookie", e.finish(cb, nil))

	_, cookie := e.start()
	other, _ := e.start()
	refused("another flow's state", e.finish(other, cookie))

	cb, cookie = e.start()
	forged := *cookie
	forged.Value = strings.Replace(cookie.Value, ".", ".x", 1)
	refused("tampered cookie", e.finish(cb, &forged))

	cb, cookie = e.start()
	u, _ := url.Parse(cb)
	q := u.Query()
	q.Set("code", "made-up")
	u.RawQuery = q.Encode()
	refused("unknown code", e.finish(u.RequestURI(), cookie))

	e.idp.SetTamper(func(c jwt.MapClaims) { c["nonce"] = "replayed" })
	cb, cookie = e.start()
	refused("wrong nonce", e.finish(cb, cookie))
	e.idp.SetTamper(func(c jwt.MapClaims) { c["aud"] = "another-client" })
	cb, cookie = e.start()
	refused("wrong audience", e.finish(cb, cookie))
	e.idp.SetTamper(func(c jwt.MapClaims) { c["iss"] = "https://evil.test" })
	cb, cookie = e.start()
	refused("wrong issuer", e.finish(cb, cookie))
	e.idp.SetTamper(nil)

	to := e.finish("/oauth2/callback/google?error=access_denied", nil)
	if to.Query().Get("oauthError") != account.MsgOIDCCancelled {
		t.Errorf("provider error: %s", to)
	}
	if n := e.count(`SELECT count(*) FROM users`); n != 0 {
		t.Fatalf("%d accounts made by refused flows", n)
	}
	// The same flow, unforged, works.
	cb, cookie = e.start()
	if e.finish(cb, cookie).Query().Get("oauthCode") == "" {
		t.Fatal("control flow failed")
	}
	if r := e.exchange("made-up-code"); r.code != http.StatusUnauthorized {
		t.Fatalf("made-up code: %d", r.code)
	}
}

func TestOIDCUnconfigured(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	for _, target := range []string{"/oauth2/authorization/google", "/oauth2/callback/google?code=x&state=y"} {
		rec := httptest.NewRecorder()
		e.h.ServeHTTP(rec, httptest.NewRequest("GET", target, nil))
		u, _ := url.Parse(rec.Header().Get("Location"))
		if rec.Code != http.StatusFound || u.Path != "/login" || u.Query().Get("oauthError") != "Sign-in with Google is not available on this server." {
			t.Fatalf("%s: %d %q", target, rec.Code, rec.Header().Get("Location"))
		}
	}
}

// TestPrivacyPageTellsTheTruth compares what the privacy page says of the one cookie with the
// cookie the server sets.
func TestPrivacyPageTellsTheTruth(t *testing.T) {
	page, err := os.ReadFile("../../../frontend/src/pages/Privacy/PrivacyPage.tsx")
	if err != nil {
		t.Fatal(err)
	}
	text := string(page)
	s := &Server{deps: Deps{SecureCookies: true}}
	c := s.flowCookie("v", oidcFlowSeconds)
	if !c.HttpOnly || !c.Secure || c.SameSite != http.SameSiteNoneMode {
		t.Errorf("over HTTPS the flow cookie is %+v; the privacy page says HTTP-only, Secure and SameSite=None", c)
	}
	if !strings.Contains(text, "HTTP-only,\n            Secure and SameSite=None") && !strings.Contains(text, "HTTP-only, Secure and SameSite=None") {
		t.Error("the privacy page no longer states the cookie's attributes")
	}
	if want := fmt.Sprintf("FLOW_COOKIE = { name: '%s', minutes: %d }", c.Name, c.MaxAge/60); !strings.Contains(text, want) {
		t.Errorf("the privacy page's cookie is not the server's: want %q in PrivacyPage.tsx", want)
	}
	if plain := (&Server{}).flowCookie("v", oidcFlowSeconds); plain.SameSite != http.SameSiteLaxMode || !plain.HttpOnly {
		t.Errorf("over plain HTTP the flow cookie is %+v, want HTTP-only and Lax (browsers refuse None without Secure)", plain)
	}
}

// TestOIDCFlowFinishesOnAnotherInstance begins a sign-in on one instance and lets its
// callback reach another, whose keyring was opened on the same database: the flow cookie is
// signed with the shared key. After a key rotation, a cookie of the previous key still works.
func TestOIDCFlowFinishesOnAnotherInstance(t *testing.T) {
	e := newOIDCEnv(t)
	e.idp.SetUser(oidctest.User{Subject: "g-123", Email: "gina@example.com", EmailVerified: true, Name: "Gina"})
	keysB, err := auth.OpenKeyring(context.Background(), e.st, auth.KeyringConfig{})
	if err != nil {
		t.Fatal(err)
	}
	b := *e.accEnv
	b.h = newTestHandler(t, Deps{Logger: e.svc.Logger(), DB: e.st, Verifier: NewTokenVerifier(e.tokens), Accounts: e.svc, SecureCookies: true,
		OIDC: account.NewOIDC(e.svc, account.OIDCConfig{
			Issuer: e.idp.Issuer(), ClientID: e.idp.ClientID, ClientSecret: e.idp.ClientSecret,
			RedirectURL: testPublicURL + "/oauth2/callback/google", Keys: keysB,
		})})
	onB := &oidcEnv{accEnv: &b, idp: e.idp}

	cb, cookie := e.start()
	if to := onB.finish(cb, cookie); to.Query().Get("oauthCode") == "" {
		t.Fatalf("callback on the other instance: %s", to)
	}
	cb, cookie = e.start()
	if _, err := keysB.Rotate(context.Background()); err != nil {
		t.Fatal(err)
	}
	if to := onB.finish(cb, cookie); to.Query().Get("oauthCode") == "" {
		t.Fatalf("callback with a cookie of the previous key: %s", to)
	}
	// A cookie naming a key nobody has is refused.
	cb, cookie = e.start()
	_, rest, _ := strings.Cut(cookie.Value, ".")
	cookie.Value = "0123456789abcdef." + rest
	if to := onB.finish(cb, cookie); to.Query().Get("oauthCode") != "" || to.Query().Get("oauthError") == "" {
		t.Fatalf("callback with an unknown kid: %s", to)
	}
}
