package httpapi

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
)

// The web app's files are typed, rewritten and compressed on first request; each answer is
// what serving them from memory prepared at start gave: type by extension or sniffed, the
// support mailbox written into index.html, gzip of the same bytes.
func TestSPAFilesPreparedOnFirstRequest(t *testing.T) {
	page := `<!doctype html><html><head><meta name="percolate-support-email" content="help@example.org" /></head><body><div id=root></div>` + strings.Repeat("<!-- padding -->", 100) + `</body></html>`
	dist := fstest.MapFS{
		"index.html":        {Data: []byte(page)},
		"assets/app-1.js":   {Data: []byte("console.log('x');" + strings.Repeat("//pad\n", 300))},
		"LICENCE":           {Data: []byte("Plain text licence, no extension.")},
		"assets/logo.png":   {Data: append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 2000)...)},
		"assets/.hidden.js": {Data: []byte("hidden")},
	}
	h, err := newSPAHandler(dist, "care@percolate.test")
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range h.assets {
		if a.body != nil || a.contentType != "" {
			t.Fatalf("%s was prepared at start", a.path)
		}
	}
	get := func(p string, gz bool) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodGet, p, nil)
		if gz {
			r.Header.Set("Accept-Encoding", "gzip")
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != http.StatusOK {
			t.Fatalf("GET %s: %d", p, w.Code)
		}
		return w
	}
	gunzip := func(w *httptest.ResponseRecorder) string {
		t.Helper()
		if w.Header().Get("Content-Encoding") != "gzip" {
			t.Fatal("not gzipped")
		}
		zr, err := gzip.NewReader(bytes.NewReader(w.Body.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(zr)
		return string(b)
	}

	want := strings.Replace(page, `content="help@example.org" /`, `content="care@percolate.test" /`, 1)
	idx := get("/some/deep/link", true)
	if got := idx.Header().Get("Content-Type"); got != "text/html; charset=utf-8" {
		t.Errorf("index Content-Type = %q", got)
	}
	if got := gunzip(idx); got != want {
		t.Errorf("gzipped index = %q, want the page naming the configured mailbox", got)
	}
	if got := get("/", false).Body.String(); got != want {
		t.Errorf("plain index = %q", got)
	}

	js := get("/assets/app-1.js", true)
	if got := js.Header().Get("Content-Type"); got != "text/javascript; charset=utf-8" {
		t.Errorf("script Content-Type = %q", got)
	}
	if got := gunzip(js); got != string(dist["assets/app-1.js"].Data) {
		t.Error("gzipped script differs from the file")
	}
	if got := get("/LICENCE", true); got.Header().Get("Content-Type") != "text/plain; charset=utf-8" || got.Body.String() != string(dist["LICENCE"].Data) {
		t.Errorf("file without extension: %q %q, want it sniffed as text and sent as is (short)", got.Header().Get("Content-Type"), got.Body.String())
	}
	png := get("/assets/logo.png", true)
	if png.Header().Get("Content-Type") != "image/png" || png.Header().Get("Content-Encoding") != "" || png.Body.Len() != len(dist["assets/logo.png"].Data) {
		t.Errorf("png: %q %q %d bytes, want image/png as is", png.Header().Get("Content-Type"), png.Header().Get("Content-Encoding"), png.Body.Len())
	}
	if _, ok := h.assets["/assets/.hidden.js"]; ok {
		t.Error("a hidden file is served")
	}
}
