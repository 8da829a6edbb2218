package companion

import (
	"strings"
)

// A reply that names nothing of the conversation would fit any message. When the tracker
// knows no person or event in what the user said ("we call every night but the time zones
// are rough"), the reply still names the user's own subject: a gist, a short noun phrase in
// their words after a possessive or "the" ("the time zones", "my school friends" → "your
// school friends").

// gistDeterminers are the words a gist starts after, with how the reply says them.
// ("his favourite", "her help" say back badly: only the user's own and "the" are used.)
var gistDeterminers = map[string]string{"my": "your", "our": "your", "the": "the"}

// gistPeople are the nouns that make a gist a person ("your auntie rosa").
var gistPeople = func() map[string]bool {
	m := setOf("auntie", "aunty", "mate", "mates", "lecturer", "lecturers", "grandad", "grandads",
		"nana", "instructor", "instructors", "therapist", "doctor", "gp", "bf", "gf", "girlfriends",
		"boyfriends", "sisters", "brothers", "uncles", "aunts", "tutors", "group", "team")
	for w := range relations {
		m[w] = true
	}
	return m
}()

// gistIsPerson: a word of the gist names a person by their role.
func gistIsPerson(g string) bool {
	for _, w := range strings.Fields(g) {
		if gistPeople[w] && w != "group" && w != "team" {
			return true
		}
	}
	return false
}

// gistWeak are nouns too vague to name on their own ("the way", "my time"), and modifiers
// that need a noun after them ("the first", "the whole").
var gistWeak = setOf("way", "ways", "point", "moment", "end", "fact", "idea", "rest", "time",
	"day", "days", "bit", "part", "side", "kind", "sort", "first", "last", "next", "best",
	"worst", "main", "real", "actual", "new", "old", "big", "little", "same", "whole",
	"other", "only", "person", "people", "life", "head", "mind", "problem", "issue",
	"situation", "news", "question", "answer", "reason", "thought", "thoughts", "chance",
	"month", "months", "year", "years", "term", "semester", "night", "morning", "evening",
	"weekend", "week", "weeks", "hour", "hours", "minute", "minutes", "number", "one")

// gistStop ends a gist: words that are not nouns of the user's subject.
var gistStop = setOf("itself", "himself", "herself", "themselves", "myself", "too",
	"tho", "though", "lol", "tbh", "idk", "ngl", "haha", "lmao", "either", "anyway",
	"though", "ever", "yet", "rn", "atm", "etc", "bc", "cos", "coz", "cause", "yesterday",
	"hasnt", "doesnt", "wont", "keeps", "wants", "thinks", "seems", "looks", "sounds",
	"makes", "takes", "gives", "comes", "asks", "tries", "calls", "texts", "needs",
	"broke", "came", "gave", "knew", "thought", "ran", "sent", "found", "lost", "won", "fell",
	"wrote", "sat", "stood", "bought", "brought", "caught", "hit", "cut", "forgot", "began",
	"became", "ate", "drank", "drove", "met", "paid", "heard", "spoke", "woke", "slept",
	"earlier", "later", "most", "least", "fine", "okay")

// gistOf returns the first gist of text in the reply's words, or "".
func gistOf(text string) string {
	for _, s := range sentences(text) {
		toks := tokenize(s)
		for i := 0; i+1 < len(toks); i++ {
			det, ok := gistDeterminers[toks[i].low]
			if !ok || toks[i].breakAfter {
				continue
			}
			words := []string{}
			for j := i + 1; j < len(toks) && len(words) < 2; j++ {
				w := toks[j].low
				if !gistWord(w) {
					break
				}
				words = append(words, w)
				if toks[j].breakAfter {
					break
				}
			}
			// A past participle qualifies a noun ("the shared kitchen"); last, it is what
			// someone did ("my mum cried").
			if n := len(words); n > 0 && pastTense(words[n-1]) {
				words = words[:n-1]
			}
			// A weak word qualifies the noun after it ("the first day"); alone it names nothing.
			if len(words) == 2 && gistWeak[words[1]] {
				words = words[:1]
			}
			// The phrase ends on a noun: "my phone without checking it" is "your phone", a
			// person's verb is not part of them ("my flatmate plays" is "your flatmate").
			if len(words) == 2 && (!nounEnd(words[1]) || personVerb(words[0], words[1])) {
				words = words[:1]
			}
			if len(words) == 1 && !nounEnd(words[0]) {
				continue
			}
			if len(words) == 0 || gistWeak[words[0]] && len(words) == 1 {
				continue
			}
			return det + " " + strings.Join(words, " ")
		}
	}
	return ""
}

// gistWord: w can be part of a noun phrase said back (no function word, verb, feeling or
// filler, and letters only).
func gistWord(w string) bool {
	if len(w) < 3 || notModifiers[w] && !gistWeak[w] || determiners[w] || gistStop[w] || isFeelingWord(w) || isShortWord(w) {
		return false
	}
	for _, r := range w {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	// Adverbs ("literally") say how, not what.
	return !strings.HasSuffix(w, "ly")
}

// notNounEnd are words a noun phrase said back cannot end on: prepositions, conjunctions,
// adverbs and pronouns the other lists leave out ("your phone without").
var notNounEnd = setOf("without", "within", "through", "across", "around", "behind", "between",
	"against", "since", "till", "unless", "while", "whilst", "whether", "although", "near",
	"along", "beyond", "toward", "towards", "upon", "onto", "despite", "except", "inside",
	"outside", "underneath", "beside", "besides", "among", "whenever", "wherever", "whatever",
	"whoever", "however", "anymore", "instead", "else", "somehow", "sometimes", "maybe",
	"perhaps", "probably", "almost", "enough", "quite", "rather", "soon", "anyway", "anyways",
	"everyone", "someone", "anyone", "noone", "everybody", "somebody", "anybody", "nobody",
	"everything", "something", "anything", "nothing", "this", "that", "these", "those", "him",
	"her", "them", "his", "hers", "their", "theirs", "mine", "yours", "ours", "who", "which",
	"what", "where", "when", "why", "how", "either", "neither", "both", "ago", "back", "away",
	"together", "apart", "alone", "again", "also", "though", "tho", "once", "twice", "yet",
	"anywhere", "everywhere", "somewhere", "nowhere", "then", "than", "like", "just", "kinda",
	"sorta", "literally", "basically", "honestly", "actually", "seriously", "totally")

// ingNouns are -ing words that are nouns ("the group meeting"); another -ing word ending a
// phrase is what someone is doing ("my phone ringing").
var ingNouns = setOf("meeting", "meetings", "building", "training", "clothing", "housing",
	"wedding", "marketing", "painting", "nursing", "engineering", "funding", "ending", "parking",
	"booking", "hearing", "ceiling", "reading", "writing", "morning", "evening", "spring",
	"thing", "something", "nothing", "anything", "everything", "king", "ring", "wing", "sibling",
	"siblings", "darling", "offering", "opening", "closing", "accounting", "banking", "counselling",
	"tutoring", "coaching", "lodging", "stuffing", "icing", "pudding", "setting", "settings",
	"listing", "shopping", "swimming", "running", "climbing", "boxing", "dancing", "singing",
	"acting", "cooking", "driving", "lighting", "recording", "drawing", "timing", "spelling",
	"feeling", "feelings", "warning", "belongings", "beginning", "wellbeing", "understanding")

// nounEnd: a phrase said back can end on w.
func nounEnd(w string) bool {
	if notNounEnd[w] || notModifiers[w] || gistStop[w] {
		return false
	}
	return !strings.HasSuffix(w, "ing") || ingNouns[w] || okModifierSuffix[w]
}

// personVerb: after a person by their role, a word in -s is what they do ("my flatmate
// plays", "my mum thinks"), not part of who they are.
func personVerb(first, second string) bool {
	return gistPeople[first] && !strings.HasSuffix(first, "s") && strings.HasSuffix(second, "s") && !strings.HasSuffix(second, "ss")
}

// nounSlots are the slots filled with a noun phrase: a line is said only if its phrase ends
// on a noun (tmpl.fits).
var nounSlots = []string{"gist", "topic", "topicFull", "person", "np", "thread", "focus", "concern", "threadPerson"}

// endsOnNoun: the phrase's last word can end a noun phrase.
func endsOnNoun(phrase string) bool {
	f := strings.Fields(strings.ToLower(phrase))
	if len(f) == 0 {
		return true
	}
	last := strings.Trim(f[len(f)-1], ".,!?;:'\"")
	return !notNounEnd[last] && !(strings.HasSuffix(last, "ing") && len(f) > 2 && !ingNouns[last] && !okModifierSuffix[last])
}

func pastTense(w string) bool { return strings.HasSuffix(w, "ed") && !okModifierSuffix[w] }

// sessionGist is the gist of the newest message that has one, among the last three the
// user sent that were neither flagged nor on a sensitive topic.
func (s *session) gist() string {
	for i := len(s.turns) - 1; i >= 0 && i >= len(s.turns)-3; i-- {
		if u := s.turns[i]; !u.flagged && !u.sensitive {
			if g := gistOf(u.text); g != "" {
				// Names the user typed in lower case are said back as names.
				names := s.people.keys()
				w := strings.Fields(g)
				for k, x := range w {
					if names[x] && !gistPeople[x] {
						w[k] = capFirst(x)
					}
				}
				return strings.Join(w, " ")
			}
		}
	}
	return ""
}

// topicStems are the user's subject words so far (four letters or more, cut to six), from
// messages neither flagged nor sensitive.
func (s *session) topicStems() map[string]bool {
	out := map[string]bool{}
	for _, u := range s.turns {
		if u.flagged || u.sensitive {
			continue
		}
		for _, w := range strings.Fields(plain(u.text)) {
			// A feeling word is a subject too ("do you get nervous"); other short answers
			// ("yeah", "ok") are not.
			if len(w) < 4 || notModifiers[w] || gistStop[w] || gistWeak[w] || isShortWord(w) && !isFeelingWord(w) || topicFiller[w] {
				continue
			}
			out[stem6(w)] = true
		}
	}
	return out
}

// topicFiller are common words of students' messages that name no subject.
var topicFiller = setOf("about", "actually", "anything", "because", "being", "could",
	"dont", "doing", "everything", "feeling", "going", "gonna", "honestly", "kinda",
	"literally", "maybe", "nothing", "really", "should", "something", "someone", "sure",
	"thank", "thanks", "that", "their", "them", "then", "there", "these", "they", "this",
	"those", "though", "what", "when", "where", "which", "with", "would", "yeah", "your",
	"have", "from", "into", "were", "will", "okay", "good", "bad", "basically", "probably",
	"pretty", "everyone", "anyone", "nobody", "guess", "hmm", "hmmm", "haha", "right",
	"wanted", "wants", "better", "worse", "little", "great", "fine", "cant", "didnt")

func stem6(w string) string {
	if len(w) > 6 {
		return w[:6]
	}
	return w
}

// namesSession reports whether text holds one of the user's subject words.
func namesSession(text string, stems map[string]bool) bool {
	for _, w := range strings.Fields(plain(text)) {
		if len(w) >= 4 && stems[stem6(w)] {
			return true
		}
	}
	return false
}

var (
	gistQ = lines(true,
		"What's going on with {gist} at the moment?",
		"How are you feeling about {gist}?",
		"What's the hardest part about {gist} for you?",
		"What's it been like with {gist} lately?",
		"When you think about {gist}, what comes up first?",
		"What would help with {gist}, even a little?",
		"What matters most to you about {gist}?",
		"What do you wish was different about {gist}?",
		"Where does {gist} fit into how you're feeling?",
		"What would you like to happen with {gist}?",
		"Can you tell me a bit more about {gist}?",
		"What's the part of {gist} you keep coming back to?",
	)
	gistGoodQ = lines(true,
		"What's the best part of {gist} for you?",
		"How are you feeling about {gist} now?",
		"What do you think made the difference with {gist}?",
	)
	gistPersonGoodQ = lines(true,
		"What was that like, with {person}?",
		"How are you feeling about it, with {person} in the picture?",
	)
	gistAck = lines(true,
		"I'm keeping {gist} in mind as we talk.",
		"It helps to know about {gist}.",
		"I haven't forgotten {gist}.",
		"{gist} sounds like part of this too.",
	)
)

// anchor makes sure the reply names the conversation: when nothing in it does, its
// question is asked about the user's subject (the thread, a tracked person, or the gist),
// or, with no question to change, a short line names the gist. A goodbye is left alone.
func (r *reply) anchor() {
	if r.act == actGoodbye || len(r.w.parts) == 0 {
		return
	}
	in, _ := classify(r.cur)
	if in == intentClosing {
		return
	}
	if (r.answered || in == intentValidate) && r.anchorQuestion(in == intentValidate) {
		return
	}
	stems := r.s.topicStems()
	if len(stems) == 0 || namesSession(joinParts(r.w.parts), stems) {
		return
	}
	v := r.copyVals()
	if g := r.s.gist(); g != "" {
		v["gist"] = g
	}
	q := -1
	for i, p := range r.w.parts {
		if p.keep == keepQuestion && strings.HasSuffix(p.text, "?") {
			q = i
		}
	}
	var groups [][]tmpl
	if in == intentShort {
		// A one-word answer gets a narrow question about a thread, not an open one.
		groups = append(groups, narrowEither, narrowThread, narrowPerson)
	}
	good := r.act == actGoodNews || r.positive
	if gistIsPerson(v["gist"]) {
		// A gist that is a person ("your mum") is asked about as a person.
		v["person"] = v["gist"]
		delete(v, "gist")
		if good {
			groups = append(groups, gistPersonGoodQ)
		}
	}
	if good {
		groups = append(groups, gistGoodQ)
	}
	groups = append(groups, gistQ)
	if r.main != nil && r.main.kind == kindEvent {
		groups = append(groups, qEvent)
	}
	if v["person"] == "" && v["threadPerson"] != "" {
		v["person"] = v["threadPerson"]
	}
	groups = append(groups, qPerson, narrowThread, narrowPerson)
	if q >= 0 {
		if text, ok := r.w.pick("anchorQ", v, nil, groups...); ok {
			r.w.parts[q].text = text
		}
		return
	}
	if text, ok := r.w.pick("anchorAck", v, nil, gistAck, ackPerson); ok {
		// Before the reply's answer or question, not after it.
		r.w.parts = append([]part{{text, keepAck}}, r.w.parts...)
	}
}

// validatingAsked say what a "is it normal to…" question asks, after its answer.
var validatingAsked = lines(false,
	"Plenty of people wonder {choice}.",
	"Lots of people ask {choice}, more than you'd guess.",
)

var selfAsking = lines(false,
	"You're asking {selfq}, and that's a fair question.",
	"It's a fair thing to wonder, {selfq}.",
)

// anchorQuestion: an answer shows which question it answers. When it names nothing the
// question asked about, it opens by saying what was asked ({choice}, {selfq}), or the
// question's own subject (its gist).
func (r *reply) anchorQuestion(validating bool) bool {
	if r.cur.flagged || r.act == actPractical && reRiskyAsk.MatchString(plain(r.cur.text)) {
		// Nothing of a flagged message, or of an ask no steps may help with, is said back.
		return false
	}
	cur := &session{turns: []userTurn{r.cur}}
	stems := cur.topicStems()
	if len(stems) == 0 || namesSession(joinParts(r.w.parts), stems) {
		return false
	}
	v := r.copyVals()
	var groups [][]tmpl
	switch r.act {
	case actSelf:
		if q := selfChoice(r.cur.text); q != "" {
			v["selfq"] = q
			groups = append(groups, selfAsking)
		}
	case actOpinion, actShare:
		if validating {
			groups = append(groups, validatingAsked)
		} else if !r.w.tookFrom(weighingLines) && !r.lastUsed(weighingLines) {
			groups = append(groups, weighingLines)
		}
	case actPractical:
		if !r.w.tookFrom(askingLines) && !r.lastUsed(askingLines) {
			groups = append(groups, askingLines)
		}
	}
	if c := choiceOf(r.cur.text); c != "this" {
		v["choice"] = c
	} else {
		delete(v, "choice")
	}
	if g := cur.gist(); g != "" {
		v["gist"] = g
	}
	text, ok := r.w.pick("anchorAsk", v, nil, append(groups, gistAck)...)
	switch {
	case ok && validating:
		// "Is it normal to…" is answered first ("Yes, that's very normal."), then heard.
		r.w.parts = append(r.w.parts[:1], append([]part{{text, keepBody - 1}}, r.w.parts[1:]...)...)
	case ok:
		// It says which question is answered, before the answer.
		r.w.parts = append([]part{{text, keepBody - 1}}, r.w.parts...)
	}
	return ok
}

// tookFrom reports whether the reply so far holds a line of pool.
func (w *writer) tookFrom(pool []tmpl) bool {
	for _, t := range w.taken {
		for _, p := range pool {
			if p.src == t.src {
				return true
			}
		}
	}
	return false
}

// situationVals are the values with the slots of the situation lines: {gist} when the
// user's subject is not a person, and {person} for the person last named.
func (r *reply) situationVals() map[string]string {
	v := r.copyVals()
	if g := r.s.gist(); g != "" {
		if !gistIsPerson(g) {
			v["gist"] = g
		} else if v["person"] == "" {
			v["person"] = g
		}
	}
	if v["person"] == "" && v["threadPerson"] != "" {
		v["person"] = v["threadPerson"]
	}
	return v
}
