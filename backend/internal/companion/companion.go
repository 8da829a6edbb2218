// Package companion is the AI behind the chat: a Provider interface with two implementations
// (any OpenAI-compatible endpoint through go-openai, and the offline engine, the embedded
// default), the system prompt, model-independent safety screening and the fixed notices
// (AI disclosure, crisis resources), and session summaries with emotion labels.
//
// Model output is untrusted text: it is cleaned of control characters and never treated as
// markup or instructions.
package companion

import (
	"context"
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/percolate/percolate/backend/internal/config"
)

// Roles of the turns of a conversation.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// Turn is one message of the conversation.
type Turn struct {
	Role    string
	Content string
}

// Profile is what the user told us about themselves; every field may be empty.
type Profile struct {
	// Age is 0 when unknown.
	Age             int
	FocusAreas      string
	PrimaryConcerns string
	SensitiveTopics string
	// Country is the ISO 3166-1 alpha-2 code whose lines the crisis texts give ("" when
	// unknown: findahelpline.com).
	Country string
}

// Prompt is one request for a reply.
type Prompt struct {
	// System is the system prompt (see BuildSystemPrompt).
	System string
	// History is the trimmed earlier conversation, oldest first, without the new message.
	History []Turn
	// Message is the user's new message.
	Message string
	// Profile is passed along for providers that use it directly (the offline engine).
	Profile Profile
	// Memories are short sentences remembered from the user's earlier sessions ("Has a
	// statistics midterm on Tuesday"), newest first; none while the user has memory off.
	// The offline engine may pick up one of them as a thread early in a session.
	Memories []string
	// Paced says someone watches the reply arrive as a stream: the offline engine may then
	// pace its words like a model would. Without it a reply comes back at once.
	Paced bool
	// Crises is how many crisis replies and acknowledgements of a risk the session has had;
	// AfterCrisis says the reply just before the message was one of them, and the offline
	// engine then asks gently how the user is and whether they have reached someone.
	Crises      int
	AfterCrisis bool
	// Checkins are the user's mood check-ins of the last seven days, newest first (no notes,
	// none whose note was flagged). The offline engine may name their pattern once a session,
	// where it fits (see CheckinLineFor).
	Checkins []MoodCheckin
}

// Usage is the token accounting of one reply. Reported is false when the provider gave no
// usage and the numbers are estimates.
type Usage struct {
	PromptTokens     int
	CompletionTokens int
	Reported         bool
}

// Reply is a whole reply.
type Reply struct {
	Text  string
	Usage Usage
}

// Summary of an ended session: 2–4 sentences and 1–5 labels from Emotions.
type Summary struct {
	Text     string
	Emotions []string
	// Title is a short title made from the conversation, or empty when there is none to make
	// (the session keeps the one it has).
	Title string
}

// Provider produces replies and summaries.
type Provider interface {
	// Stream produces a reply to p, calling onChunk with each piece of text as it arrives
	// (in order; their concatenation is Reply.Text). An error from onChunk stops the stream
	// and is returned.
	Stream(ctx context.Context, p Prompt, onChunk func(string) error) (Reply, error)
	// Summarize summarises a conversation.
	Summarize(ctx context.Context, transcript []Turn) (Summary, error)
	// Offline reports whether this is the offline engine.
	Offline() bool
}

// ErrModel is wrapped by every failure of a remote model (HTTP errors, timeouts, bad data).
var ErrModel = errors.New("model failed")

// Emotions is the fixed set of emotion labels (openapi Emotion).
var Emotions = []string{
	"joy", "gratitude", "hope", "calm", "pride", "love", "sadness", "loneliness", "anxiety",
	"stress", "anger", "frustration", "guilt", "shame", "confusion", "fear", "overwhelm", "tiredness",
}

// IsEmotion reports whether s is one of Emotions.
func IsEmotion(s string) bool {
	for _, e := range Emotions {
		if e == s {
			return true
		}
	}
	return false
}

// EstimateTokens estimates the tokens of a text (about four characters a token, at least one
// for any non-empty text), for when a provider reports no usage.
func EstimateTokens(s string) int {
	n := utf8.RuneCountInString(s)
	if n == 0 {
		return 0
	}
	return (n + 3) / 4
}

// CleanText removes control characters (other than newlines and tabs) from model output.
func CleanText(s string) string {
	if !strings.ContainsFunc(s, isBadControl) && utf8.ValidString(s) {
		return s
	}
	s = strings.ToValidUTF8(s, "")
	return strings.Map(func(r rune) rune {
		if isBadControl(r) {
			return -1
		}
		return r
	}, s)
}

func isBadControl(r rune) bool {
	return unicode.IsControl(r) && r != '\n' && r != '\t'
}

// New returns the provider the configuration asks for: the OpenAI-compatible endpoint when
// one is configured, otherwise the offline engine.
func New(cfg config.LLM) Provider {
	if cfg.Configured() {
		return NewOpenAI(cfg, OpenAIOptions{})
	}
	return NewOffline()
}
