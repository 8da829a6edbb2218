package httpapi

import (
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"testing"
)

// The security headers share one allocation; a handler adding a value to one of them leaves
// the others as they were, on this response and the next.
func TestSecurityHeadersAreEachTheirOwnValue(t *testing.T) {
	h := securityHeaders(false)(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		for _, name := range securityHeaderNames {
			w.Header().Add(name, "added")
		}
	}))
	for range 2 {
		req := httptest.NewRequest(http.MethodGet, "/api/auth/me", nil)
		req.TLS = &tls.ConnectionState{}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		for i, name := range securityHeaderNames {
			got := rec.Header().Values(name)
			if len(got) != 2 || got[0] != securityHeaderValues[i] || got[1] != "added" {
				t.Errorf("%s = %q, want [%q added]", name, got, securityHeaderValues[i])
			}
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/login", nil))
	for _, name := range []string{"Strict-Transport-Security", "Cache-Control"} {
		if got := rec.Header().Values(name); len(got) != 1 {
			t.Errorf("plain HTTP, not the API: %s = %q, want only the handler's", name, got)
		}
	}
}

// Behind a proxy that ends TLS the server sees plain HTTP: with an https public URL every
// response carries Strict-Transport-Security all the same; without one, only a request that
// came over TLS does.
func TestHSTSFollowsThePublicURL(t *testing.T) {
	ok := http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})
	for _, c := range []struct {
		name       string
		https, tls bool
		want       bool
	}{
		{"https public URL, plain HTTP from the proxy", true, false, true},
		{"https public URL, TLS", true, true, true},
		{"http public URL, plain HTTP", false, false, false},
		{"http public URL, TLS", false, true, true},
	} {
		for _, target := range []string{"/", "/api/health"} {
			req := httptest.NewRequest(http.MethodGet, target, nil)
			if c.tls {
				req.TLS = &tls.ConnectionState{}
			}
			rec := httptest.NewRecorder()
			securityHeaders(c.https)(ok).ServeHTTP(rec, req)
			got := rec.Header().Get("Strict-Transport-Security")
			if c.want && got != "max-age=63072000; includeSubDomains" || !c.want && got != "" {
				t.Errorf("%s, %s: Strict-Transport-Security = %q", c.name, target, got)
			}
		}
	}
}

// A request's id, address, caller and refusal share one context value; WithClientIP and
// WithCaller give a new context with the value changed and leave the one they were given
// as it was.
func TestWithCallerAndWithClientIPLeaveTheirContextAsItWas(t *testing.T) {
	ip := WithClientIP(t.Context(), "192.0.2.7")
	c := Caller{Role: "USER"}
	both := WithCaller(ip, c)
	if got, ok := CallerFrom(both); !ok || got != c || ClientIP(both) != "192.0.2.7" {
		t.Errorf("both: caller %v %v, address %q", got, ok, ClientIP(both))
	}
	if _, ok := CallerFrom(ip); ok {
		t.Error("WithCaller gave the context it was given a caller")
	}
	if _, ok := CallerFrom(t.Context()); ok || ClientIP(t.Context()) != "" || RequestID(t.Context()) != "" {
		t.Error("a context without the value has a caller, an address or an id")
	}
}
