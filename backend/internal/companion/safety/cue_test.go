package safety

import (
	"testing"

	"github.com/percolate/percolate/backend/internal/companion/safety/internal/text"
)

// ordinaryTalk is everyday student talk written for this test (not taken from any evaluation
// set): homesickness, flatmates, money, sleep, small injuries. Several of these the learned
// scorer alone scores above its cut-off, with no word that tells of risk.
var ordinaryTalk = []string{
	"everyone in my flat goes out every night and i just stay in",
	"i left my keys inside again and had to wait for the warden",
	"my mum keeps asking when im coming back",
	"nobody on my floor says hi in the kitchen",
	"my parents want me to come home and help at the shop over summer",
	"the heating in my room makes a noise all night and i cant sleep",
	"i feel bad spending my parents money on rent here",
	"my cat back home is getting old and i wont be there",
	"i keep waking up at 5am for no reason",
	"the recruiter said theyd call back and never did",
	"i keep losing my stuff, yesterday it was my student card",
	"its quiet in my room, everyone went home for the weekend",
	"i wont be home for my brothers birthday this year",
	"i bruised my knee on the stairs in the dark",
	"my housemate moved out and left me with all the bills",
	"i stayed in bed all sunday and watched films",
	"got my first paycheck from the cafe, took ages to come through",
	"my landlord still hasnt fixed the boiler, cold showers again",
	"its so cold here, i wear three jumpers indoors",
}

// TestCueGateLeavesOrdinaryTalkAlone: with the gate at cueGate, a possible risk on the scorer's
// word alone, with no risk cue, is no risk; with the gate open (as shipped), the scorer alone
// flags some of the same messages.
func TestCueGateLeavesOrdinaryTalkAlone(t *testing.T) {
	gated, open := *defaultScreener, *defaultScreener
	gated.th.uncued, open.th.uncued = cueGate, 0
	opened := 0
	for _, msg := range ordinaryTalk {
		if r := gated.screen(msg, Context{}); r.Risky() {
			t.Errorf("%q: %v %q, want no risk", msg, r.Level, r.Category)
		}
		if open.screen(msg, Context{}).Risky() {
			opened++
		}
	}
	if opened == 0 {
		t.Error("with the cue gate open, the scorer flags none of the ordinary messages: the test no longer tries the gate")
	}
}

// TestCueGateKeepsRiskToldWithoutStrongWords: risk told without a strong word of the lexicon
// (burden, a high place, abuse at night, a future not pictured, preparation, a calm goodbye, a
// wish not to wake) is still flagged, each through a cue.
func TestCueGateKeepsRiskToldWithoutStrongWords(t *testing.T) {
	gated := *defaultScreener
	gated.th.uncued = cueGate
	for _, msg := range []string{
		"everyone would honestly be happier if i wasnt in the picture",
		"im at the top of the multi storey by the station looking down",
		"my stepbrother comes into my room at night and i dont know what to do",
		"i cant picture myself alive next year",
		"gave my passwords to my best friend and told him what to do with my accounts",
		"sometimes i hope i just dont wake up tomorrow",
		"its my last night here, i made my peace with it",
	} {
		if r := gated.screen(msg, Context{}); !r.Risky() {
			t.Errorf("%q: none, want a risk", msg)
		}
		if !hasRiskCue(text.Mask(msg).Text) {
			t.Errorf("%q: no risk cue", msg)
		}
	}
}

// TestRiskCue: the cues of each kind, and the everyday senses of their words that are none.
func TestRiskCue(t *testing.T) {
	for msg, want := range map[string]bool{
		// Cues, one of each kind.
		"i just want to stop existing":                      true, // a wish to be dead
		"thinking about ending it":                          true, // thoughts
		"how high would a fall need to be":                  true, // a method sought
		"ive got everything i need now":                     true, // means gathered
		"picked the date":                                   true, // a plan
		"this is my last weekend":                           true, // a time
		"sorry for everything":                              true, // a goodbye
		"they would be better off if i wasnt around":        true, // burden
		"there is no way out of this":                       true, // entrapment
		"i just dont see the point of anything":             true, // hopelessness
		"i only eat one apple a day":                        true, // restriction
		"he said if i tell anyone hell hurt my sister":      true, // abuse
		"i dont want live anymore":                          true, // a learner's English
		"lowkey the big sleep sounds nice":                  true, // slang
		"im standing on the wrong side of the railing":      true, // a high place
		"ive taken the whole box of my mums sleeping pills": true, // an attempt
		// Everyday senses, accidents and ordinary talk: no cue.
		"she cut me off after the argument":         false,
		"i cut back on coffee this week":            false,
		"i cut my finger chopping onions":           false,
		"i bruised my shin at hockey":               false,
		"used a whole box of tissues on this cold":  false,
		"we went to an escape room":                 false,
		"fasting for ramadan makes lectures hard":   false,
		"my dad takes pills for his blood pressure": false,
		"the seminar was fine, see you tomorrow":    false,
		"made a meal prep list for the week":        false,
	} {
		if got := hasRiskCue(text.Mask(msg).Text); got != want {
			t.Errorf("hasRiskCue(%q) = %v, want %v", msg, got, want)
		}
	}
}
