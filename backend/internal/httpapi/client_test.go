package httpapi

// The Go HTTP tests speak to the server through the typed client oapi-codegen generates from
// openapi.yaml (gen/apiclient): a request is built from the contract's types and an answer is
// read into them, so a test names the field it checks (res.JSON200.Entitlements.Voice) rather
// than digging through a map. The handler under test is still wrapped by contractChecked, so
// every answer is also validated against the contract. Tests that must send what the typed
// client cannot (malformed JSON, wrong types, NUL bytes) keep the raw do and call helpers, and
// read the answer, when the contract describes it, into the contract's type with decodeAs.

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/percolate/percolate/backend/internal/apitest"
	"github.com/percolate/percolate/gen/api"
	"github.com/percolate/percolate/gen/apiclient"
)

// inProcess hands the typed client's requests straight to a handler, as if from ip.
type inProcess struct {
	h  http.Handler
	ip string
}

func (d inProcess) Do(r *http.Request) (*http.Response, error) {
	// What net/http's server sets on every request it hands a handler.
	r.RemoteAddr = d.ip + ":40000"
	r.RequestURI = r.URL.RequestURI()
	if r.Body == nil {
		r.Body = http.NoBody
	}
	rec := httptest.NewRecorder()
	d.h.ServeHTTP(rec, r)
	return rec.Result(), nil
}

// apiClient is the typed client of the contract, speaking to h in process from ip.
func apiClient(t testing.TB, h http.Handler, ip string) *apiclient.ClientWithResponses {
	t.Helper()
	c, err := apiclient.NewClientWithResponses(testPublicURL, apiclient.WithHTTPClient(inProcess{h: h, ip: ip}))
	if err != nil {
		t.Fatalf("typed client: %v", err)
	}
	return c
}

// withHeader sets a request header to value (none when value is ""), for a header under test.
func withHeader(name, value string) apiclient.RequestEditorFn {
	return func(_ context.Context, r *http.Request) error {
		if value == "" {
			r.Header.Del(name)
		} else {
			r.Header.Set(name, value)
		}
		return nil
	}
}

// The package's names for apitest's helpers, which the binary's tests share.
type answer = apitest.Answer

var (
	bearer     = apitest.Bearer
	wantStatus = apitest.WantStatus
)

// bodyOf is the raw body of a typed answer, as text.
func bodyOf(a answer) string { return string(apitest.Body(a)) }

// decodeAs reads the body of a raw answer as exactly one value of the contract's type T (see
// apitest.DecodeAs).
func decodeAs[T any](t testing.TB, body []byte) T {
	t.Helper()
	return apitest.DecodeAs[T](t, "the body", body)
}

// wantValidationError reads a raw answer (what names the request) as the contract's
// ValidationError: status 400, then code VALIDATION_ERROR, each checked on its own. The test
// then checks the details it expects.
func wantValidationError(t testing.TB, what string, status int, body []byte) api.ValidationError {
	t.Helper()
	if status != http.StatusBadRequest {
		t.Fatalf("%s: status = %d, want 400: %.300s", what, status, body)
	}
	v := decodeAs[api.ValidationError](t, body)
	if v.Code != api.VALIDATIONERROR {
		t.Fatalf("%s: code = %q, want %s", what, v.Code, api.VALIDATIONERROR)
	}
	if v.Message == "" {
		t.Errorf("%s: message is empty", what)
	}
	if v.Error != v.Message {
		t.Errorf("%s: error = %q, want the message %q", what, v.Error, v.Message)
	}
	return v
}

// wantError reads a raw answer (what names the request) as the contract's Error: status
// wantStatus, then code wantCode, then a message (the same in error and message).
func wantError(t testing.TB, what string, status int, body []byte, wantStatus int, wantCode string) api.ErrorResponse {
	t.Helper()
	if status != wantStatus {
		t.Fatalf("%s: status = %d, want %d: %.300s", what, status, wantStatus, body)
	}
	v := decodeAs[api.ErrorResponse](t, body)
	if v.Code != wantCode {
		t.Fatalf("%s: code = %q, want %s", what, v.Code, wantCode)
	}
	if v.Message == "" {
		t.Errorf("%s: message is empty", what)
	}
	if v.Error != v.Message {
		t.Errorf("%s: error = %q, want the message %q", what, v.Error, v.Message)
	}
	return v
}

// The helpers above report what differs, naming the answer's type, and stop the test there.
func TestTypedHelpersReportWhatDiffers(t *testing.T) {
	res, err := apiClient(t, newTestHandler(t, Deps{Version: "test"}), "192.0.2.1").GetHealthWithResponse(context.Background())
	health := `{"status":"ok","version":"test"}`
	bad := `{"code":"VALIDATION_ERROR","error":"Please fix the errors below.","message":"Please fix the errors below.","details":{}}`
	for _, c := range []struct {
		name  string
		check func(testing.TB)
		want  []string // said by the failures reported; none when the check passes
		goOn  bool     // the failures are errors, after which the test goes on
	}{
		{"status as expected", func(tb testing.TB) { wantStatus(tb, res, err, http.StatusOK) }, nil, false},
		{"another status", func(tb testing.TB) { wantStatus(tb, res, err, http.StatusTeapot) }, []string{"GetHealthAnswer answered 200, want 418", `"status":"ok"`}, false},
		{"no answer", func(tb testing.TB) { wantStatus(tb, res, errors.New("connection reset"), http.StatusOK) }, []string{"connection reset"}, false},
		{"the type", func(tb testing.TB) { decodeAs[api.Health](tb, []byte(health)) }, nil, false},
		{"a member the type lacks", func(tb testing.TB) { decodeAs[api.Health](tb, []byte(`{"status":"ok","uptime":3}`)) }, []string{"not a api.Health", "uptime"}, false},
		{"a second value", func(tb testing.TB) { decodeAs[api.Health](tb, []byte(health+"{}")) }, []string{"not a api.Health", "more than one"}, false},
		{"null", func(tb testing.TB) { decodeAs[api.Health](tb, []byte("null")) }, []string{"not a api.Health"}, false},
		{"a validation error read as another", func(tb testing.TB) { decodeAs[api.Health](tb, []byte(bad)) }, []string{"not a api.Health", "code"}, false},
		{"a wrong type", func(tb testing.TB) { decodeAs[api.Health](tb, []byte(`{"status":5}`)) }, []string{"not a api.Health", "status"}, false},
		{"a validation error", func(tb testing.TB) { wantValidationError(tb, "login", http.StatusBadRequest, []byte(bad)) }, nil, false},
		{"a validation error of another status", func(tb testing.TB) { wantValidationError(tb, "login", http.StatusOK, []byte(bad)) }, []string{"login: status = 200, want 400"}, false},
		{"an error for a validation error", func(tb testing.TB) {
			wantValidationError(tb, "login", http.StatusBadRequest, []byte(`{"code":"NOT_FOUND","error":"x","message":"x"}`))
		}, []string{`login: code = "NOT_FOUND", want VALIDATION_ERROR`}, false},
		{"an error of another code", func(tb testing.TB) {
			wantError(tb, "me", http.StatusNotFound, []byte(`{"code":"NOT_FOUND","error":"x","message":"x"}`), http.StatusNotFound, "GONE")
		}, []string{`me: code = "NOT_FOUND", want GONE`}, false},
		{"an error without a message", func(tb testing.TB) {
			wantError(tb, "me", http.StatusNotFound, []byte(`{"code":"NOT_FOUND","error":"x","message":""}`), http.StatusNotFound, "NOT_FOUND")
		}, []string{"me: message is empty", `me: error = "x", want the message ""`}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec := &recordingTB{TB: t}
			finished := false
			rec.run(func(tb testing.TB) {
				c.check(tb)
				finished = true
			})
			if c.want == nil {
				if len(rec.errors) != 0 || !finished {
					t.Fatalf("reported %q for a passing check", rec.errors)
				}
				return
			}
			got := strings.Join(rec.errors, "\n")
			if len(rec.errors) == 0 {
				t.Fatal("reported nothing")
			}
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("report %q does not say %q", got, w)
				}
			}
			if finished != c.goOn {
				t.Errorf("the check went on: %v, want %v", finished, c.goOn)
			}
		})
	}
}
