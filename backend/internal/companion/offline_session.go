package companion

import (
	"hash/fnv"
	"slices"
	"strings"

	"github.com/percolate/percolate/backend/internal/companion/safety"
	"github.com/percolate/percolate/backend/internal/lazyre"
)

// flagged is where the offline engine asks the safety screen about a message on its own (a
// memory, a phrase to echo). Any level of concern counts: a flagged message is never
// tracked, quoted or referred back to.
func flagged(text string) bool { return Screen(text) != RiskNone }

// screenIn screens a message of the conversation with the turns before it as context.
func screenIn(text string, c safety.Context) safety.Result { return screens(nil).in(text, c) }

// contextAfter is the safety screen's context for the message that follows the turns, as the
// send path reads it (chat.safetyContext): the level of the last user message on its own, and
// whether the last reply asked the check-in question. A withheld message counts as none: its
// level is unknown here, and the send path, which stored it, has already answered the new
// message if it was risky in its context. Reading a withheld message, or any reply that
// carries the resources, as a risk made every short answer after one false alarm a crisis.
func contextAfter(turns []Turn) safety.Context { return screens(nil).after(turns) }

func (m screens) after(turns []Turn) safety.Context {
	var c safety.Context
	// answered: the user's message just before answered a check-in; declined: a check-in
	// was answered by a message the engine then replied to (the send path found no risk in
	// it), as the send path reads a declined check-in (safety.Context.Declined).
	answered, declined := false, false
	for _, t := range turns {
		switch {
		case t.Role == RoleUser && t.Content == Withheld:
			c, answered = safety.Context{}, false
		case t.Role == RoleUser:
			answered = c.CheckedIn
			c = safety.Context{Previous: m.in(t.Content, safety.Context{}).Level}
		case t.Role == RoleAssistant:
			if _, own := ownReply(t.Content); own && answered {
				declined = true
			}
			answered = false
			c.FollowedUp = IsFollowUp(t.Content)
			c.CheckedIn = strings.Contains(t.Content, CheckInQuestion) || c.FollowedUp
		}
	}
	c.Declined = declined
	return c
}

// levelIn is the level of a message of the conversation; a withheld one was risky.
func (m screens) levelIn(text string, c safety.Context) safety.Level {
	if text == Withheld {
		return max(safety.Possible, m.in(text, c).Level)
	}
	return m.in(text, c).Level
}

// isCheckIn says whether a reply was the check-in or the crisis reply, or carried the
// resources after a model-side signal.
func isCheckIn(reply string) bool {
	return HasResources(reply) || strings.Contains(reply, CheckInQuestion) || IsFollowUp(reply)
}

// guarded says whether nothing of a message may be tracked or quoted back: it shows a risk,
// possible or clear, given its context, or it answers a check-in (where a method, a means or
// a place may be named in words the screen does not know).
func (m screens) guarded(text string, c safety.Context) bool {
	return c.CheckedIn || m.levelIn(text, c) != safety.None
}

// userTurn is what the engine keeps of one user message.
type userTurn struct {
	text string
	// flagged turns are kept only as a count: nothing of them is tracked.
	flagged bool
	// sensitive is set when a sentence touched one of the user's sensitive topics; nothing
	// of such a sentence is tracked.
	sensitive bool
	items     []item
	// feelText is the text without its event nouns: a mention of an exam or a deadline is
	// not yet a feeling.
	feelText string
	// feelings are emotion labels, most mentioned first.
	feelings []string
	// denied are the items the message says it is not about ("not worried about the test,
	// it's my mum"): never its focus.
	denied []item
	// feelWord is the user's own word for their feeling ("empty"), when they gave one.
	feelWord string
	// kept is what a "not X, it's Y" sentence turns to ("its my mum"), plain; empty when
	// the message has no such sentence.
	kept string
}

// withoutEvents drops the event nouns of a text.
func withoutEvents(text string) string {
	words := strings.Fields(text)
	out := words[:0:0]
	for _, w := range words {
		if lemma, _, _ := eventLemma(plain(w)); lemma == "" {
			out = append(out, w)
		}
	}
	return strings.Join(out, " ")
}

// session is everything the engine derives from a Prompt. The engine is stateless: the
// session is rebuilt from the history on every call, and the history includes the engine's
// own earlier replies, which is how it knows what it already asked and suggested.
type session struct {
	profile  Profile
	memories []string
	// checkins are the recent mood check-ins; calm is set when the session has had no crisis
	// or safety turn, the only sessions where their pattern may be named.
	checkins []MoodCheckin
	calm     bool
	// turns are the user's messages, oldest first; the last one is the new message.
	turns []userTurn
	// replies are the engine's own earlier replies, oldest first, without fixed replies
	// (welcome, crisis reply) and notices.
	replies []string
	// said is every earlier assistant turn, for the rule that nothing is said twice.
	said []string
	// lastOwn is set when the last assistant turn is one of the engine's own replies (the
	// last of replies): the new reply follows it directly.
	lastOwn bool
	// seed makes every choice a function of the session's content.
	seed uint64
	// screens is the screen's results for this reply.
	screens screens
	// people are the people the user has mentioned so far, with what was said about them.
	people people
}

func newSession(p Prompt, m screens) *session {
	s := &session{profile: p.Profile, memories: p.Memories, checkins: p.Checkins, calm: p.Crises == 0 && !p.AfterCrisis, screens: m}
	h := fnv.New64a()
	var c safety.Context
	for _, t := range p.History {
		_, _ = h.Write([]byte(t.Role + "\x00" + t.Content + "\x00"))
		switch t.Role {
		case RoleUser:
			s.turns = append(s.turns, s.parse(t.Content, len(s.turns), c))
			c = safety.Context{Previous: m.levelIn(t.Content, c)}
		case RoleAssistant:
			s.said = append(s.said, t.Content)
			s.calm = s.calm && !isCheckIn(t.Content) && !IsFollowUp(t.Content)
			r, ok := ownReply(t.Content)
			if ok {
				s.replies = append(s.replies, r)
			}
			s.lastOwn = ok
			c.CheckedIn, c.FollowedUp = isCheckIn(t.Content), IsFollowUp(t.Content)
		}
	}
	_, _ = h.Write([]byte(p.Message))
	s.seed = h.Sum64()
	s.turns = append(s.turns, s.parse(p.Message, len(s.turns), c))
	s.samePeople()
	return s
}

// samePeople names a person the user gave both a relation and a name by the name in every
// turn ("your brother" is Aaron once "his name is aaron"), so one person is one thread.
func (s *session) samePeople() {
	if len(s.people.same) == 0 {
		return
	}
	for t := range s.turns {
		items := s.turns[t].items[:0]
		seen := map[string]bool{}
		for _, it := range s.turns[t].items {
			if it.kind == kindPerson {
				if c := s.people.canonical(it.key); c != it.key {
					if p := s.people.find(c); p != nil {
						it.key, it.short, it.full, it.plural = c, p.name, p.name, false
					}
				}
				if seen[it.key] {
					continue
				}
				seen[it.key] = true
			}
			items = append(items, it)
		}
		s.turns[t].items = items
	}
}

// ownReply strips the notices the chat path puts before a reply, and reports false for the
// fixed replies (the welcome, the crisis reply), which the engine did not write.
func ownReply(text string) (string, bool) {
	text = strings.TrimSpace(text)
	if strings.HasPrefix(text, Disclosure) {
		i := strings.Index(text, "\n\n")
		if i < 0 {
			return "", false
		}
		text = strings.TrimSpace(text[i+2:])
	}
	if text == "" || HasResources(text) || strings.Contains(text, "welcome to Percolate") ||
		IsFollowUp(text) || isCrisisAck(text) {
		return "", false
	}
	return text, true
}

// parse reads one user message, with the safety screen's context of the turns before it.
func (s *session) parse(text string, index int, c safety.Context) userTurn {
	if s.screens.guarded(text, c) {
		return userTurn{text: text, flagged: true}
	}
	u := userTurn{text: text}
	var own []string
	for _, sen := range sentences(text) {
		denied, kept, contrasted := contrast(sen)
		own = append(own, kept)
		if contrasted && u.kept == "" {
			u.kept = strings.TrimSpace(kept)
		}
		if mentionsAny(sen, s.profile.SensitiveTopics) {
			u.sensitive = true
			continue
		}
		var found []item
		for _, it := range extractItems(sen) {
			if mentionsAny(it.full, s.profile.SensitiveTopics) {
				continue
			}
			it.turn = index
			if contrasted && strings.Contains(denied, it.key) && !strings.Contains(kept, it.key) {
				u.denied = append(u.denied, it)
				continue
			}
			found = append(found, it)
		}
		u.items = append(u.items, found...)
		// The people the sentence is about, by a name in lower case or by "he" or "she",
		// are tracked as if named.
		for _, p := range s.people.read(sen, found, index) {
			if contrasted && strings.Contains(" "+denied+" ", " "+p.key+" ") && !strings.Contains(" "+kept+" ", " "+p.key+" ") {
				// "its less about jas and more about the group": not about Jas.
				u.denied = append(u.denied, item{kind: kindPerson, key: p.key, short: p.name, full: p.name, turn: index})
				continue
			}
			if !slices.ContainsFunc(u.items, func(it item) bool { return it.kind == kindPerson && it.key == p.key }) {
				u.items = append(u.items, item{kind: kindPerson, key: p.key, short: p.name, full: p.name, turn: index})
			}
		}
	}
	// What the user said it is not, and what others did, is not the user's feeling.
	u.feelText = withoutEvents(ownFeelingTextOf(strings.Join(own, ". "), s.people.keys()))
	u.feelings = DetectEmotions(u.feelText, 3)
	u.feelWord = ownFeelingWord(u.feelText)
	return u
}

// cur is the new message.
func (s *session) cur() userTurn { return s.turns[len(s.turns)-1] }

// tracked returns every item of the session once (its fullest naming), in order of first
// mention; days that belong to an event are left out.
func (s *session) tracked() []item {
	var out []item
	at := map[string]int{}
	for _, u := range s.turns {
		for _, it := range u.items {
			if it.kind == kindDay && it.attached {
				continue
			}
			k := kindKey(it)
			i, seen := at[k]
			if !seen {
				at[k] = len(out)
				out = append(out, it)
				continue
			}
			last := it.turn
			if len(it.full) > len(out[i].full) {
				out[i] = it
			}
			out[i].turn = last
		}
	}
	return out
}

func kindKey(it item) string {
	return string(rune('0'+int(it.kind))) + it.key // #nosec G115 -- it.kind is one of a handful of small constants
}

// feelings returns the session's emotion labels, most mentioned first; the new message is
// left out when earlier is set.
func (s *session) feelings(max int, earlier bool) []string {
	turns := s.turns
	if earlier {
		turns = turns[:len(turns)-1]
	}
	var b strings.Builder
	for _, u := range turns {
		if !u.flagged {
			b.WriteString(u.feelText + "\n")
		}
	}
	return DetectEmotions(b.String(), max)
}

// repliesSince counts the engine's replies after the last one that matched, or all of
// them when none did.
func (s *session) repliesSince(match func(string) bool) int {
	for i := len(s.replies) - 1; i >= 0; i-- {
		if match(s.replies[i]) {
			return len(s.replies) - 1 - i
		}
	}
	return len(s.replies)
}

// intent is what the new message asks of the engine.
type intent int

const (
	intentShare intent = iota
	intentShort
	intentGreeting
	intentClosing
	intentAdvice
	intentValidate
	intentAboutMe
	intentQuestion
)

var (
	reAdvice   = lazyre.MustCompile(`\b(what (should|do|can|could|would) i (do|try)|what would you do|what now|any (advice|tips|ideas|suggestions)|(give|got) (me )?(some |any )?(advice|tips)|how (do|can|should|would) i (deal|cope|handle|get through|stop|fix|manage|calm|make it|move on|prepare|start|survive|focus)|where (do|should) i (start|begin)|what should i (say|tell)|help me (figure|decide|out|with|plan))\b`)
	reValidate = lazyre.MustCompile(`\b(am i (over ?react\w*|being (dramatic|too sensitive|silly|stupid|crazy|unreasonable|ridiculous|petty|selfish|too much|irrational|overdramatic)|too sensitive|crazy|wrong( to feel| for feeling)?|overthinking|the problem)|is (it|this|that) (stupid|silly|dumb|weird|wrong|normal|okay|ok|bad|irrational|valid) (that|to|for me|if)|do you think im (overreacting|crazy|being dramatic|too sensitive|wrong)|should i be this (upset|worried|stressed|sad|angry|anxious)|is (that|this) (weird|normal|silly|valid))\b`)
	reAboutMe  = lazyre.MustCompile(`\b(are you (a |an )?(real|human|person|bot|robot|ai|machine|chatgpt|alive|conscious|sentient|therapist|counsell?or|doctor|psychologist)|(am i|are we) (talking|speaking|chatting) (to|with) (a |an )?(real|human|person|bot|robot|ai|machine)|is this (a |an )?(bot|ai|real person|human|therapy)|who are you|what are you|can you (diagnose|prescribe)|(can|could|will) you help( me)?$|do you (remember|know me|have feelings|get tired|care)|will you remember|can you remember|how are you|hows your day|what about you)\b`)
	reClosing  = lazyre.MustCompile(`\b(thanks|thank you|thank u|thx|ty|cheers|bye|goodbye|good night|goodnight|gotta go|got to go|gtg|have to go|need to go|talk (to you )?(later|soon|tomorrow)|see you|see ya|ttyl|ill (do|try) (that|it|this|those|them)|i will (do|try) (that|it|this)|im going to (do|try) (that|it|this)|ill give it a (try|go|shot)|(that|this) help(s|ed)|(that|this) was helpful|i feel (a bit |a little )?better)\b`)
	reNormal   = lazyre.MustCompile(`\b(is (it|this|that) (normal|okay|ok|weird|valid|common) (to|that|if|for me)|is (that|this|it) (weird|normal|valid|common)$|is it (normal|okay|ok) to (feel|get|be))\b`)
	reAccept   = lazyre.MustCompile(`\b(ill|i will|im going to) (do|try|give)\b`)
	reLeaving  = lazyre.MustCompile(`\b(bye|goodbye|good night|goodnight|gotta go|got to go|gtg|have to go|need to go|later|soon|see you|see ya|ttyl)\b`)
	reFollow   = lazyre.MustCompile(`\b(you know what i mean|does (that|this) make sense|make sense|you know)$`)
)

var noApostrophes = strings.NewReplacer("'", "", "’", "", "‘", "")

// plain lower-cases a message, drops apostrophes and turns other punctuation into spaces.
func plain(s string) string {
	s = noApostrophes.Replace(strings.ToLower(s))
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return !isWordRune(r) || r == '-' }), " ")
}

var shortKinds = map[string][]string{
	"unsure": {"idk", "dunno", "i dont know", "dont know", "not sure", "im not sure", "no idea", "hmm", "hm", "meh", "eh", "unsure", "who knows", "nothing", "i dont even know", "idk really", "not really sure"},
	"yes":    {"yeah", "yes", "yep", "yup", "ya", "yea", "kinda", "kind of", "sort of", "i guess", "maybe", "probably", "true", "right", "exactly", "definitely", "totally", "mhm", "mm", "yeah i guess", "i think so", "yes definitely"},
	"no":     {"no", "nah", "nope", "not really", "no not really", "not at all", "never", "nah not really"},
	"okay":   {"ok", "okay", "k", "kk", "sure", "fine", "alright", "cool", "i see", "got it", "okey", "ok then", "okay then"},
	"laugh":  {"lol", "haha", "hahaha", "lmao", "hehe", "ha", "lmfao", "rofl", "lol yeah", "haha yeah"},
	"sigh":   {"ugh", "ughh", "ughhh", "sigh", "urgh", "argh", "bleh", "oof", "welp", "ugh idk"},
}

// isShortWord reports whether w is one of the short replies ("Fine", "Sure"), which are
// never names.
func isShortWord(w string) bool {
	for _, list := range shortKinds {
		for _, x := range list {
			if x == w {
				return true
			}
		}
	}
	return false
}

// shortOrder is the order in which shortKinds are looked up by a message's first word.
var shortOrder = []string{"laugh", "sigh", "unsure", "yes", "no", "okay"}

// classify says what the new message asks for, with a detail (the kind of short reply, of
// question, of closing).
func classify(u userTurn) (intent, string) {
	n := plain(u.text)
	words := strings.Fields(n)
	question := strings.Contains(u.text, "?") && !planAfterQuestion(u.text) || reImplicitAsk.MatchString(reLeadFiller.ReplaceAllString(n, ""))
	var content []item
	for _, it := range u.items {
		if it.kind != kindDay {
			content = append(content, it)
		}
	}
	switch {
	case reAboutMe.MatchString(n):
		return intentAboutMe, aboutMeKind(n)
	case reAdvice.MatchString(n):
		return intentAdvice, ""
	case reNormal.MatchString(n):
		return intentValidate, "normal"
	case reValidate.MatchString(n):
		return intentValidate, ""
	case reClosing.MatchString(n) && len(words) <= 14 && len(content) == 0 && !question:
		switch {
		case reAccept.MatchString(n):
			return intentClosing, "accept"
		case reLeaving.MatchString(n):
			return intentClosing, "leave"
		}
		return intentClosing, "thanks"
	case len(words) <= 4 && len(words) > 0 && setOf("hi", "hey", "hello", "hiya", "yo", "heya", "sup", "morning", "evening", "howdy")[words[0]] && len(content) == 0:
		return intentGreeting, ""
	case len(words) <= 8 && len(words) > 0 && (words[0] == "hello" || words[0] == "hi") && len(content) == 0 && len(u.feelings) == 0:
		return intentGreeting, ""
	}
	for kind, list := range shortKinds {
		for _, x := range list {
			if n == x {
				return intentShort, kind
			}
		}
	}
	if len(words) > 0 && len(words) <= 3 && !question {
		// "haha yes", "nah not really": the first word says what kind of answer it is.
		for _, kind := range shortOrder {
			for _, x := range shortKinds[kind] {
				if words[0] == x && len(u.items) == 0 {
					return intentShort, kind
				}
			}
		}
	}
	if len(words) == 0 {
		return intentShort, "laugh"
	}
	if len(words) <= 3 && !question {
		switch {
		case len(u.feelings) > 0:
			return intentShort, "feeling"
		case len(u.items) == 0 || (len(words) == 1 && len(content) > 0):
			return intentShort, "word"
		}
		// "it's due Friday" says something: it is heard as a message.
	}
	if question && !reFollow.MatchString(n) {
		return intentQuestion, questionKind(n)
	}
	if reFollow.MatchString(n) {
		return intentShare, "follow"
	}
	return intentShare, ""
}

var (
	reTherapist = lazyre.MustCompile(`therap|counsell?or|doctor|psycholog|diagnose|prescribe`)
	reMemory    = lazyre.MustCompile(`remember|know me`)
	reSelf      = lazyre.MustCompile(`how are you|hows your day|what about you|feelings|get tired|care`)
)

func aboutMeKind(n string) string {
	switch {
	case reTherapist.MatchString(n):
		return "therapist"
	case reMemory.MatchString(n):
		return "memory"
	case reSelf.MatchString(n):
		return "self"
	case strings.Contains(n, "help"):
		return "help"
	}
	return "human"
}

var (
	reDecision = lazyre.MustCompile(`\bshould i\b|\bor should\b|\bdo i (tell|quit|stay|go)\b`)
	reWhy      = lazyre.MustCompile(`(^|\s)why\b`)
	reHope     = lazyre.MustCompile(`\b(will|is) (it|this|things|everything) (ever |going to |gonna )?(get|be) (better|easier|ok|okay|fine|alright)|\b(will|am) i (ever |going to |gonna )?(be|get|feel) (ok|okay|fine|alright|better)`)
	reOpinion  = lazyre.MustCompile(`\bwhat do you think\b|\byour (opinion|thoughts|take)\b|\bdo you think\b`)
)

func questionKind(n string) string {
	switch {
	case strings.HasPrefix(n, "what if "):
		return "whatif"
	case reHope.MatchString(n):
		return "hope"
	case reDecision.MatchString(n):
		return "decision"
	case reWhy.MatchString(n):
		return "why"
	case reOpinion.MatchString(n):
		return "opinion"
	}
	return "other"
}
