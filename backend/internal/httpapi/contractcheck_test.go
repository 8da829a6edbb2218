package httpapi

// Every response the Go HTTP tests receive is checked against openapi.yaml: its status must
// be listed for the operation, its content type listed for that status, and its body must
// match the schema. newTestHandler wraps every handler under test with this check, so a
// drift between the server and its contract fails `make test` wherever it shows.

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3filter"

	"github.com/percolate/percolate/gen/api"
)

var (
	contractRouterOnce sync.Once
	contractRouter     *validator
	contractRouterErr  error
)

// contractChecked serves next and fails t when a response to an operation of the contract
// breaks it. Requests the contract does not describe (the web app, the docs, unknown paths
// and methods) are not checked. With gateOnly, answers from past the request gate (5xx) are
// not checked either: see newGateHandler.
func contractChecked(t testing.TB, next http.Handler, gateOnly bool) http.Handler {
	t.Helper()
	contractRouterOnce.Do(func() {
		spec, err := api.GetSpec()
		if err != nil {
			contractRouterErr = err
			return
		}
		contractRouter, contractRouterErr = newValidator(spec, nil)
	})
	if contractRouterErr != nil {
		t.Fatalf("load the contract: %v", contractRouterErr)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		route, params, routeErr := contractRouter.router.FindRoute(r)
		rec := &teeWriter{statusRecorder: statusRecorder{ResponseWriter: w}}
		next.ServeHTTP(rec, r)
		if routeErr != nil || (gateOnly && rec.status >= 500) {
			return
		}
		opts := validationOptions()
		opts.IncludeResponseStatus = true
		// An event stream and an HTML page (the unsubscribe link's) have no decoder; their
		// status and content type are still checked.
		ct := rec.Header().Get("Content-Type")
		opts.ExcludeResponseBody = strings.HasPrefix(ct, "text/event-stream") || strings.HasPrefix(ct, "text/html")
		status := rec.status
		if status == 0 {
			status = http.StatusOK
		}
		body := rec.body.Bytes()
		if rec.Header().Get("Content-Encoding") == "gzip" {
			// A client that accepts gzip (any real one) gets a compressed body.
			zr, err := gzip.NewReader(bytes.NewReader(body))
			if err == nil {
				body, err = io.ReadAll(zr)
			}
			if err != nil {
				t.Errorf("%s %s answered a gzip body that does not decompress: %v", r.Method, r.URL.Path, err)
				return
			}
		}
		err := openapi3filter.ValidateResponse(r.Context(), &openapi3filter.ResponseValidationInput{
			RequestValidationInput: &openapi3filter.RequestValidationInput{Request: r, PathParams: params, Route: route},
			Status:                 status,
			Header:                 rec.Header(),
			Body:                   io.NopCloser(bytes.NewReader(body)),
			Options:                &opts,
		})
		if err != nil {
			t.Errorf("%s %s answered %d %q, which openapi.yaml does not allow: %v\nbody: %.300s",
				r.Method, r.URL.Path, status, rec.Header().Get("Content-Type"), err, body)
		}
	})
}

// teeWriter passes a response through while keeping its status (statusRecorder) and body.
type teeWriter struct {
	statusRecorder
	body bytes.Buffer
}

func (w *teeWriter) Write(b []byte) (int, error) {
	w.body.Write(b)
	return w.statusRecorder.Write(b)
}

// newGateHandler is the server on the offline services (see withOffline), for tests of the
// request gate (decoding and the contract's schemas), which must answer before a handler
// runs. A request that passes the gate reaches a service whose database never answers and
// gets a 5xx, so only the gate's own answers are checked against the contract.
func newGateHandler(t testing.TB) http.Handler {
	t.Helper()
	return contractChecked(t, buildHandler(t, Deps{Verifier: acceptToken("good")}), true)
}

// recordingTB keeps the failures reported to it instead of failing the test.
type recordingTB struct {
	testing.TB
	errors []string
}

func (r *recordingTB) Helper() {}

func (r *recordingTB) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

// Fatalf keeps the failure and ends the goroutine, as testing's does: call the code under
// check through run, so it ends that code and not the test.
func (r *recordingTB) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	runtime.Goexit()
}

// run calls check with r on a goroutine of its own and waits for it to end.
func (r *recordingTB) run(check func(testing.TB)) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		check(r)
	}()
	<-done
}

// The check itself: a listed answer passes; an unlisted status, an unlisted content type or
// a body that does not match its schema is reported.
func TestContractCheckReportsEveryKindOfDrift(t *testing.T) {
	for _, c := range []struct {
		name, contentType, body string
		status                  int
		drift                   bool
	}{
		{"as the contract says", "application/json", `{"status":"ok","database":"ok"}`, http.StatusOK, false},
		{"unlisted status", "application/json", `{"status":"ok","database":"ok"}`, http.StatusTeapot, true},
		{"unlisted content type", "text/plain", "ok", http.StatusOK, true},
		{"body off its schema", "application/json", `{"status":"fine"}`, http.StatusOK, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec := &recordingTB{TB: t}
			h := contractChecked(rec, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", c.contentType)
				w.WriteHeader(c.status)
				_, _ = io.WriteString(w, c.body)
			}), false)
			do(h, http.MethodGet, "/api/health", "")
			if got := len(rec.errors) > 0; got != c.drift {
				t.Fatalf("reported %v, want a report: %v", rec.errors, c.drift)
			}
		})
	}
}
