package app

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestServeProfile: the profiles are served at net/http/pprof's paths, in the forms `go tool
// pprof` and the bench read: the list, a profile as text or gzipped protobuf, a CPU profile,
// and a 404 for an unknown name.
func TestServeProfile(t *testing.T) {
	get := func(target string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		serveProfile(rec, httptest.NewRequest(http.MethodGet, target, nil))
		return rec
	}
	gzipped := []byte{0x1f, 0x8b}
	if rec := get("/debug/pprof/"); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "\nheap\n") {
		t.Errorf("index: %d %q", rec.Code, rec.Body.String())
	}
	if rec := get("/debug/pprof/heap?debug=1&gc=1"); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "heap profile") || !strings.Contains(rec.Body.String(), "# Mallocs = ") {
		t.Errorf("heap as text: %d %.200q", rec.Code, rec.Body.String())
	}
	if rec := get("/debug/pprof/goroutine"); rec.Code != http.StatusOK || !bytes.HasPrefix(rec.Body.Bytes(), gzipped) {
		t.Errorf("goroutine profile: %d, %d bytes, not a gzipped protobuf", rec.Code, rec.Body.Len())
	}
	// A CPU profile ends with its request: one whose client has gone is written at once.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rec := httptest.NewRecorder()
	serveProfile(rec, httptest.NewRequestWithContext(ctx, http.MethodGet, "/debug/pprof/profile", nil))
	if rec.Code != http.StatusOK || !bytes.HasPrefix(rec.Body.Bytes(), gzipped) {
		t.Errorf("CPU profile: %d, %d bytes, not a gzipped protobuf", rec.Code, rec.Body.Len())
	}
	if rec := get("/debug/pprof/nope"); rec.Code != http.StatusNotFound {
		t.Errorf("unknown profile: %d, want 404", rec.Code)
	}
}
