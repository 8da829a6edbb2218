package companion

import (
	"strings"
	"testing"
	"time"
)

// weekOfCheckins is three drained, low evenings about sleep and exams, and one good day.
func weekOfCheckins() []MoodCheckin {
	day := func(d int) time.Time { return time.Date(2026, 11, d, 0, 0, 0, 0, time.UTC) }
	return []MoodCheckin{
		{Mood: 2, Energy: 1, Emotions: []string{"tiredness"}, Tags: []string{"sleep", "exams"}, Day: day(26)},
		{Mood: 1, Energy: 2, Tags: []string{"sleep"}, Day: day(25)},
		{Mood: 4, Energy: 4, Tags: []string{"friends"}, Day: day(24)},
		{Mood: 2, Energy: 1, Tags: []string{"exams"}, Day: day(23)},
	}
}

func TestOfflineNamesACheckinPatternWhenItFits(t *testing.T) {
	o := &Offline{}
	opening := []Turn{{RoleUser, starter}, {RoleAssistant, Welcome("Sam", false)}}
	cs := weekOfCheckins()
	cases := []struct{ msg, want string }{
		{"I'm so tired all the time lately.", "You checked in feeling drained on three days this week."},
		{"My exams start next week and I can't focus.", "Exams came up in your check-ins on two days this week."},
	}
	for _, c := range cases {
		got := o.Compose(Prompt{History: opening, Message: c.msg, Checkins: cs})
		if !strings.Contains(got, c.want) {
			t.Errorf("reply to %q = %q, want %q", c.msg, got, c.want)
		}
	}
	// Later in a session, a message about something else is not the place.
	hist := append(append([]Turn(nil), opening...), Turn{RoleUser, "My flatmate borrowed my bike."}, Turn{RoleAssistant, "That sounds annoying. What happened?"})
	if got := o.Compose(Prompt{History: hist, Message: "He brought it back with a flat tyre.", Checkins: cs}); IsCheckinLine(got) {
		t.Errorf("names the check-ins out of place: %q", got)
	}
	// The first reply after several low days may name them unasked.
	if got := o.Compose(Prompt{History: opening, Message: "hey, just wanted to talk", Checkins: cs}); !IsCheckinLine(got) {
		t.Errorf("the opening after three low days says nothing of them: %q", got)
	}
	// A single good check-in is no pattern.
	if got := o.Compose(Prompt{History: opening, Message: "I'm so tired today.", Checkins: cs[2:3]}); IsCheckinLine(got) {
		t.Errorf("names a pattern of one check-in: %q", got)
	}
	// A negated fit does not count.
	if line := CheckinLineFor(cs, "I'm not tired, I'm annoyed at my flatmate.", false); line != "" {
		t.Errorf("a negated word fits: %q", line)
	}
}

func TestOfflineNamesTheCheckinsOnceAndNeverAfterACrisis(t *testing.T) {
	o := &Offline{}
	cs := weekOfCheckins()
	hist := []Turn{{RoleUser, starter}, {RoleAssistant, Welcome("Sam", false)}}
	named := 0
	for _, msg := range []string{"I'm exhausted.", "I barely sleep before exams.", "Still so tired and drained.", "My mood is low too."} {
		got := o.Compose(Prompt{History: hist, Message: msg, Checkins: cs})
		if IsCheckinLine(got) {
			named++
		}
		hist = append(hist, Turn{RoleUser, msg}, Turn{RoleAssistant, got})
	}
	if named != 1 {
		t.Errorf("named the check-ins %d times in a session, want once", named)
	}
	opening := []Turn{{RoleUser, starter}, {RoleAssistant, Welcome("Sam", false)}}
	if got := o.Compose(Prompt{History: opening, Message: "I'm so tired.", Checkins: cs, Crises: 1}); IsCheckinLine(got) {
		t.Errorf("names the check-ins in a session with a crisis: %q", got)
	}
	if got := o.Compose(Prompt{History: opening, Message: "I'm so tired.", Checkins: cs, AfterCrisis: true}); IsCheckinLine(got) {
		t.Errorf("names the check-ins after a crisis reply: %q", got)
	}
	checked := append(append([]Turn(nil), opening...), Turn{RoleUser, "everything is pointless"}, Turn{RoleAssistant, CheckInReplyFor(Where{})})
	if got := o.Compose(Prompt{History: checked, Message: "I'm ok, just so tired.", Checkins: cs}); IsCheckinLine(got) {
		t.Errorf("names the check-ins after a safety check-in: %q", got)
	}
	if got := o.Compose(Prompt{History: opening, Message: "I'm so tired I want to kill myself.", Checkins: cs}); IsCheckinLine(got) {
		t.Errorf("names the check-ins in a crisis reply: %q", got)
	}
	if got := o.Compose(Prompt{History: opening, Message: "Exams again.", Checkins: cs, Profile: Profile{SensitiveTopics: "exams"}}); strings.Contains(got, "Exams came up") {
		t.Errorf("names a sensitive topic: %q", got)
	}
}

func TestCheckinContextCarriesNoNoteAndThePattern(t *testing.T) {
	got := CheckinContext(weekOfCheckins())
	for _, want := range []string{"Thu 26 Nov: mood 2, energy 1, feeling tiredness, about sleep, exams", "Pattern: You checked in feeling drained on three days this week.", "at most once"} {
		if !strings.Contains(got, want) {
			t.Errorf("context lacks %q:\n%s", want, got)
		}
	}
	if CheckinContext(nil) != "" {
		t.Error("a context without check-ins")
	}
}
