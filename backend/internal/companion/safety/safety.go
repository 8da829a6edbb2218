// Package safety is the crisis screen: it decides, without any network, whether a message
// shows a clear risk (suicide, self-harm, abuse or immediate danger), a possible one, or none,
// reading the message with what came just before it.
//
// It reads a message in layers: normalisation (case, leetspeak, typos, algospeak, a few
// emoji; internal/text), the false-alarm layer that sets aside idioms, denied risk, recovery in
// the past tense and bare mentions of the topic (text.Mask), the context rule (a short answer
// after a check-in or a risky message), high-precision rules, and a learned scorer (internal/
// model: logistic regression over hashed word n-grams, negated words and character n-grams,
// trained by ./gen on the tuning half of the labelled set and training/, embedded as
// scorer.bin), which also scores each sentence of a long message. The lexicon's strong words
// (dying, a means, a high place, hurting oneself, abuse) let the scorer alone make a message a
// clear risk; with only weak ones (times, plans, "again") it gives at most the check-in, and
// not when the scorer is unsure and the everyday scorer, trained also on thousands of everyday
// sentences, is near sure the message is harmless. A possible risk on the scorer's word alone
// (no strong word, rule, hopelessness phrase or context rule) also needs a risk cue (cue.go:
// a broad lexicon of the levels of the Columbia scale, burden, entrapment, goodbyes, self-harm,
// eating-disorder danger, abuse and an attempt under way, written from clinical knowledge) or a
// near-certain score: the scorer alone otherwise interrupts everyday talk. Last, the defusing layer
// (defuse.go) gives the check-in rather than the crisis reply to a phrase of suicide laughed off
// or taken back, or told as a story, a comparison or an accident, unless an attempt, the means,
// a plan or an intent also shows. Thresholds were chosen by
// cross-validation on the tuning half only (cv_test.go); the held-back half is never read here.
package safety

import (
	_ "embed"

	"github.com/percolate/percolate/backend/internal/companion/safety/internal/model"
)

// Level is how sure the screen is that a message shows risk; each level has its own reply.
type Level int

// The levels, by tier of response.
const (
	None     Level = iota // neither resources nor a check-in
	Possible              // a gentle, direct check-in together with the resources
	Clear                 // the crisis reply with the resources
)

func (l Level) String() string {
	switch l {
	case Possible:
		return "possible"
	case Clear:
		return "clear"
	default:
		return "none"
	}
}

// Category is the kind of risk a message shows.
type Category string

// The categories. Each gets its own reply (package companion), so a risky message maps to the
// one whose answer it needs: an attempt under way needs the emergency number first, a sexual
// assault a line for it, a child at risk at home child-protection lines.
const (
	Suicide        Category = "suicide"
	Attempt        Category = "attempt" // an attempt in progress, or the means in hand
	SelfHarm       Category = "self_harm"
	SexualAssault  Category = "sexual_assault"
	Abuse          Category = "abuse"
	Child          Category = "child" // a child or teenager at risk from an adult
	EatingDisorder Category = "eating_disorder"
	Danger         Category = "danger"
)

// Context is what the screen knows about the turns just before the message.
type Context struct {
	// Previous is the level of the user's previous message in the session.
	Previous Level
	// CheckedIn is true when the companion's previous reply asked about risk: the check-in or
	// the follow-up.
	CheckedIn bool
	// FollowedUp is true when that reply was the follow-up to an unclear answer: a second
	// unclear answer is not asked again (see ClassifyAnswer).
	FollowedUp bool
	// AskedSafe is true when the question was "are you safe?", to which "no" confirms the
	// risk. The chat never asks it; a labelled conversation may.
	AskedSafe bool
	// Declined is true when, earlier in the session, the student answered a check-in with
	// anything but a yes: a no, or a message that moved on. The send path then answers a weak
	// signal (Result.Weak) as an ordinary message rather than asking again (see Asks); the screen
	// itself does not read it.
	Declined bool
}

// Asks reports whether a result gets the check-in or the crisis reply in a context: every
// risk does, but a weak signal in a session whose check-in the student has declined. An
// attempt under way always does.
func (c Context) Asks(r Result) bool {
	return r.Risky() && !(c.Declined && r.Weak && !r.Urgent() && !r.Unclear)
}

// FollowsRisk reports whether the message follows a check-in, the crisis reply or a risky
// message. It is all the screen asks of a context: a message's screen in a context where it is
// false is its screen on its own (Context{}), so a send can screen a message before it knows
// the turns before it.
func (c Context) FollowsRisk() bool { return c.CheckedIn || c.Previous != None }

// Result is what the screen decided about one message.
type Result struct {
	Level    Level
	Category Category // set when Level is not None
	// Unclear is set for an unclear answer to a question about risk ("idk", "meh"): a possible
	// risk that gets the gentle follow-up rather than the check-in.
	Unclear bool
	// Weak is set for a possible risk on the learned scorer's word alone, in a message without a
	// strong word of the lexicon (no dying, means, high place, hurting oneself or abuse): the
	// signal a session whose check-in the student already answered no, or moved on from,
	// is not asked about again (see Context.Declined).
	Weak bool
}

// Risky reports whether the message gets the resources (either tier).
func (r Result) Risky() bool { return r.Level != None }

// Urgent reports whether the message gets the crisis reply rather than the check-in: a clear
// risk, or a possible one that tells of an attempt under way or the means in hand, where
// asking first would delay the emergency number.
func (r Result) Urgent() bool {
	return r.Level == Clear || r.Level == Possible && r.Category == Attempt
}

// Screen decides the level of risk a message shows, given its context. It errs towards care.
// The layers, in order: normalisation and the false-alarm layer (text.Mask), the context rule,
// the high-precision rules, then the learned scorer on the whole message and on its sentence
// windows (see screener.screen).
func Screen(text string, c Context) Result { return defaultScreener.screen(text, c) }

//go:generate go run ./gen

// scorerModel is the two learned scorers' weights, one after the other (the same size each),
// written by ./gen: the scorer, trained on the tuning half of the labelled set and the training
// corpus in training/, and the everyday scorer, trained also on outside sets of everyday and
// figurative sentences (training/external; see screener.ev).
//
//go:embed scorer.bin
var scorerModel []byte

// defaultScreener is the shipped screen: both scorers, with the thresholds and the everyday
// scorer's gate chosen by cross-validation (see defaultThresholds).
var defaultScreener = func() *screener {
	half := len(scorerModel) / 2
	m, err := model.Decode(scorerModel[:half])
	if err != nil {
		panic("safety: " + err.Error())
	}
	ev, err := model.Decode(scorerModel[half:])
	if err != nil {
		panic("safety: " + err.Error())
	}
	return &screener{m: m, ev: ev, th: defaultThresholds}
}()
