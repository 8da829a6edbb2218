package httpapi

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"strings"
	"time"
)

// contentSecurityPolicy allows only our own origin. Scripts are never inline; Mantine sets
// style attributes at run time, hence 'unsafe-inline' for styles only. The service worker
// (/sw.js) and the web app manifest are named for what they are, same origin only.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data: blob:; font-src 'self'; connect-src 'self'; media-src 'self' data: blob:; " +
	"worker-src 'self'; manifest-src 'self'; " +
	"object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"

// requestState is what the middlewares learn about a request, kept in its context as one
// value rather than one context (and one copy of the request) each: its id, the client's
// address, its caller and how its operation refuses. The middleware that learns a part
// sets it before it calls the next handler; nothing changes it afterwards, so handlers and
// whatever they start read it freely.
type requestState struct {
	id        [1]string // the X-Request-Id header's value
	clientIP  string
	caller    Caller
	hasCaller bool
	refusal   refusal
}

type requestStateKey struct{}

func stateFrom(ctx context.Context) *requestState {
	st, _ := ctx.Value(requestStateKey{}).(*requestState)
	return st
}

// requestStateOf returns r's state to fill in, first adding one to r if it has none.
func requestStateOf(r *http.Request) (*http.Request, *requestState) {
	if st := stateFrom(r.Context()); st != nil {
		return r, st
	}
	st := &requestState{}
	return r.WithContext(context.WithValue(r.Context(), requestStateKey{}, st)), st
}

// withState returns ctx carrying a copy of its state changed by set (for the exported
// With* functions: the state of ctx itself stays as it was).
func withState(ctx context.Context, set func(*requestState)) context.Context {
	var st requestState
	if old := stateFrom(ctx); old != nil {
		st = *old
	}
	set(&st)
	return context.WithValue(ctx, requestStateKey{}, &st)
}

// RequestID returns the id given to the request by the server.
func RequestID(ctx context.Context) string {
	if st := stateFrom(ctx); st != nil {
		return st.id[0]
	}
	return ""
}

// requestID gives every request a random id, returned in X-Request-Id and carried in logs.
func requestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b [8]byte
		_, _ = rand.Read(b[:])
		r, st := requestStateOf(r)
		st.id[0] = hex.EncodeToString(b[:])
		w.Header()["X-Request-Id"] = st.id[:] // of capacity one: an Add copies it
		next.ServeHTTP(w, r)
	})
}

// statusRecorder remembers the status and size of a response for the access log.
type statusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	n, err := s.ResponseWriter.Write(b)
	s.bytes += n
	return n, err
}

// Flush keeps server-sent events flowing through the recorder.
func (s *statusRecorder) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (s *statusRecorder) started() bool { return s.status != 0 }

// Unwrap lets http.ResponseController reach the underlying writer.
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// accessLog writes one JSON line per request. The query string is left out: it can carry
// one-time tokens (verification, reset).
func accessLog(logger *slog.Logger) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := time.Now()
			rec := &statusRecorder{ResponseWriter: w}
			// Deferred, so that a panicking handler is logged too: with the status it began
			// (a response broken off part-way), or 500 (what recoverer answers).
			returned := false
			defer func() {
				switch {
				case rec.status == 0 && !returned:
					rec.status = http.StatusInternalServerError
				case rec.status == 0:
					rec.status = http.StatusOK
				}
				level := slog.LevelInfo
				if rec.status >= 500 {
					level = slog.LevelError
				}
				logger.LogAttrs(r.Context(), level, "request",
					slog.String("request_id", RequestID(r.Context())),
					slog.String("method", r.Method),
					slog.String("path", r.URL.Path),
					slog.Int("status", rec.status),
					slog.Int("bytes", rec.bytes),
					slog.Float64("duration_ms", float64(time.Since(start).Microseconds())/1000),
					slog.String("remote", r.RemoteAddr),
				)
			}()
			next.ServeHTTP(rec, r)
			returned = true
		})
	}
}

// recoverer turns a panic in a handler into a logged 500 instead of a dropped connection.
func recoverer(logger *slog.Logger) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w = &statusRecorder{ResponseWriter: w}
			defer func() {
				if v := recover(); v != nil {
					if v == http.ErrAbortHandler {
						panic(v)
					}
					logger.ErrorContext(r.Context(), "panic", "request_id", RequestID(r.Context()), "panic", v)
					if responseStarted(w) {
						panic(http.ErrAbortHandler) // too late for an answer: break the connection
					}
					writeError(w, http.StatusInternalServerError, "INTERNAL_ERROR", msgInternal)
				}
			}()
			next.ServeHTTP(w, r)
		})
	}
}

// securityHeaderNames and securityHeaderValues are the headers every response carries
// (canonical names), then the one only HTTPS responses carry and the API's no-store.
var (
	securityHeaderNames = [...]string{
		"Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy", "X-Frame-Options",
		"Cross-Origin-Opener-Policy", "Permissions-Policy", "Strict-Transport-Security", "Cache-Control",
	}
	securityHeaderValues = [len(securityHeaderNames)]string{
		contentSecurityPolicy, "nosniff", "strict-origin-when-cross-origin", "DENY",
		"same-origin-allow-popups", "camera=(), geolocation=(), microphone=(self)",
		"max-age=63072000; includeSubDomains", "no-store",
	}
)

const (
	hstsHeader    = 6 // index of Strict-Transport-Security in securityHeaderNames
	noStoreHeader = 7 // index of Cache-Control
)

// securityHeaders sets the headers every response carries, and no-store on the API. Their
// values share one allocation, each a slice of capacity one, so a later Add to any of them
// copies it rather than writing over the next.
//
// Strict-Transport-Security goes on every response when https is true (the public URL is
// https): the server does not serve TLS itself but sits behind a proxy that does, so the
// requests it sees are plain HTTP whatever the browser used. Browsers heed the header only
// over HTTPS, so sending it on a request that came in plain is harmless. Without a public
// https URL, only a request that came over TLS gets it.
func securityHeaders(https bool) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h := w.Header()
			values := securityHeaderValues // a copy: one allocation for all of them
			all := values[:]
			for i, name := range securityHeaderNames {
				if (i == hstsHeader && !https && r.TLS == nil) || (i == noStoreHeader && !isAPIPath(r.URL.Path)) {
					continue
				}
				h[name] = all[i : i+1 : i+1]
			}
			next.ServeHTTP(w, r)
		})
	}
}

func isAPIPath(p string) bool {
	return p == "/api" || strings.HasPrefix(p, "/api/")
}
