package companion

import (
	"strings"

	"github.com/percolate/percolate/backend/internal/lazyre"
)

// person is someone the user talks about in a session: named ("Marcus"), by a relation ("your
// flatmate"), or both, with what the user said about them.
type person struct {
	// key is how the person is found again: a name or a relation, lower case ("marcus").
	key string
	// name is how the engine says it: "Marcus", "your sister".
	name string
	// relation is the role the user gave ("flatmate"), when they gave one; age too ("11").
	relation, age string
	// said are the clauses the user said about them, in the second person, oldest first.
	said []saying
}

// saying is a clause the user said about someone, and the turn it was said in.
type saying struct {
	text string
	turn int
}

// saidBefore is the first thing said about the person before the turn ("" when nothing).
func (p *person) saidBefore(turn int) string {
	for _, s := range p.said {
		if s.turn < turn {
			return s.text
		}
	}
	return ""
}

// people is the session's model of the people the user mentions, rebuilt turn by turn:
// "he", "she" and "they" are the person mentioned last.
type people struct {
	list []*person
	last *person
	// pending is a word said on its own ("but marcus.") that is a name if the next sentence
	// goes on with "he" or "she".
	pending string
	// same maps a relation to the name of the person it is ("brother" → "aaron", from "my
	// brother aaron" or "his name is aaron"): one person, never counted as two.
	same map[string]string
}

// link records that the person by the relation is the person with the name. A relation
// already given another name (two brothers) is left as it is.
func (ps *people) link(relation, name string) {
	if relation == "" || name == "" || relation == name || !relations[relation] {
		return
	}
	if ps.same == nil {
		ps.same = map[string]string{}
	}
	if _, ok := ps.same[relation]; !ok {
		ps.same[relation] = name
	}
}

// canonical is the key a person is known by: the name of a relation that has one.
func (ps *people) canonical(key string) string {
	if n, ok := ps.same[key]; ok {
		return n
	}
	return key
}

var (
	// reAged reads an age given with a relation: "my sister (11)", "my brother, 15", "my
	// sister is 11".
	reAged = lazyre.MustCompile(`\bmy (?:little |older |younger |big )?(\w+)(?: is|,)? ?\(?(\d{1,2})\)?(?:\s|$|[,.)!?])`)
	// rePronounLead starts a clause about the person mentioned last.
	rePronounLead = lazyre.MustCompile(`^(?:(?:and|but|so|like|then|now|cause|cos|bc|because|tbh|honestly|literally)\s+)*(he|she|they|hes|shes|theyre|theyve|hed|shed|hasnt|his|her|him)\b`)
)

// strongNameVerbs follow a name written in lower case ("marcus said", "callum came home"):
// only these make an unknown lower-case word a name.
var strongNameVerbs = setOf("said", "says", "told", "texted", "messaged", "replied", "asked",
	"hasnt", "didnt", "doesnt", "came", "thinks", "called", "ignored", "ignores", "posted",
	"sent", "keeps", "wont", "laughed", "joked", "snapped", "moved", "dumped", "wants", "knew",
	"blocked", "ghosted", "cheated", "unfollowed", "screenshotted")

// notLowerNames are common words that come before those verbs and are no names.
var notLowerNames = setOf("everyone", "nobody", "someone", "somebody", "everybody", "anyone",
	"who", "which", "that", "this", "it", "he", "she", "they", "lecturer", "email", "doc",
	"app", "text", "message", "website", "uni", "school", "nobody", "guy", "girl", "person",
	"people", "lady", "man", "woman", "group", "team", "one", "literally", "also", "still",
	"never", "just", "then", "and", "but", "she", "what", "when", "because", "cause",
	"mine", "hers", "his", "theirs", "yours", "ours", "instructor", "landlady", "hes", "shes",
	"theyre", "theyve", "doesnt", "havent", "hadnt", "wouldnt", "couldnt", "shouldnt", "youre")

// find returns the person with the key, or nil.
func (ps *people) find(key string) *person {
	for _, p := range ps.list {
		if p.key == key {
			return p
		}
	}
	return nil
}

// add returns the person with the key, added when new.
func (ps *people) add(key, name, relation string) *person {
	if p := ps.find(key); p != nil {
		if relation != "" && p.relation == "" {
			p.relation = relation
			ps.link(relation, key)
		}
		return p
	}
	p := &person{key: key, name: name, relation: relation}
	ps.list = append(ps.list, p)
	ps.link(relation, key)
	return p
}

// keys are the keys of the people known so far.
func (ps *people) keys() map[string]bool {
	m := make(map[string]bool, len(ps.list))
	for _, p := range ps.list {
		m[p.key] = true
	}
	return m
}

// read takes in one sentence of the user's: the people it names (the tracker's items, and
// names in lower case before a verb only people do), their ages, and the clauses about
// them, a clause that opens with "he", "she" or "they" being about the person mentioned
// last. It returns the people the sentence is about, in order.
func (ps *people) read(sentence string, items []item, turn int) []*person {
	var about []*person
	seen := map[*person]bool{}
	note := func(p *person) {
		if !seen[p] {
			seen[p] = true
			about = append(about, p)
		}
		ps.last = p
	}
	for _, it := range items {
		if it.kind != kindPerson || it.plural {
			continue
		}
		rel := ""
		if strings.HasPrefix(it.full, "your ") {
			f := strings.Fields(it.full)
			for _, w := range f[1:] {
				if relations[w] {
					rel = w
				}
			}
		}
		note(ps.add(it.key, it.short, rel))
	}
	n := plain(sentence)
	for _, m := range reAged.FindAllStringSubmatch(strings.ToLower(sentence), -1) {
		if p := ps.find(m[1]); p != nil && relations[m[1]] {
			p.age = m[2]
		} else if relations[m[1]] {
			p := ps.add(m[1], "your "+m[1], m[1])
			p.age = m[2]
			note(p)
		}
	}
	words := strings.Fields(n)
	if pending := ps.pending; pending != "" && len(words) > 0 && rePronounLead.MatchString(n) {
		note(ps.add(pending, capFirst(pending), ""))
	}
	ps.pending = ""
	if k := len(words); k > 0 && k <= 2 && (k == 1 || words[0] == "but" || words[0] == "and") && lowerName(words[k-1]) {
		ps.pending = words[k-1]
	}
	listed := namesListed(sentence)
	for i, w := range words {
		switch {
		case ps.find(w) != nil:
			note(ps.find(w))
		case listed[w] && len(listed) == 1:
			// "me and jas fell out": about Jas.
			note(ps.add(w, capFirst(w), ""))
		case listed[w]:
			// Known from now on, but a list ("me, jo, aisha and ben") is about none of them.
			ps.add(w, capFirst(w), "")
		case !lowerName(w):
		case i > 2 && words[i-2] == "name" && words[i-1] == "is" && (words[i-3] == "his" || words[i-3] == "her") &&
			ps.last != nil && ps.last.key == ps.last.relation:
			// "my brother is being a pain. his name is aaron": Aaron is the brother.
			note(ps.add(w, capFirst(w), ps.last.relation))
		case i+1 < len(words) && strongNameVerbs[words[i+1]] && (i == 0 || !determiners[words[i-1]]),
			i > 0 && nameIntro[words[i-1]],
			i > 1 && words[i-2] == "name" && words[i-1] == "is":
			rel := ""
			if i > 1 && relations[words[i-1]] && (words[i-2] == "my" || i > 2 && words[i-3] == "my") {
				rel = words[i-1] // "my brother aaron keeps…"
			}
			note(ps.add(w, capFirst(w), rel))
		case i > 1 && (relations[words[i-1]] || words[i-1] == "member") && (words[i-2] == "my" || i > 2 && words[i-3] == "my") &&
			(i+1 == len(words) || nameVerbs[words[i+1]] || strongNameVerbs[words[i+1]] || afterName[words[i+1]]):
			// "my best friend jas", "my group member kiran".
			note(ps.add(w, capFirst(w), words[i-1]))
		}
	}
	for _, clause := range reClauseBreak.Split(n, -1) {
		clause = strings.TrimSpace(clause)
		if clause == "" {
			continue
		}
		var who *person
		if rePronounLead.MatchString(clause) {
			who = ps.last
		} else {
			for _, p := range about {
				if strings.HasPrefix(strings.TrimPrefix(clause, "but "), p.key+" ") {
					who = p
				}
			}
		}
		if who == nil {
			continue
		}
		note(who)
		if strings.Contains(clause, "name") || strings.Contains(clause, "called") {
			continue // "her name is ines" introduces her, it says nothing about her
		}
		if s := saidAbout(clause); s != "" {
			who.said = append(who.said, saying{ps.named(s), turn})
		}
	}
	return about
}

// nameIntro words introduce a name: "a woman called claire", "her name is ines".
var nameIntro = setOf("called", "named")

// afterName are words that follow a name given with a relation ("my best friend jas has been").
var afterName = setOf("did", "does", "is", "was", "has", "had", "who", "and", "just", "also", "still", "hasnt", "isnt", "wasnt")

// reListWord is a word or a comma of a sentence, for namesListed.
var reListWord = lazyre.MustCompile(`[a-z0-9]+|,`)

// namesListed are the names of a list that follows "me": "me and sam", "me, jo, aisha, ben and
// ciaran", "me priya marcus and dev". Words run together without a comma or "and" count only
// when the list ends with "and" and a name ("me and sam broke up" is Sam alone).
func namesListed(sentence string) map[string]bool {
	toks := reListWord.Regexp().FindAllString(noApostrophes.Replace(strings.ToLower(sentence)), -1)
	out := map[string]bool{}
	for i, t := range toks {
		if t != "me" {
			continue
		}
		var run []string
		// closed: the list's last name follows "and"; loose: two names follow each other
		// without a comma or "and".
		closed, loose, sep, and, opened := false, false, true, false, false
	list:
		for _, w := range toks[i+1:] {
			switch {
			case w == "," || w == "and":
				sep, and = true, and || w == "and"
				opened = opened || len(run) == 0
			case !lowerNameOf(w, 2) || nameIntro[w]:
				break list
			default:
				loose = loose || !sep
				closed = and
				run = append(run, w)
				sep, and = false, false
			}
		}
		if !opened && !closed {
			continue // "let me rant" is no list
		}
		for k, w := range run {
			if loose && !closed && k > 0 {
				break
			}
			out[w] = true
		}
	}
	return out
}

// named writes the names of the people known in a clause said back with their capital.
func (ps *people) named(clause string) string {
	w := strings.Fields(clause)
	for i, x := range w {
		if p := ps.find(x); p != nil && !strings.HasPrefix(p.name, "your ") {
			w[i] = p.name
		}
	}
	return strings.Join(w, " ")
}

// lowerName: an unknown word written in lower case that may be a name.
func lowerName(w string) bool { return lowerNameOf(w, 3) }

// lowerNameOf is lowerName for a name of at least least letters ("jo" in a list of names).
func lowerNameOf(w string, least int) bool {
	if len(w) < least || len(w) > 14 || notLowerNames[w] || notModifiers[w] || determiners[w] ||
		notNames[w] || commonStarters[w] || relations[w] || placeNouns[w] || subjects[w] ||
		months[w] || isWeekday(w) || isFeelingWord(w) || isShortWord(w) || callbackFiller[w] {
		return false
	}
	for _, r := range w {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	lemma, _, _ := eventLemma(w)
	return lemma == "" && !strings.HasSuffix(w, "ing") && !strings.HasSuffix(w, "ly")
}

// saidAbout is a clause about someone as the engine says it back: second person, at most
// seven words (a longer one would echo the user), without the fillers around it. Empty when
// too little is left to say.
func saidAbout(clause string) string {
	w := strings.Fields(clause)
	for len(w) > 0 && keptLead[w[0]] || len(w) > 0 && (w[0] == "like" || w[0] == "then" || w[0] == "now" || w[0] == "literally") {
		w = w[1:]
	}
	for len(w) > 0 && keptTail[w[len(w)-1]] {
		w = w[:len(w)-1]
	}
	if len(w) > 7 {
		w = w[:7]
		for len(w) > 3 && (notModifiers[w[len(w)-1]] || determiners[w[len(w)-1]] || w[len(w)-1] == "since") && !strings.HasSuffix(w[len(w)-1], "nt") {
			w = w[:len(w)-1]
		}
	}
	if len(w) < 3 {
		return ""
	}
	out := youForm(w)
	for i, x := range out {
		if a, ok := apostrophes[x]; ok {
			out[i] = a
		}
	}
	return strings.Join(out, " ")
}

// apostrophes put back what plain dropped, in the words a clause about someone says back.
var apostrophes = map[string]string{"hes": "he's", "shes": "she's", "theyre": "they're",
	"theyve": "they've", "hasnt": "hasn't", "havent": "haven't", "didnt": "didn't",
	"doesnt": "doesn't", "dont": "don't", "isnt": "isn't", "wasnt": "wasn't", "wont": "won't",
	"cant": "can't", "hed": "he'd", "shed": "she'd", "youre": "you're", "ive": "I've"}

// mentioned is the person a callback names ("going back to what i said about marcus", "back
// to what she said"): a known key among the words, or a pronoun for the person mentioned
// last. nil when it names no one.
func (ps *people) mentioned(words []string) *person {
	for _, w := range words {
		if p := ps.find(strings.TrimSuffix(w, "s")); p != nil && !ps.knows(w) {
			return p
		}
		if p := ps.find(w); p != nil {
			return p
		}
	}
	for _, w := range words {
		switch w {
		case "he", "she", "him", "her", "hes", "shes":
			return ps.last
		}
	}
	return nil
}

func (ps *people) knows(key string) bool { return ps.find(key) != nil }
