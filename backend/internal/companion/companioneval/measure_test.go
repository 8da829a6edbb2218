package companioneval

import (
	"strings"
	"testing"
	"time"
)

// A hand-made run: each figure counts what its reply did.
func TestFiguresCountWhatTheRepliesDid(t *testing.T) {
	turn := func(user string, e Expect, reply string) Exchange {
		return Exchange{Turn: Turn{User: user, Expect: e}, Reply: reply, Engine: true, Elapsed: time.Millisecond}
	}
	run := Run{Conv: Conversation{ID: "t"}, Exchanges: []Exchange{
		{Turn: Turn{User: "hey"}, Reply: "Welcome."},
		turn("my sister keeps borrowing my car without asking", Expect{Focus: "sister"}, "That sounds like a lot. How are you?"),
		turn("i'm not angry at her, more at my dad for letting her", Expect{Focus: "dad", NotFeeling: "angry at sister"}, "So your sister makes you angry."),
		turn("should i say something to him", Expect{Answer: true, Kind: "opinion"}, "What's your own best guess?"),
		turn("going back to the car thing", Expect{Callback: "car"}, "The car keeps coming up. It sounds like the car matters to you."),
		turn("i got the job!!", Expect{GoodNews: true}, "That's great news, well done on the job."),
		turn("ok gotta go", Expect{Goodbye: true}, "Take care, talk soon."),
	}}
	var f Figures
	f.AnsweredByKind = map[string][2]int{}
	f.add(run)
	checks := []struct {
		name      string
		got, want int
	}{
		{"engine replies", f.EngineReplies, 6},
		{"generic", f.Generic, 2},
		{"questions answered", f.Answered, 0},
		{"questions", f.Questions, 1},
		{"callbacks resolved", f.Resolved, 1},
		{"negations kept", f.Kept, 0},
		{"misread", f.Misread, 1},
		{"good news met", f.MetGood, 1},
		{"goodbyes", f.SaidBye, 1},
		{"repeated sentences", f.RepeatedSentences, 0},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %d, want %d", c.name, c.got, c.want)
		}
	}
}

// The tuning half loads and every conversation has 10–20 turns.
func TestTuningHalfLoads(t *testing.T) {
	convs, err := Load("data", Tuning)
	if err != nil || len(convs) < 20 {
		t.Fatalf("Load = %d, %v", len(convs), err)
	}
	for _, c := range convs {
		if n := len(c.Turns); n < 10 || n > 20 || strings.TrimSpace(c.ID) == "" {
			t.Errorf("%s: %d turns", c.ID, n)
		}
	}
}

// Misses names, reply by reply, the checks the figures count against it.
func TestMissesNameWhatEachReplyMissed(t *testing.T) {
	turn := func(user string, e Expect, reply string) Exchange {
		return Exchange{Turn: Turn{User: user, Expect: e}, Reply: reply, Engine: true}
	}
	run := Run{Exchanges: []Exchange{
		{Turn: Turn{User: "hey"}, Reply: "Welcome."},
		turn("my sister keeps borrowing my car", Expect{Focus: "sister"}, "That sounds like a lot. How are you?"),
		turn("going back to the car thing", Expect{Callback: "car"}, "The car keeps coming up, and it matters."),
		turn("should i say something to him", Expect{Answer: true, Kind: "opinion"}, "What's your own best guess?"),
		turn("idk", Expect{}, "Who else knows about the car?"),
		turn("my sister again", Expect{}, "The car keeps coming up, and it matters. I'm listening."),
	}}
	got := Misses(run, true)
	want := []string{"", "generic, focus", "", "generic, answer", "structure:question",
		"repeat:the car keeps coming up and it matters"}
	for i := range want {
		if s := strings.Join(got[i], ", "); s != want[i] {
			t.Errorf("exchange %d: missed %q, want %q", i, s, want[i])
		}
	}
}

// The variety and arc figures: structures in a row, reply length after a very short turn,
// and the arc's focus, step and close.
func TestFiguresCountVarietyAndArc(t *testing.T) {
	turn := func(user string, e Expect, reply string) Exchange {
		return Exchange{Turn: Turn{User: user, Expect: e}, Reply: reply, Engine: true, Elapsed: time.Millisecond}
	}
	run := Run{Conv: Conversation{ID: "t"}, Exchanges: []Exchange{
		{Turn: Turn{User: "hey"}, Reply: "Welcome."},
		turn("my exam is on friday and im panicking", Expect{}, "It sounds like your exam is on your mind. How ready do you feel?"),
		turn("not at all ready, i havent started revising", Expect{}, "That sounds stressful. What would help this week?"),
		turn("yeah", Expect{}, "What part feels biggest?"),
		turn("the maths part, and my mum keeps asking about it", Expect{}, "So far I'm hearing that your exam and your mum are on your mind. Does that sound right?"),
		turn("ya", Expect{}, "Is it louder in the mornings?"),
		turn("ok bye", Expect{Goodbye: true}, "One thing to take with you: the stress around your exam makes sense, and you don't have to sort it all out at once. Goodbye for now."),
	}}
	var f Figures
	f.AnsweredByKind = map[string][2]int{}
	f.add(run)
	checks := []struct {
		name      string
		got, want int
	}{
		// reflect+question, reflect+question (same), question, reflect+summary+question,
		// question, close+bye: the welcome is no engine reply, so five pairs.
		{"pairs", f.Pairs, 5},
		{"same structure in a row", f.SameStructure, 1},
		{"very short turns", f.ShortTurns, 2},
		{"words after very short turns", f.ShortWords, 4 + 6},
		{"other turns", f.OtherTurns, 3},
		{"sessions reaching a focus", f.ReachFocus, 1},
		{"sessions reaching a step", f.ReachStep, 0},
		{"goodbyes closed", f.Closed, 1},
		{"sessions with a goodbye", f.Closable, 1},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %d, want %d", c.name, c.got, c.want)
		}
	}
}
