package companion

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/percolate/percolate/backend/internal/lazyre"
)

// itemKind is what a tracked mention is.
type itemKind int

const (
	kindEvent itemKind = iota
	kindPerson
	kindPlace
	kindDay
)

// item is something the user mentioned: a person, an event, a place or a day, named the way
// the engine says it back (in the second person, from recognised words only).
type item struct {
	kind itemKind
	// key identifies the item across turns ("midterm", "maya").
	key string
	// short names it briefly ("your statistics midterm"); full adds its day and place
	// ("your statistics midterm on Tuesday").
	short, full string
	plural      bool
	cat         string
	// on is a day said after a verb ("on Tuesday", "tomorrow").
	on string
	// attached days belong to an event of the same sentence and are not listed apart.
	attached bool
	// turn is the index of the user turn that mentioned it.
	turn int
}

// token is one word of a sentence.
type token struct {
	raw string // as written, without punctuation around it or a possessive 's
	low string // lower case, apostrophes removed ("I'm" → "im")
	// breakAfter is set when punctuation follows the word: phrases never cross it.
	breakAfter bool
}

var sentenceEnd = lazyre.MustCompile(`[.!?;…\n]+`)

// sentences splits a message into its sentences.
func sentences(text string) []string {
	var out []string
	for _, s := range sentenceEnd.Split(text, -1) {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' || r == '’' || r == '-'
}

// tokenize splits a sentence into words; any punctuation other than apostrophes and
// hyphens marks a break.
func tokenize(s string) []token {
	var toks []token
	var cur strings.Builder
	flush := func(brk bool) {
		if cur.Len() > 0 {
			raw := strings.Trim(cur.String(), "'’-")
			cur.Reset()
			if raw != "" {
				if r := []rune(raw); len(r) > 2 && (r[len(r)-1] == 's' || r[len(r)-1] == 'S') && (r[len(r)-2] == '\'' || r[len(r)-2] == '’') {
					raw = string(r[:len(r)-2])
				}
				low := noApostrophes.Replace(strings.ToLower(raw))
				if low != "" {
					toks = append(toks, token{raw: raw, low: low})
				}
			}
		}
		if brk && len(toks) > 0 {
			toks[len(toks)-1].breakAfter = true
		}
	}
	for _, r := range s {
		switch {
		case isWordRune(r):
			cur.WriteRune(r)
		case unicode.IsSpace(r):
			flush(false)
		default:
			flush(true)
		}
	}
	flush(false)
	return toks
}

// eventLemma finds the event noun a word is, and whether it is plural.
func eventLemma(w string) (string, eventNoun, bool) {
	if e, ok := eventNouns[w]; ok {
		return w, e, false
	}
	for _, cut := range []string{"s", "es"} {
		if base, ok := strings.CutSuffix(w, cut); ok {
			if e, ok := eventNouns[base]; ok && !e.mass {
				return base, e, true
			}
		}
	}
	return "", eventNoun{}, false
}

// fillerWords are interjections and fillers, never part of a phrase said back ("ugh group
// project" is "your group project").
var fillerWords = setOf("ugh", "ughh", "urgh", "argh", "omg", "omfg", "lol", "lmao", "tbh",
	"idk", "ngl", "hmm", "hmmm", "um", "umm", "uh", "erm", "yeah", "yea", "yep", "nah", "pls",
	"plz", "literally", "basically", "honestly", "smh", "fr", "bruh", "wtf", "ffs", "oof", "rn", "atm")

// isModifier reports whether a word may qualify a noun in a phrase the engine says back.
func isModifier(t token) bool {
	w := t.low
	if subjects[w] {
		return true
	}
	if len(w) < 2 || utf8.RuneCountInString(w) > 16 || notModifiers[w] || determiners[w] || months[w] || fillerWords[w] || isShortWord(w) {
		return false
	}
	for _, r := range w {
		if !unicode.IsLetter(r) && r != '-' {
			return false
		}
	}
	if (strings.HasSuffix(w, "ing") || strings.HasSuffix(w, "ed")) && !okModifierSuffix[w] {
		return false
	}
	if strings.HasSuffix(w, "ly") && w != "early" && w != "weekly" && w != "daily" {
		return false
	}
	_, _, isEvent := eventLemma(w)
	return !isEvent && !relations[w] && !isWeekday(w)
}

// isWeekday reports whether w is a day of the week, or its plural ("Sundays").
func isWeekday(w string) bool {
	for _, d := range weekdays {
		if strings.EqualFold(w, d) || strings.EqualFold(w, d+"s") {
			return true
		}
	}
	return false
}

// word returns how the engine writes a user's word: as written, unless shouted.
func word(t token) string {
	if t.raw == strings.ToUpper(t.raw) && utf8.RuneCountInString(t.raw) > 1 {
		return t.low
	}
	if languages[t.low] || isWeekday(t.low) {
		return capFirst(strings.ToLower(t.raw))
	}
	return strings.ToLower(t.raw)
}

// secondPerson renders a determiner from the user's point of view.
func secondPerson(det string, personal bool) string {
	switch det {
	case "my", "our":
		return "your"
	case "his", "her", "their":
		return det
	case "the", "this", "that", "these", "those":
		return "the"
	}
	if personal {
		return "your"
	}
	return "the"
}

// extractItems finds the people, events, places and days of one sentence.
func extractItems(s string) []item {
	toks := tokenize(s)
	used := make([]bool, len(toks))
	var items []item
	days := extractDays(toks, used)
	places := extractPlaces(toks, used)
	items = append(items, extractBreakup(toks, used)...)
	for i, t := range toks {
		if used[i] {
			continue
		}
		lemma, ev, plural := eventLemma(t.low)
		if lemma == "" {
			continue
		}
		var mods []string
		j := i - 1
		for j >= 0 && !toks[j].breakAfter && !used[j] && len(mods) < 2 && (isModifier(toks[j]) || ingAfterDeterminer(toks, j)) {
			mods = append([]string{word(toks[j])}, mods...)
			j--
		}
		det := ""
		if j >= 0 && !toks[j].breakAfter && determiners[toks[j].low] {
			det = toks[j].low
		}
		afterPrep := j >= 0 && !toks[j].breakAfter && massPreps[toks[j].low]
		if ev.ambiguous && det == "" && len(mods) == 0 && !plural && !(ev.mass && afterPrep) {
			continue
		}
		if det == "his" || det == "her" || det == "their" {
			// Someone else's ("cover her shifts"): the person is what the user talks about.
			continue
		}
		used[i] = true
		phrase := append(mods, word(t))
		d := secondPerson(det, ev.personal)
		if ev.mass && det == "" && len(mods) == 0 {
			d = ""
		}
		short := strings.TrimSpace(d + " " + strings.Join(phrase, " "))
		it := item{kind: kindEvent, key: lemma, short: short, full: short, plural: plural, cat: ev.cat}
		if d := dayFor(days, i); d >= 0 {
			it.full += " " + days[d].on
			days[d].attached = true
		}
		for k := range places {
			if places[k].attached || places[k].turn < i || places[k].turn > i+5 {
				continue
			}
			it.full += " at " + places[k].short
			places[k].attached = true
			break
		}
		items = append(items, it)
	}
	items = append(items, extractPeople(toks, used)...)
	for _, p := range places {
		p.turn = 0
		if !p.attached {
			items = append(items, p)
		}
	}
	for _, d := range days {
		d.turn = 0
		items = append(items, d)
	}
	return items
}

// ingAfterDeterminer accepts an -ing word right after a determiner as a modifier ("my
// driving test"), which elsewhere is a verb ("I keep driving").
func ingAfterDeterminer(toks []token, j int) bool {
	w := toks[j].low
	return strings.HasSuffix(w, "ing") && len(w) > 4 && len(w) <= 16 && j > 0 && !toks[j-1].breakAfter &&
		determiners[toks[j-1].low] && !notModifiers[w]
}

var breakupVerbs = setOf("broke", "breaking", "broken", "split", "splitting")

// extractBreakup finds a breakup told as a verb ("she broke up with me", "he dumped me").
func extractBreakup(toks []token, used []bool) []item {
	for i, t := range toks {
		verb := breakupVerbs[t.low] && i+1 < len(toks) && toks[i+1].low == "up"
		if verb || t.low == "dumped" {
			used[i] = true
			if verb {
				used[i+1] = true
			}
			return []item{{kind: kindEvent, key: "breakup", short: "the breakup", full: "the breakup", cat: catConflict}}
		}
	}
	return nil
}

// dayFor picks the day that goes with the event at token i: the first free one after it,
// else the last free one before it ("On Tuesday I have my midterm"); -1 for none. A day's
// turn field holds its token index here.
func dayFor(days []item, i int) int {
	before := -1
	for k, d := range days {
		if d.attached {
			continue
		}
		if d.turn > i {
			return k
		}
		before = k
	}
	return before
}

var ordinal = lazyre.MustCompile(`^([1-9]|[12][0-9]|3[01])(st|nd|rd|th)?$`)

// extractDays finds weekdays, "tomorrow", "tonight", "this weekend", "next week" and dates.
func extractDays(toks []token, used []bool) []item {
	var days []item
	add := func(text, on string, idx ...int) {
		for _, i := range idx {
			used[i] = true
		}
		days = append(days, item{kind: kindDay, key: strings.ToLower(text), short: text, full: text, on: on, turn: idx[0]})
	}
	for i, t := range toks {
		if used[i] {
			continue
		}
		prev, next := "", ""
		if i > 0 {
			prev = toks[i-1].low
		}
		if i+1 < len(toks) {
			next = toks[i+1].low
		}
		switch {
		case isWeekday(t.low):
			d := capFirst(t.low)
			add(d, "on "+d, i)
		case t.low == "tomorrow" || t.low == "tonight" || t.low == "yesterday":
			add(t.low, t.low, i)
		case (t.low == "weekend" || t.low == "week" || t.low == "month") && (prev == "this" || prev == "next" || prev == "last") && i > 0:
			add(prev+" "+t.low, prev+" "+t.low, i-1, i)
		case t.low == "night" && prev == "last" && i > 0:
			add("last night", "last night", i-1, i)
		case months[t.low] && ordinal.MatchString(next):
			d := capFirst(t.low) + " " + strings.TrimRight(next, "stndrh")
			add(d, "on "+d, i, i+1)
		case months[next] && ordinal.MatchString(t.low) && i+1 < len(toks) && !used[i+1]:
			d := capFirst(next) + " " + strings.TrimRight(t.low, "stndrh")
			add(d, "on "+d, i, i+1)
		}
	}
	return days
}

// extractPlaces finds "at the café", "in the library", "at Starbucks". An item's turn
// field holds the token index here, for attaching the place to a nearby event.
func extractPlaces(toks []token, used []bool) []item {
	var places []item
	for i := 0; i+1 < len(toks); i++ {
		if !placePreps[toks[i].low] || toks[i].breakAfter {
			continue
		}
		j := i + 1
		det := ""
		if determiners[toks[j].low] && j+1 < len(toks) && !toks[j].breakAfter {
			det = toks[j].low
			j++
		}
		var mod string
		if j+1 < len(toks) && !toks[j].breakAfter && isModifier(toks[j]) && placeNouns[toks[j+1].low] {
			mod = word(toks[j]) + " "
			j++
		}
		t := toks[j]
		switch {
		case placeNouns[t.low] && !used[j]:
			text := mod + word(t)
			if d := secondPerson(det, false); det != "" || !barePlaces[t.low] || mod != "" {
				text = d + " " + text
			}
			places = append(places, item{kind: kindPlace, key: t.low, short: text, full: text, turn: j})
		case det == "" && toks[i].low == "at" && looksLikeName(t) && !used[j]:
			places = append(places, item{kind: kindPlace, key: t.low, short: t.raw, full: t.raw, turn: j})
		default:
			continue
		}
		for k := i; k <= j; k++ {
			used[k] = true
		}
		i = j
	}
	return places
}
