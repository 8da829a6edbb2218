package companion

import (
	"strings"
	"testing"
)

func TestCorrectedToSaysWhatIsRight(t *testing.T) {
	names := map[string]bool{"jonah": true}
	for in, want := range map[string]string{
		"no wait, it was jonah who booked it":                                      "it was Jonah who booked it",
		"no sorry, not the flat, my landlord wants the keys back":                  "your landlord wants the keys back",
		"actually the real issue is i never asked for help":                        "you never asked for help",
		"no sorry, i mean im rubbish at it but the thing is my dad keeps watching": "your dad keeps watching",
		"nah its more that i didnt get a say":                                      "you didn't get a say",
		"no wait, not monday":                                                      "",
	} {
		if got := correctedTo(in, names); got != want {
			t.Errorf("correctedTo(%q) = %q, want %q", in, got, want)
		}
	}
}

// A correction with no "not X, it's Y" shape is still taken up: the reply says back what is
// right, never the part taken back.
func TestOfflineCorrectionWithoutContrastIsTakenUp(t *testing.T) {
	for _, c := range []struct{ before, fix, want, never string }{
		{"my flatmate jonah booked the wrong train", "no wait, it was me who booked it", "you who booked it", ""},
		{"the gig is on friday", "no wait its saturday, i checked", "saturday", "not saturday"},
		{"me and priya had a big argument", "well not an argument. more like she went quiet and i left", "she went quiet", ""},
	} {
		got := converse(t, Profile{}, c.before, c.fix)[1]
		low := strings.ToLower(got)
		if !strings.Contains(low, c.want) || c.never != "" && strings.Contains(low, c.never) {
			t.Errorf("%q: reply %q, want %q in it", c.fix, got, c.want)
		}
	}
}

func TestRestatedCallbackSaysItBack(t *testing.T) {
	for in, want := range map[string]string{
		"like i said, i'm not angry with him":       "you're not angry with him",
		"as i said before its not about the money":  "it's not about the money",
		"going back to the flat":                    "",
		"like i said about priya, she means well":   "",
		"like i said earlier i love my course, tbh": "you love your course",
	} {
		if got := restated(in); got != want {
			t.Errorf("restated(%q) = %q, want %q", in, got, want)
		}
	}
	// "like i said about X" points back to X: the reply says what was said about them.
	about := converse(t, Profile{}, "my flatmate Priya borrows my charger every day", "i have an essay due on thursday", "like i said about priya, i might ask her tonight")[2]
	if !strings.Contains(about, "Priya") || strings.Contains(about, "said that before: about") {
		t.Errorf("the callback to Priya is not resolved: %q", about)
	}
	got := converse(t, Profile{}, "my flatmate ollie keeps eating my food", "i moved my stuff to my room", "like i said, it's not about the food really")[2]
	if !strings.Contains(got, "not about the food") {
		t.Errorf("the restated callback is not said back: %q", got)
	}
}

func TestAHardFeelingWordIsNoGoodNews(t *testing.T) {
	for _, msg := range []string{"ok maybe a bit gutted", "honestly kind of disappointed now", "i feel sort of empty today"} {
		if a := MessageAct(msg, false); a == "good_news" {
			t.Errorf("%q read as good news", msg)
		}
	}
	got := converse(t, Profile{}, "i got the part in the play!!", "ok maybe a bit disappointed it's not the lead")[1]
	if containsOneOf(got, goodNewsTopic, goodNewsPlain) {
		t.Errorf("a disappointment met as good news: %q", got)
	}
}

// An opinion question about saying something to someone gets the practical answer on how to
// say it when that answer is nearer; a question about pulling grades back gets an answer on
// grades, not one on learning a skill.
func TestOpinionQuestionsGetTheNearestAnswer(t *testing.T) {
	got := pickAnswers(actOpinion, "do you think i should tell my dad to stop checking up on me or is that harsh", false, 0.65)
	practical := false
	for _, x := range answers {
		practical = practical || x.kind == actPractical && len(got) > 0 && x.text[0].src == got[0][0].src
	}
	if !practical {
		t.Errorf("no answer on how to say it: %v", got)
	}
	got = pickAnswers(actOpinion, "is it too late to get my marks up this semester", false, 0.65)
	if len(got) == 0 || !strings.Contains(got[0][0].src, "marked") {
		t.Errorf("no answer on grades: %v", got)
	}
}
