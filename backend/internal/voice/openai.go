package voice

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/percolate/percolate/backend/internal/config"
)

type openAISpeaker struct {
	client *openai.Client
	model  string
}

func newClient(cfg config.LLM) *openai.Client {
	oc := openai.DefaultConfig(cfg.APIKey)
	oc.BaseURL = cfg.BaseURL
	oc.HTTPClient = &http.Client{Timeout: 60 * time.Second}
	return openai.NewClientWithConfig(oc)
}

func newOpenAISpeaker(cfg config.LLM) *openAISpeaker {
	return &openAISpeaker{client: newClient(cfg), model: cfg.SpeechModel}
}

func (s *openAISpeaker) Name() string { return "openai" }

// Speak asks the speech endpoint for MP3 in the chosen voice, with the text cleaned first.
func (s *openAISpeaker) Speak(ctx context.Context, text, voice string) ([]byte, error) {
	text = CleanForSpeech(text)
	if text == "" {
		return nil, ErrNoSpeech
	}
	if !ValidVoice(voice) {
		voice = Default
	}
	rc, err := s.client.CreateSpeech(ctx, openai.CreateSpeechRequest{
		Model:          openai.SpeechModel(s.model),
		Input:          text,
		Voice:          openai.SpeechVoice(voice),
		ResponseFormat: openai.SpeechResponseFormatMp3,
	})
	if err != nil {
		return nil, fmt.Errorf("speech: %w", err)
	}
	defer rc.Close()
	audio, err := io.ReadAll(io.LimitReader(rc, 20<<20))
	if err != nil {
		return nil, fmt.Errorf("read speech: %w", err)
	}
	return audio, nil
}

type openAITranscriber struct {
	client *openai.Client
	model  string
}

func newOpenAITranscriber(cfg config.LLM) *openAITranscriber {
	return &openAITranscriber{client: newClient(cfg), model: cfg.TranscriptionModel}
}

// Transcribe sends recorded audio to the transcription endpoint (English).
func (t *openAITranscriber) Transcribe(ctx context.Context, audio io.Reader, filename string) (string, error) {
	res, err := t.client.CreateTranscription(ctx, openai.AudioRequest{
		Model:    t.model,
		Reader:   audio,
		FilePath: filename,
		Language: "en",
	})
	if err != nil {
		return "", fmt.Errorf("transcribe: %w", err)
	}
	return res.Text, nil
}
