// Package apitest holds what every Go HTTP test needs to speak through the typed client of
// openapi.yaml (gen/apiclient): a bearer token, a status check that shows what the server
// answered, and a strict decoding of a raw body into a type of the contract.
package apitest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"reflect"
	"testing"

	"github.com/percolate/percolate/gen/apiclient"
)

// Bearer sends token as the request's bearer token.
func Bearer(token string) apiclient.RequestEditorFn {
	return func(_ context.Context, r *http.Request) error {
		r.Header.Set("Authorization", "Bearer "+token)
		return nil
	}
}

// Answer is what every operation's typed answer has.
type Answer interface{ StatusCode() int }

// WantStatus fails t unless the call succeeded with the status want; it names the operation
// and shows the body, so a failure says what the server answered.
func WantStatus(t testing.TB, a Answer, err error, want int) {
	t.Helper()
	if err != nil {
		t.Fatalf("the typed client could not read the answer (want %d): %v", want, err)
	}
	if got := a.StatusCode(); got != want {
		t.Fatalf("%s answered %d, want %d: %s", reflect.TypeOf(a).Elem().Name(), got, want, Body(a))
	}
}

// Body is the raw body of a typed answer (every generated answer keeps it as Body).
func Body(a Answer) []byte {
	v := reflect.ValueOf(a)
	if v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	if f := v.FieldByName("Body"); f.IsValid() {
		return f.Bytes()
	}
	return nil
}

// DecodeAs reads body (what names it) as exactly one value of the contract's type T: a member
// T does not have, a second value or null fails t, naming T.
func DecodeAs[T any](t testing.TB, what string, body []byte) T {
	t.Helper()
	var v T
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	err := dec.Decode(&v)
	if err == nil && string(bytes.TrimSpace(body)) == "null" {
		err = errors.New("null")
	}
	if err == nil {
		if extra := dec.Decode(new(json.RawMessage)); extra != io.EOF {
			err = errors.New("more than one JSON value")
		}
	}
	if err != nil {
		t.Fatalf("%s is not a %T: %v: %.300s", what, v, err, body)
	}
	return v
}
