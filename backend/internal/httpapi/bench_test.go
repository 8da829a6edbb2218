package httpapi

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// BenchmarkRequestPipeline measures what the middleware stack (ids, logging, headers, body
// limit, auth, OpenAPI validation) adds to a request, against serving a static asset, which
// passes through only the outer middlewares. Compare the two as a ratio.
func BenchmarkRequestPipeline(b *testing.B) {
	h := newTestHandler(b, Deps{})
	body := `{"email":"someone@example.com","password":"correct horse battery"}`
	b.Run("validated-json", func(b *testing.B) {
		for b.Loop() {
			req := httptest.NewRequest(http.MethodPost, "/api/auth/login", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			h.ServeHTTP(httptest.NewRecorder(), req)
		}
	})
	b.Run("static-asset", func(b *testing.B) {
		for b.Loop() {
			req := httptest.NewRequest(http.MethodGet, "/assets/app-1a2b.js", nil)
			req.Header.Set("Accept-Encoding", "gzip")
			h.ServeHTTP(httptest.NewRecorder(), req)
		}
	})
}
