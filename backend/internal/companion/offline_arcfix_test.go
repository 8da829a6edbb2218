package companion

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// Examples written for these tests, the way students type; none is taken from the
// conversation benchmark.

// Good news needs good news: a message near the good-news examples in shape but saying
// something hard is no good news, alone or after good news.
func TestGoodNewsNeedsGoodNews(t *testing.T) {
	for _, msg := range []string{
		"i think its because i dont want her to see how behind i am",
		"i guess i just feel really behind everyone else…",
		"its been really hard at home",
		"i just dont want to let them down again",
		"tbh i think im the only one who hasnt got it sorted",
	} {
		if a := MessageAct(msg, false); a == "good_news" {
			t.Errorf("%q read as good news", msg)
		}
	}
	replies := converse(t, Profile{}, "my mum keeps asking about my grades",
		"i think its because i dont want her to see how behind i am",
		"i guess i just feel really behind everyone else…")
	for i, r := range replies {
		if containsOneOf(r, goodNewsTopic, goodNewsPlain, goodNewsQ) || strings.Contains(r, "good to hear") {
			t.Errorf("reply %d met a hard message as good news: %q", i, r)
		}
	}
	// After good news, a hard message is not carried along as more good news.
	replies = converse(t, Profile{}, "I PASSED my driving test!!", "but its been really hard at home since")
	if containsOneOf(replies[1], goodNewsTopic, goodNewsPlain) {
		t.Errorf("a hard message after good news met as good news: %q", replies[1])
	}
	// Good news still is.
	for _, msg := range []string{"going out for pizza with jess tonight to celebrate", "i got the internship!!"} {
		if a := MessageAct(msg, false); a != "good_news" {
			t.Errorf("%q read as %s, want good_news", msg, a)
		}
	}
}

// situationNamed is the situation whose first example is ex.
func situationNamed(t *testing.T, ex string) *situation {
	t.Helper()
	for i := range situations {
		if situations[i].examples[0] == ex {
			return &situations[i]
		}
	}
	t.Fatalf("no situation %q", ex)
	return nil
}

// A situation's lines are said only when the session is about it: homesickness never comes
// up for a group project or parents separating, a drifting friendship never for a group
// project, a fight with a friend never for a noisy flatmate.
func TestSituationLinesOnlyWhenTheSessionIsAboutIt(t *testing.T) {
	homesick := situationNamed(t, "i miss home so much")
	drift := situationNamed(t, "my school friends and i are drifting apart")
	fight := situationNamed(t, "my friend and i had a fight")
	for _, c := range []struct {
		msgs  []string
		wrong []*situation
	}{
		{[]string{"ugh group project drama again", "nobody replies to my messages and the deadline is monday",
			"i feel like im doing everything myself tbh", "idk what to do", "i just want it to be over"}, []*situation{homesick, drift}},
		{[]string{"my parents told me theyre separating", "i just feel kind of numb about it",
			"its weird thinking about christmas now", "i dont really know where ill stay", "everything feels different"}, []*situation{homesick}},
		{[]string{"so my flatmate plays music till 3am", "ive asked him twice already", "im so tired all the time now",
			"i dont want to make it awkward", "we used to get on fine"}, []*situation{homesick, fight}},
	} {
		replies := converse(t, Profile{}, c.msgs...)
		for i, r := range replies {
			for _, sit := range c.wrong {
				if containsOneOf(r, sit.lines, sit.again, sit.questions) {
					t.Errorf("%q got another situation's line (%s): %q", c.msgs[i], sit.examples[0], r)
				}
			}
		}
	}
	// The session's own situation is still heard without its word in the last message.
	replies := converse(t, Profile{}, "i miss home so much", "everyone here already has their friends", "i just sit in my room most nights")
	own := false
	for _, r := range replies[1:] {
		own = own || containsOneOf(r, homesick.lines, homesick.again, homesick.questions)
	}
	if !own {
		t.Errorf("a homesick session never got a homesickness line: %q", replies)
	}
}

// A phrase said back ends on a noun: the gist is cut before a preposition, an adverb, an
// -ing verb or a person's verb, and a slot filled with a broken phrase makes no line.
func TestGistEndsOnANounPhrase(t *testing.T) {
	for in, want := range map[string]string{
		"i cant do anything with my phone without checking it": "your phone",
		"my flatmate plays music till 3am":                     "your flatmate",
		"my phone ringing all night is the worst":              "your phone",
		"my sister whenever she visits":                        "your sister",
		"our tutor anymore tbh":                                "your tutor",
		"i hate the group meeting":                             "the group meeting",
		"my driving test":                                      "your driving test",
	} {
		if got := gistOf(in); got != want {
			t.Errorf("gistOf(%q) = %q, want %q", in, got, want)
		}
	}
	q := gistQ[0]
	if q.fits(map[string]string{"gist": "your phone without"}) {
		t.Errorf("a line fits a slot filled with a broken phrase")
	}
	if !q.fits(map[string]string{"gist": "your phone"}) {
		t.Errorf("a line does not fit a noun phrase")
	}
	msgs := []string{"i cant focus on anything with my phone without checking it", "ugh group project drama again", "its all just a lot"}
	for i, r := range converse(t, Profile{}, msgs...) {
		low := strings.ToLower(r)
		for _, bad := range []string{"phone without", "ugh group", " without at", " without?"} {
			if strings.Contains(low, bad) {
				t.Errorf("%q: reply says a broken phrase %q: %q", msgs[i], bad, r)
			}
		}
	}
}

// One person given a relation and a name is one person: never "your brother or Aaron?".
func TestARelationAndItsNameAreOnePerson(t *testing.T) {
	for _, msgs := range [][]string{
		{"my brother aaron keeps taking my stuff without asking", "and my brother never says sorry", "idk", "aaron just laughs it off", "its so annoying", "ugh"},
		{"my brother is being a pain", "his name is aaron btw", "aaron thinks hes always right", "idk what to do", "my brother wont listen", "its so annoying"},
	} {
		replies := converse(t, Profile{}, msgs...)
		for i, r := range replies {
			low := strings.ToLower(r)
			if strings.Contains(low, "brother") && strings.Contains(low, "aaron") {
				t.Errorf("%q: the brother and Aaron counted as two: %q", msgs[i], r)
			}
		}
	}
	// Two people stay two.
	s := &session{}
	for i, m := range []string{"my brother is being a pain", "and my friend aaron says im overreacting"} {
		s.turns = append(s.turns, s.parse(m, i, contextAfter(nil)))
	}
	s.samePeople()
	if s.people.canonical("brother") == "aaron" {
		t.Errorf("a friend named Aaron was taken for the brother")
	}
}

// A plan said after a question the user answers themselves is met as a plan, not answered
// as a question.
func TestAPlanAfterAQuestionIsSeen(t *testing.T) {
	for _, msg := range []string{"25 mins then a break? ok i can try that", "maybe just the intro first? yeah ill start with that tonight", "text her first? ok ill give it a go"} {
		if a := MessageAct(msg, false); a != "share" {
			t.Errorf("%q read as %s, want a plan (share)", msg, a)
		}
		if !planAfterQuestion(msg) {
			t.Errorf("%q: no plan read after the question", msg)
		}
	}
	for _, msg := range []string{"should i text her first? idk", "what if it doesnt work? ill have wasted a week", "is that normal?"} {
		if planAfterQuestion(msg) {
			t.Errorf("%q read as a plan after a question", msg)
		}
	}
	for _, msgs := range [][]string{
		{"i cant focus on revising at all", "my exam is next week and i keep scrolling instead", "what should i do", "25 mins then a break? ok i can try that"},
		{"i have so much coursework", "idk where to start", "maybe just the intro first? yeah ill start with that tonight"},
	} {
		replies := converse(t, Profile{}, msgs...)
		last := replies[len(replies)-1]
		if !containsOneOf(last, planAffirm) {
			t.Errorf("%q: the plan is not met as a step: %q", msgs[len(msgs)-1], last)
		}
		if strings.Contains(last, "not sure I can answer") {
			t.Errorf("%q: answered as a question: %q", msgs[len(msgs)-1], last)
		}
	}
}

// Practical questions students commonly ask get a short, concrete written answer, asked in
// words other than the answer's examples; each answer ends on one question and neither
// diagnoses nor prescribes.
func TestPracticalQuestionsGetAWrittenAnswer(t *testing.T) {
	cases := map[string]string{
		"ok but how do i start revising when i have like 6 topics and no time":  "red, amber or green",
		"how do i say no to my mate when she keeps asking me out every weekend": "kind no",
		"how do i tell my dad i failed maths":                                   "next step ready",
		"how do i tell my parents im changing course":                           "your reasons and a rough plan",
		"how do i get my flatmate to stop blasting music at 2am":                "specific time",
		"how do i ask for an extension im so behind":                            "before the deadline",
		"how do i get to sleep before my exam tomorrow":                         "stop revising an hour before bed",
		"how do i make friends at uni i didnt go to freshers":                   "societies keep taking people",
		"how do i deal with a group member who does nothing":                    "named task",
		"how do i calm down before my presentation on friday":                   "first minute out loud",
		"how do i apologise to my best friend":                                  "good apology",
		"how do i stop checking his instagram":                                  "autopilot",
		"how do i balance my shifts and uni work":                               "fixed things",
		"how do i get up for 9am lectures":                                      "across the room",
		"how do i ask my lecturer for help":                                     "office hours",
		"what helps when youre homesick":                                        "regular call home",
		"how do i tell my gf i need space":                                      "what you need, not about them",
		"how do i message an old friend after ages":                             "explain the gap",
		"who can i talk to at uni about feeling like this":                      "wellbeing",
	}
	for q, want := range cases {
		replies := converse(t, Profile{}, "hey", q)
		if !strings.Contains(replies[1], want) {
			t.Errorf("%q: no written answer (%q): %q", q, want, replies[1])
		}
	}
	bad := []string{"you have anxiety", "you have depression", "diagnos", "disorder", "depression", "medication", "pills", "tablets", "melatonin", "you should take"}
	quoted := regexp.MustCompile(`"[^"]*"`)
	for _, x := range answers {
		if x.kind != actPractical {
			continue
		}
		for _, tm := range x.text {
			if n := strings.Count(quoted.ReplaceAllString(tm.src, ""), "?"); n != 1 || !strings.HasSuffix(tm.src, "?") {
				t.Errorf("answer %q: %d questions, want one, at the end", x.examples[0], n)
			}
			low := strings.ToLower(tm.src)
			for _, b := range bad {
				if strings.Contains(low, b) {
					t.Errorf("answer %q says %q", x.examples[0], b)
				}
			}
		}
	}
}

// "night" and "later" that say when something happens are no goodbye.
func TestANightOrLaterThatSaysWhenIsNoGoodbye(t *testing.T) {
	for _, msg := range []string{"i found out on the phone last night", "so my flatmate plays music till 3am every night",
		"ill deal with it later", "we argued all night", "i cried the whole night", "he said hed call me later"} {
		if a := MessageAct(msg, false); a == "goodbye" {
			t.Errorf("%q read as a goodbye", msg)
		}
	}
	for _, msg := range []string{"night", "ok night x", "good night", "gotta go, talk later", "talk to you later x", "ok anyway night", "see ya later", "thanks. i should sleep. night"} {
		if a := MessageAct(msg, false); a != "goodbye" {
			t.Errorf("%q read as %s, want goodbye", msg, a)
		}
	}
}

// A pronoun or a filler after a relation is no name: "my mum shes always on at me" keeps no
// "mum called Shes".
func TestAPronounAfterARelationIsNoName(t *testing.T) {
	at := time.Date(2026, time.November, 23, 18, 0, 0, 0, time.UTC)
	for _, msgs := range [][]string{
		{"my mum shes always on at me about grades", "my brother hes fine tbh"},
		{"my sister lol she never texts back", "my flatmate ngl is the worst"},
	} {
		for _, f := range OfflineMemoriesAt(msgs, Profile{}, at) {
			low := strings.ToLower(f.Text)
			for _, bad := range []string{"called shes", "called hes", "called lol", "called ngl", "is lol", "is ngl"} {
				if strings.Contains(low, bad) {
					t.Errorf("%q remembered from %q", f.Text, msgs)
				}
			}
		}
	}
	if fs := OfflineMemoriesAt([]string{"my sister amira is 11 and shes obsessed with horses"}, Profile{}, at); len(fs) == 0 {
		t.Errorf("a named sister is not remembered")
	}
}

// A practical question typed as a statement is a question; a written answer is given only
// when the question shares its subject, so a near shape alone gives no wrong answer.
func TestPracticalQuestionsWithoutAQuestionMark(t *testing.T) {
	for _, msg := range []string{"idk how to tell my parents", "i dont know what to say to him", "not sure how to bring it up with my flatmate",
		"whats the best way to revise for a maths exam", "any idea how i can stop procrastinating", "is there a way to get out of the contract"} {
		if a := MessageAct(msg, false); a != "practical" {
			t.Errorf("%q read as %s, want practical", msg, a)
		}
	}
	// Distress is no practical question.
	for _, msg := range []string{"i dont know what to do anymore", "idk what to feel", "idk how to cope"} {
		if a := MessageAct(msg, false); a == "practical" {
			t.Errorf("%q read as a practical question", msg)
		}
	}
	for q, wrong := range map[string]string{
		"how do i get my deposit back":               "Make the start tiny",
		"how do i get better at talking in seminars": "wellbeing or student support",
		"how do i fix my laptop screen":              "Make the start tiny",
	} {
		if r := converse(t, Profile{}, "hey", q)[1]; strings.Contains(r, wrong) {
			t.Errorf("%q got another question's answer: %q", q, r)
		}
	}
}

// Good news in the ways students type it is met as good news; the same shapes with a bad
// outcome, a hard word after "but" or a negation are not.
func TestGoodNewsTheWayStudentsTypeIt(t *testing.T) {
	for _, msg := range []string{"they picked me for the team!!", "i got a 2:1 on my essay", "we won the match", "passed my theory test",
		"got 72 on the exam", "my offer came through", "the interview went ok actually", "she texted back!!", "i got the flat",
		"my mum said shes proud of me", "i didnt fail lol", "got my results and theyre good", "guess who got the internship",
		"we made up, shes not mad anymore", "honestly today was a good day", "i got through the whole presentation without freezing"} {
		if a := MessageAct(msg, false); a != "good_news" {
			t.Errorf("%q read as %s, want good_news", msg, a)
		}
	}
	for _, msg := range []string{"got 38 on the exam", "i got the flu", "it went badly", "today was a bad day", "i passed but i still feel awful",
		"we won but i played terribly", "i didnt get picked", "i got an email from my tutor", "she texted back", "i got through it somehow but it was awful"} {
		if a := MessageAct(msg, false); a == "good_news" {
			t.Errorf("%q read as good news", msg)
		}
	}
	if r := converse(t, Profile{}, "hey", "got my results and theyre good")[1]; !containsOneOf(r, goodNewsTopic, goodNewsPlain) {
		t.Errorf("good results not met as good news: %q", r)
	}
}

// Corrections in the ways students type them are taken up: what is right is said back as a
// phrase that ends where it should, and what is denied is not asked about.
func TestCorrectionsTheWayStudentsTypeThem(t *testing.T) {
	for _, c := range []struct {
		msgs      []string
		want, not []string
	}{
		{[]string{"my exam is on friday and im stressed", "no its not the exam, its my mum shes been on at me about it"}, []string{"your mum"}, []string{"she's.", "exam"}},
		{[]string{"i think im just tired", "wait no i meant my sister not my mum"}, []string{"your sister"}, []string{"not your mum"}},
		{[]string{"the interview is tomorrow", "thats not what i meant, im not nervous about the interview, im nervous about telling my dad if i dont get it"}, []string{"your dad"}, []string{"interview"}},
		{[]string{"me and jas fell out", "its less about jas and more about the whole group"}, []string{"group"}, []string{"Jas", "about the whole"}},
	} {
		last := c.msgs[len(c.msgs)-1]
		if a := MessageAct(last, false); a != "correction" {
			t.Errorf("%q read as %s, want correction", last, a)
		}
		r := converse(t, Profile{}, c.msgs...)
		reply := r[len(r)-1]
		for _, w := range c.want {
			if !strings.Contains(reply, w) {
				t.Errorf("%q: reply does not take up %q: %q", last, w, reply)
			}
		}
		for _, w := range c.not {
			if strings.Contains(reply, w) {
				t.Errorf("%q: reply says %q: %q", last, w, reply)
			}
		}
	}
}

// Callbacks the way students type them resolve to what they go back to.
func TestCallbacksTheWayStudentsTypeThem(t *testing.T) {
	for _, c := range []struct {
		msgs []string
		want string
	}{
		{[]string{"my flatmate chloe keeps eating my food", "and my dissertation is due in 2 weeks", "idk its a lot", "anyway about chloe, i think i need to say something"}, "Chloe"},
		{[]string{"my sister is moving out next month", "also work has been awful", "remember the thing about my sister? shes actually leaving sooner"}, "sister"},
		{[]string{"my driving test is on tuesday", "also my mate kev is being weird", "back to the driving test tho, im so nervous"}, "your driving test"},
		{[]string{"i had a fight with mia", "and my mum is stressed about money", "you know the mia thing, she messaged me"}, "Mia"},
	} {
		last := c.msgs[len(c.msgs)-1]
		if a := MessageAct(last, false); a != "callback" {
			t.Errorf("%q read as %s, want callback", last, a)
		}
		r := converse(t, Profile{}, c.msgs...)
		if reply := r[len(r)-1]; !strings.Contains(reply, c.want) || strings.Contains(reply, "Test") {
			t.Errorf("%q: callback not resolved to %q: %q", last, c.want, reply)
		}
	}
}

// Memory offline keeps the facts of a session typed the way students type: a relation with
// a word before it and an age, what someone says of the student, parents who split, named
// flatmates, what a partner just mentioned is doing; nothing of a sensitive topic.
func TestMemoryKeepsFactsTypedTheStudentWay(t *testing.T) {
	at := time.Date(2026, time.November, 23, 18, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		msgs []string
		want []string
	}{
		{[]string{"my driving test is at 9 tomorrow", "ive failed twice on roundabouts", "my little sister is 11 and she keeps asking if ill pass",
			"my parents split in september", "my instructor says i drive well tho"},
			[]string{"Has a driving test on Tuesday 24 November 2026", "Their sister is 11", "Their parents split in september", "Their instructor says they drive well"}},
		{[]string{"my flatmates are called jess and tom", "i have my final interview with deloitte on thursday", "im a second year doing economics"},
			[]string{"Their flatmates are Jess and Tom", "Has a final interview on Thursday 26 November 2026", "Is a second year doing economics"}},
		{[]string{"me and my bf have been together 2 years", "hes in the army so we dont see each other much"}, []string{"Their boyfriend is in the army"}},
	} {
		var got []string
		for _, f := range OfflineMemoriesAt(c.msgs, Profile{}, at) {
			got = append(got, f.Text)
		}
		for _, w := range c.want {
			if !slices.Contains(got, w) {
				t.Errorf("%q: %q not kept (kept %q)", c.msgs, w, got)
			}
		}
		for _, g := range got {
			if strings.Contains(g, "called Split") || strings.HasPrefix(g, "Has a final on") {
				t.Errorf("%q: kept %q", c.msgs, g)
			}
		}
	}
	if th := ThreadOn([]string{"Their boyfriend is in the army"}, Profile{}, at, time.Time{}); strings.Contains(th, "Their") {
		t.Errorf("a thread says the memory's 'Their': %q", th)
	}
	for _, f := range OfflineMemoriesAt([]string{"my parents split in september"}, Profile{SensitiveTopics: "parents"}, at) {
		t.Errorf("a sensitive topic remembered: %q", f.Text)
	}
}

// "me and jas fell out" is about Jas; a hard thing that happened is no good news.
func TestOneNameWithMeIsWhoItIsAbout(t *testing.T) {
	if r := converse(t, Profile{}, "me and jas fell out")[0]; !strings.Contains(r, "Jas") {
		t.Errorf("'me and jas fell out' does not name Jas: %q", r)
	}
	for _, msg := range []string{"i got told off at work today", "my coach benched me for the whole game", "i got ghosted lol"} {
		if a := MessageAct(msg, false); a == "good_news" {
			t.Errorf("%q read as good news", msg)
		}
	}
}

// Questions typed in text speak are read as what they ask; a feeling shared as a question
// ("do u ever just feel like…") is sharing.
func TestQuestionsInTextSpeak(t *testing.T) {
	for msg, want := range map[string]string{
		"r u a real person":                                           "self",
		"do u actually remember stuff i tell u":                       "self",
		"are you judging me lol":                                      "self",
		"do u think shes annoyed at me":                               "opinion",
		"be honest is it my fault":                                    "opinion",
		"was it dumb to quit":                                         "opinion",
		"honestly do i even need a degree":                            "opinion",
		"do u ever just feel like ur friends are moving on without u": "share",
	} {
		if a := MessageAct(msg, false); a != want {
			t.Errorf("%q read as %s, want %s", msg, a, want)
		}
	}
}
