package companion

import "testing"

// Good news said as praise passed on, as relief, or as a plain good word for what happened,
// on examples written for this test.
func TestGoodNewsInOtherWords(t *testing.T) {
	for _, msg := range []string{
		"my supervisor said my draft was really strong",
		"the coach told me i was ready for the first team",
		"so im finally off the hook for the rota",
		"which was actually really sweet",
		"that's kind of lovely tbh",
	} {
		if a := MessageAct(msg, false); a != "good_news" {
			t.Errorf("%q read as %s, want good_news", msg, a)
		}
		if a := MessageAct(msg, true); a != "good_news" {
			t.Errorf("keyword baseline: %q read as %s, want good_news", msg, a)
		}
	}
	for _, msg := range []string{
		"which is why i never go",
		"she said my essay was not good enough",
		"which one should i pick?",
		"im not free till friday",
	} {
		if a := MessageAct(msg, false); a == "good_news" {
			t.Errorf("%q read as good news", msg)
		}
	}
}

func TestAStepDoneWithExcitementIsGoodNews(t *testing.T) {
	for _, msg := range []string{"update: finished the lab report!!", "finally handed it in!", "sent the email to my landlord!"} {
		if a := MessageAct(msg, false); a != "good_news" {
			t.Errorf("%q read as %s, want good_news", msg, a)
		}
	}
	for _, msg := range []string{"finished the lab report", "i wrote it but its bad!"} {
		if a := MessageAct(msg, false); a == "good_news" {
			t.Errorf("%q read as good news", msg)
		}
	}
}

func TestAGreetingBeforeAQuestionLeavesItAQuestion(t *testing.T) {
	for msg, want := range map[string]string{"hey do you remember what i told you": "self", "hi should i switch course": "opinion"} {
		if a := MessageAct(msg, false); a != want {
			t.Errorf("%q read as %s, want %s", msg, a, want)
		}
	}
}

func TestWhatOthersAssumeIsNoGoodNews(t *testing.T) {
	for _, msg := range []string{"my flatmates think im totally fine with it", "everyone assumes its all sorted now", "people expect im over it already"} {
		if a := MessageAct(msg, false); a == "good_news" {
			t.Errorf("%q read as good news", msg)
		}
	}
}

func TestGoingSomewhereIsNoGoodbye(t *testing.T) {
	if a := MessageAct("the climbing club meets on thursdays, maybe i should go", false); a == "goodbye" {
		t.Errorf("going to a club read as a goodbye")
	}
	if a := MessageAct("ok i should go", false); a != "goodbye" {
		t.Errorf("a short 'i should go' is a goodbye, read as %s", a)
	}
}
