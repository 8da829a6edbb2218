package httpapi

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/percolate/percolate/backend/internal/account"
	"github.com/percolate/percolate/gen/api"
)

// mustCover fails when a case the findings name is not among those derived from the contract.
func mustCover(t *testing.T, covered map[string]bool, want ...string) {
	t.Helper()
	for _, w := range want {
		if !covered[w] {
			t.Errorf("no case for %s", w)
		}
	}
}

// U+0000 or invalid UTF-8 in any text field of any JSON body is refused at validation, naming
// the field, in the form the operation documents (PostgreSQL refuses both: it was a 500).
func TestBadTextInEveryJSONFieldIsRefusedNamingIt(t *testing.T) {
	h := newGateHandler(t)
	covered := eachTextField(t, func(t *testing.T, c contractOp, s *openapi3.Schema, f string) {
		nul := mustJSON(t, validBody(s, f, "ok\x00"))
		if !strings.Contains(nul, `\u0000`) {
			t.Fatalf("body has no \\u0000: %s", nul)
		}
		c.refusedField(t, c.send(h, c.target(nil), nul), f, msgBadText)

		invalid := strings.Replace(mustJSON(t, validBody(s, f, "PLACEHOLDER")), "PLACEHOLDER", "ok\xff\xfe", 1)
		c.refusedField(t, c.send(h, c.target(nil), invalid), f, msgBadText)
	})
	mustCover(t, covered, "login.email", "login.password", "register.name", "register.email", "register.password",
		"updateProfile.focusAreas", "changePassword.currentPassword", "sendChatMessage.message", "streamChatMessage.message",
		"sendVoiceMessage.message", "sendContactMessage.name", "sendContactMessage.message", "resetPassword.password",
		"refreshTokens.refreshToken", "exchangeOidcCode.code")

	// A bad member name or a bad string deeper in the document is named by its path.
	res := do(h, http.MethodPost, "/api/auth/login", `{"email":"ada@example.com","password":"secretpass","extra":{"list":["ok","x\u0000"]}}`)
	if got := wantValidationError(t, "nested", res.Code, res.Body.Bytes()).Details["extra.list.1"]; got != msgBadText {
		t.Errorf("nested: details[extra.list.1] = %q, want %q", got, msgBadText)
	}
	res = do(h, http.MethodPost, "/api/auth/login", `{"email":"ada@example.com","password":"secretpass","a\u0000b":1}`)
	if got := wantValidationError(t, "member name", res.Code, res.Body.Bytes()).Details["ab"]; got != msgBadText {
		t.Errorf("member name: details.ab = %q, want %q", got, msgBadText)
	}
}

// %00 or %ff in any query parameter is refused at validation, naming the parameter.
func TestBadTextInEveryQueryParameterIsRefusedNamingIt(t *testing.T) {
	h := newGateHandler(t)
	covered := map[string]bool{}
	for _, c := range contractOps(t) {
		for _, p := range c.params("query") {
			covered[c.id+"."+p.Name] = true
			for _, bad := range []string{"a%00b", "a%ffb", "%C0%80"} {
				t.Run(c.id+"/"+p.Name+"="+bad, func(t *testing.T) {
					body := ""
					if s := c.jsonBody(); s != nil {
						body = mustJSON(t, validBody(s, "", nil))
					}
					c.refusedField(t, c.send(h, c.target(map[string]string{p.Name: bad}), body), p.Name, msgBadText)
				})
			}
		}
	}
	mustCover(t, covered, "searchProfileSessions.query", "verifyEmail.t", "requestPasswordReset.email",
		"resetPassword.token", "oidcCallback.code", "oidcCallback.state", "oidcCallback.error", "startOidcSignIn.browserNonce")
}

// A body that is not exactly one JSON value is a validation error naming "body" on every
// operation that takes JSON, in the operation's documented form.
func TestMalformedAndTrailingJSONIsAValidationError(t *testing.T) {
	h := newGateHandler(t)
	covered := map[string]bool{}
	for _, c := range contractOps(t) {
		s := c.jsonBody()
		if s == nil {
			continue
		}
		covered[c.id] = true
		good := mustJSON(t, validBody(s, "", nil))
		for name, body := range map[string]string{
			"cut":            good[:len(good)-1],
			"garbage after":  good + "garbage",
			"second value":   good + "{}",
			"spaced garbage": good + "\n x",
			"not JSON":       "email=a",
		} {
			t.Run(c.id+"/"+name, func(t *testing.T) {
				c.refusedField(t, c.send(h, c.target(nil), body), bodyField, msgMalformedJSON)
			})
		}
		t.Run(c.id+"/trailing space is fine", func(t *testing.T) {
			if res := c.send(h, c.target(nil), good+"\r\n "); res.Code == http.StatusBadRequest {
				t.Fatalf("refused: %s", res.Body)
			}
		})
	}
	mustCover(t, covered, "login", "register", "sendChatMessage", "resetPassword", "sendContactMessage")

	// A body missing, of another type, or not an object is named "body" too.
	for _, c := range []struct{ body, contentType, want string }{
		{"", "", "A request body is required."},
		{"email=a", "text/plain", ""},
		{"[]", "application/json", "Must be an object."},
		{"null", "application/json", ""},
	} {
		hdr := []string{}
		if c.contentType != "" {
			hdr = append(hdr, "Content-Type", c.contentType)
		}
		what := fmt.Sprintf("body %q (%s)", c.body, c.contentType)
		res := do(h, http.MethodPost, "/api/auth/login", c.body, hdr...)
		got, ok := wantValidationError(t, what, res.Code, res.Body.Bytes()).Details[bodyField]
		if !ok {
			t.Errorf("%s: no details.%s", what, bodyField)
		}
		if c.want != "" && got != c.want {
			t.Errorf("%s: details.%s = %q, want %q", what, bodyField, got, c.want)
		}
	}

	// An operation that takes no body ignores one, as it always did.
	res := do(h, http.MethodGet, "/api/public/config", `{"x":"\u0000"} garbage`)
	if res.Code != http.StatusOK {
		t.Fatalf("body of a GET: status = %d, want 200: %s", res.Code, res.Body)
	}
	decodeAs[api.ClientConfig](t, res.Body.Bytes())
}

// A session id that is not a UUID in an otherwise valid body names the field.
func TestNonUUIDSessionIDInABodyNamesTheField(t *testing.T) {
	h := newGateHandler(t)
	for _, target := range []string{"/api/chat/message", "/api/chat/message/stream", "/api/chat/voice"} {
		res := do(h, http.MethodPost, target, `{"message":"hi","sessionId":"not-a-uuid"}`, "Authorization", "Bearer good")
		if got := wantValidationError(t, target, res.Code, res.Body.Bytes()).Details["sessionId"]; got != "Must be a valid id." {
			t.Errorf("%s: details.sessionId = %q, want %q", target, got, "Must be a valid id.")
		}
	}
}

// The three operations whose 400 is documented as text/plain refuse invalid input with text.
func TestTextOperationsRefuseWithText(t *testing.T) {
	h := newGateHandler(t)
	long := strings.Repeat("a", 201)
	cases := []struct {
		name, method, target, body, want string
	}{
		{"verify without t", http.MethodGet, "/api/auth/verify", "", "This field is required."},
		{"verify with a long t", http.MethodGet, "/api/auth/verify?t=" + long, "", "Must be at most 200 characters."},
		{"reset mail without address", http.MethodPost, "/api/public/reset-password-email", "", "This field is required."},
		{"reset mail with a long address", http.MethodPost, "/api/public/reset-password-email?email=" + strings.Repeat("a", 250) + "%40b.co", "", "Must be at most 254 characters."},
		{"reset without token", http.MethodPut, "/api/public/reset-password", `{"password":"longenough","confirmPassword":"longenough"}`, "This field is required."},
		{"reset without body", http.MethodPut, "/api/public/reset-password?token=abc", "", ""},
		{"reset with a wrong-typed body", http.MethodPut, "/api/public/reset-password?token=abc", `{"password":5,"confirmPassword":"x"}`, "Must be a string."},
		{"reset with garbage", http.MethodPut, "/api/public/reset-password?token=abc", `{"password":"x"}}`, msgMalformedJSON},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := do(h, c.method, c.target, c.body)
			if res.Code != http.StatusBadRequest {
				t.Fatalf("status = %d, want 400: %s", res.Code, res.Body)
			}
			if ct := res.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
				t.Fatalf("Content-Type = %q, want text/plain", ct)
			}
			if res.Body.Len() == 0 {
				t.Fatal("the text is empty")
			}
			if c.want != "" && res.Body.String() != c.want {
				t.Fatalf("text = %q, want %q", res.Body, c.want)
			}
		})
	}
}

// The sign-in callback answers any invalid parameter with its one documented answer: back to
// /login with a message, the flow cookie cleared.
func TestOIDCCallbackRefusesByRedirect(t *testing.T) {
	h := newGateHandler(t)
	want := "/login?oauthError=" + string(account.OIDCFailed)
	for name, query := range map[string]string{
		"long code":  "code=" + strings.Repeat("c", 2049) + "&state=s",
		"long state": "code=c&state=" + strings.Repeat("s", 513),
		"long error": "error=" + strings.Repeat("e", 513),
		"NUL code":   "code=a%00b&state=s",
		"twice":      "code=a&code=b&state=s",
	} {
		t.Run(name, func(t *testing.T) {
			res := do(h, http.MethodGet, "/oauth2/callback/google?"+query, "", "Cookie", oidcCookie+"=flow")
			if res.Code != http.StatusFound {
				t.Fatalf("status = %d, want 302: %s", res.Code, res.Body)
			}
			if got := res.Header().Get("Location"); got != want {
				t.Errorf("Location = %q, want %q", got, want)
			}
			c := res.Header().Get("Set-Cookie")
			if !strings.HasPrefix(c, oidcCookie+"=;") {
				t.Errorf("Set-Cookie = %q: the flow cookie is not emptied", c)
			}
			if !strings.Contains(c, "Max-Age=0") {
				t.Errorf("Set-Cookie = %q: the flow cookie does not expire (Max-Age=0)", c)
			}
		})
	}
}

// An id that is not a UUID on any session path is the 400 the contract lists, naming the id.
func TestNonUUIDIDsOnPathsNameTheID(t *testing.T) {
	h := newGateHandler(t)
	covered := map[string]bool{}
	for _, c := range contractOps(t) {
		for _, p := range c.params("path") {
			covered[c.id] = true
			for _, id := range []string{"not-a-uuid", "3f2b8c1e-7a4d-4e8b-9c1a-2b3c4d5e6f7", "a%00b", "%ff", strings.Repeat("9", 300)} {
				t.Run(c.id+"/"+id, func(t *testing.T) {
					target := strings.ReplaceAll(c.path, "{"+p.Name+"}", id)
					c.refusedField(t, c.send(h, target, ""), p.Name, "")
				})
			}
		}
	}
	mustCover(t, covered, "getProfileSession", "getChatSession", "deleteChatSession", "endChatSession")
}
