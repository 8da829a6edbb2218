package companion

import (
	"slices"
	"strings"
	"testing"
)

// Each comprehension rule and answer kind, on examples written for these tests (none is
// taken from the conversation benchmark).

func TestOfflineContrastFocusesOnWhatItIs(t *testing.T) {
	replies := converse(t, Profile{}, "My chemistry exam is next week.", "honestly i'm not stressed about the exam, it's my flatmate")
	got := replies[1]
	if !strings.Contains(got, "your flatmate") {
		t.Errorf("the focus is not the flatmate: %q", got)
	}
	if strings.Contains(got, "exam") && !strings.Contains(got, "not really") && !strings.Contains(got, "isn't") && !strings.Contains(got, "less the exam") {
		t.Errorf("the denied exam is the focus: %q", got)
	}
}

func TestOfflineNegatedFeelingIsNeverAttributed(t *testing.T) {
	for msg, denied := range map[string]string{
		"i'm not relieved, i just feel numb":      "relie",
		"not angry at all, more disappointed tbh": "angry",
		"i'm not excited, i'm just tired":         "excit",
	} {
		got := converse(t, Profile{}, "The results came out today.", msg)[1]
		if strings.Contains(strings.ToLower(got), denied) || strings.Contains(got, "calm") || strings.Contains(got, "went well") {
			t.Errorf("%q: the reply gives the denied feeling: %q", msg, got)
		}
	}
	got := converse(t, Profile{}, "The results came out today.", "i'm not relieved, i just feel numb")[1]
	if !strings.Contains(got, "numb") {
		t.Errorf("the user's own word is not heard: %q", got)
	}
}

func TestContrastSplitsDenialFromTurn(t *testing.T) {
	cases := []struct{ in, denied, kept string }{
		{"no its not that im tired of the work, its that nobody thanks me", "tired of the work", "its that nobody thanks me"},
		{"i'm not worried about the interview, it's the train", "interview", "its the train"},
	}
	for _, c := range cases {
		d, k, ok := contrast(c.in)
		if !ok || !strings.Contains(d, c.denied) || strings.TrimLeft(k, ", ") != c.kept {
			t.Errorf("contrast(%q) = %q, %q, %v", c.in, d, k, ok)
		}
	}
	if _, _, ok := contrast("i dont know what to do"); ok {
		t.Error("a plain negation read as a contrast")
	}
}

func TestOfflineThirdPersonIsNotTheUsersFeeling(t *testing.T) {
	for _, msg := range []string{"my flatmate is so angry about the bins", "she was really anxious before her driving test", "he's furious with everyone"} {
		u := (&session{}).parse(msg, 0, contextAfter(nil))
		if len(u.feelings) != 0 {
			t.Errorf("%q: feelings %v, want none of the user's", msg, u.feelings)
		}
	}
	u := (&session{}).parse("he ignored me and i'm so angry", 0, contextAfter(nil))
	if !slices.Contains(u.feelings, "anger") {
		t.Errorf("the user's own anger is lost: %v", u.feelings)
	}
}

func TestOfflineGoodNewsIsMetAsGoodNews(t *testing.T) {
	for _, msg := range []string{"i got the internship!!", "guess what, i passed my driving test", "the interview went really well actually"} {
		got := converse(t, Profile{}, "Results day is this week.", msg)[1]
		if !strings.Contains(got, "news") && !strings.Contains(got, "well done") && !strings.Contains(got, "Congratulations") {
			t.Errorf("%q: not met as good news: %q", msg, got)
		}
	}
	if got := converse(t, Profile{}, "Results day is this week.", "i didnt get the internship")[1]; strings.Contains(got, "Congratulations") {
		t.Errorf("bad news met as good news: %q", got)
	}
}

func TestOfflineCorrectionIsTakenUp(t *testing.T) {
	got := converse(t, Profile{}, "My sister keeps borrowing my charger.", "It's getting a bit annoying.", "no wait, it's not my sister, it's my brother")[2]
	if !strings.Contains(got, "your brother") {
		t.Errorf("the correction is not taken up: %q", got)
	}
}

func TestOfflineGoodbyeGetsAGoodbye(t *testing.T) {
	for _, bye := range []string{"ok gotta run, lecture in 5", "night x", "thanks, going to bed now", "laters"} {
		got := converse(t, Profile{}, "My essay is due on Friday.", "I've written about half of it.", bye)[2]
		if strings.Contains(got, "?") {
			t.Errorf("%q: the goodbye asks a question: %q", bye, got)
		}
		low := strings.ToLower(got)
		if !strings.Contains(low, "bye") && !strings.Contains(low, "take care") && !strings.Contains(low, "talk soon") && !strings.Contains(low, "come back") && !strings.Contains(low, "whenever") {
			t.Errorf("%q: no goodbye: %q", bye, got)
		}
	}
}

func TestOfflineCallbackResolvesAgainstTheSession(t *testing.T) {
	msgs := []string{
		"My housemate Tom never cleans up.",
		"And my dissertation deadline is in two weeks.",
		"I've barely started the literature review.",
		"going back to tom, he cooked dinner for everyone today",
	}
	got := converse(t, Profile{}, msgs...)[3]
	if !strings.Contains(got, "Tom") {
		t.Errorf("the callback to Tom is not resolved: %q", got)
	}
	if strings.Contains(got, "dissertation") {
		t.Errorf("the callback went to the latest thread: %q", got)
	}
}

func TestOfflineOpinionQuestionsGetABalancedAnswer(t *testing.T) {
	for _, ask := range []string{"should i tell my tutor my group partner isnt doing anything", "should i text her first or wait for her", "was it a mistake to drop the module"} {
		got := converse(t, Profile{}, "It's been a rough week.", ask)[1]
		if strings.Contains(got, "best guess") || strings.Count(got, "?") != 1 || !strings.HasSuffix(got, "?") {
			t.Errorf("%q: not an answer with one question back: %q", ask, got)
		}
		if n := len(strings.Fields(got)); n < 30 {
			t.Errorf("%q: %d words is not a substantive answer: %q", ask, n, got)
		}
		for _, bad := range []string{"you have depression", "you should take", "diagnos", "I'm a person"} {
			if strings.Contains(got, bad) {
				t.Errorf("%q: %q in %q", ask, bad, got)
			}
		}
	}
}

func TestOfflinePracticalQuestionsGetConcreteAnswers(t *testing.T) {
	cases := map[string]string{
		"how do i bring up the noise with my flatmate":    "calm moment",
		"any tips for nerves before my viva":              "breathe",
		"how do i ask my lecturer about a group member":   "factual",
		"how do i actually start when i keep putting off": "timer",
	}
	answersContain(t, "I've got a lot going on.", cases)
}

func TestOfflineSelfQuestionsGetHonestWarmAnswers(t *testing.T) {
	cases := map[string]string{
		"do you ever get bored of people offloading on you": "AI",
		"are you an actual person":                          "not a person",
		"do you remember me":                                "remember",
	}
	answersContain(t, "It's me again.", cases)
}

func TestMessageActReadsActs(t *testing.T) {
	cases := table(t, "acts")
	for msg, want := range cases {
		if got := MessageAct(msg, false); got != want {
			t.Errorf("MessageAct(%q) = %s, want %s", msg, got, want)
		}
	}
}

// The comprehension tests read the engine's reply, not the send path's: none of their
// messages may be one the crisis screen stops (a check-in would hide what they test).
func TestComprehensionExamplesAreNotScreened(t *testing.T) {
	for _, m := range []string{"Results day is this week.", "My sister keeps borrowing my charger.", "It's getting a bit annoying.",
		"My housemate Tom never cleans up.", "And my dissertation deadline is in two weeks.", "I've barely started the literature review.",
		"going back to tom, he cooked dinner for everyone today", "It's been a rough week.", "I've got a lot going on.", "It's me again.",
		"We got put in groups for the marketing module.", "nobody else has even opened the shared doc"} {
		if Screen(m) != RiskNone {
			t.Errorf("%q is screened: pick another example", m)
		}
	}
}

func TestOfflineTwoAnswersDoNotOpenAlike(t *testing.T) {
	replies := converse(t, Profile{}, "It's been a rough week.", "should i go to the society social or stay in", "should i text my cousin back tonight")
	if containsOneOf(replies[1], weighingLines) && containsOneOf(replies[2], weighingLines) {
		t.Errorf("two answers in a row open the same way:\n%q\n%q", replies[1], replies[2])
	}
}

func TestOfflineHearsTheSituationWithoutATrackedWord(t *testing.T) {
	got := converse(t, Profile{}, "We got put in groups for the marketing module.", "nobody else has even opened the shared doc")[1]
	if !containsOneOf(got, situations[0].lines) {
		t.Errorf("the situation is not heard: %q", got)
	}
}
