package voice

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// FuzzCleanForSpeech: for any text, what is read aloud never panics, stays within
// MaxSpokenChars, keeps valid UTF-8 valid, and holds no Markdown emphasis or code marks, no
// control characters but newlines, no emoji, and no blank or untrimmed lines.
// The seed corpus is in testdata/fuzz/FuzzCleanForSpeech.
func FuzzCleanForSpeech(f *testing.F) {
	for _, s := range []string{
		"", "**Breathe** in, _slowly_.", "# Title\n> quote\n- item\n1. first", "See [this](https://example.com) or www.example.com",
		"```go\ncode\n```", "I'm here 💛🙂‍↕️", strings.Repeat("word ", 1200), "\x00\x01\t\r\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		out := CleanForSpeech(text)
		if n := utf8.RuneCountInString(out); n > MaxSpokenChars {
			t.Fatalf("%d characters", n)
		}
		if utf8.ValidString(text) && !utf8.ValidString(out) {
			t.Fatalf("CleanForSpeech(%q) = %q: invalid UTF-8", text, out)
		}
		if strings.ContainsAny(out, "*_~`") {
			t.Fatalf("CleanForSpeech(%q) = %q: Markdown marks left", text, out)
		}
		for _, r := range out {
			if (unicode.IsControl(r) && r != '\n') || (r >= 0x1F000 && r <= 0x1FAFF) {
				t.Fatalf("CleanForSpeech(%q) = %q: %U left", text, out, r)
			}
		}
		for _, l := range strings.Split(out, "\n") {
			if out != "" && (l == "" || strings.TrimSpace(l) != l) {
				t.Fatalf("CleanForSpeech(%.80q…) = %.80q…: blank or untrimmed line %.80q…", text, out, l)
			}
		}
	})
}
