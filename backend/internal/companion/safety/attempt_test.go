package safety

import "testing"

// TestAttemptsUnderWayToldOtherWays: an attempt under way told by a dose in strips or a
// medicine's name, pills with a drink, learners' English, the pills felt working, a cut too
// deep with its signs, a high place with a farewell, the car in a closed garage or a fall
// survived gets the emergency number first (an Urgent Attempt). The phrasings were written for
// this test, not taken from any evaluation set.
func TestAttemptsUnderWayToldOtherWays(t *testing.T) {
	for _, msg := range []string{
		"just swallowed 25 of my sertraline",
		"took like 3 strips of my sleeping tablets",
		"popped all my pills, feeling dizzy now",
		"i took a whole bottle of vodka and all my pills",
		"i ate a whole pack of pills",
		"i take many pills now, i feel bad",
		"i was take all my medicine, i feel strange",
		"i have eat all tablets in my room",
		"i drink poison, sorry",
		"i od'd like an hour ago and now im scared",
		"downed the lot, bye",
		"its done. i took them. goodbye",
		"i can feel the pills kicking in",
		"i cut too deep and it wont stop",
		"the cut is really deep, i can see fat",
		"i think i need stitches, i went too deep",
		"im on the edge of the roof, dont try to stop me",
		"standing at the edge, this is it",
		"im sitting on the rail of the bridge",
		"i ran the car in the garage, door is shut",
		"i jumped but im still alive and i cant move",
		"just necked the whole box of paracetamol lol",
		"chugged all my meds with vodka",
	} {
		if r := Screen(msg, Context{}); r.Category != Attempt || !r.Urgent() {
			t.Errorf("%q: %v %q, want an urgent attempt", msg, r.Level, r.Category)
		}
	}
	// The same words in everyday talk, someone else's medicine, or a dose as prescribed: no rule
	// makes them an attempt. (Screened with the cue gate at cueGate: as shipped, with the gate off,
	// the scorer alone still flags "took the whole day off" as a possible attempt.)
	gated := *defaultScreener
	gated.th.uncued = cueGate
	for _, msg := range []string{
		"took 2 paracetamol for my headache",
		"i took my meds this morning like always",
		"my grandad took all his tablets at breakfast",
		"the rope swing is ready at the lake",
		"cut too deep into the cake lol",
		"i went way too deep down the wikipedia rabbit hole",
		"i can see the fat on my stomach in this photo",
		"i ate a whole pack of biscuits",
		"took the whole day off",
		"i feel the painkillers working after the dentist",
		"necked a pint after the match",
		"chugged a whole bottle of water after the run",
	} {
		if r := gated.screen(msg, Context{}); r.Category == Attempt {
			t.Errorf("%q: %v %q, want no attempt", msg, r.Level, r.Category)
		}
	}
}
