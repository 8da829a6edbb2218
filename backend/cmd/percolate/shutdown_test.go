package main

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/llmtest"
	"github.com/percolate/percolate/backend/internal/store"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
	"github.com/percolate/percolate/gen/api"
	"github.com/percolate/percolate/gen/apiclient"
)

// sseEvent is one server-sent event as the client read it.
type sseEvent struct {
	name string
	data []byte
}

// replyStream is a POST /api/chat/message/stream as a client reads it: its events in
// order, then the channel closes; err is why the stream ended (nil for a clean end).
type replyStream struct {
	events chan sseEvent
	err    error // read once events is closed
}

// openReplyStream sends message in a session through the typed client and reads the answer's
// events as they come.
func openReplyStream(t *testing.T, c *apiclient.ClientWithResponses, token string, session uuid.UUID, message string) *replyStream {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	res, err := c.StreamChatMessage(ctx, api.SendMessageRequest{Message: message, SessionId: &session}, bearer(token))
	if err != nil {
		t.Fatalf("stream: %v", err)
	}
	if res.StatusCode != http.StatusOK {
		res.Body.Close()
		t.Fatalf("stream: status = %d, want 200", res.StatusCode)
	}
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		res.Body.Close()
		t.Fatalf("stream: Content-Type = %q, want text/event-stream", ct)
	}
	s := &replyStream{events: make(chan sseEvent, 64)}
	go func() {
		defer close(s.events)
		defer res.Body.Close()
		r := bufio.NewReader(res.Body)
		var ev sseEvent
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				if line != "" || ev.name != "" {
					s.err = err // cut inside an event
				}
				return
			}
			line = strings.TrimRight(line, "\r\n")
			switch {
			case strings.HasPrefix(line, "event: "):
				ev.name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				ev.data = []byte(strings.TrimPrefix(line, "data: "))
			case line == "":
				s.events <- ev
				ev = sseEvent{}
			}
		}
	}()
	return s
}

// next returns the next event, failing the test when the stream ends first or nothing comes
// within limit.
func (s *replyStream) next(t *testing.T, limit time.Duration) sseEvent {
	t.Helper()
	select {
	case ev, ok := <-s.events:
		if !ok {
			t.Fatalf("the stream ended without a final event (%v)", s.err)
		}
		return ev
	case <-time.After(limit):
		t.Fatalf("no event within %s", limit)
	}
	return sseEvent{}
}

// finish reads the stream to its end and returns the text of its deltas and its last event,
// which must be the last thing in it.
func (s *replyStream) finish(t *testing.T, limit time.Duration) (deltas string, last sseEvent) {
	t.Helper()
	for {
		ev := s.next(t, limit)
		switch ev.name {
		case "delta":
			deltas += eventData[api.StreamDelta](t, ev, "delta").Text
		case "done", "error":
			select {
			case extra, ok := <-s.events:
				if ok {
					t.Fatalf("event %s %s after the final %s", extra.name, extra.data, ev.name)
				}
			case <-time.After(limit):
				t.Fatalf("the stream stayed open after its final %s event", ev.name)
			}
			if s.err != nil {
				t.Fatalf("the stream ended with %v after its final event", s.err)
			}
			return deltas, ev
		default:
			t.Fatalf("unknown event %q %s", ev.name, ev.data)
		}
	}
}

// within waits for ch, failing the test after 30 s.
func within(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(30 * time.Second):
		t.Fatalf("%s: not within 30 s", what)
	}
}

// TestSIGTERMDuringStreamedReplies runs the real binary with two replies streaming, sends it
// SIGTERM, and expects what app.Serve documents: a reply that ends within the reply grace
// (20 s) is streamed to its end (`done`, the whole reply, stored complete); one that does not
// is stopped at the grace, its stream ends with the contract's `error` event and what was
// written is stored as interrupted. Both messages are stored, and the process exits 0 within
// its shutdown grace. No stream ends without a final event.
func TestSIGTERMDuringStreamedReplies(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary; waits out the reply grace (20 s)")
	}
	llm := llmtest.New(t)
	llm.Route(companion.MemoryInstructionPrefix, llmtest.Script{Chunks: []string{`{"memories":[]}`}})
	finish := make(chan struct{})
	pausedA, pausedB := make(chan struct{}, 1), make(chan struct{}, 1)
	llm.Enqueue(
		// A: one chunk, then waits until the test lets it finish (after the SIGTERM).
		llmtest.Script{Chunks: []string{"Finished ", "within ", "the grace."}, PauseAfter: 1, Resume: finish, Paused: pausedA},
		// B: one chunk, then never the rest: the shutdown has to stop it.
		llmtest.Script{Chunks: []string{"Cut ", "by the shutdown."}, PauseAfter: 1, Resume: make(chan struct{}), Paused: pausedB},
	)
	dbURL := pgtest.EmptyURL(t)
	srv := startBinary(t,
		"DATABASE_URL="+dbURL,
		"PERCOLATE_LLM_BASE_URL="+llm.URL(),
		"PERCOLATE_LLM_API_KEY=test-key",
		// Longer than the reply grace, so that B is stopped by the shutdown, not as a stall.
		"PERCOLATE_LLM_STALL_TIMEOUT=1m",
	)
	addUser(t, dbURL, "ada@example.com", "brew-a-fresh-pot")
	client := typedClient(t, srv.base)
	access, _ := signIn(t, client, "ada@example.com", "brew-a-fresh-pot")

	// Each stream has its first delta before the next starts, so A takes the first script.
	// A new chat answers with its fixed welcome; the messages after it are the model's.
	sessionA, sessionB := startChat(t, client, access), startChat(t, client, access)
	a := openReplyStream(t, client, access, sessionA, "Tell me about finishing.")
	if got := eventData[api.StreamDelta](t, a.next(t, 30*time.Second), "delta").Text; got != "Finished " {
		t.Fatalf("A's first delta: text = %q, want %q", got, "Finished ")
	}
	within(t, pausedA, "A's model pausing")
	b := openReplyStream(t, client, access, sessionB, "Tell me about stopping.")
	if got := eventData[api.StreamDelta](t, b.next(t, 30*time.Second), "delta").Text; got != "Cut " {
		t.Fatalf("B's first delta: text = %q, want %q", got, "Cut ")
	}
	within(t, pausedB, "B's model pausing")

	sigterm := time.Now()
	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	// Once the server says it is shutting down, A's model goes on and finishes.
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(srv.logs.String(), `"msg":"shutting down: finishing in-flight requests and replies"`) {
		if time.Now().After(deadline) {
			t.Fatalf("no shutdown after SIGTERM\n%s", srv.logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	close(finish)

	deltasA, lastA := a.finish(t, 30*time.Second)
	doneA := eventData[api.SendMessageResponse](t, lastA, "done")
	if !doneA.Success {
		t.Errorf("A's done event: success = false, want true")
	}
	if doneA.AiResponse != "Finished within the grace." {
		t.Errorf("A's done event: aiResponse = %q, want %q", doneA.AiResponse, "Finished within the grace.")
	}
	if doneA.SessionId != sessionA {
		t.Errorf("A's done event: sessionId = %s, want %s", doneA.SessionId, sessionA)
	}
	if got := "Finished " + deltasA; got != doneA.AiResponse {
		t.Errorf("A's deltas %q are not the reply %q", got, doneA.AiResponse)
	}
	if t.Failed() {
		t.FailNow()
	}

	// B is stopped at the reply grace (20 s after SIGTERM).
	deltasB, lastB := b.finish(t, 40*time.Second)
	stoppedAfter := time.Since(sigterm)
	errB := eventData[api.StreamError](t, lastB, "error")
	if errB.Code != "COMPANION_UNAVAILABLE" {
		t.Errorf("B's error event: code = %s, want COMPANION_UNAVAILABLE", errB.Code)
	}
	if errB.SessionId != sessionB {
		t.Errorf("B's error event: sessionId = %s, want %s", errB.SessionId, sessionB)
	}
	if t.Failed() {
		t.FailNow()
	}
	if deltasB != "" {
		t.Fatalf("B's deltas %q", deltasB)
	}
	if stoppedAfter < 20*time.Second { // app.replyGrace
		t.Fatalf("B was stopped %s after SIGTERM, before the reply grace", stoppedAfter.Round(time.Millisecond))
	}

	select {
	case err := <-srv.done:
		if err != nil {
			t.Fatalf("exit: %v (want 0)\n%s", err, srv.logs.String())
		}
	case <-time.After(40 * time.Second):
		t.Fatalf("did not exit after SIGTERM\n%s", srv.logs.String())
	}
	exited := time.Since(sigterm)
	if exited > 30*time.Second { // app.shutdownGrace
		t.Errorf("exited %s after SIGTERM, past the 30 s shutdown grace", exited.Round(time.Millisecond))
	}

	// Stored: each message, A's reply complete, B's partial reply as interrupted.
	ctx := context.Background()
	st, err := store.Open(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, c := range []struct {
		session                uuid.UUID
		message, reply, status string
	}{
		{sessionA, "Tell me about finishing.", "Finished within the grace.", "complete"},
		{sessionB, "Tell me about stopping.", "Cut ", "interrupted"},
	} {
		rows, err := st.Pool().Query(ctx, `SELECT role, content, status FROM messages WHERE session_id = $1 ORDER BY created_at DESC, role LIMIT 2`, c.session)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for rows.Next() {
			var role, content, status string
			if err := rows.Scan(&role, &content, &status); err != nil {
				t.Fatal(err)
			}
			got = append(got, role+"|"+content+"|"+status)
		}
		if rows.Err() != nil {
			t.Fatal(rows.Err())
		}
		// The newest two, newest first: the reply, then the message.
		want := []string{"assistant|" + c.reply + "|" + c.status, "user|" + c.message + "|complete"}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("session %s stores\n%s\nwant\n%s", c.session, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	t.Logf("SIGTERM → B stopped and its error event read: %s; → exit 0: %s", stoppedAfter.Round(time.Millisecond), exited.Round(time.Millisecond))
}
