package httpapi

import (
	"net/http"
	"strings"
	"testing"
	"testing/fstest"
)

// The installable app's files (issue 31 §4): the service worker and the manifest come with
// their types and are revalidated on every use, so a new version reaches users at once; the
// icons are cached like the other plain files; /index.html by name (the page the worker
// precaches) is the page; and the CSP lets the page use its own worker and manifest.
func TestInstallableAppFiles(t *testing.T) {
	page := "<!doctype html><title>Percolate</title><div id=root></div>"
	h := newTestHandler(t, Deps{WebApp: fstest.MapFS{
		"index.html":            {Data: []byte(page)},
		"sw.js":                 {Data: []byte("self.addEventListener('push',()=>{});" + strings.Repeat("//\n", 400))},
		"manifest.webmanifest":  {Data: []byte(`{"name":"Percolate","start_url":"/dashboard","display":"standalone"}`)},
		"icons/icon-192.png":    {Data: append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 64)...)},
		"assets/index-1a2b.js":  {Data: []byte("console.log(1)")},
		"assets/index-1a2b.css": {Data: []byte("body{}")},
	}})
	for _, c := range []struct{ path, contentType, cacheControl string }{
		{"/sw.js", "text/javascript; charset=utf-8", "no-cache"},
		{"/manifest.webmanifest", "application/manifest+json", "no-cache"},
		{"/icons/icon-192.png", "image/png", "public, max-age=3600"},
		{"/index.html", "text/html; charset=utf-8", "no-cache"},
		{"/assets/index-1a2b.js", "text/javascript; charset=utf-8", "public, max-age=31536000, immutable"},
	} {
		res := do(h, http.MethodGet, c.path, "", "Accept-Encoding", "gzip")
		if res.Code != http.StatusOK {
			t.Errorf("GET %s: %d, want 200", c.path, res.Code)
			continue
		}
		if got := res.Header().Get("Content-Type"); got != c.contentType {
			t.Errorf("GET %s: Content-Type %q, want %q", c.path, got, c.contentType)
		}
		if got := res.Header().Get("Cache-Control"); got != c.cacheControl {
			t.Errorf("GET %s: Cache-Control %q, want %q", c.path, got, c.cacheControl)
		}
		if got := res.Header().Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("GET %s: X-Content-Type-Options %q", c.path, got)
		}
	}
	if got := do(h, http.MethodGet, "/index.html", "").Body.String(); got != page {
		t.Errorf("GET /index.html: %q, want the page", got)
	}
	if got := do(h, http.MethodGet, "/sw.js", "", "Accept-Encoding", "gzip").Header().Get("Content-Encoding"); got != "gzip" {
		t.Errorf("sw.js: Content-Encoding %q, want gzip (it is over 1 KB)", got)
	}

	csp := do(h, http.MethodGet, "/dashboard", "").Header().Get("Content-Security-Policy")
	for _, want := range []string{"worker-src 'self'", "manifest-src 'self'", "script-src 'self'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
}
