package httpapi

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/account"
	"github.com/percolate/percolate/backend/internal/auth"
	"github.com/percolate/percolate/backend/internal/auth/oidctest"
	"github.com/percolate/percolate/gen/api"
	"github.com/percolate/percolate/gen/apiclient"
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
	e.api = apiClient(t, e.h, e.ip)
	return &oidcEnv{accEnv: e, idp: idp}
}

// withCookie sends c with the request.
func withCookie(c *http.Cookie) apiclient.RequestEditorFn {
	return func(_ context.Context, r *http.Request) error {
		r.AddCookie(c)
		return nil
	}
}

// testBrowserNonce is the nonce of the test's browser tab (the web app keeps its own in
// sessionStorage).
const testBrowserNonce = "tab-nonce-0123456789abcdefghijkl"

// start begins a sign-in in the test's tab and lets the provider authorize it; it returns the
// callback path and the flow cookie.
func (e *oidcEnv) start() (string, *http.Cookie) {
	e.t.Helper()
	return e.startIn(testBrowserNonce)
}

// startIn is start from the tab whose nonce is browserNonce.
func (e *oidcEnv) startIn(browserNonce string) (string, *http.Cookie) {
	e.t.Helper()
	rec, err := e.api.StartOidcSignInWithResponse(e.t.Context(), &api.StartOidcSignInParams{BrowserNonce: browserNonce})
	wantStatus(e.t, rec, err, http.StatusFound)
	if rec.Headers302.Location == nil {
		e.t.Fatal("start: no Location")
	}
	authURL := *rec.Headers302.Location
	if !strings.HasPrefix(authURL, e.idp.Issuer()+"/authorize?") {
		e.t.Fatalf("start redirects to %q", authURL)
	}
	q, _ := url.Parse(authURL)
	for _, p := range []string{"state", "nonce", "code_challenge"} {
		if q.Query().Get(p) == "" {
			e.t.Fatalf("authorization request lacks %s: %s", p, authURL)
		}
	}
	cookies := rec.HTTPResponse.Cookies()
	if len(cookies) != 1 {
		e.t.Fatalf("%d cookies, want the flow cookie alone: %+v", len(cookies), cookies)
	}
	if !cookies[0].HttpOnly {
		e.t.Errorf("flow cookie is not HttpOnly: %+v", cookies[0])
	}
	if !cookies[0].Secure {
		e.t.Errorf("flow cookie is not Secure: %+v", cookies[0])
	}
	if cookies[0].SameSite != http.SameSiteNoneMode {
		e.t.Errorf("flow cookie SameSite = %v, want None", cookies[0].SameSite)
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

// finish calls the callback with the parameters of the path callback, and returns where it
// sends the browser.
func (e *oidcEnv) finish(callback string, cookie *http.Cookie) *url.URL {
	e.t.Helper()
	cb, err := url.Parse(callback)
	if err != nil {
		e.t.Fatal(err)
	}
	var params api.OidcCallbackParams
	for name, vs := range cb.Query() {
		switch name {
		case "code":
			params.Code = &vs[0]
		case "state":
			params.State = &vs[0]
		case "error":
			params.Error = &vs[0]
		default:
			e.t.Fatalf("the callback carries %s, which the contract does not name: %s", name, callback)
		}
	}
	var edit []apiclient.RequestEditorFn
	if cookie != nil {
		edit = append(edit, withCookie(cookie))
	}
	rec, err := e.api.OidcCallbackWithResponse(e.t.Context(), &params, edit...)
	wantStatus(e.t, rec, err, http.StatusFound)
	if rec.Headers302.Location == nil {
		e.t.Fatal("callback: no Location")
	}
	u, _ := url.Parse(*rec.Headers302.Location)
	if u.Path != "/login" {
		e.t.Fatalf("callback redirects to %s", u)
	}
	return u
}

// exchange trades code for tokens from the test's tab.
func (e *oidcEnv) exchange(t testing.TB, code string, want int) *apiclient.ExchangeOidcCodeAnswer {
	t.Helper()
	return e.exchangeIn(t, testBrowserNonce, code, want)
}

// exchangeIn is exchange from the tab whose nonce is browserNonce.
func (e *oidcEnv) exchangeIn(t testing.TB, browserNonce, code string, want int) *apiclient.ExchangeOidcCodeAnswer {
	t.Helper()
	res, err := e.api.ExchangeOidcCodeWithResponse(t.Context(), api.OidcExchangeRequest{Code: code, BrowserNonce: browserNonce})
	wantStatus(t, res, err, want)
	return res
}

func TestOIDCSignInCreatesAndFindsTheAccount(t *testing.T) {
	e := newOIDCEnv(t)
	e.idp.SetUser(oidctest.User{Subject: "g-123", Email: "gina@example.com", EmailVerified: true, Name: "Gina"})
	cb, cookie := e.start()
	to := e.finish(cb, cookie)
	code := to.Query().Get("oauthCode")
	if code == "" {
		t.Fatalf("callback: no oauthCode in %s", to)
	}
	if to.Query().Get("oauthError") != "" {
		t.Fatalf("callback: oauthError in %s", to)
	}
	m := e.exchange(t, code, http.StatusOK).JSON200
	if m.User.Email != "gina@example.com" {
		t.Errorf("user email = %q, want gina@example.com", m.User.Email)
	}
	if m.User.Name != "Gina" {
		t.Errorf("user name = %q, want Gina", m.User.Name)
	}
	if m.User.Role != api.RoleUSER {
		t.Errorf("user role = %s, want USER", m.User.Role)
	}
	e.wantMe(t, m.AccessToken, http.StatusOK)
	e.wantRefresh(t, m.RefreshToken, http.StatusOK)
	// The code is single-use.
	e.exchange(t, code, http.StatusUnauthorized)
	if n := e.count(`SELECT count(*) FROM login_codes WHERE code_hash = convert_to($1, 'UTF8')`, code); n != 0 {
		t.Fatal("login code stored in clear")
	}
	// Signing in again finds the same account, even under a changed e-mail.
	e.idp.SetUser(oidctest.User{Subject: "g-123", Email: "gina.new@example.com", EmailVerified: true, Name: "Gina"})
	cb, cookie = e.start()
	if again := e.exchange(t, e.finish(cb, cookie).Query().Get("oauthCode"), http.StatusOK).JSON200; again.User.Id != m.User.Id {
		t.Fatalf("second sign-in: user id = %s, want %s", again.User.Id, m.User.Id)
	}
	if n := e.count(`SELECT count(*) FROM users`); n != 1 {
		t.Fatalf("%d accounts", n)
	}
	// An expired code is refused.
	cb, cookie = e.start()
	code = e.finish(cb, cookie).Query().Get("oauthCode")
	e.exec(`UPDATE login_codes SET expires_at = now() - interval '1 second'`)
	e.exchange(t, code, http.StatusUnauthorized)
}

func TestOIDCLinksOnlyVerifiedEmails(t *testing.T) {
	e := newOIDCEnv(t)
	owner := e.signUp("Ada", "ada@example.com", "brew-a-fresh-pot")

	// The provider does not vouch for the address: no link, no account, an error on /login.
	e.idp.SetUser(oidctest.User{Subject: "evil-1", Email: "ada@example.com", EmailVerified: false, Name: "Not Ada"})
	cb, cookie := e.start()
	to := e.finish(cb, cookie)
	if to.Query().Get("oauthCode") != "" {
		t.Fatalf("unverified e-mail: an oauthCode in %s", to)
	}
	if got := to.Query().Get("oauthError"); got != string(account.OIDCEmailUnverified) {
		t.Fatalf("unverified e-mail: oauthError = %q, want %q", got, account.OIDCEmailUnverified)
	}
	if n := e.count(`SELECT count(*) FROM external_identities`); n != 0 {
		t.Fatal("an unverified e-mail was linked")
	}

	// Verified: linked to the existing account.
	e.idp.SetUser(oidctest.User{Subject: "ada-google", Email: "ADA@example.com", EmailVerified: true, Name: "Ada G"})
	cb, cookie = e.start()
	if r := e.exchange(t, e.finish(cb, cookie).Query().Get("oauthCode"), http.StatusOK).JSON200; r.User.Id != owner.user.Id {
		t.Fatalf("link: user id = %s, want the owner's %s", r.User.Id, owner.user.Id)
	}
	// The password still works, and the name is unchanged.
	s := e.login("ada@example.com", "brew-a-fresh-pot")
	if s.user.Name != "Ada" {
		t.Fatalf("linking changed the account: name = %q, want Ada", s.user.Name)
	}
}

// An attacker registers the victim's address and never verifies it; the victim later signs
// in with the provider, which vouches for the address. The attacker must not keep a way into
// the account the victim then uses (issue 15, finding 1).
func TestOIDCSignInTakesAnUnverifiedAccountAwayFromItsRegistrant(t *testing.T) {
	e := newOIDCEnv(t)
	const addr, attackerPassword = "vic@example.com", "attacker-knows-this"
	reg, err := e.api.RegisterWithResponse(t.Context(), accRegistration("Attacker", addr, attackerPassword))
	wantStatus(t, reg, err, http.StatusCreated)
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
	victim := e.exchange(t, e.finish(cb, cookie).Query().Get("oauthCode"), http.StatusOK).JSON200
	if victim.User.Name != "Victoria" {
		t.Errorf("the account keeps the registrant's name: %q, want Victoria", victim.User.Name)
	}
	if victim.User.Email != addr {
		t.Errorf("user email = %q, want %s", victim.User.Email, addr)
	}

	// The registrant's password no longer opens the account: the same answer as any wrong
	// password, not "verify your e-mail".
	if r := e.wantLogin(t, addr, attackerPassword, http.StatusUnauthorized); r.JSON401.Code != account.CodeBadCredentials {
		t.Fatalf("registrant's password: code = %s, want %s", r.JSON401.Code, account.CodeBadCredentials)
	}
	if n := e.count(`SELECT count(*) FROM users WHERE email = $1 AND password_hash IS NULL AND email_verified_at IS NOT NULL`, addr); n != 1 {
		t.Fatal("the registrant's password hash was kept")
	}
	// The registrant's login no longer refreshes, nor does its access token work.
	e.wantRefresh(t, pair.Refresh, http.StatusUnauthorized)
	e.wantMe(t, pair.Access, http.StatusUnauthorized)
	if r, err := e.api.VerifyEmailWithResponse(t.Context(), &api.VerifyEmailParams{T: queryParam(t, oldVerify, "t")}); err != nil || r.StatusCode() == http.StatusOK {
		t.Fatalf("the old verification link still works (err %v)", err)
	}
	// The victim's own sign-in works, and the address is told what happened.
	e.wantMe(t, victim.AccessToken, http.StatusOK)
	if n := e.mailsTo(addr); n != mailsBefore+1 {
		t.Fatalf("%d mails to the address since the registration, want the notice", n-mailsBefore)
	}
	if subject := e.lastMailSubject(addr); !strings.Contains(subject, "signed in to Percolate with Google") {
		t.Fatalf("notice subject = %q", subject)
	}
	// The owner can set a password of their own by reset, and sign in with it.
	wantStatus(t, e.requestReset(addr), nil, http.StatusOK)
	tok := queryParam(t, e.lastLink(addr, testPublicURL+"/reset?token="), "token")
	wantStatus(t, e.reset(tok, "victorias-own-pass", "victorias-own-pass"), nil, http.StatusOK)
	if s := e.login(addr, "victorias-own-pass"); s.user.Id != victim.User.Id {
		t.Fatalf("reset signed in to another account: %s, want %s", s.user.Id, victim.User.Id)
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
		if to.Query().Get("oauthCode") != "" {
			t.Errorf("%s: an oauthCode in %s", name, to)
		}
		if to.Query().Get("oauthError") == "" {
			t.Errorf("%s: no oauthError in %s", name, to)
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
	if got := to.Query().Get("oauthError"); got != string(account.OIDCCancelled) {
		t.Errorf("provider error: oauthError = %q, want %q", got, account.OIDCCancelled)
	}
	if n := e.count(`SELECT count(*) FROM users`); n != 0 {
		t.Fatalf("%d accounts made by refused flows", n)
	}
	// The same flow, unforged, works.
	cb, cookie = e.start()
	if e.finish(cb, cookie).Query().Get("oauthCode") == "" {
		t.Fatal("control flow failed")
	}
	e.exchange(t, "made-up-code", http.StatusUnauthorized)
}

// A one-time code works only in the browser tab that began the sign-in (issue 33, item 2):
// an attacker who finishes a sign-in to their own account and sends the victim
// /login?oauthCode=<code> gets nothing, because the victim's tab lacks the attacker's nonce.
func TestOIDCCodeIsBoundToTheBrowserThatBeganTheSignIn(t *testing.T) {
	e := newOIDCEnv(t)
	e.idp.SetUser(oidctest.User{Subject: "mallory-1", Email: "mallory@example.com", EmailVerified: true, Name: "Mallory"})
	const attackerTab, victimTab = "attackers-tab-nonce-0123456789", "victims-tab-nonce-0123456789ab"
	cb, cookie := e.startIn(attackerTab)
	code := e.finish(cb, cookie).Query().Get("oauthCode")
	if code == "" {
		t.Fatal("no oauthCode")
	}

	// The victim's tab has another nonce: the same 401 as an unknown code.
	r := e.exchangeIn(t, victimTab, code, http.StatusUnauthorized)
	if r.JSON401.Code != "INVALID_LOGIN_CODE" {
		t.Fatalf("wrong nonce: code = %s, want INVALID_LOGIN_CODE", r.JSON401.Code)
	}
	// Without a nonce at all, the contract refuses the request, naming the field.
	raw, err := e.api.ExchangeOidcCodeWithBodyWithResponse(t.Context(), "application/json", strings.NewReader(`{"code": "`+code+`"}`))
	wantStatus(t, raw, err, http.StatusBadRequest)
	if d := accDetails(t, raw.JSON400); d["browserNonce"] == "" {
		t.Fatalf("no nonce: details[browserNonce] is empty: %v", d)
	}
	// A nonce that is a prefix of the right one is no better.
	e.exchangeIn(t, attackerTab[:len(attackerTab)-1], code, http.StatusUnauthorized)
	if n := e.count(`SELECT count(*) FROM login_codes WHERE used_at IS NULL`); n != 1 {
		t.Fatalf("%d unused codes, want the one code the refusals could not find", n)
	}

	// The tab that began the sign-in exchanges it.
	m := e.exchangeIn(t, attackerTab, code, http.StatusOK).JSON200
	if m.User.Email != "mallory@example.com" {
		t.Fatalf("user email = %q", m.User.Email)
	}

	// A start without a nonce is sent back to /login, as any refused start.
	res := do(e.h, http.MethodGet, "/oauth2/authorization/google", "")
	if loc := res.Header().Get("Location"); res.Code != http.StatusFound || loc != "/login?oauthError=failed" {
		t.Fatalf("start without a nonce: %d %q, want 302 to /login?oauthError=failed", res.Code, loc)
	}
}

func TestOIDCUnconfigured(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	const want = string(account.OIDCUnavailable)
	check := func(what string, status int, location *string) {
		t.Helper()
		if status != http.StatusFound {
			t.Fatalf("%s: status = %d, want 302", what, status)
		}
		if location == nil {
			t.Fatalf("%s: no Location", what)
		}
		u, _ := url.Parse(*location)
		if u.Path != "/login" {
			t.Errorf("%s: redirects to %s, want /login", what, u.Path)
		}
		if got := u.Query().Get("oauthError"); got != want {
			t.Errorf("%s: oauthError = %q, want %q", what, got, want)
		}
	}
	start, err := e.api.StartOidcSignInWithResponse(t.Context(), &api.StartOidcSignInParams{BrowserNonce: testBrowserNonce})
	if err != nil {
		t.Fatal(err)
	}
	check("start", start.StatusCode(), start.Headers302.Location)
	code, state := "x", "y"
	cb, err := e.api.OidcCallbackWithResponse(t.Context(), &api.OidcCallbackParams{Code: &code, State: &state})
	if err != nil {
		t.Fatal(err)
	}
	check("callback", cb.StatusCode(), cb.Headers302.Location)
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
	b.api = apiClient(t, b.h, b.ip)
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
	to := onB.finish(cb, cookie)
	if to.Query().Get("oauthCode") != "" {
		t.Fatalf("callback with an unknown kid: an oauthCode in %s", to)
	}
	if to.Query().Get("oauthError") == "" {
		t.Fatalf("callback with an unknown kid: no oauthError in %s", to)
	}
}

// TestOAuthErrorCodesHaveMessages holds the login page's messages to the codes the callback
// sends: each code has its fixed message there, and the page knows no other code.
func TestOAuthErrorCodesHaveMessages(t *testing.T) {
	src, err := os.ReadFile("../../../frontend/src/pages/Login/oauthErrors.ts")
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	start := strings.Index(text, "const MESSAGES = {")
	end := strings.Index(text[start:], "} as const;")
	if start < 0 || end < 0 {
		t.Fatal("oauthErrors.ts no longer has its MESSAGES table")
	}
	var page []string
	for _, line := range strings.Split(text[start:start+end], "\n")[1:] {
		if code, _, ok := strings.Cut(strings.TrimSpace(line), ":"); ok {
			page = append(page, code)
		}
	}
	var server []string
	for _, c := range account.OIDCFailures {
		server = append(server, string(c))
	}
	slices.Sort(page)
	slices.Sort(server)
	if !slices.Equal(page, server) {
		t.Fatalf("the login page has messages for %v; the callback sends %v", page, server)
	}
}
