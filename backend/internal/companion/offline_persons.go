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
	"sent", "keeps", "hasnt", "wont", "laughed", "joked", "snapped", "moved", "dumped")

// notLowerNames are common words that come before those verbs and are no names.
var notLowerNames = setOf("everyone", "nobody", "someone", "somebody", "everybody", "anyone",
	"who", "which", "that", "this", "it", "he", "she", "they", "lecturer", "email", "doc",
	"app", "text", "message", "website", "uni", "school", "nobody", "guy", "girl", "person",
	"people", "lady", "man", "woman", "group", "team", "one", "literally", "also", "still",
	"never", "just", "then", "and", "but", "she", "what", "when", "because", "cause",
	"mine", "hers", "his", "theirs", "yours", "ours", "instructor", "landlady")

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
		}
		return p
	}
	p := &person{key: key, name: name, relation: relation}
	ps.list = append(ps.list, p)
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
	for i, w := range words {
		switch {
		case ps.find(w) != nil:
			note(ps.find(w))
		case i+1 < len(words) && strongNameVerbs[words[i+1]] && lowerName(w) && (i == 0 || !determiners[words[i-1]]):
			note(ps.add(w, capFirst(w), ""))
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
		if s := saidAbout(clause); s != "" {
			who.said = append(who.said, saying{s, turn})
		}
	}
	return about
}

// lowerName: an unknown word written in lower case that may be a name.
func lowerName(w string) bool {
	if len(w) < 3 || len(w) > 14 || notLowerNames[w] || notModifiers[w] || determiners[w] ||
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
