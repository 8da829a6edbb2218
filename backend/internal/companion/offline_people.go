package companion

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// capFirst upper-cases the first letter of s.
func capFirst(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	if size == 0 || !unicode.IsLower(r) {
		return s
	}
	return string(unicode.ToUpper(r)) + s[size:]
}

// looksLikeName reports whether a word is written like a name: capitalised, then lower
// case, and not a word the engine knows as something else.
func looksLikeName(t token) bool {
	r := []rune(t.raw)
	if len(r) < 2 || len(r) > 20 || !unicode.IsUpper(r[0]) {
		return false
	}
	lower := false
	for _, c := range r[1:] {
		if !unicode.IsLetter(c) && c != '-' {
			return false
		}
		lower = lower || unicode.IsLower(c)
	}
	if !lower {
		return false
	}
	w := t.low
	_, _, isEvent := eventLemma(w)
	return !isEvent && !isWeekday(w) && !notNames[w] && !notModifiers[w] && !relations[w] && !placeNouns[w] &&
		!subjects[w] && !months[w] && !determiners[w] && !commonStarters[w] && !isFeelingWord(w) && !isShortWord(w)
}

// commonStarters are capitalised at the start of a sentence but are not names.
var commonStarters = setOf("everything", "nothing", "something", "anything", "everyone",
	"someone", "nobody", "everybody", "life", "people", "sometimes", "anyway", "maybe",
	"honestly", "lately", "recently", "mostly", "basically", "literally", "actually",
	"seriously", "home", "sorry", "please", "hmm", "ugh", "wow", "whatever", "mornings",
	"nights", "weekends", "coffee", "music", "social", "being", "getting", "trying", "also",
	"yesterday", "apparently", "luckily", "hopefully", "unfortunately", "instead", "plus",
	"good", "bad", "nice", "same", "great", "awesome", "whatever", "honestly", "thank")

// extractPeople finds "my roommate", "my friend Maya" and names.
func extractPeople(toks []token, used []bool) []item {
	var people []item
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if used[i] {
			continue
		}
		if relations[t.low] {
			prev := ""
			k := i - 1
			mod := ""
			if k >= 0 && !toks[k].breakAfter && relationMods[toks[k].low] {
				mod = toks[k].low + " "
				k--
			}
			if k >= 0 && !toks[k].breakAfter {
				prev = toks[k].low
			}
			capital := unicode.IsUpper([]rune(t.raw)[0]) && parentNames[t.low]
			if prev != "my" && prev != "our" && !capital {
				continue
			}
			used[i] = true
			text := "your " + mod + t.low
			it := item{kind: kindPerson, key: t.low, short: text, full: text, plural: strings.HasSuffix(t.low, "s") && t.low != "boss"}
			if i+1 < len(toks) && !t.breakAfter && looksLikeName(toks[i+1]) {
				// "my friend Maya" is Maya, introduced.
				used[i+1] = true
				it = item{kind: kindPerson, key: toks[i+1].low, short: toks[i+1].raw, full: text + " " + toks[i+1].raw}
				i++
			}
			people = append(people, it)
			continue
		}
		if !looksLikeName(t) {
			continue
		}
		if i == 0 && len(toks) > 1 {
			// At the start of a sentence a capitalised word is a name only before a verb
			// that people do ("Maya said…"), or alone ("Maya.").
			if !nameVerbs[toks[1].low] || weakNameVerbs[toks[1].low] {
				continue
			}
		}
		used[i] = true
		name, key := t.raw, t.low
		if i+1 < len(toks) && !t.breakAfter && !used[i+1] && looksLikeName(toks[i+1]) {
			used[i+1] = true
			name += " " + toks[i+1].raw
			key += " " + toks[i+1].low
			i++
		}
		people = append(people, item{kind: kindPerson, key: key, short: name, full: name})
	}
	return people
}
