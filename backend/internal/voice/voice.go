// Package voice speaks the companion's replies (text to MP3) and transcribes recorded audio.
// Providers are chosen at start-up: an OpenAI-compatible endpoint when one is configured,
// else espeak-ng + lame when installed, else none (the browser speaks with speechSynthesis).
package voice

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/percolate/percolate/backend/internal/config"
)

// Voices are the nine voice names the API accepts; Default is used when none is given.
var Voices = []string{"alloy", "ash", "coral", "echo", "fable", "onyx", "nova", "sage", "shimmer"}

// Default is the voice used when a request names none.
const Default = "alloy"

// MaxSpokenChars bounds how much of a reply is spoken, so one reply cannot tie up the
// speech provider for minutes.
const MaxSpokenChars = 4000

// ErrNoSpeech: there is nothing left to speak once markup is removed.
var ErrNoSpeech = errors.New("nothing to speak")

// Speaker turns text into MP3 audio in a voice.
type Speaker interface {
	Speak(ctx context.Context, text, voice string) ([]byte, error)
	// Name says which provider this is, for logs and the client config.
	Name() string
}

// Transcriber turns recorded audio into text.
type Transcriber interface {
	Transcribe(ctx context.Context, audio io.Reader, filename string) (string, error)
}

// ValidVoice reports whether name is one of Voices.
func ValidVoice(name string) bool {
	return slices.Contains(Voices, name)
}

// NewSpeaker picks the speech provider: the model endpoint, else espeak-ng + lame, else nil.
func NewSpeaker(cfg config.LLM, logger *slog.Logger) Speaker {
	if cfg.Configured() {
		return newOpenAISpeaker(cfg)
	}
	s, err := newEspeak()
	if err != nil {
		logger.Info("no server-side speech: the browser will speak replies", "reason", err.Error())
		return nil
	}
	return s
}

// NewTranscriber returns the model endpoint's transcription, or nil without one.
func NewTranscriber(cfg config.LLM) Transcriber {
	if !cfg.Configured() {
		return nil
	}
	return newOpenAITranscriber(cfg)
}

var (
	mdLink      = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
	bareURL     = regexp.MustCompile(`(?i)\b(?:https?://|www\.)\S+`)
	mdCodeFence = regexp.MustCompile("(?s)```.*?```")
	mdMarks     = regexp.MustCompile(`(?m)^\s{0,3}(?:#{1,6}\s+|>\s?|[-*+]\s+|\d+[.)]\s+)`)
	mdEmphasis  = regexp.MustCompile("[*_~`]+")
	spaces      = regexp.MustCompile(`[ \t]+`)
)

// CleanForSpeech removes what should not be read aloud: Markdown, URLs and emoji.
func CleanForSpeech(text string) string {
	text = mdCodeFence.ReplaceAllString(text, " ")
	text = mdLink.ReplaceAllString(text, "$1")
	text = bareURL.ReplaceAllString(text, "")
	text = mdMarks.ReplaceAllString(text, "")
	text = mdEmphasis.ReplaceAllString(text, "")
	text = strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == ' ':
			return r
		case unicode.Is(unicode.So, r), unicode.Is(unicode.Sk, r), unicode.IsControl(r),
			r == '\u200d', r == '\ufe0f', (r >= 0x1F000 && r <= 0x1FAFF):
			return -1
		}
		return r
	}, text)
	text = spaces.ReplaceAllString(text, " ")
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	text = strings.Join(lines, "\n")
	if r := []rune(text); len(r) > MaxSpokenChars {
		text = strings.TrimSpace(string(r[:MaxSpokenChars])) // no dangling space or newline at the cut
	}
	return text
}
