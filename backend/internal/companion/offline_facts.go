package companion

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// factDate is how a remembered event's day is written, so that a later session can read it
// back: "Has a driving test on Thursday 3 December 2026".
const factDate = "Monday 2 January 2006"

// wordFacts reads one sentence the way students type it (any case, no apostrophes) for the
// durable facts in it: people and who they are, events with a day (resolved against at),
// ongoing situations and preferences. last is the latest event named in the session, for
// "its due next thursday".
func wordFacts(sen string, at time.Time, last *factState, add func(text, key string)) {
	w := strings.Fields(plain(sen))
	if notAFact(w) {
		return
	}
	for i := 0; i < len(w); i++ {
		// "her name is ines" names the person just mentioned.
		if i+3 < len(w) && (w[i] == "her" || w[i] == "his" || w[i] == "their") && w[i+1] == "name" && w[i+2] == "is" && isName(w[i+3]) && last.rel != "" {
			add(fmt.Sprintf("Their %s is called %s", last.rel, capFirst(w[i+3])), "person:"+last.rel)
		}
		// "hes in the army" goes on about the person just mentioned.
		if i == 0 && i+2 < len(w) && (w[i] == "hes" || w[i] == "shes") && last.rel != "" && (relStates[w[i+1]] && w[i+1] != "also" && w[i+1] != "back" || w[i+1] == "a" || w[i+1] == "an") {
			end := i + 1
			for end < min(len(w), i+8) && !clauseWords[w[end]] {
				end++
			}
			if rest, ok := thirdPerson(strings.Join(w[i+1:end], " "), 6); ok && len(strings.Fields(rest)) >= 2 {
				add(fmt.Sprintf("Their %s is %s", last.rel, rest), "person:"+last.rel+":is")
			}
		}
		// "me and sam broke up"
		if i+4 < len(w) && w[i] == "me" && w[i+1] == "and" && isName(w[i+2]) && w[i+3] == "broke" && w[i+4] == "up" {
			add("Broke up with "+capFirst(w[i+2]), "person:ex")
		}
		if p, n := relPhrase(w, i); n > 0 {
			if full, ok := relFull[p]; ok {
				p = full
			}
			last.rel = p
			// "my sister amira", "my best friend is jas", "my mentor at work is priyanka"
			j := i + 1 + n
			if j+2 < len(w) && w[j] == "at" && w[j+1] == "work" {
				p, j = p+" at work", j+2
			}
			switch {
			case j+1 < len(w) && w[j] == "is" && relAge(w[j+1]) && (j+2 == len(w) || clauseWords[w[j+2]] || w[j+2] == "now"):
				add(fmt.Sprintf("Their %s is %s", p, w[j+1]), "person:"+p+":age")
			case j+2 < len(w) && sayVerbs[w[j]] && (w[j+1] == "i" || w[j+1] == "im" || w[j+1] == "me" || w[j+1] == "that" && (w[j+2] == "i" || w[j+2] == "im")):
				end := j + 1
				for end < min(len(w), j+9) && !clauseWords[w[end]] {
					end++
				}
				if rest, ok := thirdPerson(strings.Join(theyForm(w[j:end]), " "), 8); ok {
					add(fmt.Sprintf("Their %s %s", p, rest), "person:"+p+":"+w[j])
				}
			case j+3 < len(w) && w[j] == "are" && w[j+1] == "called" && isName(w[j+2]):
				names := []string{capFirst(w[j+2])}
				if j+4 < len(w) && w[j+3] == "and" && isName(w[j+4]) {
					names = append(names, capFirst(w[j+4]))
				}
				add(fmt.Sprintf("Their %s are %s", p, strings.Join(names, " and ")), "person:"+p)
			case j+2 < len(w) && w[j] == "is" && w[j+1] == "called" && isName(w[j+2]):
				add(fmt.Sprintf("Their %s is %s", p, capFirst(w[j+2])), "person:"+p)
			case j+1 < len(w) && (w[j] == "is" || w[j] == "called") && isName(w[j+1]) && (j+2 == len(w) || !isName2(w[j+2])):
				add(fmt.Sprintf("Their %s is %s", p, capFirst(w[j+1])), "person:"+p)
			case j+1 < len(w) && titles[w[j]] && isName(w[j+1]):
				add(fmt.Sprintf("Their %s is %s %s", p, capFirst(w[j]), capFirst(w[j+1])), "person:"+p)
			case j+2 < len(w) && isName(w[j]) && p != "ex" && w[j+1] == "is" && relAge(w[j+2]) && (j+3 == len(w) || clauseWords[w[j+3]] || w[j+3] == "now"):
				// "my sister mia is 11": who she is, and her age.
				add(fmt.Sprintf("Has %s called %s", article(p), capFirst(w[j])), "person:"+p+":"+w[j])
				add(fmt.Sprintf("Their %s %s is %s", p, capFirst(w[j]), w[j+2]), "person:"+p+":age")
			case j < len(w) && isName(w[j]) && p != "ex":
				add(fmt.Sprintf("Has %s called %s", article(p), capFirst(w[j])), "person:"+p+":"+w[j])
			case j+2 < len(w) && (w[j] == "is" && relStates[w[j+1]] || relVerbs[w[j]]):
				end := j + 1
				for end < min(len(w), j+9) && !clauseWords[w[end]] {
					end++
				}
				if rest, ok := thirdPerson(strings.Join(w[j:end], " "), 8); ok {
					add(fmt.Sprintf("Their %s %s", p, rest), "person:"+p+":"+w[j])
				}
			case j+2 < len(w) && w[j] == "is" && (w[j+1] == "a" || w[j+1] == "an") && w[j+2] != "bit" && w[j+2] != "lot":
				end := j + 1
				for end < min(len(w), j+5) && !clauseWords[w[end]] {
					end++
				}
				rest, ok := thirdPerson(strings.Join(w[j+1:end], " "), 4)
				if ok {
					add(fmt.Sprintf("Their %s is %s", p, rest), "person:"+p+":is")
				}
			}
		}
		if lemma, _, plural := eventLemma(w[i]); lemma != "" && !(i+1 < len(w) && eventNoun1(w[i+1])) {
			phrase := eventPhrase(w, i)
			last.event = phrase
			if plural {
				last.event = "the " + phrase
			}
			if d, ok := dayIn(w, i, at); ok && !someoneElses(w, i) {
				// A dated event is not what a later "its due" is about.
				last.event = ""
				what := article(phrase)
				if plural {
					what = phrase
				}
				if i+2 < len(w) && (w[i+1] == "due" || w[i+1] == "is" && w[i+2] == "due") {
					what += " due"
				}
				add(fmt.Sprintf("Has %s on %s", what, d.Format(factDate)), "event:"+phrase)
			}
		}
		if w[i] == "due" && last.event != "" {
			if d, ok := dayIn(w, i, at); ok {
				what := last.event
				if !strings.HasPrefix(what, "the ") {
					what = article(what)
				}
				add(fmt.Sprintf("Has %s due on %s", what, d.Format(factDate)), "event:"+strings.TrimPrefix(last.event, "the "))
				last.event = ""
			}
		}
	}
	// Clauses end at punctuation, which plain drops: "i play sax, been playing 6 years".
	for _, clause := range strings.FieldsFunc(sen, func(r rune) bool { return strings.ContainsRune(",;:()—–", r) }) {
		situationFacts(strings.Fields(plain(clause)), add)
	}
}

// factState is what wordFacts carries from one sentence of a session to the next: the latest
// undated event ("its due next thursday") and the latest person ("her name is ines").
type factState struct{ event, rel string }

var (
	relFull   = map[string]string{"gf": "girlfriend", "bf": "boyfriend", "mom": "mum"}
	titles    = setOf("dr", "mr", "mrs", "ms", "miss", "prof")
	relStates = setOf("in", "at", "from", "doing", "studying", "moving", "marrying", "getting", "back", "also", "auditioning", "applying", "starting")
	relVerbs  = setOf("calls", "works", "lives", "studied", "studies", "plays", "teaches", "visits", "wants", "offered", "says",
		"split", "separated", "divorced", "moved", "live", "work")
)

// situationFacts keeps what the student is in the middle of and what they like: "im applying for
// english literature" → "Is applying for english literature"; "i love hiking" → "Loves hiking".
func situationFacts(w []string, add func(text, key string)) {
	for i := 0; i+2 < len(w); i++ {
		var verb string
		var rest []string
		switch {
		case (w[i] == "im" || w[i] == "i" && w[i+1] == "am") && strings.HasSuffix(w[i+1+b(w[i] == "i")], "ing"):
			k := i + 1 + b(w[i] == "i")
			if !ongoing[w[k]] {
				continue
			}
			verb, rest = "Is "+w[k], w[k+1:]
		case i == 0 && ongoing[w[i]] && w[i] != "looking" && (determiners[w[i+1]] || w[i] != "doing"):
			// "doing a resit in august", "working at a cafe on weekends"
			verb, rest = "Is "+w[i], w[i+1:]
		case w[i] == "i" && likes[w[i+1]] != "":
			verb, rest = likes[w[i+1]], w[i+2:]
		case (w[i] == "i" || w[i] == "ive" && w[i+1] == "always") && prefers[w[i+1+b(w[i] == "ive")]] != "":
			verb, rest = prefers[w[i+1+b(w[i] == "ive")]], w[i+2+b(w[i] == "ive"):]
		case w[i] == "i" && i+3 < len(w) && (w[i+1] == "cant" || w[i+1] == "dont" || w[i+1] == "really") && prefers[w[i+1]+" "+w[i+2]] != "":
			verb, rest = prefers[w[i+1]+" "+w[i+2]], w[i+3:]
		case i == 0 && strings.HasSuffix(w[i], "ing") && len(w[i]) > 4 && (helpsMe(w[i+1:]) || w[i+1] == "really" && helpsMe(w[i+2:])):
			// "running helps me when im stressed", "swimming really calms me down"
			add("Finds "+w[i]+" helps", "situation:helps "+w[i])
			continue
		case w[i] == "i" && (w[i+1] == "started" || w[i+1] == "stopped" || w[i+1] == "quit") && strings.HasSuffix(w[i+2], "ing") && len(w[i+2]) > 4:
			verb, rest = capFirst(w[i+1]), w[i+2:]
		case w[i] == "i" && w[i+1] == "just" && i+3 < len(w) && pastFacts[w[i+2]]:
			verb, rest = capFirst(w[i+2]), w[i+3:]
		case w[i] == "i" && pastFacts[w[i+1]] && (determiners[w[i+2]] || w[i+2] == "to" || w[i+2] == "into"):
			verb, rest = capFirst(w[i+1]), w[i+2:]
		case w[i] == "im" && age(w[i+1]) && (i+2 == len(w) || clauseWords[w[i+2]]):
			verb, rest = "Is", w[i+1:i+2]
		case w[i] == "im" && i+3 < len(w) && w[i+1] == "a" && yearWords[w[i+2]] && w[i+3] == "year":
			verb, rest = "Is a", w[i+2:]
		case w[i] == "im" && (w[i+1] == "from" || w[i+1] == "in" && w[i+2] == "year" || w[i+1] == "going" && w[i+2] == "home"):
			verb, rest = "Is "+w[i+1], w[i+2:]
		case w[i] == "ive" && w[i+1] == "been" && strings.HasSuffix(w[i+2], "ing") && ongoing[w[i+2]]:
			verb, rest = "Has been "+w[i+2], w[i+3:]
		default:
			continue
		}
		end := 0
		for end < min(len(rest), 9) && !clauseWords[rest[end]] {
			end++
		}
		clause, ok := thirdPerson(strings.Join(rest[:end], " "), 9)
		if !ok || len(strings.Fields(clause)) < 1 {
			continue
		}
		add(verb+" "+clause, "situation:"+strings.ToLower(verb)+" "+keyOf(clause, 2))
	}
}

// relAge says whether a word is the age of someone the student names ("my sister is 7").
func relAge(w string) bool {
	n, err := strconv.Atoi(w)
	return err == nil && n >= 1 && n <= 99
}

// age says whether a word is an age a student gives ("im 18").
func age(w string) bool {
	n, err := strconv.Atoi(w)
	return err == nil && n >= 11 && n <= 99
}

func b(v bool) int {
	if v {
		return 1
	}
	return 0
}

var yearWords = setOf("first", "second", "third", "fourth", "final", "1st", "2nd", "3rd", "4th")

var (
	ongoing = setOf("applying", "studying", "working", "doing", "training", "learning", "moving",
		"living", "starting", "joining", "playing", "preparing", "revising", "taking", "retaking",
		"volunteering", "saving", "planning", "looking", "auditioning", "organising", "organizing", "writing")
	likes = map[string]string{"love": "Loves", "like": "Likes", "enjoy": "Enjoys", "prefer": "Prefers",
		"play": "Plays", "study": "Studies", "work": "Works", "live": "Lives"}
	// prefers are what a student says they like or cannot stand: "i hate phone calls".
	prefers = map[string]string{"hate": "Hates", "love": "Loves", "cant stand": "Can't stand",
		"dont like": "Doesn't like", "really like": "Really likes", "really hate": "Really hates", "hated": "Hates"}
	pastFacts = setOf("moved", "started", "passed", "won", "got", "finished", "joined", "failed", "lost")
	// relWords are who a person is to the student, longest first where one contains another.
	relWords = []string{"best friend", "best mate", "host sister", "host brother", "host family", "step dad", "step mum",
		"driving instructor", "sax teacher", "dog", "cat", "gf", "bf", "art teacher", "personal tutor", "friend", "bestie",
		"roommate", "mate", "flatmate", "housemate", "mum", "mom", "dad", "sister", "brother", "boyfriend",
		"girlfriend", "partner", "boss", "manager", "supervisor", "coworker", "colleague", "teacher",
		"professor", "lecturer", "tutor", "coach", "mentor", "instructor", "classmate", "teammate",
		"grandma", "grandpa", "grandad", "granddad", "nan", "gran", "aunt", "auntie", "uncle", "cousin",
		"stepdad", "stepmum", "stepmom", "ex", "parents", "flatmates", "housemates", "roommates", "grandparents"}
	// stopName are words after a relation that are not a name ("my mum says", "my friend and i").
	stopName = setOf("is", "was", "has", "had", "and", "or", "but", "so", "says", "said", "thinks",
		"thought", "just", "always", "never", "also", "too", "who", "that", "which", "will", "would",
		"can", "could", "should", "might", "isnt", "wasnt", "doesnt", "didnt", "does", "did", "got",
		"gets", "keeps", "kept", "wants", "wanted", "asked", "asks", "told", "tells", "called",
		"calls", "texted", "texts", "messaged", "went", "goes", "came", "comes", "made", "makes",
		"knows", "knew", "likes", "loves", "hates", "at", "in", "on", "from", "to", "for", "with",
		"about", "back", "again", "still", "really", "even", "the", "a", "an", "my", "his", "her",
		"their", "lol", "tho", "though", "like", "bc", "cause", "because", "then", "now", "today",
		"tomorrow", "yesterday", "tonight", "if", "when", "as", "it", "its", "he", "she", "they",
		"we", "i", "im", "you", "me", "him", "them", "are", "were", "be", "been", "being", "not",
		"dont", "cant", "wont", "here", "there", "what", "how", "why", "where", "one", "ones",
		"group", "chat", "offered", "helped", "found", "reckons", "seems", "mentioned", "finally",
		"literally", "actually", "basically", "kinda", "sorta", "tbh", "ngl", "x", "s", "hasnt",
		"moved", "left", "lives", "lived", "works", "worked", "studies", "used", "up", "out", "off",
		"over", "by", "of", "agrees", "agreed", "nurse", "doctor", "teacher", "friend", "friends")
)

// isName reports whether a plain word can be a first name ("amira", "jas", "ines").
func isName(w string) bool {
	if len(w) < 2 || len(w) > 14 || stopName[w] || relVerbs[w] || sayVerbs[w] || notLowerNames[w] || notModifiers[w] || fillerWords[w] || relations[w] || strings.HasSuffix(w, "ing") ||
		strings.HasSuffix(w, "ed") || strings.HasSuffix(w, "ly") || isFeelingWord(w) {
		return false
	}
	if lemma, _, _ := eventLemma(w); lemma != "" {
		return false
	}
	for _, r := range w {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return true
}

// isName2 says whether a word after "is NAME" continues a clause ("my mum is really quiet")
// rather than ending the name.
func isName2(w string) bool { return !stopName[w] && isName(w) }

// relPhrase reads "my <relation>" at w[i]: the relation and how many words it takes.
func relPhrase(w []string, i int) (string, int) {
	if w[i] != "my" && w[i] != "our" {
		return "", 0
	}
	if i+2 < len(w) && relAdj[w[i+1]] {
		// "my little sister": the relation, with the word before it counted.
		if r, n := relPhrase(append([]string{w[i]}, w[i+2:]...), 0); n > 0 {
			return r, n + 1
		}
	}
	for _, r := range relWords {
		rw := strings.Fields(r)
		if i+len(rw) < len(w) && strings.Join(w[i+1:i+1+len(rw)], " ") == r {
			return r, len(rw)
		}
	}
	return "", 0
}

// eventPhrase is an event noun with up to two words before it that qualify it ("driving
// test", "jazz band auditions").
func eventPhrase(w []string, i int) string {
	start := i
	for start > 0 && i-start < 2 && !stopName[w[start-1]] && !determiners[w[start-1]] && !dayWords[w[start-1]] &&
		!isFeelingWord(w[start-1]) && len(w[start-1]) > 2 {
		start--
	}
	return strings.Join(w[start:i+1], " ")
}

// relAdj are words before a relation that leave it the same person ("my little sister").
var relAdj = setOf("little", "older", "younger", "big", "baby", "twin", "step", "old", "new", "lovely", "annoying")

// sayVerbs report what someone thinks of the student: "my instructor says i drive well" is
// kept as "Their instructor says they drive well".
var sayVerbs = setOf("says", "said", "thinks", "reckons", "told")

// theyForm puts a clause the student said about themselves in the third person.
func theyForm(words []string) []string {
	out := make([]string, 0, len(words))
	for k, x := range words {
		switch x {
		case "i":
			out = append(out, "they")
		case "im":
			out = append(out, "they're")
		case "me":
			if k > 0 && sayVerbs[words[k-1]] {
				continue // "told me i…"
			}
			out = append(out, "them")
		case "my":
			out = append(out, "their")
		case "am":
			out = append(out, "are")
		default:
			out = append(out, x)
		}
	}
	return out
}

var clauseWords = setOf("and", "but", "so", "because", "bc", "cause", "who", "which", "though", "tho", "lol")

var dayWords = setOf("today", "tonight", "tomorrow", "monday", "tuesday", "wednesday", "thursday",
	"friday", "saturday", "sunday", "next", "this", "week", "weekend", "month")

var weekdayOf = map[string]time.Weekday{"monday": time.Monday, "tuesday": time.Tuesday,
	"wednesday": time.Wednesday, "thursday": time.Thursday, "friday": time.Friday,
	"saturday": time.Saturday, "sunday": time.Sunday, "mon": time.Monday, "tues": time.Tuesday,
	"wed": time.Wednesday, "thurs": time.Thursday, "fri": time.Friday, "sat": time.Saturday, "sun": time.Sunday}

// dayIn finds a day said within six words of w[i] and resolves it against at: "tomorrow",
// "on friday", "next thursday", "in 2 weeks", "on the 12th". A day with no time to resolve
// against is not kept, nor is one in the past.
func dayIn(w []string, i int, at time.Time) (time.Time, bool) {
	if at.IsZero() {
		return time.Time{}, false
	}
	today := time.Date(at.Year(), at.Month(), at.Day(), 0, 0, 0, 0, at.Location())
	for j := max(0, i-6); j < min(len(w), i+7); j++ {
		switch x := w[j]; {
		case x == "today" || x == "tonight":
			return today, true
		case x == "tomorrow" || x == "tmrw" || x == "tmr" || x == "tmw":
			if j >= 3 && w[j-3] == "the" && w[j-2] == "day" && w[j-1] == "after" {
				return today.AddDate(0, 0, 2), true
			}
			return today.AddDate(0, 0, 1), true
		case saysWeekday(w, j):
			ahead := (int(weekdayOf[x]) - int(today.Weekday()) + 7) % 7
			if ahead == 0 {
				ahead = 7
			}
			if j > 0 && w[j-1] == "next" && ahead < 7 && int(today.Weekday()) != 0 && int(weekdayOf[x]) > int(today.Weekday()) {
				// "next thursday" said on a Monday is the one in the week after.
				ahead += 7
			}
			return today.AddDate(0, 0, ahead), true
		case x == "in" && j+2 < len(w) && (w[j+2] == "days" || w[j+2] == "weeks" || w[j+2] == "day" || w[j+2] == "week"):
			n, ok := count(w[j+1])
			if !ok {
				continue
			}
			if strings.HasPrefix(w[j+2], "week") {
				n *= 7
			}
			return today.AddDate(0, 0, n), true
		case dayOfMonth(x) > 0 && j > 0 && (w[j-1] == "the" || w[j-1] == "on"):
			// "on the 19th": the next such day of a month, this one or the next.
			d := time.Date(today.Year(), today.Month(), dayOfMonth(x), 0, 0, 0, 0, today.Location())
			if d.Before(today) {
				d = d.AddDate(0, 1, 0)
			}
			if d.Day() != dayOfMonth(x) {
				continue
			}
			return d, true
		case x == "next" && j+1 < len(w) && w[j+1] == "week":
			return today.AddDate(0, 0, 7), true
		case x == "weekend" && j > 0 && (w[j-1] == "this" || w[j-1] == "the"):
			return today.AddDate(0, 0, (int(time.Saturday)-int(today.Weekday())+7)%7), true
		}
	}
	return time.Time{}, false
}

// saysWeekday says whether w[j] names a day of the week ("sat" and "sun" only after "on" or "next").
func saysWeekday(w []string, j int) bool {
	if _, ok := weekdayOf[w[j]]; !ok {
		return false
	}
	return len(w[j]) > 3 || j > 0 && (w[j-1] == "on" || w[j-1] == "next" || w[j-1] == "this")
}

// dayOfMonth is the day of the month "19th" or "1st" names, or 0.
func dayOfMonth(w string) int {
	for _, suf := range []string{"st", "nd", "rd", "th"} {
		if n, err := strconv.Atoi(strings.TrimSuffix(w, suf)); err == nil && strings.HasSuffix(w, suf) && n >= 1 && n <= 31 {
			return n
		}
	}
	return 0
}

func count(w string) (int, bool) {
	if n, err := strconv.Atoi(w); err == nil && n > 0 && n < 60 {
		return n, true
	}
	n := map[string]int{"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "couple": 2, "few": 3}[w]
	return n, n > 0
}

// rememberedDay is the day a remembered event is on, read back from its sentence.
func rememberedDay(m string) (time.Time, bool) {
	i := strings.LastIndex(m, " on ")
	if i < 0 {
		return time.Time{}, false
	}
	d, err := time.Parse(factDate, strings.TrimRight(strings.TrimSpace(m[i+4:]), "."))
	return d, err == nil
}

// eventNoun1: w is an event noun, so a word before it qualifies it ("final interview").
func eventNoun1(w string) bool {
	lemma, _, _ := eventLemma(w)
	return lemma != ""
}

// helpsMe: the words after a pastime say it helps the student ("helps me", "calms me down").
func helpsMe(w []string) bool {
	return len(w) > 0 && (w[0] == "helps" || w[0] == "calms" || w[0] == "clears") &&
		(len(w) == 1 || w[1] == "me" || w[1] == "a" || w[1] == "my" || clauseWords[w[1]])
}

// notAFact: a sentence that only imagines, jokes or asks ("if i had a test tomorrow", "lol
// imagine me running a marathon", "what if i fail the exam next week") states no fact.
func notAFact(w []string) bool {
	for len(w) > 0 && fillerWords[w[0]] {
		w = w[1:]
	}
	if len(w) == 0 {
		return true
	}
	switch w[0] {
	case "if", "imagine", "maybe", "hypothetically", "suppose", "pretend", "unless", "would", "should", "could", "do", "does", "is", "are", "will":
		return true
	}
	for k := 0; k+1 < len(w); k++ {
		if w[k] == "what" && w[k+1] == "if" || w[k] == "imagine" || w[k] == "if" && k < 3 {
			return true
		}
	}
	return false
}

// someoneElses: the event at w[i] belongs to someone else ("my friend has an exam tomorrow",
// "my sister has her interview on friday"), read from the nearest owner before it.
func someoneElses(w []string, i int) bool {
	for j := i - 1; j >= max(0, i-8); j-- {
		switch x := w[j]; {
		case x == "his" || x == "her" || x == "their" || x == "he" || x == "she" || x == "they" || x == "hes" || x == "shes" || x == "theyre":
			return true
		case x == "my" || x == "our":
			if _, n := relPhrase(w, j); n > 0 && j+n+1 < i {
				return true // "my flatmate has a driving test"
			}
			if _, n := relPhrase(w, j); n == 0 {
				return false
			}
		case x == "i" || x == "im" || x == "ive" || x == "me" || x == "we" || x == "ill" || x == "id":
			return false
		case isName(x) && j+1 < i && (w[j+1] == "has" || w[j+1] == "got" || w[j+1] == "is"):
			return true
		}
	}
	return false
}
