package companion

import "testing"

func TestOfflineSummaryTitlesFromTopicsNotTheFirstMessage(t *testing.T) {
	s := OfflineSummary([]Turn{
		{Role: RoleUser, Content: "So basically my group project for chemistry is falling apart."},
		{Role: RoleAssistant, Content: "That sounds hard."},
		{Role: RoleUser, Content: "And my roommate Marcus keeps ignoring me, the project is due Friday."},
	})
	if s.Title == "" || s.Title == "So basically my group project for chemistry is falling apart" {
		t.Fatalf("title %q", s.Title)
	}
	t.Logf("title: %q", s.Title)
	if s := OfflineSummary([]Turn{{Role: RoleUser, Content: "hmm"}}); s.Title != "" {
		t.Errorf("a session without topics got the title %q (it keeps its own)", s.Title)
	}
}

func TestSessionTitleIsCleanedAndScreened(t *testing.T) {
	for in, want := range map[string]string{
		` "Exam week and sleep." `: "Exam week and sleep",
		"Two\nlines":               "Two lines",
		"":                         "",
		"I want to kill myself":    "",
		"A title that is far far far too long to be a title of a session, really": "",
	} {
		if got := SessionTitle(in); got != want {
			t.Errorf("SessionTitle(%q) = %q, want %q", in, got, want)
		}
	}
}
