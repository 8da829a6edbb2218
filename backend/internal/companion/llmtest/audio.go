package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	openai "github.com/sashabaranov/go-openai"
)

// The audio endpoints: /audio/speech answers with fixed bytes as
// audio/mpeg, /audio/transcriptions with a fixed transcript; both record
// what they were sent.

func (s *Server) handleSpeech(w http.ResponseWriter, r *http.Request) {
	var req openai.CreateSpeechRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "llmtest: request body is not JSON: "+err.Error())
		return
	}
	var audio []byte
	if !s.recordAudio(w, func() { s.speech = append(s.speech, req); audio = s.speechAudio }) {
		return
	}
	w.Header().Set("Content-Type", "audio/mpeg")
	_, _ = w.Write(audio)
}

func (s *Server) handleTranscription(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseMultipartForm(32 << 20); err != nil { // #nosec G120 -- the test double of the model API, reached only by tests
		writeError(w, http.StatusBadRequest, "invalid_request_error", "llmtest: not a multipart form: "+err.Error())
		return
	}
	tr := Transcription{
		Model:          r.FormValue("model"),
		Language:       r.FormValue("language"),
		Prompt:         r.FormValue("prompt"),
		ResponseFormat: r.FormValue("response_format"),
	}
	f, fh, err := r.FormFile("file")
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "llmtest: missing file: "+err.Error())
		return
	}
	defer f.Close()
	tr.Filename = fh.Filename
	if tr.Audio, err = io.ReadAll(f); err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "llmtest: read file: "+err.Error())
		return
	}
	var text string
	if !s.recordAudio(w, func() { s.transcriptions = append(s.transcriptions, tr); text = s.transcript }) {
		return
	}
	switch tr.ResponseFormat {
	case "", "json", "verbose_json":
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]string{"text": text})
	default: // text, srt, vtt
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = io.WriteString(w, text)
	}
}

// recordAudio runs record under the server's lock, then answers with the status
// SetAudioFailure scripted, if any; it reports whether the request goes on.
func (s *Server) recordAudio(w http.ResponseWriter, record func()) bool {
	s.mu.Lock()
	record()
	fail := s.audioFail
	s.mu.Unlock()
	if fail == 0 {
		return true
	}
	writeError(w, fail, "server_error", fmt.Sprintf("llmtest: scripted audio failure %d", fail))
	return false
}
