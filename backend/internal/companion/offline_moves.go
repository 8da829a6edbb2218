package companion

import (
	"strings"
	"sync"
)

// Moves: what each sentence of one of the engine's replies does. A reply's structure is the
// order of its moves ("reflect+question", "answer+question", "reflect+step+question"); the
// engine never gives the same structure twice in a row (reply.vary), and the companion eval
// measures it from the same function.

// The engine's moves.
const (
	MoveReflect  = "reflect"  // an acknowledgement or reflection of what was said
	MoveQuestion = "question" // a question
	MoveAnswer   = "answer"   // an answer to the user's question (opinion, practical, about the companion, validation)
	MoveSummary  = "summary"  // a summary reflection: the session's focus
	MoveStep     = "step"     // a small next step
	MoveJournal  = "journal"  // a journaling exercise
	MoveClose    = "close"    // the takeaway that closes a session
	MoveBye      = "bye"      // a goodbye, thanks or farewell
	MoveGoodNews = "goodnews" // good news met as good news
	MoveCallback = "callback" // picking up what the user goes back to
	MoveInvite   = "invite"   // a short open invitation to go on, without a question
)

type moveLine struct {
	t    tmpl
	move string
}

var (
	moveOnce  sync.Once
	moveIndex []moveLine
)

// moveLines indexes every sentence of the engine's pools by the move it makes.
func moveLines() []moveLine {
	moveOnce.Do(func() {
		add := func(move string, pools ...[]tmpl) {
			for _, p := range pools {
				for _, t := range p {
					for _, sen := range splitSentences(t.src) {
						st := parseTmpl(sen, false)
						n := 0
						for _, f := range st.frags {
							n += len(f)
						}
						if n >= 8 {
							moveIndex = append(moveIndex, moveLine{st, move})
						}
					}
				}
			}
		}
		add(MoveClose, takeawayAccepted, takeawayTopic, takeawayList, takeawayPositive, takeawayPlain, takeawayGood)
		add(MoveBye, goodbyeLines, farewellLines, stayOpenLines, thanksLines)
		add(MoveSummary, summaryLines)
		add(MoveJournal, journalPrompts)
		for _, p := range stepsByCat {
			add(MoveStep, p)
		}
		for _, p := range stepsByFeeling {
			add(MoveStep, p)
		}
		add(MoveStep, adviceIntro, planAffirm)
		add(MoveInvite, inviteLines)
		add(MoveGoodNews, goodNewsTopic, goodNewsPlain)
		add(MoveCallback, callbackLines, callbackSaid, callbackRestated)
		for _, a := range answers {
			add(MoveAnswer, a.text)
		}
		for _, p := range answerLines {
			add(MoveAnswer, p)
		}
		for _, p := range aboutMeLines {
			add(MoveAnswer, p)
		}
		add(MoveAnswer, opinionFallback, practicalFallback, validateLines, normalLines, validateContext,
			reframeLines, weighingLines, askingLines, validatingAsked, selfAsking)
	})
	return moveIndex
}

// ReplyMoves returns the moves of one of the engine's replies, sentence by sentence, with
// a move that goes on over several sentences said once: a question is any sentence that asks
// one, the other sentences make the move of the engine's line they come from, and a sentence
// of none (an acknowledgement, a reflection, a situation's line) reflects.
func ReplyMoves(text string) []string {
	var out []string
	for _, sen := range splitSentences(text) {
		m := sentenceMove(sen)
		if len(out) == 0 || out[len(out)-1] != m {
			out = append(out, m)
		}
	}
	return out
}

// ReplyStructure is a reply's moves in order, joined by "+".
func ReplyStructure(text string) string { return strings.Join(ReplyMoves(text), "+") }

func sentenceMove(sen string) string {
	if strings.HasSuffix(strings.TrimRight(sen, "\"”’) "), "?") {
		return MoveQuestion
	}
	low := strings.ToLower(sen)
	for _, f := range stepFrames {
		if strings.HasPrefix(low, strings.ToLower(f[:strings.Index(f, "%s")])) {
			return MoveStep
		}
	}
	for _, l := range moveLines() {
		if l.t.in(low) {
			return l.move
		}
	}
	return MoveReflect
}

// inviteLines invite the user to go on without asking anything: a reply that reflects and
// leaves room, said when a question would make two replies alike.
var inviteLines = lines(true,
	"Take your time with {event}; I'm following.",
	"There's room here for all of {event}, whenever you want to say more.",
	"We can stay with {event} for as long as you need.",
	"Say as much about {person} as you like; I'm following.",
	"There's room here for whatever is going on with {person}.",
	"Take your time with it; I'm following.",
	"There's no rush here. Say as much or as little as you like.",
	"I'm here for whatever comes next, big or small.",
	"You can keep going from wherever feels easiest.",
	"I'm listening, whenever you want to add more.",
	"We can stay with that for a moment.",
	"No need to have it worked out before you say it.",
	"Whatever comes to mind next is fine to say.",
)

// bridgeLines open an answer with a reflection, when an answer would follow an answer.
var bridgeLines = lines(true,
	"That's a fair thing to ask.",
	"I'm glad you asked that.",
	"Let me answer that as honestly as I can.",
	"That's worth thinking through together.",
	"Good question, and not a silly one.",
)

// vary keeps a reply from having the structure of the engine's reply just before it: it
// leaves room instead of asking (a reflection and an invitation), asks without the
// acknowledgement, or opens an answer with a reflection, whichever makes a new structure
// and still names what the user talked about. A very short message gets the lighter
// change first: the question alone. A goodbye is left as it is.
func (r *reply) vary() {
	if !r.s.lastOwn || len(r.s.replies) == 0 || len(r.w.parts) == 0 || r.act == actGoodbye {
		return
	}
	prev := ReplyStructure(r.s.replies[len(r.s.replies)-1])
	if ReplyStructure(r.w.text()) != prev {
		return
	}
	subject := r.s.subjectWords()
	named := namedIn(joinParts(r.w.parts), subject)
	cur := (&session{turns: []userTurn{r.cur}}).subjectWords()
	fits := func(parts []part) bool {
		if len(parts) == 0 {
			return false
		}
		t := joinParts(parts)
		if ReplyStructure(t) == prev || len(strings.Fields(t)) > ReplyWords {
			return false
		}
		// The reply still names what it named of the new message, and still names the
		// session when it did.
		has := namedIn(t, subject)
		for w := range named {
			if cur[w] && !has[w] {
				return false
			}
		}
		return len(named) == 0 || len(has) > 0
	}
	isQ := func(p part) bool { return p.keep == keepQuestion && strings.HasSuffix(p.text, "?") }
	invite := func() []part {
		var out []part
		asked := false
		for _, p := range r.w.parts {
			if isQ(p) {
				asked = true
				continue
			}
			out = append(out, p)
		}
		if !asked || len(out) == 0 {
			return nil
		}
		v := r.copyVals()
		if r.main != nil && r.main.kind == kindEvent {
			v["event"] = r.main.short
		}
		text, ok := r.w.pick("invite", v, nil, inviteLines)
		if !ok {
			return nil
		}
		return append(out, part{text, keepQuestion})
	}
	ask := func() []part {
		// Only an acknowledgement that reflects goes: a correction taken up, good news or a
		// callback is what the reply is for.
		if r.act != actShare || len(r.cur.denied) > 0 || r.cur.kept != "" {
			return nil
		}
		var out []part
		for _, p := range r.w.parts {
			if p.keep != keepAck || ReplyStructure(p.text) != MoveReflect {
				out = append(out, p)
			}
		}
		return out
	}
	reflect := func() []part {
		// A reflection of the message after the reply's first move ("That's brilliant news!
		// The result sounds like a real turn. How does it feel?").
		saved := r.w.parts
		r.w.parts = nil
		r.ack()
		added := r.w.parts
		r.w.parts = saved
		if len(added) != 1 || ReplyStructure(added[0].text) != MoveReflect {
			return nil
		}
		out := append(append(append([]part(nil), saved[:1]...), added[0]), saved[1:]...)
		return out
	}
	bridge := func() []part {
		if m := ReplyMoves(joinParts(r.w.parts)); len(m) == 0 || m[0] != MoveAnswer {
			return nil
		}
		text, ok := r.w.pick("bridge", r.vals, nil, bridgeLines)
		if !ok {
			return nil
		}
		return append([]part{{text, keepAck}}, r.w.parts...)
	}
	order := []func() []part{invite, ask, reflect, bridge}
	if in, _ := classify(r.cur); in == intentShort {
		order = []func() []part{ask, invite, reflect, bridge}
	}
	for _, v := range order {
		if parts := v(); fits(parts) {
			r.w.parts = parts
			return
		}
	}
}

// subjectWords are the user's words that can name a subject, three letters or more ("mum",
// "exam"), cut to six, from messages neither flagged nor sensitive.
func (s *session) subjectWords() map[string]bool {
	out := map[string]bool{}
	for _, u := range s.turns {
		if u.flagged || u.sensitive {
			continue
		}
		for _, w := range strings.Fields(plain(u.text)) {
			if len(w) < 3 || shortStop[w] || notModifiers[w] || gistStop[w] || gistWeak[w] || isShortWord(w) || topicFiller[w] {
				continue
			}
			out[stem6(w)] = true
		}
	}
	return out
}

// namedIn returns the words of subject that text names.
func namedIn(text string, subject map[string]bool) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(plain(text)) {
		if len(w) >= 3 && subject[stem6(w)] {
			out[stem6(w)] = true
		}
	}
	return out
}

// shortStop are the three-letter words that name no subject.
var shortStop = setOf("the", "and", "you", "but", "was", "got", "for", "are", "not", "its", "can",
	"did", "had", "has", "her", "him", "his", "how", "lot", "may", "now", "off", "one", "our",
	"out", "own", "she", "too", "two", "way", "who", "why", "yes", "yet", "all", "any", "ask",
	"big", "day", "get", "let", "new", "old", "put", "say", "see", "set", "try", "use", "tbh",
	"ngl", "lol", "idk", "omg", "bit", "just", "like", "some", "very", "much", "also", "even",
	"ill", "ive", "im", "isnt", "wasnt", "its", "thats", "dont", "feel", "felt", "want", "know",
	"think", "said", "told", "made", "make", "time", "well", "more", "most", "been", "than")
