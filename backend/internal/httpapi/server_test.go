package httpapi

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
	"github.com/percolate/percolate/gen/api"
)

// acceptToken is a TokenVerifier that knows one token; the real one comes with accounts.
type acceptToken string

func (a acceptToken) VerifyAccessToken(_ context.Context, token string) (Caller, error) {
	if token != string(a) {
		return Caller{}, fmt.Errorf("bad token: %w", apperr.ErrUnauthorized)
	}
	return Caller{UserID: uuid.New(), Role: "USER"}, nil
}

// newTestHandler is the server with the given dependencies; every response it gives to an
// operation of the contract is checked against openapi.yaml (see contractChecked).
func newTestHandler(t testing.TB, d Deps) http.Handler {
	t.Helper()
	return contractChecked(t, buildHandler(t, d), false)
}

func buildHandler(t testing.TB, d Deps) http.Handler {
	t.Helper()
	if d.Logger == nil {
		d.Logger = discardLogger()
	}
	if d.WebApp == nil {
		d.WebApp = fstest.MapFS{
			"index.html":          {Data: []byte("<!doctype html><title>Percolate</title><div id=root></div>")},
			"assets/app-1a2b.js":  {Data: []byte(strings.Repeat("console.log('percolate');\n", 200))},
			"favicon.svg":         {Data: []byte("<svg xmlns='http://www.w3.org/2000/svg'/>")},
			"assets/.placeholder": {Data: []byte("")},
		}
	}
	h, err := NewHandler(withOffline(t, d))
	if err != nil {
		t.Fatalf("NewHandler: %v", err)
	}
	return h
}

func discardLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }

type response struct {
	*httptest.ResponseRecorder
}

func (r response) json(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body.Bytes(), &m); err != nil {
		t.Fatalf("body is not JSON: %v: %q", err, r.Body.String())
	}
	return m
}

func do(h http.Handler, method, target, body string, header ...string) response {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, target, rd)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return response{rec}
}

func TestSecurityHeadersOnEveryResponse(t *testing.T) {
	h := newTestHandler(t, Deps{})
	for _, target := range []string{"/", "/dashboard", "/api/nope", "/api/docs", "/assets/app-1a2b.js"} {
		res := do(h, http.MethodGet, target, "")
		csp := res.Header().Get("Content-Security-Policy")
		for _, want := range []string{"script-src 'self'", "frame-ancestors 'none'", "object-src 'none'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("%s: CSP %q lacks %q", target, csp, want)
			}
		}
		if strings.Contains(csp, "script-src 'self' 'unsafe-inline'") {
			t.Errorf("%s: CSP allows inline scripts", target)
		}
		if got := res.Header().Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("%s: X-Content-Type-Options = %q", target, got)
		}
		if res.Header().Get("Referrer-Policy") == "" {
			t.Errorf("%s: no Referrer-Policy", target)
		}
		if res.Header().Get("X-Request-Id") == "" {
			t.Errorf("%s: no X-Request-Id", target)
		}
		isAPI := strings.HasPrefix(target, "/api/")
		if got := res.Header().Get("Cache-Control"); isAPI && got != "no-store" {
			t.Errorf("%s: Cache-Control = %q, want no-store", target, got)
		}
	}
}

// The whole handler sends HSTS on plain HTTP when told the public URL is https (the proxy
// in front ends TLS), and not otherwise.
func TestHandlerSendsHSTSWhenThePublicURLIsHTTPS(t *testing.T) {
	for _, hsts := range []bool{true, false} {
		h := newTestHandler(t, Deps{HSTS: hsts})
		for _, target := range []string{"/", "/api/health", "/api/nope"} {
			got := do(h, http.MethodGet, target, "").Header().Get("Strict-Transport-Security")
			if hsts != (got != "") {
				t.Errorf("HSTS %v, %s: Strict-Transport-Security = %q", hsts, target, got)
			}
		}
	}
}

func TestUnknownAPIPathIsJSON404(t *testing.T) {
	h := newTestHandler(t, Deps{})
	res := do(h, http.MethodGet, "/api/does-not-exist", "")
	wantError(t, "GET /api/does-not-exist", res.Code, res.Body.Bytes(), http.StatusNotFound, "NOT_FOUND")
}

func TestWrongMethodOnAPIIsJSON405WithAllow(t *testing.T) {
	h := newTestHandler(t, Deps{})
	id := uuid.NewString()
	for _, c := range []struct{ method, target, allow string }{
		{http.MethodDelete, "/api/health", "GET"},
		{http.MethodGet, "/api/auth/login", "POST"},
		{http.MethodPatch, "/api/profile", "DELETE, GET, PUT"},
		{http.MethodPost, "/api/chat/sessions/" + id, "DELETE, GET"},
		{http.MethodPut, "/api/public/reset-password-email", "POST"},
		{http.MethodPost, "/api/openapi.yaml", "GET"},
	} {
		res := do(h, c.method, c.target, "")
		wantError(t, c.method+" "+c.target, res.Code, res.Body.Bytes(), http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED")
		if got := res.Header().Get("Allow"); got != c.allow {
			t.Errorf("%s %s: Allow = %q, want %q", c.method, c.target, got, c.allow)
		}
	}
}

func TestSPAFallbackAndAssets(t *testing.T) {
	h := newTestHandler(t, Deps{})

	deep := do(h, http.MethodGet, "/chat/3f0c/whatever", "")
	if deep.Code != http.StatusOK {
		t.Fatalf("deep link: status = %d, want 200: %q", deep.Code, deep.Body)
	}
	if !strings.Contains(deep.Body.String(), "<div id=root>") {
		t.Fatalf("deep link: body %q is not index.html", deep.Body)
	}
	if got := deep.Header().Get("Cache-Control"); got != "no-cache" {
		t.Errorf("index Cache-Control = %q", got)
	}

	asset := do(h, http.MethodGet, "/assets/app-1a2b.js", "", "Accept-Encoding", "gzip, br")
	if asset.Code != http.StatusOK {
		t.Fatalf("asset status %d", asset.Code)
	}
	if got := asset.Header().Get("Cache-Control"); got != "public, max-age=31536000, immutable" {
		t.Errorf("asset Cache-Control = %q", got)
	}
	if asset.Header().Get("Content-Encoding") != "gzip" {
		t.Fatalf("asset not gzipped")
	}
	zr, err := gzip.NewReader(bytes.NewReader(asset.Body.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := io.ReadAll(zr)
	if !strings.HasPrefix(string(plain), "console.log('percolate');") {
		t.Errorf("gunzipped body = %q", plain[:20])
	}

	identity := do(h, http.MethodGet, "/assets/app-1a2b.js", "")
	if got := identity.Header().Get("Content-Encoding"); got != "" {
		t.Errorf("client without gzip: Content-Encoding = %q, want none", got)
	}
	if !strings.HasPrefix(identity.Body.String(), "console.log") {
		t.Errorf("client without gzip: body starts %q, want the script", identity.Body.String()[:min(20, identity.Body.Len())])
	}

	if res := do(h, http.MethodGet, "/assets/old-9z9z.js", ""); res.Code != http.StatusNotFound {
		t.Errorf("missing asset: status %d, want 404 (never index.html for a script)", res.Code)
	}
}

func TestSPANotBuiltSaysSo(t *testing.T) {
	h := newTestHandler(t, Deps{WebApp: fstest.MapFS{".keep": {Data: nil}}})
	res := do(h, http.MethodGet, "/", "")
	if res.Code != http.StatusServiceUnavailable {
		t.Fatalf("status = %d, want 503: %q", res.Code, res.Body)
	}
	if !strings.Contains(res.Body.String(), "make build") {
		t.Errorf("body %q does not say to run make build", res.Body)
	}
}

func TestMalformedJSONIsAValidationErrorNamingTheBody(t *testing.T) {
	h := newTestHandler(t, Deps{})
	res := do(h, http.MethodPost, "/api/auth/login", `{"email": "a@b.c",`)
	v := wantValidationError(t, "a cut body", res.Code, res.Body.Bytes())
	if got := v.Details["body"]; got != msgMalformedJSON {
		t.Errorf("details.body = %q, want %q", got, msgMalformedJSON)
	}
	if len(v.Details) != 1 {
		t.Errorf("details = %v, want body alone", v.Details)
	}
}

func TestValidationErrorShape(t *testing.T) {
	h := newTestHandler(t, Deps{})
	res := do(h, http.MethodPost, "/api/auth/login", `{"email": 5}`)
	v := wantValidationError(t, "a number for the address", res.Code, res.Body.Bytes())
	if v.Error != msgValidation {
		t.Errorf("error = %q, want %q", v.Error, msgValidation)
	}
	if v.Message != msgValidation {
		t.Errorf("message = %q, want %q", v.Message, msgValidation)
	}
	if got := v.Details["password"]; got != "This field is required." {
		t.Errorf("details.password = %q", got)
	}
	if got := v.Details["email"]; got != "Must be a string." {
		t.Errorf("details.email = %q", got)
	}
}

func TestValidationMessages(t *testing.T) {
	h := newTestHandler(t, Deps{Verifier: acceptToken("good")})
	auth := []string{"Authorization", "Bearer good"}
	cases := []struct {
		name, method, target, body, field, want string
	}{
		{"too long", "POST", "/api/chat/message", `{"message":"` + strings.Repeat("a", 4001) + `"}`, "message", "Must be at most 4000 characters."},
		{"blank", "POST", "/api/chat/message", `{"message":" \n\t "}`, "message", "This field is required."},
		{"not an address", "POST", "/api/public/contact", `{"name":"Ada","email":"Ada <ada@example.com>","message":"Hi"}`, "email", "Please enter a valid email address."},
		{"enum", "POST", "/api/subscription/checkout", `{"plan":"GOLD"}`, "plan", "Must be one of: BASIC, PREMIUM."},
		{"unknown field", "PUT", "/api/profile", `{"hobby":"x"}`, "hobby", "This field is not accepted here."},
		{"bad uuid path", "GET", "/api/chat/sessions/not-a-uuid", "", "id", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := do(h, c.method, c.target, c.body, auth...)
			v := wantValidationError(t, c.method+" "+c.target, res.Code, res.Body.Bytes())
			got, ok := v.Details[c.field]
			if !ok {
				t.Fatalf("details = %v: no %s", v.Details, c.field)
			}
			if c.want != "" && got != c.want {
				t.Errorf("details.%s = %q, want %q", c.field, got, c.want)
			}
		})
	}
}

func TestProtectedOperationsNeedAValidToken(t *testing.T) {
	c := apiClient(t, newGateHandler(t), "192.0.2.1")
	ctx := context.Background()
	for _, hdr := range []string{"", "Bearer forged", "Basic good"} {
		res, err := c.GetProfileWithResponse(ctx, withHeader("Authorization", hdr))
		wantStatus(t, res, err, http.StatusUnauthorized)
		if res.JSON401.Code != "UNAUTHORIZED" {
			t.Fatalf("Authorization %q: code = %q, want UNAUTHORIZED", hdr, res.JSON401.Code)
		}
	}
	// A valid token passes authentication and reaches the handler (whose account service,
	// on the offline database of withOffline, answers 503).
	res, err := c.GetProfileWithResponse(ctx, bearer("good"))
	wantStatus(t, res, err, http.StatusServiceUnavailable)
	if res.JSON503.Code != "SERVICE_UNAVAILABLE" {
		t.Fatalf("code = %q, want SERVICE_UNAVAILABLE", res.JSON503.Code)
	}
	// Public operations need no token.
	config, err := c.GetClientConfigWithResponse(ctx)
	wantStatus(t, config, err, http.StatusOK)
}

func TestBodyLimit(t *testing.T) {
	h := newTestHandler(t, Deps{})
	big := `{"email":"` + strings.Repeat("a", maxJSONBody) + `","password":"x"}`
	res := do(h, http.MethodPost, "/api/auth/login", big)
	wantError(t, "a declared length", res.Code, res.Body.Bytes(), http.StatusRequestEntityTooLarge, "PAYLOAD_TOO_LARGE")

	// Without a declared length the limit still holds while reading.
	req := httptest.NewRequest(http.MethodPost, "/api/auth/login", io.NopCloser(strings.NewReader(big)))
	req.ContentLength = -1
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	wantError(t, "chunked", rec.Code, rec.Body.Bytes(), http.StatusRequestEntityTooLarge, "PAYLOAD_TOO_LARGE")
}

func TestDocsAndSpecAreServed(t *testing.T) {
	h := newTestHandler(t, Deps{})
	spec := do(h, http.MethodGet, "/api/openapi.yaml", "")
	if spec.Code != http.StatusOK {
		t.Fatalf("spec: status = %d, want 200", spec.Code)
	}
	if !strings.Contains(spec.Body.String(), "/api/chat/message/stream:") {
		t.Errorf("spec lacks the path /api/chat/message/stream")
	}
	docs := do(h, http.MethodGet, "/api/docs", "")
	if docs.Code != http.StatusOK {
		t.Fatalf("docs: status = %d, want 200", docs.Code)
	}
	if ct := docs.Header().Get("Content-Type"); !strings.Contains(ct, "text/html") {
		t.Errorf("docs: Content-Type = %q, want text/html", ct)
	}
	page := docs.Body.String()
	for _, want := range []string{"/api/auth/login", "/api/subscription/webhook", "/oauth2/authorization/google"} {
		if !strings.Contains(page, want) {
			t.Errorf("docs page lacks %s", want)
		}
	}
	// Static, and loading nothing from elsewhere.
	for _, banned := range []string{"<script", "http://", "https://"} {
		if strings.Contains(page, banned) {
			t.Errorf("docs page has %q", banned)
		}
	}
}

func TestReadinessChecksTheRealDatabase(t *testing.T) {
	st := pgtest.New(t)
	c := apiClient(t, newTestHandler(t, Deps{DB: st, Version: "test"}), "192.0.2.1")
	ctx := context.Background()
	up, err := c.GetReadinessWithResponse(ctx)
	wantStatus(t, up, err, http.StatusOK)
	wantHealth(t, "up", *up.JSON200, api.HealthStatusOk, api.HealthDatabaseOk, "test")

	st.Close()
	down, err := c.GetReadinessWithResponse(ctx)
	wantStatus(t, down, err, http.StatusServiceUnavailable)
	wantHealth(t, "closed pool", *down.JSON503, api.HealthStatusUnavailable, api.HealthDatabaseUnavailable, "test")
	if down.Headers503 == nil || down.Headers503.RetryAfter == nil || *down.Headers503.RetryAfter < 1 {
		t.Errorf("closed pool: Retry-After %q", down.HTTPResponse.Header.Get("Retry-After"))
	}
	live, err := c.GetHealthWithResponse(ctx)
	wantStatus(t, live, err, http.StatusOK)
	wantHealth(t, "liveness with a closed pool", *live.JSON200, api.HealthStatusOk, "", "test")
}

// wantHealth checks each member of a health answer; database "" means it must be absent.
func wantHealth(t *testing.T, what string, h api.Health, status api.HealthStatus, database api.HealthDatabase, version string) {
	t.Helper()
	if h.Status != status {
		t.Errorf("%s: status = %s, want %s", what, h.Status, status)
	}
	switch {
	case database == "" && h.Database != nil:
		t.Errorf("%s: database = %s, want none", what, *h.Database)
	case database != "" && h.Database == nil:
		t.Errorf("%s: no database, want %s", what, database)
	case database != "" && *h.Database != database:
		t.Errorf("%s: database = %s, want %s", what, *h.Database, database)
	}
	switch {
	case h.Version == nil:
		t.Errorf("%s: no version, want %s", what, version)
	case *h.Version != version:
		t.Errorf("%s: version = %s, want %s", what, *h.Version, version)
	}
}

func TestSPANamesTheConfiguredSupportMailbox(t *testing.T) {
	page := `<!doctype html><head><meta name="percolate-support-email" content="support@percolate.example" /></head>` +
		strings.Repeat("<!-- padding so the page is worth compressing -->\n", 40) + `<div id=root></div>`
	webApp := fstest.MapFS{"index.html": {Data: []byte(page)}}

	h := newTestHandler(t, Deps{WebApp: webApp, SupportEmail: `"help desk"@uni.example`})
	want := `<meta name="percolate-support-email" content="&#34;help desk&#34;@uni.example" />`
	for _, enc := range []string{"", "gzip"} {
		res := do(h, http.MethodGet, "/team", "", "Accept-Encoding", enc)
		body := res.Body.Bytes()
		if res.Header().Get("Content-Encoding") == "gzip" {
			zr, err := gzip.NewReader(bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			body, _ = io.ReadAll(zr)
		} else if enc == "gzip" {
			t.Fatalf("index.html was not compressed")
		}
		if !strings.Contains(string(body), want) {
			t.Errorf("Accept-Encoding %q: page does not name the configured mailbox:\n%s", enc, body[:200])
		}
		if strings.Contains(string(body), "support@percolate.example") {
			t.Errorf("Accept-Encoding %q: page still names the mailbox of the build", enc)
		}
	}

	// Without a configured mailbox the page keeps what the build wrote.
	plain := do(newTestHandler(t, Deps{WebApp: webApp}), http.MethodGet, "/", "")
	if !strings.Contains(plain.Body.String(), `content="support@percolate.example"`) {
		t.Errorf("page without a configured mailbox changed: %s", plain.Body.String()[:120])
	}
}

// The public config carries the payments flag as the server was started with, both ways: the
// pricing page reads it before anyone clicks an upgrade button.
func TestClientConfigReportsPayments(t *testing.T) {
	for _, want := range []bool{false, true} {
		h := newTestHandler(t, Deps{Features: api.ClientConfig{Payments: want}})
		res := do(h, http.MethodGet, "/api/public/config", "")
		if res.Code != http.StatusOK {
			t.Fatalf("payments %v: status = %d: %s", want, res.Code, res.Body)
		}
		if got := decodeAs[api.ClientConfig](t, res.Body.Bytes()).Payments; got != want {
			t.Errorf("payments = %v, want %v", got, want)
		}
	}
}
