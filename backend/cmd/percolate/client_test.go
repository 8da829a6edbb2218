package main

// The tests of the real binary speak to it through the typed client oapi-codegen generates
// from openapi.yaml (gen/apiclient), over a real connection: a request is built from the
// contract's types and an answer is read into them, so that a failure names the field it
// checks. What the typed client cannot send (half a request around a SIGTERM) stays raw, and
// its answer, when the contract describes it, is read into the contract's type with decodeAs;
// so is the data of each event of a stream.

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	openapi_types "github.com/oapi-codegen/runtime/types"

	"github.com/percolate/percolate/backend/internal/apitest"
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

// The package's names for apitest's helpers, which the handler tests share.
var (
	bearer     = apitest.Bearer
	wantStatus = apitest.WantStatus
)

// eventData is the data of ev decoded into the contract's type T; ev must be the event named
// name.
func eventData[T any](t testing.TB, ev sseEvent, name string) T {
	t.Helper()
	if ev.name != name {
		t.Fatalf("event = %q (data %s), want %q", ev.name, ev.data, name)
	}
	return apitest.DecodeAs[T](t, "the "+name+" event's data", ev.data)
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
