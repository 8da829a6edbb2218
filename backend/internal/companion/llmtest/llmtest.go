// Package llmtest is a fake OpenAI-compatible API for tests: a real HTTP
// server that speaks the chat-completions wire format (JSON and server-sent
// events), the moderation endpoint, the speech endpoint and the transcription
// endpoint, so that code
// is tested through the real go-openai client rather than through a fake of
// our own interfaces.
//
// Each chat completion request takes the next queued Script, or the default
// one when the queue is empty. A Script says which content chunks to return
// and can make the server fail with an HTTP status, stall mid-stream until the
// client gives up, or send malformed data.
//
//	srv := llmtest.New(t)
//	srv.Enqueue(llmtest.Script{Chunks: []string{"Hel", "lo"}, PromptTokens: 12, CompletionTokens: 2})
//	client := openai.NewClientWithConfig(srv.ClientConfig())
package llmtest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// StallImmediately, as Script.StallAfter, makes the server hang before it
// sends any chunk (for a non-streaming request: before it answers).
// CutImmediately, as Script.CutAfter, drops the connection before any byte
// of the answer (a connection failure, as far as the client can tell).
// PauseImmediately, as Script.PauseAfter, pauses before the first chunk.
const (
	StallImmediately = -1
	CutImmediately   = -1
	PauseImmediately = -1
)

// Script describes the answer to one chat completion request.
type Script struct {
	// Chunks are the content deltas of a streamed answer, in order. A
	// non-streaming answer's content is their concatenation.
	Chunks []string
	// PromptTokens and CompletionTokens are reported as usage. When zero
	// they are derived: prompt tokens as the number of words in the request's
	// messages, completion tokens as the number of chunks.
	PromptTokens     int
	CompletionTokens int
	// FinishReason of the choice; "stop" when empty.
	FinishReason string
	// Fail, when non-zero, is the HTTP status to answer with instead.
	Fail int
	// FailBody is the body sent with Fail; when empty it is an OpenAI error
	// object ({"error":{"message":…,"type":…}}), which go-openai turns into
	// an *openai.APIError. A body that is not such an object becomes an
	// *openai.RequestError.
	FailBody string
	// StallAfter, when positive, sends that many chunks and then hangs until
	// the request's context ends (the client times out or cancels). Use
	// StallImmediately to hang before the first chunk. A non-streaming
	// request with any StallAfter hangs before answering.
	StallAfter int
	// Garbage sends malformed data: for a stream, an SSE event that is not
	// JSON after the first chunk; otherwise a 200 response that is not JSON.
	Garbage bool
	// Delay is waited before each streamed chunk.
	Delay time.Duration
	// CutAfter, when positive, sends that many chunks of a streamed answer
	// and then drops the connection mid-stream; CutImmediately drops it
	// before anything is answered (streamed or not).
	CutAfter int
	// PauseAfter, with Resume set, sends that many chunks (PauseImmediately:
	// none) and then waits until Resume is closed before sending the rest, so
	// that a test can act while a reply is half written. Paused tells the
	// test when the pause begins.
	PauseAfter int
	Resume     <-chan struct{}
	Paused     chan<- struct{}
}

// defaultScript is what the server answers when nothing is queued and
// SetDefault was not called: "Hello from llmtest." in four chunks.
func defaultScript() Script {
	return Script{Chunks: []string{"Hello", " from", " llmtest", "."}}
}

// Transcription is one recorded /audio/transcriptions request.
type Transcription struct {
	Model          string
	Language       string
	Prompt         string
	ResponseFormat string
	// Filename and Audio are the uploaded file's name and content.
	Filename string
	Audio    []byte
}

// Moderation describes the answers of /moderations (see SetModeration). The
// zero value answers that nothing is flagged.
type Moderation struct {
	// Flagged are the categories flagged in the answer, e.g. "self-harm",
	// "self-harm/intent", "self-harm/instructions", "violence".
	Flagged []string
	// Fail, when non-zero, is the HTTP status to answer with instead (404: a
	// provider without a moderation endpoint).
	Fail int
	// Stall hangs until the client gives up or the test ends.
	Stall bool
	// Garbage answers 200 with a body that is not JSON.
	Garbage bool
}

// Server is a running fake API.
type Server struct {
	srv  *httptest.Server
	done chan struct{} // closed at cleanup to release stalled handlers

	mu             sync.Mutex
	queue          []Script
	def            Script
	routes         []*route
	requests       []openai.ChatCompletionRequest
	speech         []openai.CreateSpeechRequest
	transcriptions []Transcription
	speechAudio    []byte
	transcript     string
	audioFail      int
	moderation     Moderation
	moderated      []string
	apiKey         string
	seq            int
	lastStream     StreamTiming
	streams        int
}

// StreamTiming is when a streamed chat completion request reached the server and when the
// first chunk of its answer's content was flushed.
type StreamTiming struct {
	Received, FirstChunk time.Time
}

// fakeMP3 is the default body of /audio/speech answers: an MPEG audio frame
// header followed by zeros, enough for content sniffing.
func fakeMP3() []byte { return append([]byte{0xFF, 0xFB, 0x90, 0x64}, make([]byte, 413)...) }

// New starts a server for the rest of the test and closes it at cleanup.
func New(t testing.TB) *Server {
	t.Helper()
	s := Start()
	t.Cleanup(s.Close)
	return s
}

// Start starts a server outside a test (the bench's model); Close stops it.
func Start() *Server {
	s := &Server{
		done:        make(chan struct{}),
		def:         defaultScript(),
		speechAudio: fakeMP3(),
		transcript:  "hello from llmtest",
	}
	mux := http.NewServeMux()
	for _, prefix := range []string{"/v1", ""} {
		mux.HandleFunc("POST "+prefix+"/chat/completions", s.handleChat)
		mux.HandleFunc("POST "+prefix+"/moderations", s.handleModeration)
		mux.HandleFunc("POST "+prefix+"/audio/speech", s.handleSpeech)
		mux.HandleFunc("POST "+prefix+"/audio/transcriptions", s.handleTranscription)
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "invalid_request_error", "llmtest: unknown endpoint "+r.Method+" "+r.URL.Path)
	})
	s.srv = httptest.NewServer(s.authenticate(mux))
	return s
}

// Close releases stalled handlers, drops the connections and stops the server.
func (s *Server) Close() {
	close(s.done)
	s.srv.CloseClientConnections()
	s.srv.Close()
}

// LastStream returns the timing of the latest streamed answer that got as far as its first
// content chunk, and how many did.
func (s *Server) LastStream() (StreamTiming, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastStream, s.streams
}

// URL returns the API base URL, ending in /v1, for openai.ClientConfig's
// BaseURL (or PERCOLATE_LLM_BASE_URL).
func (s *Server) URL() string { return s.srv.URL + "/v1" }

// ClientConfig returns a go-openai configuration pointing at the server,
// with the required API key when RequireAPIKey was called.
func (s *Server) ClientConfig() openai.ClientConfig {
	s.mu.Lock()
	key := s.apiKey
	s.mu.Unlock()
	if key == "" {
		key = "llmtest-key"
	}
	cfg := openai.DefaultConfig(key)
	cfg.BaseURL = s.URL()
	return cfg
}

// RequireAPIKey makes every endpoint answer 401 unless the request carries
// "Authorization: Bearer key". An empty key accepts any request.
func (s *Server) RequireAPIKey(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.apiKey = key
}

// Enqueue appends scripts answered, in order, by the next chat completion
// requests.
func (s *Server) Enqueue(scripts ...Script) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queue = append(s.queue, scripts...)
}

// SetDefault sets the script used when the queue is empty (initially
// "Hello from llmtest." in four chunks).
func (s *Server) SetDefault(sc Script) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.def = sc
}

// Requests returns the decoded chat completion requests received so far,
// oldest first, so tests can assert on the prompt.
func (s *Server) Requests() []openai.ChatCompletionRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]openai.ChatCompletionRequest(nil), s.requests...)
}

// RequestCount returns how many chat completion requests were received.
func (s *Server) RequestCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests)
}

// SpeechRequests returns the decoded /audio/speech requests received so far.
func (s *Server) SpeechRequests() []openai.CreateSpeechRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]openai.CreateSpeechRequest(nil), s.speech...)
}

// Transcriptions returns the /audio/transcriptions requests received so far.
func (s *Server) Transcriptions() []Transcription {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Transcription(nil), s.transcriptions...)
}

// SetSpeechAudio sets the bytes returned by /audio/speech (initially a
// small fake MP3 frame).
func (s *Server) SetSpeechAudio(b []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.speechAudio = append([]byte(nil), b...)
}

// SetTranscript sets the text returned by /audio/transcriptions.
func (s *Server) SetTranscript(text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.transcript = text
}

// SetModeration sets how /moderations answers from now on.
func (s *Server) SetModeration(m Moderation) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.moderation = m
}

// Moderated returns the inputs of the /moderations requests received so far,
// oldest first.
func (s *Server) Moderated() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.moderated...)
}

func (s *Server) handleModeration(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Input any    `json:"input"`
		Model string `json:"model"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "llmtest: request body is not JSON: "+err.Error())
		return
	}
	input, ok := req.Input.(string)
	if !ok || input == "" {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "llmtest: 'input' must be a non-empty string")
		return
	}
	s.mu.Lock()
	m := s.moderation
	s.moderated = append(s.moderated, input)
	id := fmt.Sprintf("modr-llmtest-%d", len(s.moderated))
	s.mu.Unlock()
	switch {
	case m.Fail != 0:
		writeError(w, m.Fail, "invalid_request_error", fmt.Sprintf("llmtest: scripted moderation failure %d", m.Fail))
		return
	case m.Stall:
		s.stall(r.Context())
		return
	case m.Garbage:
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id": "modr-garbage", "results": [{"categories": `)
		return
	}
	categories := map[string]bool{}
	scores := map[string]float64{}
	for _, c := range []string{"hate", "hate/threatening", "harassment", "harassment/threatening", "self-harm", "self-harm/intent", "self-harm/instructions", "sexual", "sexual/minors", "violence", "violence/graphic"} {
		categories[c], scores[c] = false, 0.0001
	}
	for _, c := range m.Flagged {
		categories[c], scores[c] = true, 0.97
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"id": id, "model": "omni-moderation-latest",
		"results": []any{map[string]any{"flagged": len(m.Flagged) > 0, "categories": categories, "category_scores": scores}},
	})
}

// SetAudioFailure makes both audio endpoints answer with this HTTP status
// and an OpenAI error object; 0 restores normal answers.
func (s *Server) SetAudioFailure(status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.audioFail = status
}

func (s *Server) authenticate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		key := s.apiKey
		s.mu.Unlock()
		if key != "" && r.Header.Get("Authorization") != "Bearer "+key {
			writeError(w, http.StatusUnauthorized, "invalid_request_error", "Incorrect API key provided.")
			return
		}
		next.ServeHTTP(w, r)
	})
}

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

func errorBody(typ, message string) string {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": message, "type": typ, "code": nil}})
	return string(b)
}

func writeError(w http.ResponseWriter, status int, typ, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, errorBody(typ, message))
}
