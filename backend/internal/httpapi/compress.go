package httpapi

import (
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"

	// The same gzip format as compress/gzip's in much less CPU time, which the largest reads
	// spend a good part of on compressing (bench/findings.md).
	"github.com/klauspost/compress/gzip"
)

// minGzipBytes is the smallest response worth compressing: below it, gzip's header and the
// CPU cost more than the bytes saved.
const minGzipBytes = 1024

var gzipWriters = sync.Pool{New: func() any {
	zw, _ := gzip.NewWriterLevel(io.Discard, gzip.BestSpeed)
	return zw
}}

// compressibleResponse reports whether a response of this content type is compressed: JSON, text and
// YAML are; an event stream never is (each event must leave at once), nor is a zip or audio,
// which are compressed already. The web app's files are served compressed by the SPA handler.
func compressibleResponse(contentType string) bool {
	t, _, _ := strings.Cut(contentType, ";")
	t = strings.ToLower(strings.TrimSpace(t))
	switch {
	case t == "application/json", strings.HasSuffix(t, "+json"), t == "application/yaml", t == "text/plain":
		return true
	default:
		return false
	}
}

// gzipResponses compresses API responses of a compressible type over minGzipBytes when the
// client accepts gzip. Anything else, server-sent events included, passes through untouched,
// and flushes as it did.
func gzipResponses(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodHead || !acceptsGzip(r.Header.Get("Accept-Encoding")) {
			next.ServeHTTP(w, r)
			return
		}
		gw := &gzipWriter{ResponseWriter: w}
		defer gw.finish()
		next.ServeHTTP(gw, r)
	})
}

// acceptsGzip reports whether an Accept-Encoding header accepts gzip (and not with q=0).
func acceptsGzip(accept string) bool {
	for part := range strings.SplitSeq(accept, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(name), "gzip") {
			continue
		}
		for p := range strings.SplitSeq(params, ";") {
			k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
			if strings.EqualFold(k, "q") {
				q, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
				return err == nil && q > 0
			}
		}
		return true
	}
	return false
}

// gzipWriter holds back the start of a compressible response until it knows whether it
// reaches minGzipBytes; other responses go straight through.
type gzipWriter struct {
	http.ResponseWriter
	status  int
	decided bool // passing through, or compressing
	zw      *gzip.Writer
	held    []byte
}

func (g *gzipWriter) WriteHeader(code int) {
	if g.decided || g.status != 0 {
		if g.decided && g.zw == nil {
			g.ResponseWriter.WriteHeader(code)
		}
		return
	}
	g.status = code
	h := g.Header()
	if code < 200 || code == http.StatusNoContent || code == http.StatusNotModified ||
		h.Get("Content-Encoding") != "" || !compressibleResponse(h.Get("Content-Type")) {
		g.passThrough()
		return
	}
	h.Add("Vary", "Accept-Encoding")
}

// passThrough sends the response as it is from now on.
func (g *gzipWriter) passThrough() {
	g.decided = true
	if g.status != 0 {
		g.ResponseWriter.WriteHeader(g.status)
	}
}

func (g *gzipWriter) Write(b []byte) (int, error) {
	if g.status == 0 {
		g.WriteHeader(http.StatusOK)
	}
	switch {
	case g.decided && g.zw == nil:
		return g.ResponseWriter.Write(b)
	case g.zw != nil:
		return g.zw.Write(b)
	}
	if len(g.held) == 0 && len(b) >= minGzipBytes {
		// A large first write (a whole answer, usually) is compressed as it is, not copied.
		if err := g.startGzip(); err != nil {
			return 0, err
		}
		return g.zw.Write(b)
	}
	g.held = append(g.held, b...)
	if len(g.held) >= minGzipBytes {
		if err := g.startGzip(); err != nil {
			return 0, err
		}
	}
	return len(b), nil
}

func (g *gzipWriter) startGzip() error {
	h := g.Header()
	h.Set("Content-Encoding", "gzip")
	h.Del("Content-Length")
	g.decided = true
	g.ResponseWriter.WriteHeader(g.status)
	g.zw = gzipWriters.Get().(*gzip.Writer)
	g.zw.Reset(g.ResponseWriter)
	held := g.held
	g.held = nil
	if len(held) == 0 {
		return nil
	}
	_, err := g.zw.Write(held)
	return err
}

// Flush sends what is held: compressed so far, or, for a short response, as it is.
func (g *gzipWriter) Flush() {
	switch {
	case g.zw != nil:
		_ = g.zw.Flush()
	case !g.decided && g.status != 0:
		held := g.held
		g.held = nil
		g.passThrough()
		_, _ = g.ResponseWriter.Write(held)
	}
	if f, ok := g.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// finish ends the response: the gzip stream, or a short response held back whole.
func (g *gzipWriter) finish() {
	switch {
	case g.zw != nil:
		_ = g.zw.Close()
		g.zw.Reset(io.Discard)
		gzipWriters.Put(g.zw)
		g.zw = nil
	case !g.decided && g.status != 0:
		held := g.held
		g.held = nil
		g.passThrough()
		if len(held) > 0 {
			_, _ = g.ResponseWriter.Write(held)
		}
	}
}

func (g *gzipWriter) started() bool { return g.status != 0 }

// Unwrap lets http.ResponseController reach the underlying writer.
func (g *gzipWriter) Unwrap() http.ResponseWriter { return g.ResponseWriter }
