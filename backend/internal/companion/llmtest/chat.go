package llmtest

// The chat-completions endpoint: which Script answers a request (the routes, the queue, the
// default), and how it is answered, whole or as a stream that may pause, stall or break.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// route answers the requests whose first message starts with prefix.
type route struct {
	prefix string
	queue  []Script
	def    Script
}

// Route answers every request whose first message (the system prompt) starts with prefix
// from its own scripts, in order, and then with def; such requests never take from the
// shared queue. Background work with its own instruction (memory extraction) then cannot
// take the scripts a test queued for replies or summaries. A later Route with the same
// prefix replaces the earlier one.
func (s *Server) Route(prefix string, def Script, scripts ...Script) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := &route{prefix: prefix, queue: scripts, def: def}
	for i, old := range s.routes {
		if old.prefix == prefix {
			s.routes[i] = r
			return
		}
	}
	s.routes = append(s.routes, r)
}

// next records req and returns the script that answers it.
func (s *Server) next(req openai.ChatCompletionRequest) (Script, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, req)
	s.seq++
	for _, r := range s.routes {
		if len(req.Messages) == 0 || !strings.HasPrefix(req.Messages[0].Content, r.prefix) {
			continue
		}
		if len(r.queue) > 0 {
			sc := r.queue[0]
			r.queue = r.queue[1:]
			return sc, s.seq
		}
		return r.def, s.seq
	}
	if len(s.queue) > 0 {
		sc := s.queue[0]
		s.queue = s.queue[1:]
		return sc, s.seq
	}
	return s.def, s.seq
}

func (s *Server) handleChat(w http.ResponseWriter, r *http.Request) {
	received := time.Now()
	var req openai.ChatCompletionRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "llmtest: request body is not JSON: "+err.Error())
		return
	}
	if len(req.Messages) == 0 {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "'messages' must contain at least one message")
		return
	}
	sc, seq := s.next(req)
	if sc.Fail != 0 {
		body := sc.FailBody
		if body == "" {
			body = errorBody("server_error", fmt.Sprintf("llmtest: scripted failure %d", sc.Fail))
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(sc.Fail)
		_, _ = io.WriteString(w, body)
		return
	}
	if sc.CutAfter == CutImmediately {
		panic(http.ErrAbortHandler) // net/http drops the connection, answering nothing
	}
	usage := sc.usage(req)
	id := fmt.Sprintf("chatcmpl-llmtest-%d", seq)
	if req.Stream {
		s.stream(w, r, req, sc, id, usage, received)
		return
	}

	if sc.StallAfter != 0 {
		s.stall(r.Context())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if sc.Garbage {
		_, _ = io.WriteString(w, `{"id": "chatcmpl-garbage", "choices": [{"message": `)
		return
	}
	resp := openai.ChatCompletionResponse{
		ID:      id,
		Object:  "chat.completion",
		Created: time.Now().Unix(),
		Model:   req.Model,
		Choices: []openai.ChatCompletionChoice{{
			Index:        0,
			Message:      openai.ChatCompletionMessage{Role: openai.ChatMessageRoleAssistant, Content: strings.Join(sc.Chunks, "")},
			FinishReason: sc.finishReason(),
		}},
		Usage: usage,
	}
	_ = json.NewEncoder(w).Encode(resp)
}

// stream writes the answer as server-sent events, flushing each one:
// a role chunk, one chunk per content delta, a chunk with the finish reason,
// a usage chunk when the client asked for it, then [DONE].
func (s *Server) stream(w http.ResponseWriter, r *http.Request, req openai.ChatCompletionRequest, sc Script, id string, usage openai.Usage, received time.Time) {
	ctx := r.Context()
	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("Connection", "keep-alive")
	w.WriteHeader(http.StatusOK)
	_ = rc.Flush()

	created := time.Now().Unix()
	chunk := func(delta openai.ChatCompletionStreamChoiceDelta, finish openai.FinishReason) openai.ChatCompletionStreamResponse {
		return openai.ChatCompletionStreamResponse{
			ID: id, Object: "chat.completion.chunk", Created: created, Model: req.Model,
			Choices: []openai.ChatCompletionStreamChoice{{Index: 0, Delta: delta, FinishReason: finish}},
		}
	}
	send := func(v any) bool {
		b, err := json.Marshal(v)
		if err != nil {
			return false
		}
		return writeEvent(w, rc, string(b))
	}

	if sc.StallAfter == StallImmediately {
		s.stall(ctx)
		return
	}
	if !send(chunk(openai.ChatCompletionStreamChoiceDelta{Role: openai.ChatMessageRoleAssistant}, "")) {
		return
	}
	for i, c := range sc.Chunks {
		if sc.StallAfter > 0 && i == sc.StallAfter {
			s.stall(ctx)
			return
		}
		if sc.CutAfter > 0 && i == sc.CutAfter {
			panic(http.ErrAbortHandler) // the stream ends without [DONE], mid-answer
		}
		if sc.Resume != nil && (i == sc.PauseAfter || i == 0 && sc.PauseAfter == PauseImmediately) && !s.pause(ctx, sc) {
			return
		}
		if sc.Garbage && i == 1 {
			_ = writeEvent(w, rc, `{"id": "chatcmpl-garbage", "choices": [{"delta": {"content": "oops`)
			return
		}
		if !s.wait(ctx, sc.Delay) {
			return
		}
		if !send(chunk(openai.ChatCompletionStreamChoiceDelta{Content: c}, "")) {
			return
		}
		if i == 0 {
			s.mu.Lock()
			s.lastStream, s.streams = StreamTiming{Received: received, FirstChunk: time.Now()}, s.streams+1
			s.mu.Unlock()
		}
	}
	if sc.StallAfter > 0 && sc.StallAfter >= len(sc.Chunks) {
		s.stall(ctx)
		return
	}
	if sc.Garbage {
		// Fewer than two chunks: the garbage comes after all of them.
		_ = writeEvent(w, rc, `not json at all`)
		return
	}
	if !send(chunk(openai.ChatCompletionStreamChoiceDelta{}, sc.finishReason())) {
		return
	}
	if req.StreamOptions != nil && req.StreamOptions.IncludeUsage {
		final := openai.ChatCompletionStreamResponse{
			ID: id, Object: "chat.completion.chunk", Created: created, Model: req.Model,
			Choices: []openai.ChatCompletionStreamChoice{}, Usage: &usage,
		}
		if !send(final) {
			return
		}
	}
	_ = writeEvent(w, rc, "[DONE]")
}

func writeEvent(w io.Writer, rc *http.ResponseController, data string) bool {
	if _, err := io.WriteString(w, "data: "+data+"\n\n"); err != nil {
		return false
	}
	return rc.Flush() == nil
}

// stall blocks until the client gives up or the test ends.
func (s *Server) stall(ctx context.Context) {
	select {
	case <-ctx.Done():
	case <-s.done:
	}
}

// pause tells the test it has paused and waits for sc.Resume; false when the
// client went away or the test ended first.
func (s *Server) pause(ctx context.Context, sc Script) bool {
	if sc.Paused != nil {
		select {
		case sc.Paused <- struct{}{}:
		default:
		}
	}
	select {
	case <-sc.Resume:
		return true
	case <-ctx.Done():
		return false
	case <-s.done:
		return false
	}
}

// wait sleeps for d unless the client goes away or the test ends first.
func (s *Server) wait(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	case <-s.done:
		return false
	}
}

func (sc Script) finishReason() openai.FinishReason {
	if sc.FinishReason == "" {
		return openai.FinishReasonStop
	}
	return openai.FinishReason(sc.FinishReason)
}

func (sc Script) usage(req openai.ChatCompletionRequest) openai.Usage {
	u := openai.Usage{PromptTokens: sc.PromptTokens, CompletionTokens: sc.CompletionTokens}
	if u.PromptTokens == 0 {
		for _, m := range req.Messages {
			u.PromptTokens += len(strings.Fields(m.Content))
			for _, p := range m.MultiContent {
				u.PromptTokens += len(strings.Fields(p.Text))
			}
		}
	}
	if u.CompletionTokens == 0 {
		u.CompletionTokens = len(sc.Chunks)
	}
	u.TotalTokens = u.PromptTokens + u.CompletionTokens
	return u
}
