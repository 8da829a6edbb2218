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
	// A read with a bearer token, as the web app sends every call: the caller is verified and
	// the operation found and checked, then the handler answers without the database.
	read := buildHandler(b, Deps{Verifier: chatTokens{}})
	b.Run("authenticated-read", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			req := httptest.NewRequest(http.MethodGet, "/api/public/config", nil)
			req.Header.Set("Authorization", "Bearer 5b0e3c1a-8a7e-4a3c-9a55-0d7c9c3f2b11")
			req.Header.Set("Accept-Encoding", "gzip")
			read.ServeHTTP(httptest.NewRecorder(), req)
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

// BenchmarkAppendJSONString writes a message's text as the session reads do, per byte.
func BenchmarkAppendJSONString(b *testing.B) {
	text := strings.Repeat("It sounds like the week has been a lot. What felt heaviest, the deadline or "+
		"the conversation with your sister? \"Take your time\" - there's no rush.\n", 4)
	buf := make([]byte, 0, 4*len(text))
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		buf = appendJSONString(buf[:0], text)
	}
}
