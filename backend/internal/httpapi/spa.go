package httpapi

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"html"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"regexp"
	"strings"
	"sync"
)

// asset is one file of the built web app. Its body, type and gzip form are read, found and
// compressed on its first request, not at start: a server nobody has visited yet holds none
// of the bundle in its heap, nor the pages of the binary it sits in, nor the system's
// table of MIME types (issue 14, idle RSS).
type asset struct {
	path      string
	dist      fs.FS
	immutable bool
	// revalidate: the browser asks again on every use (see mustRevalidate).
	revalidate bool
	// supportEmail, when not empty, replaces the mailbox named in index.html.
	supportEmail string
	once         sync.Once
	contentType  string
	body         []byte
	gz           []byte
}

// load reads the file, finds its type (by extension, else sniffed) and compresses it when
// that helps; it runs once per asset.
func (a *asset) load() {
	a.once.Do(func() {
		body, err := fs.ReadFile(a.dist, a.path)
		if err != nil {
			return // listed at start: an embedded file that was there is still there
		}
		if a.path == "index.html" && a.supportEmail != "" {
			tag := `<meta name="percolate-support-email" content="` + html.EscapeString(a.supportEmail) + `" />`
			body = supportEmailMeta.ReplaceAllLiteral(body, []byte(tag))
		}
		a.contentType = ownTypes[path.Ext(a.path)]
		if a.contentType == "" {
			a.contentType = mime.TypeByExtension(path.Ext(a.path))
		}
		if a.contentType == "" {
			a.contentType = http.DetectContentType(body)
		}
		a.body = body
		if compressible(a.contentType) && len(body) > 1024 {
			a.gz = gzipBytes(body)
		}
	})
}

// ownTypes are the types of files whose extension Go's table (and many a system's) lacks.
var ownTypes = map[string]string{".webmanifest": "application/manifest+json"}

// mustRevalidate lists the files of the installable app that are not content-hashed yet must
// be fresh: the service worker (a browser already checks it at most a day old, but an hour
// of caching on top would keep a new version from users that long) and the web app manifest.
// index.html is answered the same way wherever it is asked for.
var mustRevalidate = map[string]bool{"sw.js": true, "manifest.webmanifest": true}

// spaHandler serves the embedded web app: files as they are, and index.html for every other
// path so that client-side routing (including its redirect to /error/404) works on a deep link.
type spaHandler struct {
	assets map[string]*asset
	index  *asset
}

// supportEmailMeta is the tag in index.html that tells the web app which mailbox to show
// (frontend/src/content/supportEmail.ts). The server writes PERCOLATE_SUPPORT_EMAIL into it,
// so the page names the mailbox the contact form delivers to, without a request.
var supportEmailMeta = regexp.MustCompile(`<meta name="percolate-support-email" content="[^"]*"\s*/?>`)

// newSPAHandler lists the files of dist; each is loaded and compressed on its first request
// (see asset.load). Vite puts content-hashed files under assets/, so those may be cached
// forever. A non-empty supportEmail replaces the mailbox named in index.html.
func newSPAHandler(dist fs.FS, supportEmail string) (*spaHandler, error) {
	h := &spaHandler{assets: map[string]*asset{}}
	err := fs.WalkDir(dist, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(d.Name(), ".") {
			return err
		}
		a := &asset{path: p, dist: dist, immutable: strings.HasPrefix(p, "assets/"), revalidate: mustRevalidate[p]}
		if p == "index.html" {
			a.supportEmail = supportEmail
		}
		h.assets["/"+p] = a
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("load web app: %w", err)
	}
	h.index = h.assets["/index.html"]
	return h, nil
}

func compressible(ct string) bool {
	for _, p := range []string{"text/", "application/javascript", "application/json", "image/svg+xml", "application/manifest+json"} {
		if strings.HasPrefix(ct, p) {
			return true
		}
	}
	return false
}

// assetGzipWriters keeps the compressors (large at the best level) between assets.
var assetGzipWriters = sync.Pool{New: func() any {
	zw, _ := gzip.NewWriterLevel(nil, gzip.BestCompression)
	return zw
}}

func gzipBytes(b []byte) []byte {
	var buf bytes.Buffer
	zw := assetGzipWriters.Get().(*gzip.Writer)
	defer assetGzipWriters.Put(zw)
	zw.Reset(&buf)
	_, _ = zw.Write(b)
	_ = zw.Close()
	if buf.Len() >= len(b) {
		return nil
	}
	return buf.Bytes()
}

func (h *spaHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "Method not allowed", http.StatusMethodNotAllowed)
		return
	}
	a, ok := h.assets[r.URL.Path]
	switch {
	case ok && r.URL.Path != "/index.html":
		switch {
		case a.immutable:
			w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		case a.revalidate:
			w.Header().Set("Cache-Control", "no-cache")
		default:
			w.Header().Set("Cache-Control", "public, max-age=3600")
		}
	case path.Ext(r.URL.Path) != "" && r.URL.Path != "/index.html":
		// (/index.html by name is the page the service worker precaches: answered below.)
		// A missing file (an old hashed asset, say) must not be answered with HTML.
		http.Error(w, "Not found", http.StatusNotFound)
		return
	case h.index == nil:
		w.Header().Set("Cache-Control", "no-store")
		http.Error(w, "The web app is not built into this binary. Run `make build`.", http.StatusServiceUnavailable)
		return
	default:
		a = h.index
		w.Header().Set("Cache-Control", "no-cache")
	}
	h.write(w, r, a)
}

func (h *spaHandler) write(w http.ResponseWriter, r *http.Request, a *asset) {
	a.load()
	w.Header().Set("Content-Type", a.contentType)
	w.Header().Add("Vary", "Accept-Encoding")
	body := a.body
	if a.gz != nil && acceptsGzip(r.Header.Get("Accept-Encoding")) {
		w.Header().Set("Content-Encoding", "gzip")
		body = a.gz
	}
	w.Header().Set("Content-Length", fmt.Sprint(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}
