package httpapi

// The Go HTTP tests speak to the server through the typed client oapi-codegen generates from
// openapi.yaml (gen/apiclient): a request is built from the contract's types and an answer is
// read into them, so a test names the field it checks (res.JSON200.Entitlements.Voice) rather
// than digging through a map. The handler under test is still wrapped by contractChecked, so
// every answer is also validated against the contract. Tests that must send what the typed
// client cannot (malformed JSON, wrong types, NUL bytes) keep the raw do and call helpers.

import (
	"context"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

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

// bearer sends token as the request's bearer token.
func bearer(token string) apiclient.RequestEditorFn {
	return func(_ context.Context, r *http.Request) error {
		r.Header.Set("Authorization", "Bearer "+token)
		return nil
	}
}

// answer is what every operation's typed answer has.
type answer interface{ StatusCode() int }

// wantStatus fails t unless the call succeeded with the status want; it names the operation
// and shows the body, so a failure says what the server answered.
func wantStatus(t testing.TB, a answer, err error, want int) {
	t.Helper()
	if err != nil {
		t.Fatalf("the typed client could not read the answer (want %d): %v", want, err)
	}
	if got := a.StatusCode(); got != want {
		t.Fatalf("%s answered %d, want %d: %s", reflect.TypeOf(a).Elem().Name(), got, want, bodyOf(a))
	}
}

// bodyOf is the raw body of a typed answer (every generated answer keeps it as Body).
func bodyOf(a answer) string {
	v := reflect.ValueOf(a)
	if v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	if f := v.FieldByName("Body"); f.IsValid() {
		return string(f.Bytes())
	}
	return ""
}
