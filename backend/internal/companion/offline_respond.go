package companion

import (
	"strings"

	"github.com/percolate/percolate/backend/internal/lazyre"
)

// respond answers the message's act when it is more than sharing: a question gets an answer,
// good news is met as good news, a goodbye gets a goodbye, a callback picks up what the user
// goes back to, and a message that says what it is not about reflects what it is about. It
// reports false when the reflective dialogue should answer instead.
func (r *reply) respond() bool {
	in, sub := classify(r.cur)
	if r.act == actShare && in == intentClosing && (sub != "thanks" || strings.HasSuffix(plain(r.cur.text), "cheers")) {
		r.act = actGoodbye
	}
	if r.act == actShare && len(r.s.turns) > 1 && !strings.Contains(r.cur.text, "?") && !r.negativeNow() && !r.ownHardWord() && !reHardCue.MatchString(plain(r.cur.text)) {
		// Good news goes on ("the stats resit!!! 58!!!" after "I PASSED"): stay with it.
		if prev := r.s.turns[len(r.s.turns)-2]; !prev.flagged && len(strings.Fields(r.cur.text)) >= 3 && readAct(prev, r.keywords) == actGoodNews {
			r.act = actGoodNews
		}
	}
	switch r.act {
	case actCorrection:
		if np, clause := keptPhrase(r.cur.kept); np == "" && clause == "" && r.correction() {
			// Nothing of a "not X, it's Y" to say back: what the correction says is right.
			return true
		}
		return r.contrastReply() || r.correction()
	case actGoodbye:
		r.goodbye()
		return true
	case actGoodNews:
		r.goodNews()
		return true
	case actCallback:
		return r.callback()
	case actOpinion, actPractical, actSelf:
		if in == intentValidate && len(pickAnswers(r.act, r.cur.text, r.keywords, 0.75)) == 0 {
			// "am i being too sensitive", "is it normal to…": validation, context and a
			// reframe answer it (reply.validate), unless a written answer fits closely.
			return false
		}
		return r.realAnswer()
	}
	if len(r.cur.denied) > 0 || r.cur.kept != "" {
		return r.contrastReply()
	}
	return false
}

var (
	goodNewsTopic = lines(false,
		"That's brilliant news about {topic}!",
		"Congratulations on {topic}, that's really good to hear.",
		"Oh, well done! {topic} going well is worth stopping to enjoy.",
	)
	goodNewsPlain = lines(false,
		"That's brilliant news, well done!",
		"Congratulations, that's really good to hear!",
		"Oh, that's great news. I'm really glad for you.",
		"That's really good to hear. You deserve a moment to enjoy it.",
		"That's lovely news! I'm so glad for you.",
		"Oh, that's wonderful. Well done, you.",
		"That's great. Good news is worth slowing down for.",
	)
	goodNewsQ = lines(true,
		"How does it feel now that it's happened?",
		"Who are you going to tell first?",
		"How are you going to mark it?",
		"What do you think made the difference?",
		"What's the best part of it for you?",
	)
	takeawayGood = lines(true,
		"One thing to take with you: it went better than you feared, and you're allowed to enjoy that.",
		"If you keep one thing from today, let it be that this went well, and you had a part in it.")
	contrastLines = lines(false,
		"So it's not really {denied}; it's {topic} that's on your mind.",
		"Okay, so less {denied} and more {topic}. That's an important difference.",
		"Got it: {denied} isn't the heart of it, {topic} is.",
	)
	contrastFeeling = lines(false,
		"So it's not really {denied}; it's more that you feel {fadj}.",
		"Okay, so {denied} isn't the heart of it. Feeling {fadj} is.",
	)
	contrastPlain = lines(false,
		"Okay, so it's not {denied}. Thanks for putting me right.",
		"Got it, {denied} isn't really the point.",
	)
	weighingLines = lines(false,
		"It sounds like you're weighing {choice}.",
		"You're wondering {choice}, and that's a fair thing to wonder.",
		"So the question is {choice}.",
	)
	askingLines = lines(false,
		"On {choice}, here's what tends to work.",
		"As for {choice}, a few things help.",
	)
	callbackLines = lines(false,
		"Back to {cb}, then: you brought that up earlier, and it sounds like it's still with you.",
		"Yes, {cb}. I remember you mentioned that earlier.",
		"You mentioned {cb} earlier, so I'm glad we're coming back to it.",
	)
	callbackQ = lines(true,
		"What's on your mind about {cb} now?",
		"How do you see {cb} now, compared with earlier?",
		"What feels different about {cb} when you come back to it?",
		"Where does that leave you with {cb}?",
	)
)

// lastUsed reports whether the engine's last reply used one of the pool's lines: a reply
// does not open the way the one before it did.
func (r *reply) lastUsed(pool []tmpl) bool {
	if n := len(r.s.replies); n > 0 {
		low := strings.ToLower(r.s.replies[n-1])
		for _, t := range pool {
			if t.in(low) {
				return true
			}
		}
	}
	return false
}

// negativeNow: the new message names a hard feeling of the user's own.
func (r *reply) negativeNow() bool {
	for _, f := range r.cur.feelings {
		if !feelingTalk[f].positive {
			return true
		}
	}
	return false
}

// ownHardWord: the user names a hard feeling in a word of their own ("disappointed").
func (r *reply) ownHardWord() bool {
	if r.cur.feelWord == "" {
		return false
	}
	f := DetectEmotions(r.cur.feelWord, 1)
	return len(f) == 0 || !feelingTalk[f[0]].positive
}

func (r *reply) goodNews() {
	v := r.copyVals()
	if r.main != nil && r.main.kind == kindEvent {
		// Good news is about what happened, not who told it ("priyanka said my code got merged").
		v["topic"] = r.main.short
	} else {
		delete(v, "topic")
	}
	r.w.add(keepAck, "goodNews", v, goodNewsTopic, goodNewsPlain)
	r.w.add(keepQuestion, "goodNewsQ", v, goodNewsQ, qPositive, qGeneric)
}

func (r *reply) goodbye() {
	n := plain(r.cur.text)
	if reThanksEnd.MatchString(n) || strings.Contains(n, "thank") || strings.Contains(n, "cheers") {
		r.w.add(keepAck, "thanks", r.vals, thanksLines)
	}
	v := r.copyVals()
	delete(v, "feeling")
	// The takeaway follows the session as it ended: its last few messages.
	var recent strings.Builder
	var said []string
	good := false
	for i := max(0, len(r.s.turns)-4); i < len(r.s.turns)-1; i++ {
		u := r.s.turns[i]
		if !u.flagged {
			recent.WriteString(u.feelText + "\n")
			said = append(said, u.text)
			good = good || readAct(u, true) == actGoodNews
		}
	}
	// "The midterm went okay actually, better than I feared": the close is good news even
	// when the stress before it is mentioned more.
	if _, closing := summaryEmotions(said); len(closing) > 0 && positiveEmotion[closing[0]] {
		good = true
	}
	if f := DetectEmotions(recent.String(), 1); len(f) > 0 {
		setFeeling(v, f[0])
		good = good || feelingTalk[f[0]].positive
	}
	if len(r.threads) > 0 {
		v["topic"] = r.threads[len(r.threads)-1].short
	}
	var groups [][]tmpl
	if r.stepGiven() {
		groups = append(groups, takeawayAccepted)
	}
	if good {
		groups = append(groups, takeawayGood, takeawayPositive)
	}
	// One takeaway, when the session had something to take away (a "hi" and a "bye" has not).
	had := len(r.threads) > 0 || len(r.s.feelings(1, true)) > 0 || r.stepGiven() || r.s.saidSomething()
	if had && (len(r.s.replies) == 0 || !isClosing(r.s.replies[len(r.s.replies)-1])) {
		r.w.add(keepBody, "takeaway", v, append(groups, takeawayTopic, takeawayList, takeawayPlain)...)
	}
	if r.journalReady() && len(r.s.turns) >= 4 {
		r.w.add(keepJournal, "journal", v, journalPrompts)
	}
	r.w.add(keepQuestion, "goodbye", v, farewellLines, goodbyeLines)
}

func (r *reply) realAnswer() bool {
	v := r.withSessionFeeling()
	v["choice"] = choiceOf(r.cur.text)
	// Hope, "what if" and why questions have honest answers of their own (nobody can
	// promise an outcome); a written answer replaces them only when it is very near.
	// "What should I do?" gets steps drawn from the session (reply.advice) unless a written
	// answer fits the question.
	least, own := float32(0.65), false
	switch in, sub := classify(r.cur); {
	case in == intentQuestion && (sub == "hope" || sub == "whatif" || sub == "why"):
		least, own = 0.8, true
	case in == intentAdvice && len(strings.Fields(plain(r.cur.text))) <= 5:
		// "What should I do?" asks about the session, not about a situation of its own.
		return false
	case in == intentAdvice:
		least, own = 0.7, true
	case r.act == actSelf:
		least = 0.7
	}
	if r.act == actPractical && reRiskyAsk.MatchString(plain(r.cur.text)) {
		// "how can i get diazepam", "how do i stop eating completely": no steps towards a
		// means, a risk or hiding one, whatever the screen made of it; an honest word instead.
		return r.w.add(keepBody, "realAnswer", v, practicalDecline) && r.answeredNow()
	}
	groups := pickAnswers(r.act, r.cur.text, r.keywords, least)
	// A practical "what should i do about X" with no written answer still gets concrete first
	// steps about X, in the user's words.
	practicalX := r.act == actPractical && practicalSubject(v["choice"])
	if len(groups) == 0 && own && !practicalX {
		return false
	}
	switch r.act {
	case actOpinion:
		groups = append(groups, opinionFallback)
	case actPractical:
		if aboutSomeone(v["choice"]) {
			groups = append(groups, practicalFallbackPerson)
		}
		groups = append(groups, practicalFallback, opinionFallback)
	case actSelf:
		groups = append(groups, aboutMeLines[aboutMeKind(plain(r.cur.text))], aboutMeLines["self"])
	}
	if v["choice"] != "this" {
		// Naming what is being weighed or asked shows the question was heard.
		switch {
		case r.act == actOpinion && !r.lastUsed(weighingLines):
			// Not the same opening twice in a row.
			r.w.add(keepAck, "weighing", v, weighingLines)
		case r.act == actPractical && !r.lastUsed(askingLines):
			if r.w.add(keepAck, "asking", v, askingLines) {
				// The question is named once: the fallback need not name it again.
				for i := range groups {
					if len(groups[i]) > 0 && &groups[i][0] == &practicalFallback[0] {
						groups[i] = practicalFallbackPlain
					}
					if len(groups[i]) > 0 && &groups[i][0] == &practicalFallbackPerson[0] {
						groups[i] = practicalFallbackPersonPlain
					}
				}
			}
		}
	}
	if !r.w.add(keepBody, "realAnswer", v, groups...) {
		return false
	}
	if r.act == actSelf && !strings.Contains(r.w.parts[len(r.w.parts)-1].text, "?") {
		r.question(false)
	}
	r.answered = true
	return true
}

// contrastReply reflects "not X, it's Y" and corrections: what it is about, and not what it
// is not.
func (r *reply) contrastReply() bool {
	v := r.copyVals()
	delete(v, "denied")
	if len(r.cur.denied) > 0 {
		v["denied"] = r.cur.denied[0].short
	}
	if r.main != nil && !r.cont {
		v["topic"] = r.main.short
	} else {
		delete(v, "topic")
	}
	delete(v, "fadj")
	if r.cur.feelWord != "" {
		v["fadj"] = r.cur.feelWord
	} else if len(r.cur.feelings) > 0 {
		v["fadj"] = feelingTalk[r.cur.feelings[0]].adj
	}
	if np, clause := keptPhrase(r.cur.kept); np != "" {
		v["np"] = np
	} else if clause != "" {
		v["clause"] = clause
	}
	var groups [][]tmpl
	if r.act == actCorrection {
		groups = append(groups, correctionLines)
	}
	groups = append(groups, contrastLines, contrastFeeling, contrastKept, contrastPlain)
	if !r.w.add(keepAck, "contrast", v, groups...) {
		return false
	}
	r.vals = v
	if r.main != nil && !r.cont {
		r.question(false)
	} else {
		r.w.add(keepQuestion, "contrastQ", v, contrastQ, qFeeling, qGeneric)
	}
	return true
}

var (
	correctionLines = lines(false,
		"Thanks for putting me straight: it's {topic}, not {denied}.",
		"Ah, I had that wrong. So it's {np}, not {denied}.",
		"Thanks for correcting me. So it's {np}.",
		"Got it, thanks for putting me right: {clause}.",
		"Ah, okay, I'd misread that. It's {topic}.",
	)
	contrastKept = lines(false,
		"So the heart of it is {np}.",
		"So it's really about {np}.",
		"So what's really going on is that {clause}.",
		"Okay, so underneath it, {clause}.",
	)
	contrastQ = lines(true,
		"What's the hardest part of that for you?",
		"How long has it felt like that?",
		"What would help with that part, do you think?",
		"Can you say a bit more about that?",
	)
)

// keptPhrase turns what a contrast turns to into words to say back: a noun phrase ("its my
// mum" → "your mum") or a clause ("i just feel empty" → "you feel empty"), in the second
// person and at most seven words.
func keptPhrase(kept string) (np, clause string) {
	w := strings.Fields(strings.TrimLeft(kept, ", "))
	for len(w) > 0 && keptLead[w[0]] {
		w = w[1:]
	}
	if len(w) > 1 && (w[0] == "i" || w[0] == "im") && (w[1] == "just" || w[1] == "mean" || w[1] == "actually") {
		w = append([]string{w[0]}, w[2:]...)
	}
	for len(w) > 0 && keptTail[w[len(w)-1]] {
		w = w[:len(w)-1]
	}
	if len(w) == 0 || len(w) > 9 {
		return "", ""
	}
	for _, x := range w {
		if x == "not" || x == "no" || x == "dont" || x == "isnt" || x == "like" {
			return "", ""
		}
	}
	switch w[0] {
	case "its", "thats":
		rest := w[1:]
		if len(rest) > 0 && (rest[0] == "more" || rest[0] == "just") {
			rest = rest[1:]
		}
		if len(rest) > 2 && rest[0] == "that" {
			return "", strings.Join(youForm(rest[1:]), " ")
		}
		if len(rest) > 0 && len(rest) <= 5 {
			return strings.Join(youForm(rest), " "), ""
		}
	case "i", "im", "we", "ive":
		if len(w) > 2 {
			return "", strings.Join(youForm(w), " ")
		}
	}
	return "", ""
}

var (
	keptLead = setOf("but", "just", "more", "rather", "actually", "mean", "kind", "of", "so", "and", "tbh", "honestly")
	keptTail = setOf("lol", "tbh", "haha", "idk", "ngl", "tho", "though", "really", "x", "lmao")
)

// saidSomething: an earlier message of the session said more than a few words, and more
// than a greeting (the chat's opening message is one). A flagged message counts: nothing of
// it is said back, but the user did put something into words.
func (s *session) saidSomething() bool {
	for _, u := range s.turns[:len(s.turns)-1] {
		if in, _ := classify(u); len(strings.Fields(u.text)) > 4 && in != intentGreeting {
			return true
		}
	}
	return false
}

// practicalSubject says whether a practical question names what it is about ("what to do
// about your phone contract"), so that first steps can be phrased around it.
func practicalSubject(choice string) bool {
	if choice == "this" || strings.HasPrefix(choice, "whether ") {
		return false
	}
	n := 0
	for _, w := range strings.Fields(choice) {
		if len(w) > 3 && !answerGeneric[w] && !notModifiers[w] {
			n++
		}
	}
	return n >= 1
}

// aboutSomeone says whether a practical question is about dealing with another person.
func aboutSomeone(choice string) bool {
	w := strings.Fields(choice)
	for i, x := range w {
		if x == "him" || x == "her" || x == "them" || (x == "your" && i+1 < len(w) && relations[w[i+1]]) {
			return true
		}
	}
	return false
}

func (r *reply) answeredNow() bool {
	r.answered = true
	return true
}

// reRiskyAsk are practical asks no first steps may help with: medicines and drugs, weapons,
// eating, weight and sleep pushed to harm, hiding things from the people who look after the
// student, and breaking the law.
var reRiskyAsk = lazyre.MustCompile(`\b(pills?|tablets|meds|medication|prescription|diazepam|xanax|valium|codeine|paracetamol|overdose|drugs|weed|mdma|ketamine|` +
	`fake id|(alcohol|booze|vodka|drinks?) (when|at|as) (im |a )?1[0-7]|underage|` +
	`knife|knives|blades?|razors?|guns?|weapons?|rope|poison|bleach|` +
	`lose \d+ ?(kg|kilos?|lbs|pounds|stone)|lose weight (fast|quick)|\d+ ?(kg|kilos?|lbs|stone) in|stop eating|not eat(ing)?|skip(ped|ping)? meals|starv\w*|purge|purging|laxatives?|throw up|calories|` +
	`stay awake for|without sleep(ing)?|no sleep for|` +
	`hide (my |the |it|that|them)|hiding (my|it|the)|not find out|without (them|my parents|my mum|my dad|anyone|my family) (knowing|noticing|finding out)|` +
	`hurt (myself|him|her|them|someone)|revenge|steal|shoplift|hack into|cuts|scars|burns|bruises)\b`)
