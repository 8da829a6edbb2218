package httpapi

import (
	"bytes"
	"context"
	"encoding/base64"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/chat"
	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/llmtest"
	"github.com/percolate/percolate/backend/internal/config"
	"github.com/percolate/percolate/backend/internal/queue/queuetest"
	"github.com/percolate/percolate/backend/internal/store"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
	"github.com/percolate/percolate/backend/internal/voice"
	dbgen "github.com/percolate/percolate/gen/db"
)

func voiceHandler(t *testing.T) (http.Handler, *store.Store) {
	t.Helper()
	st := pgtest.New(t)
	llm := llmtest.New(t)
	llm.SetSpeechAudio([]byte("ID3-reply"))
	llm.SetTranscript("hello from firefox")
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	speechCfg := config.LLM{BaseURL: llm.URL(), Model: "m", SpeechModel: "tts", TranscriptionModel: "stt"}
	chatSvc := chat.New(st, companion.New(config.LLM{}), chat.Options{Queue: queuetest.New(t, st), Logger: quiet})
	v := voice.NewService(chatSvc, st, voice.NewSpeaker(speechCfg, quiet), voice.NewTranscriber(speechCfg), nil, quiet)
	return newTestHandler(t, Deps{Verifier: userTokens{}, Chat: chatSvc, Voice: v}), st
}

func bearerFor(t *testing.T, st *store.Store, role string) []string {
	t.Helper()
	ctx := context.Background()
	u, err := st.Queries().CreateUser(ctx, dbgen.CreateUserParams{Email: uuid.NewString() + "@example.com", Name: "V"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Queries().SetUserRoleByEmail(ctx, dbgen.SetUserRoleByEmailParams{Role: role, Email: u.Email}); err != nil {
		t.Fatal(err)
	}
	return []string{"Authorization", "Bearer token-" + u.ID.String()}
}

func TestVoiceMessageOverHTTP(t *testing.T) {
	h, st := voiceHandler(t)

	res := do(h, "POST", "/api/chat/voice", `{"message":"Hello","voice":"alloy"}`, bearerFor(t, st, "USER")...)
	if res.Code != http.StatusForbidden || res.json(t)["code"] != "VOICE_NOT_INCLUDED" {
		t.Fatalf("USER: %d %s", res.Code, res.Body)
	}

	basic := bearerFor(t, st, "BASIC")
	res = do(h, "POST", "/api/chat/voice", `{"message":"Hello","voice":"robot"}`, basic...)
	if res.Code != http.StatusBadRequest {
		t.Fatalf("bad voice: %d %s", res.Code, res.Body)
	}
	if d, _ := res.json(t)["details"].(map[string]any); d["voice"] == nil {
		t.Fatalf("no voice detail: %s", res.Body)
	}

	res = do(h, "POST", "/api/chat/voice", `{"message":"Hello! I'd like to start a new conversation."}`, basic...)
	if res.Code != http.StatusOK {
		t.Fatalf("send: %d %s", res.Code, res.Body)
	}
	body := res.json(t)
	audio, _ := base64.StdEncoding.DecodeString(body["audioData"].(string))
	if body["success"] != true || body["aiResponse"] == "" || string(audio) != "ID3-reply" {
		t.Fatalf("reply: %v", body)
	}
}

func multipartAudio(t *testing.T, size int) (*bytes.Buffer, string) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	part, err := w.CreateFormFile("audio", "clip.webm")
	if err != nil {
		t.Fatal(err)
	}
	_, _ = part.Write(bytes.Repeat([]byte{1}, size))
	_ = w.Close()
	return &buf, w.FormDataContentType()
}

func TestTranscribeOverHTTP(t *testing.T) {
	h, st := voiceHandler(t)
	basic := bearerFor(t, st, "BASIC")
	send := func(size int) *httptest.ResponseRecorder {
		body, ct := multipartAudio(t, size)
		req := httptest.NewRequest("POST", "/api/chat/transcribe", body)
		req.Header.Set("Content-Type", ct)
		req.Header.Set(basic[0], basic[1])
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	rec := send(2048)
	if rec.Code != http.StatusOK || !bytes.Contains(rec.Body.Bytes(), []byte("hello from firefox")) {
		t.Fatalf("transcribe: %d %s", rec.Code, rec.Body)
	}
	if rec := send(voice.MaxAudioBytes + 10); rec.Code != http.StatusRequestEntityTooLarge {
		t.Fatalf("over 5 MB: %d %s", rec.Code, rec.Body)
	}
}
