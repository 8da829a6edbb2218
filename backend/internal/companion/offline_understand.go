package companion

import (
	"strings"

	"github.com/percolate/percolate/backend/internal/lazyre"
)

// Comprehension rules the item tracker and the feeling lexicon do not know on their own.

var (
	// reDenial opens a clause that says what something is not about: "i'm not worried about
	// the test", "its not that i hate it here", "nah its not the money".
	reDenial = lazyre.MustCompile(`\b(not|isnt|arent|wasnt|nah|no)\b`)
	// reContrast turns to what it is about: "…, its my mum", "…, i just feel empty".
	// A clause that starts again with "im" turns too: "im not nervous about the interview im
	// nervous about telling my dad" (plain text has no commas).
	reContrast = lazyre.MustCompile(`(,|\b(but|its|it s|just|more|rather|actually|its more|i mean|im just|i just|im|i m|i am|i was|i feel)\b)`)
	// reThirdPerson starts a clause about someone else.
	reThirdPerson = lazyre.MustCompile(`^(and |but |so |like )?(he|she|they|hes|shes|theyre|theyve|hed|shed|his|her|their|nobody( else)?|no one( else)?|everyone( else)?|everybody( else)?|someone|my (\w+ )?(` + relationAlt() + `))\b`)
	// reLessMore weighs two things: "less about X and more about Y", "not so much X, more Y".
	reLessMore       = lazyre.MustCompile(`\b(?:less|not so much|not really) (?:about |that )?(?:\w+ ){0,5}?(?:\w+)(?: and| but|,)? ((?:its |it s )?more (?:about |that |like |so )?\w.*)$`)
	reCorrectionMark = lazyre.MustCompile(`^ (wait|sorry|actually|hang on|my bad)\b`)
	reClauseBreak    = lazyre.MustCompile(`[,;]|\b(and|but|because|bc|cos|when|while|if)\b`)
)

func relationAlt() string {
	var b []string
	for w := range relations {
		b = append(b, w)
	}
	// The order does not matter for a match of whole words.
	return strings.Join(b, "|")
}

// contrast splits a sentence that denies one thing and turns to another ("not worried about
// X, it's Y"): denied is what it is not about, kept what it is. ok is false when the
// sentence does not have that shape; a sentence that only denies ("it's not that I hate it
// here") is all denied.
func contrast(sentence string) (denied, kept string, ok bool) {
	n := plain(sentence)
	if m := reLessMore.Regexp().FindStringSubmatchIndex(n); m != nil {
		// "its less about jas and more about the whole group"
		return n[:m[2]], n[m[2]:], true
	}
	denials := reDenial.FindAllStringIndex(n, -1)
	for k, d := range denials {
		rest := n[d[1]:]
		if d[0] == 0 && reCorrectionMark.MatchString(rest) {
			// "no wait its wednesdays": the "no" takes back what was said before; it
			// denies nothing of what follows.
			continue
		}
		// The turn comes at least two words after the denial ("no its not that…" is one
		// denial, not a turn).
		skip := 0
		if f := strings.Fields(rest); len(f) >= 2 {
			skip = strings.Index(rest, f[1]) + len(f[1])
		} else {
			break
		}
		m := reContrast.FindStringIndex(rest[skip:])
		if m == nil {
			continue
		}
		at := d[1] + skip + m[0]
		if k+1 < len(denials) && denials[k+1][0] < at {
			continue // a later denial is the one the turn answers
		}
		if d2, k2, ok2 := contrast(n[at:]); ok2 && k2 != "" && len(k2) < len(n)-at {
			// "thats not what i meant, im not nervous about the interview, im nervous about
			// telling my dad": the second denial is what it is not about.
			return n[:at] + " " + d2, k2, true
		}
		return n[:at], n[at:], true
	}
	if d := reDenial.FindStringIndex(n); d != nil && strings.HasPrefix(n[d[0]:], "not that") {
		return n, "", true
	}
	return "", n, false
}

// ownFeelingText drops the clauses about someone else ("he's done nothing", "my mum was
// upset"): their feelings and actions are not the user's.
func ownFeelingText(text string) string { return ownFeelingTextOf(text, nil) }

// ownFeelingTextOf is ownFeelingText in a session that knows the people named: a clause
// that opens with one of them ("marcus hasnt even opened the doc") is about them too.
func ownFeelingTextOf(text string, names map[string]bool) string {
	var keep []string
	for _, sen := range sentences(text) {
		n := plain(sen)
		parts := reClauseBreak.Split(n, -1)
		for _, p := range parts {
			p = strings.TrimSpace(p)
			if p == "" || ((reThirdPerson.MatchString(p) || names[strings.Fields(p)[0]]) && !strings.Contains(" "+p+" ", " i ") && !strings.Contains(" "+p+" ", " me ")) {
				continue
			}
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, ", ")
}

// ownWords are feeling words said back as the user said them ("empty", not "sad").
var ownWords = setOf("empty", "numb", "flat", "hurt", "homesick", "disappointed", "nervous",
	"anxious", "stressed", "overwhelmed", "lonely", "guilty", "frustrated", "annoyed", "angry",
	"sad", "scared", "relieved", "proud", "happy", "excited", "exhausted", "tired", "jealous",
	"embarrassed", "gutted", "shocked", "torn", "confused", "drained", "calm")

// ownFeelingWord is the first feeling word of the user's own, not negated.
func ownFeelingWord(text string) string {
	words := strings.Fields(plain(text))
	for i, w := range words {
		if !ownWords[w] {
			continue
		}
		if !negated(strings.Join(words[max(0, i-2):i], " ")) {
			return w
		}
	}
	return ""
}
