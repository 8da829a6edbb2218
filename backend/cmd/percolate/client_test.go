package main

// The tests of the real binary speak to it through the typed client oapi-codegen generates
// from openapi.yaml (gen/apiclient), over a real connection: a request is built from the
// contract's types and an answer is read into them, so that a failure names the field it
// checks. What the typed client cannot send (half a request around a SIGTERM) stays raw, and
// its answer, when the contract describes it, is read into the contract's type with decodeAs;
// so is the data of each event of a stream.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/google/uuid"
	openapi_types "github.com/oapi-codegen/runtime/types"

	"github.com/percolate/percolate/backend/internal/chat"
	"github.com/percolate/percolate/gen/api"
	"github.com/percolate/percolate/gen/apiclient"
)

// typedClient is the typed client of the contract for the server at base. Its http.Client
// has no overall timeout, so that a stream can be read for as long as a test waits; each
// request carries its own deadline (typedCtx).
func typedClient(t testing.TB, base string) *apiclient.ClientWithResponses {
	t.Helper()
	hc := &http.Client{Transport: &http.Transport{}}
	t.Cleanup(hc.CloseIdleConnections)
	c, err := apiclient.NewClientWithResponses(base, apiclient.WithHTTPClient(hc))
	if err != nil {
		t.Fatalf("typed client: %v", err)
	}
	return c
}

// typedCtx is the context of one request that is not a stream: done after 30 s, or at the
// end of the test.
func typedCtx(t testing.TB) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// bearer sends token as the request's bearer token.
func bearer(token string) apiclient.RequestEditorFn {
	return func(_ context.Context, r *http.Request) error {
		r.Header.Set("Authorization", "Bearer "+token)
		return nil
	}
}

// typedAnswer is what every operation's typed answer has.
type typedAnswer interface{ StatusCode() int }

// wantStatus fails t unless the call succeeded with the status want; it names the operation
// and shows the body, so a failure says what the server answered.
func wantStatus(t testing.TB, a typedAnswer, err error, want int) {
	t.Helper()
	if err != nil {
		t.Fatalf("the typed client could not read the answer (want %d): %v", want, err)
	}
	if got := a.StatusCode(); got != want {
		t.Fatalf("%s answered %d, want %d: %.300s", reflect.TypeOf(a).Elem().Name(), got, want, typedBody(a))
	}
}

// typedBody is the raw body of a typed answer (every generated answer keeps it as Body).
func typedBody(a typedAnswer) []byte {
	v := reflect.ValueOf(a)
	if v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	if f := v.FieldByName("Body"); f.IsValid() {
		return f.Bytes()
	}
	return nil
}

// decodeAs reads body (what names it) as exactly one value of the contract's type T: a member
// T does not have, a second value or null fails t, naming T.
func decodeAs[T any](t testing.TB, what string, body []byte) T {
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

// eventData is the data of ev decoded into the contract's type T; ev must be the event named
// name.
func eventData[T any](t testing.TB, ev sseEvent, name string) T {
	t.Helper()
	if ev.name != name {
		t.Fatalf("event = %q (data %s), want %q", ev.name, ev.data, name)
	}
	return decodeAs[T](t, "the "+name+" event's data", ev.data)
}

// signIn logs in with a password through the typed client and returns the tokens.
func signIn(t testing.TB, c *apiclient.ClientWithResponses, email, password string) (access, refresh string) {
	t.Helper()
	res, err := c.LoginWithResponse(typedCtx(t), api.LoginRequest{Email: openapi_types.Email(email), Password: password})
	wantStatus(t, res, err, http.StatusOK)
	if res.JSON200.AccessToken == "" {
		t.Errorf("login: accessToken is empty")
	}
	if res.JSON200.RefreshToken == "" {
		t.Errorf("login: refreshToken is empty")
	}
	if got := res.JSON200.User.Email; got != email {
		t.Errorf("login: user.email = %q, want %q", got, email)
	}
	if t.Failed() {
		t.FailNow()
	}
	return res.JSON200.AccessToken, res.JSON200.RefreshToken
}

// startChat opens a new chat (the first message of one, answered with the fixed welcome) and
// returns its session.
func startChat(t testing.TB, c *apiclient.ClientWithResponses, token string) uuid.UUID {
	t.Helper()
	res, err := c.SendChatMessageWithResponse(typedCtx(t), api.SendMessageRequest{Message: chat.StarterMessage}, bearer(token))
	wantStatus(t, res, err, http.StatusOK)
	if !res.JSON200.Success {
		t.Errorf("new chat: success = false, want true")
	}
	if res.JSON200.SessionId == uuid.Nil {
		t.Errorf("new chat: sessionId is the nil uuid")
	}
	if t.Failed() {
		t.FailNow()
	}
	return res.JSON200.SessionId
}
