package companion

import (
	"strings"
	"testing"
)

// The session's model of people, on examples written for these tests.

// sessionOf parses messages as one session's turns.
func sessionOf(msgs ...string) *session {
	s := &session{}
	for i, m := range msgs {
		s.turns = append(s.turns, s.parse(m, i, contextAfter(nil)))
	}
	return s
}

func TestPeopleLearnsNamesRelationsAndAges(t *testing.T) {
	s := sessionOf("my flatmate Marcus keeps leaving the oven on",
		"and my sister (11) is staying this weekend",
		"chloe said she'd swap shifts with me")
	cases := []struct{ key, name, relation, age string }{
		{"marcus", "Marcus", "flatmate", ""},
		{"sister", "your sister", "sister", "11"},
		{"chloe", "Chloe", "", ""},
	}
	for _, c := range cases {
		p := s.people.find(c.key)
		if p == nil {
			t.Errorf("%s is not known: %+v", c.key, s.people.list)
			continue
		}
		if p.name != c.name || p.relation != c.relation || p.age != c.age {
			t.Errorf("%s = %+v, want %+v", c.key, *p, c)
		}
	}
	for _, word := range []string{"everyone", "lecturer", "it"} {
		if (sessionOf(word + " said it was fine")).people.find(word) != nil {
			t.Errorf("%q was taken for a name", word)
		}
	}
}

func TestPeopleResolvesPronounsToTheLastPerson(t *testing.T) {
	s := sessionOf("ugh my housemate Priya", "she's borrowed my charger again", "and Tom. he hasn't paid rent since october")
	priya, tom := s.people.find("priya"), s.people.find("tom")
	if priya == nil || tom == nil {
		t.Fatalf("people: %+v", s.people.list)
	}
	if got := priya.saidBefore(9); !strings.Contains(got, "borrowed your charger") {
		t.Errorf("what was said about Priya: %q", got)
	}
	if got := tom.saidBefore(9); !strings.Contains(got, "hasn't paid rent") {
		t.Errorf("what was said about Tom: %q", got)
	}
	if s.people.last != tom {
		t.Errorf("the last person is %+v, want Tom", s.people.last)
	}
	// "he" in a message of its own is Tom: the message is about him.
	s = sessionOf("and Tom. he hasn't paid rent since october", "he just ignores the group chat")
	found := false
	for _, it := range s.turns[1].items {
		found = found || it.kind == kindPerson && it.key == "tom"
	}
	if !found {
		t.Errorf("\"he\" is not Tom: %+v", s.turns[1].items)
	}
}

func TestPeopleLowerCaseNameBeforeAPronoun(t *testing.T) {
	s := sessionOf("but dmitri. he's done literally nothing for the project")
	if p := s.people.find("dmitri"); p == nil || p.saidBefore(1) == "" {
		t.Fatalf("dmitri is not known with what was said: %+v", s.people.list)
	}
}

func TestOfflineThirdPersonActionsAreNotTheUsersFeelings(t *testing.T) {
	s := sessionOf("my flatmate Marcus never cleans", "marcus was so angry when i asked", "he's stressed about his exams")
	for i, u := range s.turns[1:] {
		if len(u.feelings) != 0 {
			t.Errorf("turn %d %q: the user's feelings are %v", i+1, u.text, u.feelings)
		}
	}
	// The user's own feeling in the same message still counts.
	u := sessionOf("my flatmate Marcus never cleans", "marcus was angry and i feel guilty").turns[1]
	if len(u.feelings) == 0 || u.feelings[0] != "guilt" {
		t.Errorf("the user's own guilt is lost: %v", u.feelings)
	}
}

func TestOfflineCallbackToAPersonSaysWhatWasSaid(t *testing.T) {
	replies := converse(t, Profile{},
		"my group project is due friday",
		"but dmitri. he hasn't opened the shared doc once",
		"my other teammate made all the slides already",
		"back to what i said about dmitri, i might message him first")
	got := replies[3]
	if !strings.Contains(got, "Dmitri") || !strings.Contains(got, "hasn't opened the shared doc") {
		t.Errorf("the callback is not about Dmitri and what was said about him: %q", got)
	}
	// "what she said" is the person mentioned last.
	replies = converse(t, Profile{},
		"my tutor Ms Okafor is marking our essays this week",
		"Okafor said my draft was the clearest in the group",
		"i also have a lab report due",
		"going back to what she said, i cant stop smiling")
	if got := replies[3]; !strings.Contains(got, "Okafor") {
		t.Errorf("\"what she said\" is not about the tutor: %q", got)
	}
}

func TestOfflineCallbackToWhatWasSaidEarlier(t *testing.T) {
	replies := converse(t, Profile{},
		"my piano recital is on saturday",
		"i keep messing up the middle section",
		"anyway what i said earlier, i think its more nerves than practice")
	if got := replies[2]; !strings.Contains(got, "recital") {
		t.Errorf("\"what i said earlier\" is not the earlier topic: %q", got)
	}
}

func TestOfflineGoodbyeAfterAPlanGetsAGoodbyeAndATakeaway(t *testing.T) {
	for _, bye := range []string{"ok im gonna go call my dad now. thanks", "night x", "thanks, gotta run to my seminar"} {
		replies := converse(t, Profile{},
			"my dissertation meeting is tomorrow and i'm dreading it",
			"my supervisor always finds something wrong",
			"maybe i'll write down three questions to bring",
			bye)
		got := replies[3]
		if strings.Contains(got, "?") {
			t.Errorf("%q: the goodbye asks a question: %q", bye, got)
		}
		low := strings.ToLower(got)
		if !strings.Contains(low, "bye") && !strings.Contains(low, "take care") && !strings.Contains(low, "talk soon") && !strings.Contains(low, "night") {
			t.Errorf("%q: no goodbye in %q", bye, got)
		}
		if !strings.Contains(low, "take with you") && !strings.Contains(low, "keep one thing") {
			t.Errorf("%q: no takeaway in %q", bye, got)
		}
	}
}

func TestPeopleFromListsIntroductionsAndRelationsInLowerCase(t *testing.T) {
	cases := []struct {
		msg  string
		want []string
		not  []string
	}{
		{"there's 4 of us, me, jo, tariq and bea", []string{"jo", "tariq", "bea"}, nil},
		{"so me and noor had a fight", []string{"noor"}, []string{"had", "fight"}},
		{"its me femi and lola on the poster", []string{"femi", "lola"}, nil},
		{"thanks for letting me vent", nil, []string{"vent"}},
		{"my best friend ayo has been amazing", []string{"ayo"}, nil},
		{"my mum keeps texting me", nil, []string{"keeps", "texting"}},
		{"there's this girl called freya in my seminar", []string{"freya"}, nil},
		{"i'm not broke broke, just careful", nil, []string{"broke"}},
	}
	for _, c := range cases {
		s := sessionOf(c.msg)
		for _, k := range c.want {
			if s.people.find(k) == nil {
				t.Errorf("%q: %s is not known (%+v)", c.msg, k, s.people.list)
			}
		}
		for _, k := range c.not {
			if s.people.find(k) != nil {
				t.Errorf("%q: %q taken for a name", c.msg, k)
			}
		}
	}
	s := sessionOf("her name is zara btw", "she told everyone about my grades")
	if p := s.people.find("zara"); p == nil || !strings.Contains(p.saidBefore(2), "told everyone about your grades") || strings.Contains(p.saidBefore(2), "name") {
		t.Errorf("zara: %+v", s.people.list)
	}
}

func TestOfflineGoodbyeWithNothingSaidHasNoTakeaway(t *testing.T) {
	got := converse(t, Profile{}, "hey", "bye")[1]
	if strings.Contains(got, "take with you") || strings.Contains(got, "keep one thing") || strings.Contains(got, "?") {
		t.Errorf("a takeaway from a session with nothing in it: %q", got)
	}
	if low := strings.ToLower(got); !strings.Contains(low, "bye") && !strings.Contains(low, "take care") && !strings.Contains(low, "talk soon") && !strings.Contains(low, "come back") {
		t.Errorf("no goodbye: %q", got)
	}
}
