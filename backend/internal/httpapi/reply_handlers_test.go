package httpapi

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/llmtest"
	"github.com/percolate/percolate/gen/api"
	"github.com/percolate/percolate/gen/apiclient"
)

// liveEvents reads server-sent events as they come, one per receive; the channel closes at
// the end of the stream.
func liveEvents(body io.Reader) <-chan sseEvent {
	out := make(chan sseEvent, 64)
	go func() {
		defer close(out)
		var cur sseEvent
		sc := bufio.NewScanner(body)
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "event: "):
				cur.name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				cur.data = strings.TrimPrefix(line, "data: ")
			case line == "":
				cur.at = time.Now()
				out <- cur
				cur = sseEvent{}
			}
		}
	}()
	return out
}

func next(t *testing.T, events <-chan sseEvent) sseEvent {
	t.Helper()
	select {
	case ev, ok := <-events:
		if !ok {
			t.Fatal("the stream ended early")
		}
		return ev
	case <-time.After(30 * time.Second):
		t.Fatal("timed out waiting for an event")
	}
	panic("unreachable")
}

func deltaText(t *testing.T, ev sseEvent) string {
	t.Helper()
	return chatEvent[api.StreamDelta](t, ev, "delta").Text
}

// open sends a request to a running server and returns the response (closed at cleanup).
func open(t *testing.T, srv *httptest.Server, method, path, token string, body any) *http.Response {
	t.Helper()
	var rd io.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		rd = strings.NewReader(string(raw))
	}
	req, _ := http.NewRequest(method, srv.URL+path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	return res
}

// pausedReply queues a model reply that pauses after some chunks until resume is closed.
func (e *chatEnv) pausedReply(after int, chunks ...string) (resume chan struct{}, paused chan struct{}) {
	resume, paused = make(chan struct{}), make(chan struct{}, 1)
	e.llm.Enqueue(llmtest.Script{Chunks: chunks, PauseAfter: after, Resume: resume, Paused: paused})
	return resume, paused
}

// lastMessage is the newest message of a session, and the session.
func lastMessage(t *testing.T, e *chatEnv, token, sid string) (api.Message, *api.SessionDetail) {
	t.Helper()
	d := e.detail(t, token, uuid.MustParse(sid))
	if len(d.Messages) == 0 {
		t.Fatalf("session %s has no messages", sid)
	}
	return d.Messages[len(d.Messages)-1], d
}

func TestReplyOutlivesTheStreamAndCanBeFollowedAgain(t *testing.T) {
	e := newChatEnv(t, nil)
	srv := httptest.NewServer(e.h)
	defer srv.Close()
	tok := e.user(t, "USER")
	sid := e.newChat(t, tok)
	resume, paused := e.pausedReply(2, "One ", "two ", "three ", "four.")

	res := open(t, srv, http.MethodPost, "/api/chat/message/stream", tok, chatMessage("count", sid))
	events := liveEvents(res.Body)
	if got := deltaText(t, next(t, events)); got != "One " {
		t.Fatalf("first delta %q", got)
	}
	<-paused
	res.Body.Close() // the tab is closed half-way

	if _, d := lastMessage(t, e, tok, sid); chatShow(d.ReplyInProgress) != "true" {
		t.Fatalf("detail: replyInProgress = %s, want true", chatShow(d.ReplyInProgress))
	}
	again := open(t, srv, http.MethodGet, "/api/chat/sessions/"+sid+"/stream", tok, nil)
	if again.StatusCode != http.StatusOK {
		t.Fatalf("re-attach: status %d, want 200", again.StatusCode)
	}
	if ct := again.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("re-attach: Content-Type = %q, want text/event-stream", ct)
	}
	events = liveEvents(again.Body)
	if got := deltaText(t, next(t, events)); got != "One two " {
		t.Fatalf("re-attach's first delta %q, want the text so far", got)
	}
	close(resume)
	var rest []string
	ev := next(t, events)
	for ; ev.name == "delta"; ev = next(t, events) {
		rest = append(rest, deltaText(t, ev))
	}
	if strings.Join(rest, "|") != "three |four." {
		t.Errorf("the rest of the deltas = %q, want three |four.", rest)
	}
	done := chatEvent[api.SendMessageResponse](t, ev, "done")
	if done.AiResponse != "One two three four." {
		t.Errorf("done: aiResponse = %q, want the whole reply", done.AiResponse)
	}
	if !done.Success {
		t.Errorf("done: success = false, want true")
	}
	if keys := chatDecode[map[string]json.RawMessage](t, "the done event's data", []byte(ev.data)); keys["replyStatus"] != nil {
		t.Errorf("a complete reply's done event carries replyStatus: %s", ev.data)
	}
	last, d := lastMessage(t, e, tok, sid)
	if last.Content != "One two three four." {
		t.Errorf("stored reply: content = %q, want the whole reply", last.Content)
	}
	if got := chatShow(last.Status); got != string(api.Complete) {
		t.Errorf("stored reply: status = %s, want complete", got)
	}
	if got := chatShow(d.ReplyInProgress); got != "false" {
		t.Errorf("detail: replyInProgress = %s, want false", got)
	}
	idle, err := e.api.AttachChatReplyWithResponse(context.Background(), uuid.MustParse(sid), bearer(tok))
	wantStatus(t, idle, err, http.StatusNoContent)
}

func TestReattachOnAnotherInstanceSendsTheStoredReply(t *testing.T) {
	e := newChatEnv(t, nil)
	a := httptest.NewServer(e.h)
	defer a.Close()
	b := httptest.NewServer(e.instance(t, nil, e.p))
	defer b.Close()
	tok := e.user(t, "USER")
	sid := e.newChat(t, tok)
	resume, paused := e.pausedReply(1, "Written ", "on A.")
	res := open(t, a, http.MethodPost, "/api/chat/message/stream", tok, chatMessage("hi", sid))
	events := liveEvents(res.Body)
	next(t, events)
	<-paused

	onB := open(t, b, http.MethodGet, "/api/chat/sessions/"+sid+"/stream", tok, nil)
	if onB.StatusCode != http.StatusOK {
		t.Fatalf("re-attach on B: %d", onB.StatusCode)
	}
	close(resume)
	bEvents := liveEvents(onB.Body)
	if got := deltaText(t, next(t, bEvents)); got != "Written on A." {
		t.Fatalf("B's delta %q, want the stored reply whole", got)
	}
	if done := chatEvent[api.SendMessageResponse](t, next(t, bEvents), "done"); done.AiResponse != "Written on A." {
		t.Fatalf("B's done: aiResponse = %q, want the stored reply", done.AiResponse)
	}
}

func TestStopOverHTTP(t *testing.T) {
	ctx := context.Background()
	e := newChatEnv(t, nil)
	srv := httptest.NewServer(e.h)
	defer srv.Close()
	other := apiClient(t, e.instance(t, nil, e.p), "192.0.2.1")
	tok, intruder := e.user(t, "USER"), e.user(t, "USER")
	sid := e.newChat(t, tok)
	id := uuid.MustParse(sid)
	_, paused := e.pausedReply(2, "Stop ", "here ", "not here.")
	res := open(t, srv, http.MethodPost, "/api/chat/message/stream", tok, chatMessage("go on", sid))
	events := liveEvents(res.Body)
	<-paused

	stop, err := other.StopChatReplyWithResponse(ctx, id, bearer(intruder))
	wantStatus(t, stop, err, http.StatusNotFound)
	stop, err = other.StopChatReplyWithResponse(ctx, id, bearer(tok))
	wantStatus(t, stop, err, http.StatusOK)
	reply := stop.JSON200.Reply
	if reply == nil {
		t.Fatalf("stop: no reply: %s", stop.Body)
	}
	if reply.Content != "Stop here " {
		t.Errorf("stopped reply: content = %q, want the text so far", reply.Content)
	}
	if got := chatShow(reply.Status); got != string(api.Stopped) {
		t.Errorf("stopped reply: status = %s, want stopped", got)
	}
	if reply.Role != api.ChatRoleAssistant {
		t.Errorf("stopped reply: role = %s, want assistant", reply.Role)
	}
	// The stream that was following it ends with done, marked stopped.
	var ev sseEvent
	for ev = next(t, events); ev.name == "delta"; ev = next(t, events) {
	}
	done := chatEvent[api.SendMessageResponse](t, ev, "done")
	if got := chatShow(done.ReplyStatus); got != string(api.Stopped) {
		t.Errorf("done: replyStatus = %s, want stopped", got)
	}
	if done.AiResponse != "Stop here " {
		t.Errorf("done: aiResponse = %q, want the stopped text", done.AiResponse)
	}
	stop, err = e.api.StopChatReplyWithResponse(ctx, id, bearer(tok))
	wantStatus(t, stop, err, http.StatusNoContent)
}

func TestRetryOverHTTP(t *testing.T) {
	ctx := context.Background()
	e := newChatEnv(t, nil)
	srv := httptest.NewServer(e.h)
	defer srv.Close()
	tok := e.user(t, "USER")
	sid := e.newChat(t, tok)
	id := uuid.MustParse(sid)
	e.llm.Enqueue(llmtest.Script{Fail: 500}, llmtest.Script{Fail: 500})
	sent, err := e.api.SendChatMessageWithResponse(ctx, api.SendMessageRequest{Message: "still there?", SessionId: &id}, bearer(tok))
	wantStatus(t, sent, err, http.StatusOK)
	if sent.JSON200.Success {
		t.Fatalf("send: success = true, want false (the model failed)")
	}
	e.llm.Enqueue(llmtest.Script{Chunks: []string{"Yes, ", "I'm here."}})
	res := open(t, srv, http.MethodPost, "/api/chat/sessions/"+sid+"/retry", tok, nil)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("retry: status %d, want 200", res.StatusCode)
	}
	events := readEvents(t, res.Body)
	if len(events) != 3 {
		t.Fatalf("retry: %d events, want two deltas and done: %+v", len(events), events)
	}
	if done := chatEvent[api.SendMessageResponse](t, events[2], "done"); done.AiResponse != "Yes, I'm here." {
		t.Fatalf("retry's done: aiResponse = %q, want the new reply", done.AiResponse)
	}
	n := 0
	for _, m := range e.detail(t, tok, id).Messages {
		if m.Content == "still there?" {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("the retried message is stored %d times", n)
	}
	again, err := e.api.RetryChatReplyWithResponse(ctx, id, bearer(tok))
	wantStatus(t, again, err, http.StatusConflict)
	if again.JSON409.Code != "ALREADY_ANSWERED" {
		t.Fatalf("retry of an answered message: code = %s, want ALREADY_ANSWERED", again.JSON409.Code)
	}
}

func TestPlainEndpointAnswersAtOnce(t *testing.T) {
	e := newChatEnv(t, nil)
	// An offline engine that would take an hour a word, if the plain endpoint paced it.
	c := apiClient(t, e.instance(t, nil, &companion.Offline{WordDelay: time.Hour}), "192.0.2.1")
	tok := e.user(t, "USER")
	id := uuid.MustParse(e.newChat(t, tok))
	type sent struct {
		res *apiclient.SendChatMessageAnswer
		err error
	}
	done := make(chan sent, 1)
	go func() {
		res, err := c.SendChatMessageWithResponse(context.Background(), api.SendMessageRequest{Message: "I feel a bit anxious today.", SessionId: &id}, bearer(tok))
		done <- sent{res, err}
	}()
	select {
	case s := <-done:
		wantStatus(t, s.res, s.err, http.StatusOK)
		if !s.res.JSON200.Success {
			t.Errorf("reply: success = false, want true")
		}
		if n := len(strings.Fields(s.res.JSON200.AiResponse)); n < 10 {
			t.Errorf("reply: aiResponse has %d words, want the offline engine's whole reply: %q", n, s.res.JSON200.AiResponse)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the plain endpoint paced the offline engine's words")
	}
}
