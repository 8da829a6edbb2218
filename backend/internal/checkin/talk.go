package checkin

import (
	"strings"
	"unicode/utf8"
)

// moodWords name the moods as the check-in card does (1 very low … 5 great).
var moodWords = [...]string{1: "very low", 2: "low", 3: "okay", 4: "good", 5: "great"}

// MoodWord names a mood as the check-in card does ("very low" … "great").
func MoodWord(mood int) string { return moodWords[min(max(mood, 1), 5)] }

// quoteRunes is the most of a note the acknowledgement quotes: enough to show it was read,
// short enough that the opening stays a greeting rather than a transcript.
const quoteRunes = 160

// Acknowledgement is what the companion says first in a chat opened from c ("Talk about
// it"): the mood, emotions and tags the user chose, and their note unless the crisis screen
// flagged it (a flagged note is never repeated back). It is the companion's words about the
// check-in, so it never poses as the user's.
func (c Checkin) Acknowledgement() string {
	var b strings.Builder
	b.WriteString("You said you're feeling ")
	b.WriteString(MoodWord(c.Mood))
	if len(c.Emotions) > 0 {
		b.WriteString(", with some ")
		b.WriteString(list(c.Emotions))
	}
	if len(c.Tags) > 0 {
		b.WriteString(", and ")
		b.WriteString(list(c.Tags))
		b.WriteString(" came up")
	}
	b.WriteString(".")
	if c.Note != nil && c.Safety == "" {
		note := strings.Join(strings.Fields(*c.Note), " ")
		if utf8.RuneCountInString(note) > quoteRunes {
			note = strings.TrimSpace(string([]rune(note)[:quoteRunes])) + "…"
		}
		b.WriteString(" You wrote: \u201c" + note + "\u201d")
	}
	b.WriteString(" Would you like to start there, or with whatever feels most pressing right now?")
	return b.String()
}

// list joins words as a sentence does: "a", "a and b", "a, b and c".
func list(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}
