package companion

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// MoodCheckin is what the companion may know of one of the user's recent mood check-ins
// (issue 31): never the note, and never a check-in whose note the crisis screen flagged.
type MoodCheckin struct {
	// Mood is 1 (very low) to 5 (great); Energy 1 (drained) to 5, 0 when not given.
	Mood, Energy int
	Emotions     []string
	Tags         []string
	// Day is the check-in's day in the user's own calendar.
	Day time.Time
}

// checkinPattern is one pattern of the recent check-ins: the line that names it and the
// words of a message it fits (a message about being tired fits "drained").
type checkinPattern struct {
	line  string
	fits  []string
	lowly bool // a low pattern, which may also open a session (see reply.checkinLine)
}

// Which check-ins count as low, and how many days make a pattern.
const (
	lowMood     = 2
	lowEnergy   = 2
	patternDays = 2 // a pattern holds on at least this many days
	openingDays = 3 // the low days after which the first reply may name the pattern unasked
)

var countWords = [...]string{2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven"}

func daysText(n int) string {
	if n < len(countWords) {
		return countWords[n] + " days"
	}
	return fmt.Sprintf("%d days", n)
}

// days counts the distinct days of the check-ins that keep holds for.
func days(cs []MoodCheckin, keep func(MoodCheckin) bool) int {
	var seen []time.Time
	for _, c := range cs {
		if keep(c) && !slices.ContainsFunc(seen, c.Day.Equal) {
			seen = append(seen, c.Day)
		}
	}
	return len(seen)
}

// checkinPatterns are the patterns of the check-ins (the last seven days'), strongest first:
// low energy, low mood, then each tag that came up on several days.
func checkinPatterns(cs []MoodCheckin) []checkinPattern {
	var out []checkinPattern
	if n := days(cs, func(c MoodCheckin) bool { return c.Energy > 0 && c.Energy <= lowEnergy }); n >= patternDays {
		out = append(out, checkinPattern{line: "You checked in feeling drained on " + daysText(n) + " this week.", lowly: n >= openingDays,
			fits: []string{"tired", "exhausted", "drained", "sleep", "sleeping", "energy", "worn out", "burnt out", "burned out", "no energy"}})
	}
	if n := days(cs, func(c MoodCheckin) bool { return c.Mood <= lowMood }); n >= patternDays {
		out = append(out, checkinPattern{line: "You checked in feeling low on " + daysText(n) + " this week.", lowly: n >= openingDays,
			fits: []string{"low", "down", "sad", "mood", "rough", "hard", "struggling", "tired", "exhausted", "drained"}})
	}
	for _, tag := range checkinTags {
		if n := days(cs, func(c MoodCheckin) bool { return slices.Contains(c.Tags, tag) }); n >= patternDays {
			line := strings.ToUpper(tag[:1]) + tag[1:] + " came up in your check-ins on " + daysText(n) + " this week."
			out = append(out, checkinPattern{line: line, fits: tagWords[tag]})
		}
	}
	return out
}

// checkinTags are the check-in tags a message can be about, with the words that say so.
var (
	checkinTags = []string{"sleep", "exams", "study", "friends", "family", "work", "money", "exercise", "health"}
	tagWords    = map[string][]string{
		"sleep": {"sleep", "sleeping", "slept", "insomnia", "awake"}, "exams": {"exam", "exams", "finals", "midterm", "midterms", "test"},
		"study": {"study", "studying", "revision", "revising", "assignment", "coursework"}, "friends": {"friend", "friends"},
		"family": {"family", "mum", "mom", "dad", "parents", "brother", "sister"}, "work": {"work", "job", "shift", "shifts"},
		"money": {"money", "rent", "broke", "bills"}, "exercise": {"exercise", "gym", "run", "running", "workout"}, "health": {"health", "ill", "sick"},
	}
)

// IsCheckinLine reports whether an assistant turn already named a pattern of the check-ins:
// the engine names one at most once a session.
func IsCheckinLine(said string) bool {
	return strings.Contains(said, "checked in feeling") || strings.Contains(said, "came up in your check-ins on")
}

// CheckinLineFor is the line that names the check-ins' pattern the message fits, or, when
// opening is set (the session's first reply), the strongest low pattern of several low
// days; "" when none fits. It never reads a note: MoodCheckin holds none.
func CheckinLineFor(cs []MoodCheckin, message string, opening bool) string {
	words := " " + strings.Join(strings.Fields(strings.ToLower(feelingPunct.Replace(message))), " ") + " "
	patterns := checkinPatterns(cs)
	for _, p := range patterns {
		for _, w := range p.fits {
			if i := strings.Index(words, " "+w+" "); i >= 0 && !negated(words[:i]) {
				return p.line
			}
		}
	}
	if opening {
		for _, p := range patterns {
			if p.lowly {
				return p.line
			}
		}
	}
	return ""
}

// CheckinContext is what a model's system prompt carries of the recent check-ins: each
// one's day, mood, energy, emotions and tags (never a note), and the pattern they show, with
// how to use them; "" without check-ins.
func CheckinContext(cs []MoodCheckin) string {
	if len(cs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("The user's mood check-ins of the last seven days (mood 1 very low to 5 great; energy 1 drained to 5 full), newest first. " +
		"Refer to a pattern at most once in the conversation and only when it fits what the user is talking about; never recite the list:")
	for _, c := range cs {
		fmt.Fprintf(&b, "\n- %s: mood %d", c.Day.Format("Mon 2 Jan"), c.Mood)
		if c.Energy > 0 {
			fmt.Fprintf(&b, ", energy %d", c.Energy)
		}
		if len(c.Emotions) > 0 {
			b.WriteString(", feeling " + strings.Join(c.Emotions, ", "))
		}
		if len(c.Tags) > 0 {
			b.WriteString(", about " + strings.Join(c.Tags, ", "))
		}
	}
	if ps := checkinPatterns(cs); len(ps) > 0 {
		b.WriteString("\nPattern: " + ps[0].line)
	}
	return b.String()
}
