package voice

import (
	"bytes"
	"context"
	"log/slog"
	"os/exec"
	"strings"
	"testing"

	"github.com/percolate/percolate/backend/internal/companion/llmtest"
	"github.com/percolate/percolate/backend/internal/config"
)

var quiet = slog.New(slog.DiscardHandler)

func TestCleanForSpeech(t *testing.T) {
	cases := map[string]string{
		"**You** did _well_ today 🎉":                             "You did well today",
		"# Try this\n- breathe in\n- breathe out":                "Try this\nbreathe in\nbreathe out",
		"Read [this guide](https://example.com/guide) later":     "Read this guide later",
		"Visit https://findahelpline.com or www.example.org now": "Visit or now",
		"Code:\n```\nrm -rf /\n```\ndone":                        "Code:\ndone",
		"❤️ Take care 👩‍👩‍👧":                                     "Take care",
		"> a quote with `ticks`":                                 "a quote with ticks",
	}
	for in, want := range cases {
		if got := CleanForSpeech(in); got != want {
			t.Errorf("CleanForSpeech(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestProviderSelection(t *testing.T) {
	llm := llmtest.New(t)
	if s := NewSpeaker(config.LLM{BaseURL: llm.URL(), Model: "m", SpeechModel: "tts"}, quiet); s == nil || s.Name() != "openai" {
		t.Fatalf("with a model endpoint: %v", s)
	}
	if NewTranscriber(config.LLM{}) != nil {
		t.Fatal("a transcriber without a model endpoint")
	}
	s := NewSpeaker(config.LLM{}, quiet)
	_, espeakErr := exec.LookPath("espeak-ng")
	_, lameErr := exec.LookPath("lame")
	switch {
	case espeakErr == nil && lameErr == nil && (s == nil || s.Name() != "espeak-ng"):
		t.Fatalf("espeak-ng and lame installed, got %v", s)
	case (espeakErr != nil || lameErr != nil) && s != nil:
		t.Fatalf("no local speech installed, got %v", s.Name())
	}
}

func TestOpenAISpeechCarriesVoiceAndCleanText(t *testing.T) {
	llm := llmtest.New(t)
	llm.SetSpeechAudio([]byte("ID3-fake-mp3"))
	s := NewSpeaker(config.LLM{BaseURL: llm.URL(), Model: "m", SpeechModel: "tts-test"}, quiet)
	audio, err := s.Speak(context.Background(), "**Breathe** slowly 🌿 — see https://example.com", "coral")
	if err != nil || string(audio) != "ID3-fake-mp3" {
		t.Fatalf("speak: %q %v", audio, err)
	}
	reqs := llm.SpeechRequests()
	if len(reqs) != 1 {
		t.Fatalf("%d speech requests", len(reqs))
	}
	r := reqs[0]
	if r.Voice != "coral" || string(r.Model) != "tts-test" || r.Input != "Breathe slowly — see" {
		t.Fatalf("request: voice %q model %q input %q", r.Voice, r.Model, r.Input)
	}
	if _, err := s.Speak(context.Background(), "🌿🌿", "alloy"); err != ErrNoSpeech {
		t.Fatalf("emoji only: %v", err)
	}
}

func TestEspeakMakesMP3(t *testing.T) {
	s, err := newEspeak()
	if err != nil {
		t.Skip("espeak-ng or lame is not installed (CI installs both): ", err)
	}
	ctx := context.Background()
	a, err := s.Speak(ctx, "You are doing your best, and that is enough.", "alloy")
	if err != nil {
		t.Fatal(err)
	}
	if !isMP3(a) || len(a) < 2000 {
		t.Fatalf("not an MP3 of a sentence: %d bytes, starts %x", len(a), a[:min(4, len(a))])
	}
	b, err := s.Speak(ctx, "You are doing your best, and that is enough.", "onyx")
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(a, b) {
		t.Fatal("two voices produced identical audio")
	}
}

func TestTranscription(t *testing.T) {
	llm := llmtest.New(t)
	llm.SetTranscript("I feel calmer today")
	tr := NewTranscriber(config.LLM{BaseURL: llm.URL(), Model: "m", TranscriptionModel: "whisper-test"})
	text, err := tr.Transcribe(context.Background(), strings.NewReader("RIFF....WAVEfmt "), "clip.webm")
	if err != nil || text != "I feel calmer today" {
		t.Fatalf("%q %v", text, err)
	}
	got := llm.Transcriptions()
	if len(got) != 1 || got[0].Model != "whisper-test" || got[0].Language != "en" {
		t.Fatalf("transcription request: %+v", got)
	}
}

// isMP3 recognises an ID3 tag or an MPEG audio frame header.
func isMP3(b []byte) bool {
	return len(b) > 3 && (string(b[:3]) == "ID3" || (b[0] == 0xFF && b[1]&0xE0 == 0xE0))
}
