package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/chat"
	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/llmtest"
	"github.com/percolate/percolate/backend/internal/entitlement"
	"github.com/percolate/percolate/backend/internal/queue/queuetest"
	"github.com/percolate/percolate/backend/internal/store"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
	"github.com/percolate/percolate/gen/api"
	"github.com/percolate/percolate/gen/apiclient"
)

// chatTokens accepts a user id as the access token.
type chatTokens struct{}

func (chatTokens) VerifyAccessToken(_ context.Context, token string) (Caller, error) {
	id, err := uuid.Parse(token)
	if err != nil {
		return Caller{}, fmt.Errorf("%w: %w", apperr.ErrUnauthorized, err)
	}
	return Caller{UserID: id, Role: "USER"}, nil
}

type chatEnv struct {
	h   http.Handler
	st  *store.Store
	llm *llmtest.Server
	p   companion.Provider
	api *apiclient.ClientWithResponses // the typed client of h
}

func newChatEnv(t *testing.T, limits *chat.Limits) *chatEnv {
	t.Helper()
	st := pgtest.New(t)
	llm := llmtest.New(t)
	llm.Route(companion.MemoryInstructionPrefix, llmtest.Script{Chunks: []string{`{"memories":[]}`}})
	// A reply a test holds (reply_handlers_test.go) must not stall while the test goes on, even
	// on a loaded machine; stalls are tested with their own timeout (model_faults_test.go).
	p := companion.NewOpenAIWithConfig(llm.ClientConfig(), "test-model", companion.OpenAIOptions{IdleTimeout: time.Minute})
	e := &chatEnv{st: st, llm: llm, p: p}
	e.h = e.instance(t, limits, p)
	e.api = apiClient(t, e.h, "192.0.2.1")
	return e
}

// instance is another app instance on the environment's database: its own chat service
// (started, and shut down at the end of the test) behind its own handler.
func (e *chatEnv) instance(t *testing.T, limits *chat.Limits, p companion.Provider) http.Handler {
	t.Helper()
	svc := chat.New(e.st, p, chat.Options{Queue: queuetest.New(t, e.st), Limits: limits, Logger: discardLogger(), PollInterval: time.Hour})
	svc.Start()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		svc.Shutdown(ctx)
	})
	return newTestHandler(t, Deps{Verifier: chatTokens{}, Chat: svc})
}

func (e *chatEnv) user(t *testing.T, role string) string {
	t.Helper()
	return pgtest.User(t, e.st, role).ID.String()
}

func (e *chatEnv) call(method, target, token string, body any) response {
	b := ""
	if body != nil {
		raw, _ := json.Marshal(body)
		b = string(raw)
	}
	return do(e.h, method, target, b, "Authorization", "Bearer "+token)
}

func (e *chatEnv) newChat(t *testing.T, token string) string {
	t.Helper()
	res, err := e.api.SendChatMessageWithResponse(context.Background(), api.SendMessageRequest{Message: chat.StarterMessage}, bearer(token))
	wantStatus(t, res, err, http.StatusOK)
	m := res.JSON200
	if !m.Success {
		t.Errorf("new chat: success = false, want true")
	}
	if m.SessionId == uuid.Nil {
		t.Errorf("new chat: sessionId is the nil uuid")
	}
	if m.SessionTokenLimit == 0 {
		t.Errorf("new chat: sessionTokenLimit = 0, want the tier's limit")
	}
	if m.SessionTokensUsed != 0 {
		t.Errorf("new chat: sessionTokensUsed = %d, want 0", m.SessionTokensUsed)
	}
	if got := chatShow(m.Title); got != "New Chat" {
		t.Errorf("new chat: title = %s, want New Chat", got)
	}
	if t.Failed() {
		t.FailNow()
	}
	return m.SessionId.String()
}

// detail reads a session of token's user through the typed client; it must answer 200.
func (e *chatEnv) detail(t *testing.T, token string, sid uuid.UUID) *api.SessionDetail {
	t.Helper()
	res, err := e.api.GetChatSessionWithResponse(context.Background(), sid, bearer(token))
	wantStatus(t, res, err, http.StatusOK)
	return res.JSON200
}

// chatMessage is the request body that sends text to the session sid.
func chatMessage(text, sid string) api.SendMessageRequest {
	id := uuid.MustParse(sid)
	return api.SendMessageRequest{Message: text, SessionId: &id}
}

// chatShow is *p printed, or "(absent)" when p is nil, so an optional field is compared and
// reported in one step.
func chatShow[T any](p *T) string {
	if p == nil {
		return "(absent)"
	}
	return fmt.Sprint(*p)
}

// chatDecode decodes a JSON body the contract describes (an event's data, or the answer of a
// request the typed client cannot send) into its gen/api type.
func chatDecode[T any](t *testing.T, what string, body []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("%s is not a %T: %v: %s", what, v, err, body)
	}
	return v
}

// chatEvent is the data of ev decoded into T; ev must be the event named name.
func chatEvent[T any](t *testing.T, ev sseEvent, name string) T {
	t.Helper()
	if ev.name != name {
		t.Fatalf("event = %q (data %s), want %q", ev.name, ev.data, name)
	}
	return chatDecode[T](t, "the "+name+" event's data", []byte(ev.data))
}

func TestChatOverHTTP(t *testing.T) {
	ctx := context.Background()
	e := newChatEnv(t, nil)
	tok := e.user(t, "BASIC")
	sid := e.newChat(t, tok)
	id := uuid.MustParse(sid)

	e.llm.Enqueue(llmtest.Script{Chunks: []string{"That sounds ", "tiring."}, CompletionTokens: 4})
	sent, err := e.api.SendChatMessageWithResponse(ctx, api.SendMessageRequest{Message: "Work has been a lot lately", SessionId: &id}, bearer(tok))
	wantStatus(t, sent, err, http.StatusOK)
	if !sent.JSON200.Success {
		t.Errorf("send: success = false, want true")
	}
	if got := sent.JSON200.AiResponse; got != "That sounds tiring." {
		t.Errorf("send: aiResponse = %q, want %q", got, "That sounds tiring.")
	}
	if sent.JSON200.SessionEnded {
		t.Errorf("send: sessionEnded = true, want false")
	}
	if got := chatShow(sent.JSON200.Title); got != "Work has been a lot lately" {
		t.Errorf("send: title = %s, want the first message", got)
	}

	list, err := e.api.ListChatSessionsWithResponse(ctx, nil, bearer(tok))
	wantStatus(t, list, err, http.StatusOK)
	if n := len(*list.JSON200); n != 1 {
		t.Fatalf("list: %d sessions, want 1: %s", n, list.Body)
	}
	item := (*list.JSON200)[0]
	if item.Id != id {
		t.Errorf("list: id = %s, want %s", item.Id, id)
	}
	if item.Status != api.ACTIVE {
		t.Errorf("list: status = %s, want ACTIVE", item.Status)
	}
	if got := chatShow(item.LastMessage); got != "That sounds tiring." {
		t.Errorf("list: lastMessage = %s, want the reply", got)
	}
	if item.SessionSummary != nil {
		t.Errorf("list: sessionSummary = %q, want null for an active session", *item.SessionSummary)
	}

	got, err := e.api.GetChatSessionWithResponse(ctx, id, bearer(tok))
	wantStatus(t, got, err, http.StatusOK)
	d := got.JSON200
	if !d.IsActive {
		t.Errorf("detail: isActive = false, want true")
	}
	if want := entitlement.Default().For("BASIC").SessionTokens; d.SessionTokenLimit != want {
		t.Errorf("detail: sessionTokenLimit = %d, want %d (BASIC)", d.SessionTokenLimit, want)
	}
	if len(d.Messages) != 4 {
		t.Fatalf("detail: %d messages, want 4: %s", len(d.Messages), got.Body)
	}
	last := d.Messages[3]
	if last.Role != api.ChatRoleAssistant {
		t.Errorf("last message: role = %s, want assistant", last.Role)
	}
	if last.TokenCount != 4 {
		t.Errorf("last message: tokenCount = %d, want 4", last.TokenCount)
	}
	if last.Timestamp.IsZero() {
		t.Errorf("last message: timestamp is zero")
	}
	if last.Id == uuid.Nil {
		t.Errorf("last message: id is the nil uuid")
	}
	// Absent, not null: the typed field cannot tell the two apart, the keys can.
	if keys := chatDecode[map[string]json.RawMessage](t, "the detail", got.Body); keys["sessionSummary"] != nil {
		t.Errorf("detail: an active session has a sessionSummary field: %s", keys["sessionSummary"])
	}

	query := "WORK"
	found, err := e.api.SearchProfileSessionsWithResponse(ctx, &api.SearchProfileSessionsParams{Query: &query}, bearer(tok))
	wantStatus(t, found, err, http.StatusOK)
	if n := len(*found.JSON200); n != 1 {
		t.Fatalf("search %q: %d sessions, want 1: %s", query, n, found.Body)
	}
	if hit := (*found.JSON200)[0].Id; hit != id {
		t.Errorf("search %q: found %s, want %s", query, hit, id)
	}
	query = "nothing-like-this"
	found, err = e.api.SearchProfileSessionsWithResponse(ctx, &api.SearchProfileSessionsParams{Query: &query}, bearer(tok))
	wantStatus(t, found, err, http.StatusOK)
	if n := len(*found.JSON200); n != 0 {
		t.Errorf("search %q: %d sessions, want none: %s", query, n, found.Body)
	}
	profile, err := e.api.GetProfileSessionWithResponse(ctx, id, bearer(tok))
	wantStatus(t, profile, err, http.StatusOK)
	if profile.JSON200.Id != id {
		t.Errorf("profile session: id = %s, want %s", profile.JSON200.Id, id)
	}

	takeaway, err := e.api.GetChatTakeawayWithResponse(ctx, id, bearer(tok))
	wantStatus(t, takeaway, err, http.StatusOK)
	if takeaway.JSON200.Takeaway == "" {
		t.Errorf("takeaway is empty")
	}
	takeaway, err = e.api.GetChatTakeawayWithResponse(ctx, id, bearer(e.user(t, "BASIC")))
	wantStatus(t, takeaway, err, http.StatusNotFound)

	wonderful := api.ClosingFeeling("wonderful")
	ended, err := e.api.EndChatSessionWithResponse(ctx, id, api.EndSessionRequest{Feeling: &wonderful}, bearer(tok))
	wantStatus(t, ended, err, http.StatusBadRequest)
	if _, ok := ended.JSON400.Details["feeling"]; !ok {
		t.Errorf("end with an unknown feeling: details = %v, want one for feeling", ended.JSON400.Details)
	}
	// Without a body (the typed client always sends one).
	raw := e.call(http.MethodPost, "/api/chat/sessions/"+sid+"/end", tok, nil)
	if raw.Code != http.StatusOK {
		t.Fatalf("end: %d %s", raw.Code, raw.Body)
	}
	if s := chatDecode[api.SessionListItem](t, "the ended session", raw.Body.Bytes()); s.Status != api.ENDED {
		t.Errorf("end: status = %s, want ENDED", s.Status)
	} else if s.ClosingFeeling != nil {
		t.Errorf("end: closingFeeling = %s, want absent", *s.ClosingFeeling)
	}
	better := api.Better
	ended, err = e.api.EndChatSessionWithResponse(ctx, id, api.EndSessionRequest{Feeling: &better}, bearer(tok))
	wantStatus(t, ended, err, http.StatusOK)
	if got := chatShow(ended.JSON200.ClosingFeeling); got != "better" {
		t.Errorf("end with how the user feels: closingFeeling = %s, want better", got)
	}
	sent, err = e.api.SendChatMessageWithResponse(ctx, api.SendMessageRequest{Message: "hello?", SessionId: &id}, bearer(tok))
	wantStatus(t, sent, err, http.StatusConflict)
	if sent.JSON409.Code != "CONFLICT" {
		t.Errorf("send to ended: code = %s, want CONFLICT", sent.JSON409.Code)
	}
	if want := "This session has ended. You cannot send new messages."; sent.JSON409.Message != want {
		t.Errorf("send to ended: message = %q, want %q", sent.JSON409.Message, want)
	}
	deleted, err := e.api.DeleteChatSessionWithResponse(ctx, id, bearer(tok))
	wantStatus(t, deleted, err, http.StatusNoContent)
	got, err = e.api.GetChatSessionWithResponse(ctx, id, bearer(tok))
	wantStatus(t, got, err, http.StatusNotFound)
}

func TestChatHTTPRefusals(t *testing.T) {
	ctx := context.Background()
	lim := chat.DefaultLimits()
	lim.Tiers = lim.Tiers.With(entitlement.Overrides{MessagesPerDay: map[string]int{"USER": 2}})
	e := newChatEnv(t, &lim)
	tok := e.user(t, "USER")
	list, err := e.api.ListChatSessionsWithResponse(ctx, nil)
	wantStatus(t, list, err, http.StatusUnauthorized)

	res, err := e.api.SendChatMessageWithResponse(ctx, api.SendMessageRequest{Message: "   "}, bearer(tok))
	wantStatus(t, res, err, http.StatusBadRequest)
	if res.JSON400.Code != api.VALIDATIONERROR {
		t.Errorf("blank: code = %s, want VALIDATION_ERROR", res.JSON400.Code)
	}
	res, err = e.api.SendChatMessageWithResponse(ctx, api.SendMessageRequest{Message: strings.Repeat("x", 4001)}, bearer(tok))
	wantStatus(t, res, err, http.StatusBadRequest)
	if _, ok := res.JSON400.Details["message"]; !ok {
		t.Errorf("too long: details = %v, want one for message", res.JSON400.Details)
	}

	id := uuid.MustParse(e.newChat(t, tok))
	res, err = e.api.SendChatMessageWithResponse(ctx, api.SendMessageRequest{Message: "one", SessionId: &id}, bearer(tok))
	wantStatus(t, res, err, http.StatusOK)
	res, err = e.api.SendChatMessageWithResponse(ctx, api.SendMessageRequest{Message: "two", SessionId: &id}, bearer(tok))
	wantStatus(t, res, err, http.StatusTooManyRequests)
	if res.HTTPResponse.Header.Get("Retry-After") == "" {
		t.Errorf("limit: no Retry-After header")
	}
	if !strings.Contains(res.JSON429.Message, "It resets in ") {
		t.Errorf("limit: message = %q, want it to say in how long it resets", res.JSON429.Message)
	}
	// The stream refuses the same way, as JSON, before any event.
	stream, err := e.api.StreamChatMessageWithResponse(ctx, api.SendMessageRequest{Message: "three", SessionId: &id}, bearer(tok))
	wantStatus(t, stream, err, http.StatusTooManyRequests)
	if ct := stream.HTTPResponse.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("stream limit: Content-Type = %q, want application/json", ct)
	}
	if stream.JSON429 == nil || stream.JSON429.Code == "" {
		t.Errorf("stream limit: no error code: %s", stream.Body)
	}
}

func TestChatHTTPIsolation(t *testing.T) {
	ctx := context.Background()
	e := newChatEnv(t, nil)
	owner, other := e.user(t, "PREMIUM"), e.user(t, "PREMIUM")
	sid := e.newChat(t, owner)
	id := uuid.MustParse(sid)
	read := func() []byte {
		res, err := e.api.GetChatSessionWithResponse(ctx, id, bearer(owner))
		wantStatus(t, res, err, http.StatusOK)
		return res.Body
	}
	before := read()
	by := bearer(other)
	msg := api.SendMessageRequest{Message: "hi", SessionId: &id}
	for _, c := range []struct {
		op   string
		call func() (answer, error)
	}{
		{"GetChatSession", func() (answer, error) { return e.api.GetChatSessionWithResponse(ctx, id, by) }},
		{"DeleteChatSession", func() (answer, error) { return e.api.DeleteChatSessionWithResponse(ctx, id, by) }},
		{"EndChatSession", func() (answer, error) { return e.api.EndChatSessionWithResponse(ctx, id, api.EndSessionRequest{}, by) }},
		{"GetProfileSession", func() (answer, error) { return e.api.GetProfileSessionWithResponse(ctx, id, by) }},
		{"AttachChatReply", func() (answer, error) { return e.api.AttachChatReplyWithResponse(ctx, id, by) }},
		{"StopChatReply", func() (answer, error) { return e.api.StopChatReplyWithResponse(ctx, id, by) }},
		{"RetryChatReply", func() (answer, error) { return e.api.RetryChatReplyWithResponse(ctx, id, by) }},
		{"SendChatMessage", func() (answer, error) { return e.api.SendChatMessageWithResponse(ctx, msg, by) }},
		{"StreamChatMessage", func() (answer, error) { return e.api.StreamChatMessageWithResponse(ctx, msg, by) }},
	} {
		res, err := c.call()
		if err != nil {
			t.Errorf("%s by another user: %v", c.op, err)
			continue
		}
		if res.StatusCode() != http.StatusNotFound {
			t.Errorf("%s by another user: %d, want 404: %s", c.op, res.StatusCode(), bodyOf(res))
		}
	}
	list, err := e.api.ListChatSessionsWithResponse(ctx, nil, by)
	wantStatus(t, list, err, http.StatusOK)
	if n := len(*list.JSON200); n != 0 {
		t.Errorf("ListChatSessions by another user: %d sessions, want none: %s", n, list.Body)
	}
	found, err := e.api.SearchProfileSessionsWithResponse(ctx, &api.SearchProfileSessionsParams{Query: &sid}, by)
	wantStatus(t, found, err, http.StatusOK)
	if n := len(*found.JSON200); n != 0 {
		t.Errorf("SearchProfileSessions by another user: %d sessions, want none: %s", n, found.Body)
	}
	if after := read(); string(after) != string(before) {
		t.Fatalf("session changed:\n%s\n%s", before, after)
	}
}

type sseEvent struct {
	name string
	data string
	at   time.Time
}

func readEvents(t *testing.T, body io.Reader) []sseEvent {
	t.Helper()
	var out []sseEvent
	for ev := range liveEvents(body) {
		out = append(out, ev)
	}
	return out
}

func (e *chatEnv) stream(t *testing.T, srv *httptest.Server, token string, body any) *http.Response {
	t.Helper()
	raw, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/api/chat/message/stream", strings.NewReader(string(raw)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	return res
}

func TestStreamChatMessageSendsChunksAsTheyArrive(t *testing.T) {
	e := newChatEnv(t, nil)
	srv := httptest.NewServer(e.h)
	defer srv.Close()
	tok := e.user(t, "USER")
	sid := e.newChat(t, tok)

	e.llm.Enqueue(llmtest.Script{Chunks: []string{"One ", "two ", "three."}, CompletionTokens: 3, Delay: 80 * time.Millisecond})
	res := e.stream(t, srv, tok, chatMessage("count for me", sid))
	if res.StatusCode != http.StatusOK {
		t.Fatalf("stream: status %d, want 200", res.StatusCode)
	}
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("stream: Content-Type = %q, want text/event-stream", ct)
	}
	events := readEvents(t, res.Body)
	if len(events) != 4 {
		t.Fatalf("%d events, want three deltas and done: %+v", len(events), events)
	}
	var texts []string
	for _, ev := range events[:len(events)-1] {
		texts = append(texts, chatEvent[api.StreamDelta](t, ev, "delta").Text)
	}
	if strings.Join(texts, "|") != "One |two |three." {
		t.Fatalf("deltas = %q", texts)
	}
	if gap := events[2].at.Sub(events[0].at); gap < 100*time.Millisecond {
		t.Fatalf("deltas were batched (%v between first and last)", gap)
	}
	done := chatEvent[api.SendMessageResponse](t, events[len(events)-1], "done")
	if !done.Success {
		t.Errorf("done: success = false, want true")
	}
	if done.AiResponse != "One two three." {
		t.Errorf("done: aiResponse = %q, want %q", done.AiResponse, "One two three.")
	}
	if done.SessionId.String() != sid {
		t.Errorf("done: sessionId = %s, want %s", done.SessionId, sid)
	}
	if done.SessionTokenLimit != 4000 {
		t.Errorf("done: sessionTokenLimit = %d, want 4000 (USER)", done.SessionTokenLimit)
	}
}

func TestStreamChatMessageModelFailureIsAnErrorEventAndKeepsTheMessage(t *testing.T) {
	e := newChatEnv(t, nil)
	srv := httptest.NewServer(e.h)
	defer srv.Close()
	tok := e.user(t, "USER")
	sid := e.newChat(t, tok)
	id := uuid.MustParse(sid)
	e.llm.Enqueue(llmtest.Script{Fail: 500}, llmtest.Script{Fail: 503})
	events := readEvents(t, e.stream(t, srv, tok, chatMessage("are you there", sid)).Body)
	if len(events) != 1 {
		t.Fatalf("%d events, want one error: %+v", len(events), events)
	}
	failed := chatEvent[api.StreamError](t, events[0], "error")
	if failed.Code != "COMPANION_UNAVAILABLE" {
		t.Errorf("error event: code = %s, want COMPANION_UNAVAILABLE", failed.Code)
	}
	if failed.SessionId != id {
		t.Errorf("error event: sessionId = %s, want %s", failed.SessionId, id)
	}
	msgs := e.detail(t, tok, id).Messages
	if len(msgs) == 0 {
		t.Fatalf("the session has no messages")
	}
	last := msgs[len(msgs)-1]
	if last.Content != "are you there" {
		t.Errorf("user message lost: the last message is %q", last.Content)
	}
	if last.Role != api.ChatRoleUser {
		t.Errorf("the last message's role = %s, want user", last.Role)
	}
	// The non-streamed call answers success false with the error text.
	e.llm.Enqueue(llmtest.Script{Fail: 500}, llmtest.Script{Fail: 500})
	res, err := e.api.SendChatMessageWithResponse(context.Background(), api.SendMessageRequest{Message: "again", SessionId: &id}, bearer(tok))
	wantStatus(t, res, err, http.StatusOK)
	if res.JSON200.Success {
		t.Errorf("send failure: success = true, want false")
	}
	if got := chatShow(res.JSON200.Error); got != chat.MsgModelFailed {
		t.Errorf("send failure: error = %s, want %q", got, chat.MsgModelFailed)
	}
	if res.JSON200.SessionId != id {
		t.Errorf("send failure: sessionId = %s, want %s", res.JSON200.SessionId, id)
	}
}
