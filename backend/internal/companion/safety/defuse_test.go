package safety

import "testing"

// Our own examples for the defusing layer (defuse.go), written for it, not taken from any
// evaluation set.

// TestDefusedGetNoCrisisReply: a strong phrase laughed off, taken back, told as a story, a game,
// a comparison, an impossible place, an exclamation before a mishap or an accident never gets
// the crisis reply; at most the check-in.
func TestDefusedGetNoCrisisReply(t *testing.T) {
	for _, m := range []string{
		"i cut my finger chopping onions, so much blood everywhere lol",
		"cut myself shaving and now theres so much blood on my collar",
		"the knife slipped while i was cutting the bread and it wont stop bleeding, does a plaster work",
		"im gonna jump off a bridge if my flatmate plays that song one more time jk",
		"honestly id throw myself off a cliff before i sit through another 3 hour seminar lol",
		"if i have to redo this lab report im killing myself 😂",
		"kms i forgot my laptop charger and the essay is due at 5",
		"kms my bus left 2 minutes early",
		"i want to die lmao my mum just liked my crush's photo",
		"gonna kill myself (joking) the wifi is down again",
		"i want to kill myself. not really, just tired of this module",
		"ill shoot myself into the sun if the fire alarm goes off at 3am again",
		"in the game i have to jump off a cliff to reach the next level",
		"in the play i have to pretend to hang myself in act 3 and im so nervous",
		"in my story i want to kill myself at the end of chapter one, is that too dark for a creative writing module",
	} {
		r := Screen(m, Context{})
		if r.Urgent() {
			t.Errorf("%q: got the crisis reply (%v %s)", m, r.Level, r.Category)
		}
	}
}

// TestLaughDoesNotDefuseRisk: an attempt under way, the means in hand, a plan or an intent with a
// time, a laugh in another sentence, an insistence that it is no joke (or half of one), a
// self-harm or past attempt told in plain words, "kms" before hopelessness,
// danger from someone else, and an "accident" that was none keep the crisis reply.
func TestLaughDoesNotDefuseRisk(t *testing.T) {
	for _, m := range []string{
		"i took all my pills lol",
		"swallowed the whole packet of paracetamol lol feeling weird now",
		"lol the rope is ready",
		"the pills are next to me lol, i want to die",
		"gonna kms tonight lol",
		"i want to kill myself tonight haha after everyone is asleep",
		"i want to die lol, ive written the note",
		"i want to kill myself, not even joking",
		"kms fr this time",
		"lost my self harm free streak lol, 40 days gone",
		"lol my flatmate got a puppy and its so cute honestly. he named it biscuit and it chews everything in the flat. i want to kill myself and ive decided how. anyway biscuit is asleep on my feet",
		"cut myself on purpose lol so much blood",
		"i cut myself again lol",
		"i tried to kill myself last year lol",
		"jk... unless? i want to die",
		"im only half joking when i say i want to die lol",
		"kms i cant do this anymore",
		"someone is following me home lol im scared",
		"i cut myself deep and it wont stop bleeding, its not an accident",
	} {
		r := Screen(m, Context{})
		if !r.Urgent() {
			t.Errorf("%q: want the crisis reply, got %v %s", m, r.Level, r.Category)
		}
	}
}

// TestDefusedStaysFlagged: a defused strong phrase still gets the check-in (recall is kept: only
// the reply's weight changes).
func TestDefusedStaysFlagged(t *testing.T) {
	for _, m := range []string{
		"i want to kill myself lol",
		"gonna kill myself (joking) the wifi is down again",
		"i cut myself chopping onions lol, so much blood for such a small cut, its fine now",
	} {
		if r := Screen(m, Context{}); r.Level != Possible || r.Category == Attempt {
			t.Errorf("%q: want the check-in, got %v %s", m, r.Level, r.Category)
		}
	}
}

// TestContextRuleIsNotDefused: after a check-in, a confirming answer with a laugh is still a
// confirmed risk.
func TestContextRuleIsNotDefused(t *testing.T) {
	if r := Screen("yeah lol", Context{CheckedIn: true, Previous: Possible}); !r.Urgent() {
		t.Errorf(`"yeah lol" after a check-in: want the crisis reply, got %v`, r.Level)
	}
}
