package httpapi

import (
	"bytes"
	"context"
	"encoding/base64"
	"mime/multipart"
	"net/http"
	"testing"

	"github.com/percolate/percolate/backend/internal/chat"
	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/llmtest"
	"github.com/percolate/percolate/backend/internal/config"
	"github.com/percolate/percolate/backend/internal/queue/queuetest"
	"github.com/percolate/percolate/backend/internal/store"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
	"github.com/percolate/percolate/backend/internal/voice"
	"github.com/percolate/percolate/gen/api"
	"github.com/percolate/percolate/gen/apiclient"
)

func voiceHandler(t *testing.T) (http.Handler, *store.Store) {
	t.Helper()
	st := pgtest.New(t)
	llm := llmtest.New(t)
	llm.SetSpeechAudio([]byte("ID3-reply"))
	llm.SetTranscript("hello from firefox")
	quiet := discardLogger()
	speechCfg := config.LLM{BaseURL: llm.URL(), Model: "m", SpeechModel: "tts", TranscriptionModel: "stt"}
	chatSvc := chat.New(st, companion.New(config.LLM{}), chat.Options{Queue: queuetest.New(t, st), Logger: quiet})
	v := voice.NewService(chatSvc, st, voice.NewSpeaker(speechCfg, quiet), voice.NewTranscriber(speechCfg), nil, quiet)
	return newTestHandler(t, Deps{Verifier: userTokens{}, Chat: chatSvc, Voice: v}), st
}

func bearerFor(t *testing.T, st *store.Store, role string) apiclient.RequestEditorFn {
	t.Helper()
	return bearer("token-" + pgtest.User(t, st, role).ID.String())
}

func TestVoiceMessageOverHTTP(t *testing.T) {
	ctx := context.Background()
	h, st := voiceHandler(t)
	c := apiClient(t, h, "192.0.2.1")

	alloy, robot := api.Alloy, api.Voice("robot")
	res, err := c.SendVoiceMessageWithResponse(ctx, api.VoiceRequest{Message: "Hello", Voice: &alloy}, bearerFor(t, st, "USER"))
	wantStatus(t, res, err, http.StatusForbidden)
	if res.JSON403.Code != "VOICE_NOT_INCLUDED" {
		t.Errorf("USER: code = %s, want VOICE_NOT_INCLUDED", res.JSON403.Code)
	}

	basic := bearerFor(t, st, "BASIC")
	res, err = c.SendVoiceMessageWithResponse(ctx, api.VoiceRequest{Message: "Hello", Voice: &robot}, basic)
	wantStatus(t, res, err, http.StatusBadRequest)
	if _, ok := res.JSON400.Details["voice"]; !ok {
		t.Errorf("bad voice: details = %v, want one for voice", res.JSON400.Details)
	}

	res, err = c.SendVoiceMessageWithResponse(ctx, api.VoiceRequest{Message: "Hello! I'd like to start a new conversation."}, basic)
	wantStatus(t, res, err, http.StatusOK)
	if !res.JSON200.Success {
		t.Errorf("reply: success = false, want true")
	}
	if res.JSON200.AiResponse == "" {
		t.Errorf("reply: aiResponse is empty")
	}
	if res.JSON200.AudioData == nil {
		t.Fatalf("reply: no audioData: %s", res.Body)
	}
	audio, err := base64.StdEncoding.DecodeString(*res.JSON200.AudioData)
	if err != nil {
		t.Fatalf("reply: audioData is not base64: %v", err)
	}
	if string(audio) != "ID3-reply" {
		t.Errorf("reply: audioData = %q, want the speech model's audio", audio)
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
	c := apiClient(t, h, "192.0.2.1")
	basic := bearerFor(t, st, "BASIC")
	send := func(size int) (*apiclient.TranscribeAudioAnswer, error) {
		body, ct := multipartAudio(t, size)
		return c.TranscribeAudioWithBodyWithResponse(context.Background(), ct, body, basic)
	}
	res, err := send(2048)
	wantStatus(t, res, err, http.StatusOK)
	if res.JSON200.Text != "hello from firefox" {
		t.Errorf("transcribe: text = %q, want the transcript", res.JSON200.Text)
	}
	res, err = send(voice.MaxAudioBytes + 10)
	wantStatus(t, res, err, http.StatusRequestEntityTooLarge)
}
