package safety

import (
	"strings"

	"github.com/percolate/percolate/backend/internal/companion/safety/internal/text"
)

// Answer is what a short message says, read as the answer to a question about risk (the
// check-in, or the follow-up after an unclear answer).
type Answer int

// The answers.
const (
	// NotAnAnswer is a message that is none of the others (or too long to be a short answer):
	// the screen's other layers decide.
	NotAnAnswer Answer = iota
	// Confirms says yes, or answers as only a yes would: a time ("tonight"), a means in hand
	// ("i have them"), something already done, how often ("every day"); and "no" to "are you
	// safe?".
	Confirms
	// Unclear neither confirms nor denies ("idk", "meh", "lol", "k", "maybe?", "not sure"):
	// it gets the gentle follow-up, never the crisis reply.
	Unclear
	// Denies says no, or that the user is fine.
	Denies
)

func (a Answer) String() string {
	switch a {
	case Confirms:
		return "confirms"
	case Unclear:
		return "unclear"
	case Denies:
		return "denies"
	default:
		return "not an answer"
	}
}

// ClassifyAnswer reads a message as the answer to a question about risk. askedSafe says the
// question was "are you safe?", to which "no" confirms the risk; every question the chat asks
// is about thoughts of harm, to which "no" denies it.
func ClassifyAnswer(raw string, askedSafe bool) Answer {
	if !shortReply(raw) && strings.TrimSpace(raw) != "" {
		return NotAnAnswer
	}
	t := strings.TrimSpace(text.Normalize(raw))
	switch {
	case denial.MatchString(t):
		return Denies
	case askedSafe && notSafe.MatchString(t):
		return Confirms
	case substantive(t):
		return Confirms
	case hedgedYes.MatchString(t) && !negatedHedge.MatchString(t):
		return Confirms
	case t == "" || unclearAnswer.MatchString(t):
		// Only emoji or punctuation ("👍", "..."), or only words of not knowing.
		return Unclear
	case bareNo.MatchString(t):
		return Denies
	case yesFirst.MatchString(t):
		return Confirms
	}
	return NotAnAnswer
}

// substantive reports whether normalised text is an answer that confirms a risk after any
// risky turn, not only after a question: a means in hand, something already done, where the
// user is ("at the bridge"), or, as the
// whole of a very short answer, a time or how often ("tonight", "every day"; "i passed my exam
// today" is no answer).
func substantive(t string) bool {
	if negatedSubstantive.MatchString(t) {
		return false
	}
	return actAnswer.MatchString(t) || len(strings.Fields(t)) <= 4 && timeAnswer.MatchString(t)
}

var (
	actAnswer  = rx(`\b(already( did| have| done| took)?|i did it|i (have|got|ve got) (them|it|some|enough)|all of them|the whole (pack|bottle|box|packet)|a plan|how many|how much it|still bleeding|wont stop bleeding|bleeding|(at|on|by|near|under) the (bridge|roof|rooftop|tracks|railway|station|platform|cliffs?|edge|ledge|river|sea|lake|car park|top floor))\b`)
	timeAnswer = rx(`\b(tonight|today|tomorrow|right now|soon|this (weekend|week|evening|morning|afternoon|time)|(on )?(monday|tuesday|wednesday|thursday|friday|saturday|sunday)|next (week|month)|every (day|night|morning|single day)|most (days|nights|of the time)|all the time|constantly|always|once|twice|a few times|many times|loads of times|last (night|week|month|year|time))\b`)
)

// negatedSubstantive is a substantive word said not to hold ("not tonight", "not today").
var negatedSubstantive = rx(`\bnot (right now|tonight|today|tomorrow|soon|always|anymore|all the time)\b|\b(never|havent|have not|didnt|did not) (already|done)\b`)

// hedgedYes is a yes said softly, as the answer itself: at the start, after at most a yes or
// a word of hesitation ("kind of", "yeah sort of"); "maybe itll help a bit" is no answer.
var hedgedYes = rx(`^ ?((yes|yeah|yea|yep|um+|uh+|hmm+|well|honestly|tbh|i mean|idk|i dont know|i guess) )*(i think so|i guess so|i suppose so|i think i am|kind of|kinda|sort of|sorta|a bit|a little|a lot|sometimes|probably|pretty much|more or less|i do sometimes|exactly what it sounds like|you could say that)\b`)

// negatedHedge is a hedge that says no ("probably not", "not a lot").
var negatedHedge = rx(`\b(probably|kind of|kinda|sort of|sorta|i think|i guess) not\b|\bnot (a bit|a lot|really|even a little)\b`)

// unclearAnswer is a message made only of words of not knowing, shrugging or acknowledging.
var unclearAnswer = rx(`^((idk|idek|dunno|i dunno|i dont know|i do not know|dont know|not sure|im not sure|i am not sure|unsure|no idea|maybe|maybe not|perhaps|possibly|meh|eh|ehh+|hm+|um+|uh+|er+|lol|lmao|lmfao|haha+|hah|k|kk|ok|okay|okk+|sure|whatever|who knows|hard to say|i guess|depends|it depends|idc|i mean|what|huh|sorry|tbh|honestly|like|ig|ngl|i dont really know|not really sure|why|shrug)( |$))+$`)

// bareNo says no without more.
var bareNo = rx(`^(no+|nope|nah+|naw|not really|probably not|i dont think so|not (tonight|today|now|right now)|never|no never|not at all|no im not|no i am not|im not|i am not|i dont|i do not|i havent|i have not|i didnt|i did not|not anymore)\b`)

// yesFirst is a message that starts with yes.
var yesFirst = rx(`^(yes+|yeah|yea|yep|yup|ya|yah|yh|ye|yas|mhm+|uh huh|i do|i am|i have|i did|true|correct|definitely|obviously|honestly yes)\b`)

// notSafe says no to "are you safe?".
var notSafe = rx(`^(no+|nope|nah+|not really|not (at all|exactly|totally|completely)|no im not|no i am not|im not|i am not|i dont think so|i dont feel safe|not safe|not when)\b`)
