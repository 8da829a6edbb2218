package httpapi

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/llmtest"
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
	var d struct{ Text string }
	if ev.name != "delta" || json.Unmarshal([]byte(ev.data), &d) != nil {
		t.Fatalf("want a delta, got %+v", ev)
	}
	return d.Text
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

func lastMessage(t *testing.T, e *chatEnv, token, sid string) (map[string]any, map[string]any) {
	t.Helper()
	d := e.call(http.MethodGet, "/api/chat/sessions/"+sid, token, nil).json(t)
	msgs := d["messages"].([]any)
	return msgs[len(msgs)-1].(map[string]any), d
}

func TestReplyOutlivesTheStreamAndCanBeFollowedAgain(t *testing.T) {
	e := newChatEnv(t, nil)
	srv := httptest.NewServer(e.h)
	defer srv.Close()
	tok := e.user(t, "USER")
	sid := e.newChat(t, tok)
	resume, paused := e.pausedReply(2, "One ", "two ", "three ", "four.")

	res := open(t, srv, http.MethodPost, "/api/chat/message/stream", tok, map[string]any{"message": "count", "sessionId": sid})
	events := liveEvents(res.Body)
	if got := deltaText(t, next(t, events)); got != "One " {
		t.Fatalf("first delta %q", got)
	}
	<-paused
	res.Body.Close() // the tab is closed half-way

	if _, d := lastMessage(t, e, tok, sid); d["replyInProgress"] != true {
		t.Fatalf("detail = %v, want replyInProgress", d)
	}
	again := open(t, srv, http.MethodGet, "/api/chat/sessions/"+sid+"/stream", tok, nil)
	if again.StatusCode != http.StatusOK || !strings.HasPrefix(again.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("re-attach: %d %s", again.StatusCode, again.Header.Get("Content-Type"))
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
	var done map[string]any
	_ = json.Unmarshal([]byte(ev.data), &done)
	if strings.Join(rest, "|") != "three |four." || ev.name != "done" || done["aiResponse"] != "One two three four." || done["success"] != true {
		t.Fatalf("rest %q, final %+v", rest, ev)
	}
	if _, ok := done["replyStatus"]; ok {
		t.Fatalf("a complete reply's done event carries replyStatus: %s", ev.data)
	}
	last, d := lastMessage(t, e, tok, sid)
	if last["content"] != "One two three four." || last["status"] != "complete" || d["replyInProgress"] != false {
		t.Fatalf("stored %v, detail %v", last, d)
	}
	if res := open(t, srv, http.MethodGet, "/api/chat/sessions/"+sid+"/stream", tok, nil); res.StatusCode != http.StatusNoContent {
		t.Fatalf("nothing in progress: %d", res.StatusCode)
	}
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
	res := open(t, a, http.MethodPost, "/api/chat/message/stream", tok, map[string]any{"message": "hi", "sessionId": sid})
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
	if ev := next(t, bEvents); ev.name != "done" || !strings.Contains(ev.data, `"aiResponse":"Written on A."`) {
		t.Fatalf("B's final event %+v", ev)
	}
}

func TestStopOverHTTP(t *testing.T) {
	e := newChatEnv(t, nil)
	srv := httptest.NewServer(e.h)
	defer srv.Close()
	other := httptest.NewServer(e.instance(t, nil, e.p))
	defer other.Close()
	tok, intruder := e.user(t, "USER"), e.user(t, "USER")
	sid := e.newChat(t, tok)
	_, paused := e.pausedReply(2, "Stop ", "here ", "not here.")
	res := open(t, srv, http.MethodPost, "/api/chat/message/stream", tok, map[string]any{"message": "go on", "sessionId": sid})
	events := liveEvents(res.Body)
	<-paused

	if res := open(t, other, http.MethodPost, "/api/chat/sessions/"+sid+"/stop", intruder, nil); res.StatusCode != http.StatusNotFound {
		t.Fatalf("another user's stop: %d", res.StatusCode)
	}
	stop := open(t, other, http.MethodPost, "/api/chat/sessions/"+sid+"/stop", tok, nil)
	var body struct {
		Reply *struct{ Content, Status, Role string }
	}
	if err := json.NewDecoder(stop.Body).Decode(&body); err != nil || stop.StatusCode != http.StatusOK || body.Reply == nil {
		t.Fatalf("stop: %d %v %+v", stop.StatusCode, err, body)
	}
	if body.Reply.Content != "Stop here " || body.Reply.Status != "stopped" || body.Reply.Role != "assistant" {
		t.Fatalf("stopped reply = %+v", body.Reply)
	}
	// The stream that was following it ends with done, marked stopped.
	var ev sseEvent
	for ev = next(t, events); ev.name == "delta"; ev = next(t, events) {
	}
	if ev.name != "done" || !strings.Contains(ev.data, `"replyStatus":"stopped"`) || !strings.Contains(ev.data, `"aiResponse":"Stop here "`) {
		t.Fatalf("final event %+v", ev)
	}
	if res := open(t, srv, http.MethodPost, "/api/chat/sessions/"+sid+"/stop", tok, nil); res.StatusCode != http.StatusNoContent {
		t.Fatalf("stop with nothing in progress: %d", res.StatusCode)
	}
}

func TestRetryOverHTTP(t *testing.T) {
	e := newChatEnv(t, nil)
	srv := httptest.NewServer(e.h)
	defer srv.Close()
	tok := e.user(t, "USER")
	sid := e.newChat(t, tok)
	e.llm.Enqueue(llmtest.Script{Fail: 500}, llmtest.Script{Fail: 500})
	if m := e.call(http.MethodPost, "/api/chat/message", tok, map[string]any{"message": "still there?", "sessionId": sid}).json(t); m["success"] != false {
		t.Fatalf("send = %v", m)
	}
	e.llm.Enqueue(llmtest.Script{Chunks: []string{"Yes, ", "I'm here."}})
	res := open(t, srv, http.MethodPost, "/api/chat/sessions/"+sid+"/retry", tok, nil)
	events := readEvents(t, res.Body)
	if res.StatusCode != http.StatusOK || len(events) != 3 || events[2].name != "done" || !strings.Contains(events[2].data, `"aiResponse":"Yes, I'm here."`) {
		t.Fatalf("retry: %d %+v", res.StatusCode, events)
	}
	d := e.call(http.MethodGet, "/api/chat/sessions/"+sid, tok, nil).json(t)
	n := 0
	for _, m := range d["messages"].([]any) {
		if m.(map[string]any)["content"] == "still there?" {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("the retried message is stored %d times", n)
	}
	again := e.call(http.MethodPost, "/api/chat/sessions/"+sid+"/retry", tok, nil)
	if m := again.json(t); again.Code != http.StatusConflict || m["code"] != "ALREADY_ANSWERED" {
		t.Fatalf("retry of an answered message: %d %s", again.Code, again.Body)
	}
}

func TestPlainEndpointAnswersAtOnce(t *testing.T) {
	e := newChatEnv(t, nil)
	// An offline engine that would take an hour a word, if the plain endpoint paced it.
	h := e.instance(t, nil, &companion.Offline{WordDelay: time.Hour})
	tok := e.user(t, "USER")
	sid := e.newChat(t, tok)
	done := make(chan response, 1)
	go func() {
		done <- do(h, http.MethodPost, "/api/chat/message", `{"message":"I feel a bit anxious today.","sessionId":"`+sid+`"}`, "Authorization", "Bearer "+tok)
	}()
	select {
	case res := <-done:
		if m := res.json(t); res.Code != 200 || m["success"] != true || len(strings.Fields(m["aiResponse"].(string))) < 10 {
			t.Fatalf("reply: %d %s", res.Code, res.Body)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the plain endpoint paced the offline engine's words")
	}
}
