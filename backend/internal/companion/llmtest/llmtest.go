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
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
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

func errorBody(typ, message string) string {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": message, "type": typ, "code": nil}})
	return string(b)
}

func writeError(w http.ResponseWriter, status int, typ, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, errorBody(typ, message))
}
