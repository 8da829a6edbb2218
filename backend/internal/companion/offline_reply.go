package companion

import (
	"slices"
	"strings"

	"github.com/percolate/percolate/backend/internal/companion/safety"
)

// Compose returns the offline engine's reply to the new message of p, using the whole
// session in p.History. It follows a reflective arc at the user's pace: the first reply
// listens and names the feeling; the next ones explore with open questions and refer back
// to what was said earlier; once the user has said enough it sums up the focus ("So far I'm
// hearing…"), then offers one small next step (or meets the user's own plan as one); when
// the user signals the end it closes with a takeaway and a journaling prompt. Direct
// questions get direct answers; one-word answers a short, light reply, and the arc waits
// for them. No two replies in a row have the same structure (see ReplyMoves). The same
// session always gets the same reply.
func (o *Offline) Compose(p Prompt) string { return o.compose(p, screens{}) }

// compose is Compose with the screen's results kept in m (nil: each screened afresh).
func (o *Offline) compose(p Prompt, m screens) string {
	// The chat path answers a risky message before asking the engine; should the engine be
	// asked anyway, it gives the same fixed reply and mirrors nothing.
	where := Where{Country: p.Profile.Country, Age: p.Profile.Age}
	c := m.after(p.History)
	switch r := m.in(p.Message, c); {
	case r.Risky() && p.Crises > 0 && r.Category != safety.Attempt:
		return CrisisAck(p.Crises)
	case r.Urgent():
		return CrisisReplyFor(Risk(r.Category), where)
	case r.Unclear:
		return FollowUpReply
	case r.Level == safety.Possible && c.Asks(r):
		// A weak signal after a declined check-in is answered as an ordinary message, as the
		// send path does: the check-in is never said again in its words.
		return CheckInReplyFor(where)
	}
	s := newSession(p, m)
	texts := make([]string, 0, len(p.History)+1)
	for _, t := range p.History {
		if t.Role == RoleUser {
			texts = append(texts, t.Content)
		}
	}
	r := &reply{s: s, w: newWriter(s, append(texts, p.Message)), cur: s.cur(), k: len(s.replies) + 1, keywords: o.Keywords}
	r.values()
	r.compose()
	r.anchor()
	r.vary()
	if p.AfterCrisis {
		return AfterCrisisQuestion(p.Crises) + " " + r.w.text()
	}
	return r.w.text()
}

// reply is one reply being written.
type reply struct {
	s   *session
	w   *writer
	cur userTurn
	// k is the number of this reply among the engine's replies of the session (1: first).
	k    int
	vals map[string]string
	main *item
	// threads are the session's tracked people and events (no days), in order of mention.
	threads []item
	// positive is set when the new message's main feeling is a good one.
	positive bool
	// cont is set when main is the thread of the message before, not of the new one.
	cont bool
	// act is what the message does (see readAct); keywords ablates the encoder.
	act      act
	keywords bool
	// answered is set when the reply is a real answer to a question (reply.realAnswer).
	answered bool
}

func (r *reply) compose() {
	in, sub := classify(r.cur)
	if r.cur.sensitive && in != intentAboutMe && in != intentClosing {
		// The user raised a topic they asked us to steer away from: acknowledge it
		// kindly, without naming or probing it, and follow their lead.
		r.w.add(keepAck, "sensitive", r.vals, sensitiveAck)
		if in == intentShare || in == intentShort || in == intentGreeting {
			if !r.w.add(keepQuestion, "sensitiveQ", r.vals, sensitiveQ) {
				r.question(false)
			}
			return
		}
	}
	r.act = readAct(r.cur, r.keywords)
	if r.respond() {
		return
	}
	switch in {
	case intentAboutMe:
		r.w.add(keepBody, "aboutMe", r.vals, aboutMeLines[sub])
		r.question(false)
	case intentAdvice:
		r.advice()
	case intentValidate:
		r.validate(sub)
	case intentClosing:
		r.closing(sub)
	case intentGreeting:
		r.short("greeting")
	case intentShort:
		r.short(sub)
	case intentQuestion:
		r.answer(sub)
	default:
		r.share(sub)
	}
}

func (r *reply) share(sub string) {
	if sub == "follow" {
		r.w.add(keepAck, "follow", r.vals, ackFollow)
	}
	switch {
	case r.firstShare():
		groups := append([][]tmpl(nil), listenLines...)
		if r.positive {
			groups = append([][]tmpl{listenPositive}, listenLines[1:]...)
		}
		if sit := r.situationLines(); sit != nil {
			// Before "a lot is going on": the situation, when the encoder places one.
			last := len(groups) - 1
			groups = append(groups[:last:last], sit, groups[last])
		}
		r.w.add(keepBody, "listen", r.vals, groups...)
		r.extras()
		r.question(false)
	case r.planDue() && r.affirmStep():
	case r.summaryDue() && r.summary(r.ack):
	case r.stepDue() && r.offerStep():
	default:
		r.ack()
		r.extras()
		if r.journalFits(false) {
			r.w.add(keepJournal, "journal", r.vals, journalPrompts)
		}
		r.question(r.canReferBack())
	}
}

// extras links the message to the profile's focus areas and primary concerns, once each.
func (r *reply) extras() {
	if r.vals["focus"] != "" && !r.saidAnywhere(r.vals["focus"]) {
		r.w.add(keepExtra, "focus", r.vals, focusLines)
	}
	if r.vals["concern"] != "" {
		r.w.add(keepExtra, "concern", r.vals, concernLines)
	}
	r.w.addText(keepExtra, r.checkinLine())
}

// checkinLine names a pattern of the recent check-ins, once a session, in a session without
// a crisis or safety turn, when it fits the message (or opens the session after several low
// days); "" otherwise.
func (r *reply) checkinLine() string {
	if len(r.s.checkins) == 0 || !r.s.calm || r.cur.flagged || slices.ContainsFunc(r.s.said, IsCheckinLine) {
		return ""
	}
	line := CheckinLineFor(r.s.checkins, r.cur.text, r.k == 1)
	if mentionsAny(line, r.s.profile.SensitiveTopics) {
		return ""
	}
	return line
}

// firstShare is set on the first message that says something: the reply listens.
func (r *reply) firstShare() bool {
	for _, u := range r.s.turns[:len(r.s.turns)-1] {
		if len(u.items) > 0 || len(u.feelings) > 0 {
			return false
		}
	}
	return true
}

func (r *reply) ack() {
	var groups [][]tmpl
	if r.main != nil && !r.cont {
		switch {
		case r.main.kind == kindPerson:
			groups = append(groups, ackPerson)
		case r.main.kind == kindEvent && r.vals["feeling"] != "" && !r.positive:
			groups = append(groups, ackItemFeeling, ackItem)
		case r.main.kind == kindEvent:
			groups = append(groups, ackItem)
		}
	}
	if r.positive {
		groups = append(groups, ackPositive)
	}
	if len(groups) == 0 {
		// Nothing the tracker names: the session's situation still is something to hear.
		if sit := r.situationLines(); sit != nil {
			groups = append(groups, sit)
		}
	}
	r.w.add(keepAck, "ack", r.situationVals(), append(groups, ackFeeling, ackPlain)...)
}

// question adds the reply's one question: a look back at an earlier thread when referBack
// is set, else about the message's main thing, its feeling, or an open one.
func (r *reply) question(referBackFirst bool, first ...[]tmpl) {
	groups := append([][]tmpl(nil), first...)
	if referBackFirst {
		groups = append(groups, referBack)
	}
	if r.main != nil {
		switch r.main.kind {
		case kindEvent:
			if !r.positive {
				switch r.main.cat {
				case catStudy, catPerform:
					groups = append(groups, qPrepare)
				case catWork:
					groups = append(groups, qWork)
				}
				groups = append(groups, qEvent)
			}
		case kindPerson:
			groups = append(groups, qPerson)
		case kindPlace:
			groups = append(groups, qPlace)
		case kindDay:
			groups = append(groups, qDay)
		}
	}
	if r.positive {
		groups = append(groups, qPositive)
	} else if r.vals["feeling"] != "" {
		groups = append(groups, qFeeling)
	}
	v := r.vals
	if sit := r.situationNow(); sit != nil && !r.positive && (r.main == nil || r.main.kind != kindEvent) {
		// The situation's own questions, before the open ones that would fit any message.
		v = r.situationVals()
		groups = append(groups, sit.questions)
	}
	groups = append(groups, qPerson, qDay, qPlace, qGeneric, narrowGeneric)
	r.w.add(keepQuestion, "question", v, groups...)
}

// summaryDue is set every few replies, once there is something to sum up.
// The focus follows the user's pace: it comes a reply earlier when they have said a lot,
// and waits while they answer in a word or two.
func (r *reply) summaryDue() bool {
	said := r.s.wordsSaid()
	due := r.k >= 5 && said >= summaryWords || r.k >= 4 && said >= 2*summaryWords
	since := r.s.repliesSince(isSummary)
	// The first summary is the session's focus; the gap is between two summaries.
	first := since == len(r.s.replies)
	return due && (first || since >= summaryGap) && len(r.threads)+len(r.s.feelings(2, false)) >= 2
}

// summaryWords is how much the user has written before the session's focus is summed up.
const summaryWords = 40

// wordsSaid counts the words of the user's messages, flagged ones aside.
func (s *session) wordsSaid() int {
	n := 0
	for _, u := range s.turns {
		if !u.flagged {
			n += len(strings.Fields(u.text))
		}
	}
	return n
}

// summaryGap is the fewest replies between two summaries: said more often, "so far I'm
// hearing" becomes a formula.
const summaryGap = 7

func isSummary(reply string) bool {
	return strings.Contains(strings.ToLower(reply), "so far i'm hearing")
}

// summary adds the acknowledgement ack (may be nil), a summary of the session, perhaps a
// journaling prompt, and a question. It reports false, having added nothing, when no
// summary may be said.
func (r *reply) summary(ack func()) bool {
	text, ok := r.w.pick("summary", r.vals, nil, summaryLines)
	if !ok {
		return false
	}
	if ack != nil {
		ack()
	}
	r.w.addText(keepBody, text)
	if r.journalFits(true) {
		// A summary is a reflective moment: a prompt to write fits here.
		r.w.add(keepJournal, "journal", r.vals, journalPrompts)
	}
	if !r.w.add(keepQuestion, "summaryQ", r.vals, summaryQ) {
		r.question(false)
	}
	return true
}

func (r *reply) validate(sub string) {
	v := r.withSessionFeeling()
	if sub != "normal" || !r.w.add(keepBody, "validate", v, normalLines) {
		r.w.add(keepBody, "validate", v, validateLines)
	}
	r.w.add(keepAck, "validateContext", v, validateContext)
	r.w.add(keepBody-5, "reframe", v, reframeLines)
	if !r.w.add(keepQuestion, "validateQ", v, validateQ) {
		r.question(false)
	}
}

func (r *reply) answer(sub string) {
	v := r.withSessionFeeling()
	if !r.w.add(keepBody, "answer", v, answerLines[sub]) {
		r.w.add(keepBody, "answer", v, answerLines["other"])
	}
	r.question(false, answerQ[sub])
}

func (r *reply) closing(sub string) {
	if len(r.s.replies) > 0 && isClosing(r.s.replies[len(r.s.replies)-1]) {
		if !r.w.add(keepBody, "farewell", r.vals, farewellLines) {
			r.w.add(keepBody, "goodbye", r.vals, goodbyeLines)
		}
		return
	}
	r.w.add(keepAck, "thanks", r.vals, thanksLines)
	// The takeaway is about the session, not the goodbye ("thanks" is no feeling to sum up).
	v := r.copyVals()
	delete(v, "feeling")
	earlier := r.s.feelings(1, true)
	if len(earlier) > 0 {
		setFeeling(v, earlier[0])
	}
	if len(r.threads) > 0 {
		v["topic"] = r.threads[len(r.threads)-1].short
	}
	var groups [][]tmpl
	if sub == "accept" && r.stepGiven() {
		groups = append(groups, takeawayAccepted)
	}
	if len(earlier) > 0 && feelingTalk[earlier[0]].positive {
		groups = append(groups, takeawayPositive)
	}
	r.w.add(keepBody, "takeaway", v, append(groups, takeawayTopic, takeawayList, takeawayPlain)...)
	if r.journalReady() {
		r.w.add(keepBody-5, "journal", v, journalPrompts)
	}
	if sub == "thanks" {
		r.w.add(keepAck, "stayOpen", v, stayOpenLines)
	} else {
		r.w.add(keepAck, "goodbye", v, goodbyeLines)
	}
}

func isClosing(reply string) bool {
	low := strings.ToLower(reply)
	return strings.Contains(low, "one thing to take with you") || strings.Contains(low, "if you keep one thing from today")
}

func (r *reply) short(sub string) {
	if r.k == 1 && sub != "no" && sub != "feeling" && (sub != "word" || r.main == nil || r.cont) {
		if line, ok := r.memoryThread(); ok {
			if sub == "greeting" {
				r.w.add(keepAck, "ack", r.vals, shortAcks["greeting"])
			}
			r.w.addText(keepQuestion, line)
			return
		}
	}
	switch sub {
	case "word":
		if r.main != nil && !r.cont {
			r.ack()
			r.question(false)
			return
		}
		r.w.add(keepAck, "ack", r.vals, ackPlain)
	case "feeling":
		r.w.add(keepAck, "ack", r.vals, shortAcks["feeling"], ackFeeling, ackPlain)
	default:
		r.w.add(keepAck, "ack", r.vals, shortAcks[sub], ackPlain)
	}
	// A summary waits for a message with more in it: after a word or two, the reply stays
	// light (the arc follows the user's pace).
	var groups [][]tmpl
	switch sub {
	case "no":
		groups = append(groups, narrowNo)
	case "feeling":
		groups = append(groups, narrowFeeling)
	case "greeting":
		groups = append(groups, greetingQ)
	case "sigh":
		groups = append(groups, sighQ)
	}
	r.w.add(keepQuestion, "narrow", r.vals, append(groups, narrowEither, narrowThread, narrowPerson, narrowGeneric, qGeneric)...)
}

// journalFits is set on a reflective turn (a summary, or a message with a feeling in it or
// at some length), once in a while: never in the first replies, never within three replies
// of the last prompt.
func (r *reply) journalFits(reflective bool) bool {
	if r.k < 3 || r.s.repliesSince(isJournal) < 3 || !r.journalReady() {
		return false
	}
	return reflective || len(r.cur.feelings) > 0 || len(strings.Fields(r.cur.text)) >= 25
}

// journalReady: a journaling exercise is offered only once the user has said enough to
// write about (or asks for one), and at most twice a session.
func (r *reply) journalReady() bool {
	given := 0
	for _, t := range r.s.replies {
		if isJournal(t) {
			given++
		}
	}
	if given >= 2 {
		return false
	}
	words := 0
	for _, u := range r.s.turns {
		if !u.flagged {
			words += len(strings.Fields(u.text))
		}
	}
	return words >= journalWords || strings.Contains(plain(r.cur.text), "journal")
}

// journalWords is how much the user has written before a journaling exercise fits.
const journalWords = 60

func isJournal(reply string) bool {
	low := strings.ToLower(reply)
	for _, t := range journalPrompts {
		if t.in(low) {
			return true
		}
	}
	return false
}

// canReferBack is set when there is an earlier thread to look back at and the last reply
// did not already look back.
func (r *reply) canReferBack() bool {
	if r.vals["earlier"] == "" {
		return false
	}
	if n := len(r.s.replies); n > 0 {
		low := strings.ToLower(r.s.replies[n-1])
		for _, t := range referBack {
			if t.in(low) {
				return false
			}
		}
	}
	return true
}

func (r *reply) saidAnywhere(text string) bool {
	low := strings.ToLower(text)
	for _, t := range r.s.replies {
		if strings.Contains(strings.ToLower(t), low) {
			return true
		}
	}
	return false
}
