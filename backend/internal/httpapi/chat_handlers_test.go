package httpapi

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/chat"
	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/llmtest"
	"github.com/percolate/percolate/backend/internal/entitlement"
	"github.com/percolate/percolate/backend/internal/queue/queuetest"
	"github.com/percolate/percolate/backend/internal/store"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
	dbgen "github.com/percolate/percolate/gen/db"
)

// chatTokens accepts a user id as the access token.
type chatTokens struct{}

func (chatTokens) VerifyAccessToken(_ context.Context, token string) (Caller, error) {
	id, err := uuid.Parse(token)
	if err != nil {
		return Caller{}, err
	}
	return Caller{UserID: id, Role: "USER"}, nil
}

type chatEnv struct {
	h   http.Handler
	st  *store.Store
	llm *llmtest.Server
	p   companion.Provider
}

func newChatEnv(t *testing.T, limits *chat.Limits) *chatEnv {
	t.Helper()
	st := pgtest.New(t)
	llm := llmtest.New(t)
	llm.Route(companion.MemoryInstructionPrefix, llmtest.Script{Chunks: []string{`{"memories":[]}`}})
	p := companion.NewOpenAIWithConfig(llm.ClientConfig(), "test-model", companion.OpenAIOptions{IdleTimeout: 300 * time.Millisecond})
	e := &chatEnv{st: st, llm: llm, p: p}
	e.h = e.instance(t, limits, p)
	return e
}

// instance is another app instance on the environment's database: its own chat service
// (started, and shut down at the end of the test) behind its own handler.
func (e *chatEnv) instance(t *testing.T, limits *chat.Limits, p companion.Provider) http.Handler {
	t.Helper()
	svc := chat.New(e.st, p, chat.Options{Queue: queuetest.New(t, e.st), Limits: limits, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), PollInterval: time.Hour})
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
	email := uuid.NewString()[:8] + "@example.com"
	u, err := e.st.Queries().CreateUser(context.Background(), dbgen.CreateUserParams{Email: email, Name: "Sam"})
	if err != nil {
		t.Fatal(err)
	}
	if role != "USER" {
		if _, err := e.st.Queries().SetUserRoleByEmail(context.Background(), dbgen.SetUserRoleByEmailParams{Role: role, Email: email}); err != nil {
			t.Fatal(err)
		}
	}
	return u.ID.String()
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
	res := e.call(http.MethodPost, "/api/chat/message", token, map[string]any{"message": chat.StarterMessage})
	if res.Code != http.StatusOK {
		t.Fatalf("new chat: %d %s", res.Code, res.Body)
	}
	m := res.json(t)
	if m["success"] != true || m["sessionId"] == "" || m["sessionTokenLimit"] == float64(0) || m["sessionTokensUsed"] != float64(0) || m["title"] != "New Chat" {
		t.Fatalf("new chat = %v", m)
	}
	return m["sessionId"].(string)
}

func TestChatOverHTTP(t *testing.T) {
	e := newChatEnv(t, nil)
	tok := e.user(t, "BASIC")
	sid := e.newChat(t, tok)

	e.llm.Enqueue(llmtest.Script{Chunks: []string{"That sounds ", "tiring."}, CompletionTokens: 4})
	res := e.call(http.MethodPost, "/api/chat/message", tok, map[string]any{"message": "Work has been a lot lately", "sessionId": sid})
	m := res.json(t)
	if res.Code != 200 || m["success"] != true || m["aiResponse"] != "That sounds tiring." || m["sessionEnded"] != false || m["title"] != "Work has been a lot lately" {
		t.Fatalf("send: %d %v", res.Code, m)
	}

	var list []map[string]any
	res = e.call(http.MethodGet, "/api/chat/sessions", tok, nil)
	_ = json.Unmarshal(res.Body.Bytes(), &list)
	if res.Code != 200 || len(list) != 1 || list[0]["id"] != sid || list[0]["status"] != "ACTIVE" || list[0]["lastMessage"] != "That sounds tiring." || list[0]["sessionSummary"] != nil {
		t.Fatalf("list: %d %s", res.Code, res.Body)
	}

	res = e.call(http.MethodGet, "/api/chat/sessions/"+sid, tok, nil)
	d := res.json(t)
	msgs, _ := d["messages"].([]any)
	if res.Code != 200 || d["isActive"] != true || len(msgs) != 4 || d["sessionTokenLimit"] != float64(4000) {
		t.Fatalf("detail: %d %s", res.Code, res.Body)
	}
	last := msgs[3].(map[string]any)
	if last["role"] != "assistant" || last["tokenCount"] != float64(4) || last["timestamp"] == nil || last["id"] == nil {
		t.Fatalf("message = %v", last)
	}
	if _, ok := d["sessionSummary"]; ok {
		t.Fatalf("active session has a summary field: %s", res.Body)
	}

	res = e.call(http.MethodGet, "/api/profile/sessions?query=WORK", tok, nil)
	_ = json.Unmarshal(res.Body.Bytes(), &list)
	if res.Code != 200 || len(list) != 1 {
		t.Fatalf("search: %d %s", res.Code, res.Body)
	}
	res = e.call(http.MethodGet, "/api/profile/sessions?query=nothing-like-this", tok, nil)
	_ = json.Unmarshal(res.Body.Bytes(), &list)
	if res.Code != 200 || len(list) != 0 {
		t.Fatalf("search miss: %d %s", res.Code, res.Body)
	}
	if res = e.call(http.MethodGet, "/api/profile/sessions/"+sid, tok, nil); res.Code != 200 || res.json(t)["id"] != sid {
		t.Fatalf("profile session: %d %s", res.Code, res.Body)
	}

	res = e.call(http.MethodGet, "/api/chat/sessions/"+sid+"/takeaway", tok, nil)
	if m := res.json(t); res.Code != 200 || m["takeaway"] == "" {
		t.Fatalf("takeaway: %d %s", res.Code, res.Body)
	}
	if res = e.call(http.MethodGet, "/api/chat/sessions/"+sid+"/takeaway", e.user(t, "BASIC"), nil); res.Code != http.StatusNotFound {
		t.Fatalf("another user's takeaway: %d %s", res.Code, res.Body)
	}
	res = e.call(http.MethodPost, "/api/chat/sessions/"+sid+"/end", tok, map[string]any{"feeling": "wonderful"})
	if res.Code != http.StatusBadRequest || !strings.Contains(res.Body.String(), "feeling") {
		t.Fatalf("end with an unknown feeling: %d %s", res.Code, res.Body)
	}
	res = e.call(http.MethodPost, "/api/chat/sessions/"+sid+"/end", tok, nil)
	if m := res.json(t); res.Code != 200 || m["status"] != "ENDED" || m["closingFeeling"] != nil {
		t.Fatalf("end: %d %s", res.Code, res.Body)
	}
	res = e.call(http.MethodPost, "/api/chat/sessions/"+sid+"/end", tok, map[string]any{"feeling": "better"})
	if m := res.json(t); res.Code != 200 || m["closingFeeling"] != "better" {
		t.Fatalf("end with how the user feels: %d %s", res.Code, res.Body)
	}
	res = e.call(http.MethodPost, "/api/chat/message", tok, map[string]any{"message": "hello?", "sessionId": sid})
	if m := res.json(t); res.Code != http.StatusConflict || m["code"] != "CONFLICT" || m["message"] != "This session has ended. You cannot send new messages." {
		t.Fatalf("send to ended: %d %s", res.Code, res.Body)
	}
	if res = e.call(http.MethodDelete, "/api/chat/sessions/"+sid, tok, nil); res.Code != http.StatusNoContent {
		t.Fatalf("delete: %d %s", res.Code, res.Body)
	}
	if res = e.call(http.MethodGet, "/api/chat/sessions/"+sid, tok, nil); res.Code != http.StatusNotFound {
		t.Fatalf("after delete: %d %s", res.Code, res.Body)
	}
}

func TestChatHTTPRefusals(t *testing.T) {
	lim := chat.DefaultLimits()
	lim.Tiers = lim.Tiers.With(entitlement.Overrides{MessagesPerDay: map[string]int{"USER": 2}})
	e := newChatEnv(t, &lim)
	tok := e.user(t, "USER")
	if res := do(e.h, http.MethodGet, "/api/chat/sessions", ""); res.Code != http.StatusUnauthorized {
		t.Fatalf("no token: %d", res.Code)
	}
	res := e.call(http.MethodPost, "/api/chat/message", tok, map[string]any{"message": "   "})
	if m := res.json(t); res.Code != 400 || m["code"] != "VALIDATION_ERROR" {
		t.Fatalf("blank: %d %s", res.Code, res.Body)
	}
	res = e.call(http.MethodPost, "/api/chat/message", tok, map[string]any{"message": strings.Repeat("x", 4001)})
	if res.Code != 400 {
		t.Fatalf("too long: %d %s", res.Code, res.Body)
	}
	sid := e.newChat(t, tok)
	e.call(http.MethodPost, "/api/chat/message", tok, map[string]any{"message": "one", "sessionId": sid})
	res = e.call(http.MethodPost, "/api/chat/message", tok, map[string]any{"message": "two", "sessionId": sid})
	if res.Code != http.StatusTooManyRequests || res.Header().Get("Retry-After") == "" || !strings.Contains(res.json(t)["message"].(string), "resets at midnight UTC") {
		t.Fatalf("limit: %d %s %v", res.Code, res.Body, res.Header())
	}
	// The stream refuses the same way, as JSON, before any event.
	res = e.call(http.MethodPost, "/api/chat/message/stream", tok, map[string]any{"message": "three", "sessionId": sid})
	if res.Code != http.StatusTooManyRequests || !strings.HasPrefix(res.Header().Get("Content-Type"), "application/json") {
		t.Fatalf("stream limit: %d %s", res.Code, res.Body)
	}
}

func TestChatHTTPIsolation(t *testing.T) {
	e := newChatEnv(t, nil)
	owner, other := e.user(t, "PREMIUM"), e.user(t, "PREMIUM")
	sid := e.newChat(t, owner)
	before := e.call(http.MethodGet, "/api/chat/sessions/"+sid, owner, nil).Body.String()
	for _, c := range []struct{ method, target string }{
		{http.MethodGet, "/api/chat/sessions/" + sid},
		{http.MethodDelete, "/api/chat/sessions/" + sid},
		{http.MethodPost, "/api/chat/sessions/" + sid + "/end"},
		{http.MethodGet, "/api/profile/sessions/" + sid},
		{http.MethodGet, "/api/chat/sessions/" + sid + "/stream"},
		{http.MethodPost, "/api/chat/sessions/" + sid + "/stop"},
		{http.MethodPost, "/api/chat/sessions/" + sid + "/retry"},
	} {
		if res := e.call(c.method, c.target, other, nil); res.Code != http.StatusNotFound {
			t.Errorf("%s %s by another user: %d", c.method, c.target, res.Code)
		}
	}
	for _, path := range []string{"/api/chat/message", "/api/chat/message/stream"} {
		if res := e.call(http.MethodPost, path, other, map[string]any{"message": "hi", "sessionId": sid}); res.Code != http.StatusNotFound {
			t.Errorf("%s to another user's session: %d", path, res.Code)
		}
	}
	for _, target := range []string{"/api/chat/sessions", "/api/profile/sessions?query=" + sid} {
		if res := e.call(http.MethodGet, target, other, nil); strings.TrimSpace(res.Body.String()) != "[]" {
			t.Errorf("%s by another user: %s", target, res.Body)
		}
	}
	if after := e.call(http.MethodGet, "/api/chat/sessions/"+sid, owner, nil).Body.String(); after != before {
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
	res := e.stream(t, srv, tok, map[string]any{"message": "count for me", "sessionId": sid})
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("status %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	events := readEvents(t, res.Body)
	var texts []string
	for _, ev := range events[:len(events)-1] {
		var d struct{ Text string }
		if ev.name != "delta" || json.Unmarshal([]byte(ev.data), &d) != nil {
			t.Fatalf("event %+v", ev)
		}
		texts = append(texts, d.Text)
	}
	if strings.Join(texts, "|") != "One |two |three." {
		t.Fatalf("deltas = %q", texts)
	}
	if gap := events[2].at.Sub(events[0].at); gap < 100*time.Millisecond {
		t.Fatalf("deltas were batched (%v between first and last)", gap)
	}
	done := events[len(events)-1]
	var final map[string]any
	_ = json.Unmarshal([]byte(done.data), &final)
	if done.name != "done" || final["success"] != true || final["aiResponse"] != "One two three." || final["sessionId"] != sid || final["sessionTokenLimit"] != float64(1000) {
		t.Fatalf("done = %+v", done)
	}
}

func TestStreamChatMessageModelFailureIsAnErrorEventAndKeepsTheMessage(t *testing.T) {
	e := newChatEnv(t, nil)
	srv := httptest.NewServer(e.h)
	defer srv.Close()
	tok := e.user(t, "USER")
	sid := e.newChat(t, tok)
	e.llm.Enqueue(llmtest.Script{Fail: 500}, llmtest.Script{Fail: 503})
	events := readEvents(t, e.stream(t, srv, tok, map[string]any{"message": "are you there", "sessionId": sid}).Body)
	if len(events) != 1 || events[0].name != "error" || !strings.Contains(events[0].data, `"code":"COMPANION_UNAVAILABLE"`) ||
		!strings.Contains(events[0].data, `"sessionId":"`+sid+`"`) {
		t.Fatalf("events = %+v", events)
	}
	d := e.call(http.MethodGet, "/api/chat/sessions/"+sid, tok, nil).json(t)
	msgs := d["messages"].([]any)
	if last := msgs[len(msgs)-1].(map[string]any); last["content"] != "are you there" || last["role"] != "user" {
		t.Fatalf("user message lost: %v", msgs)
	}
	// The non-streamed call answers success false with the error text.
	e.llm.Enqueue(llmtest.Script{Fail: 500}, llmtest.Script{Fail: 500})
	m := e.call(http.MethodPost, "/api/chat/message", tok, map[string]any{"message": "again", "sessionId": sid}).json(t)
	if m["success"] != false || m["error"] != chat.MsgModelFailed || m["sessionId"] != sid {
		t.Fatalf("send failure = %v", m)
	}
}
