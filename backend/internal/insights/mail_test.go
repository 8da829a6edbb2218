package insights

import (
	"strings"
	"testing"
	"time"
)

// The weekly report's resources line gives the lines of the owner's country, from the same
// table as the crisis replies, and findahelpline.com for everyone.
func TestReportMailGivesTheLinesOfTheOwnersCountry(t *testing.T) {
	week := time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)
	gb := mailText("Ada", "GB", week, Report{Suggestion: "Rest."}, "https://example.com/insights")
	for _, want := range []string{"999", "Samaritans: call 116 123", "findahelpline.com"} {
		if !strings.Contains(gb, want) {
			t.Errorf("GB mail lacks %q:\n%s", want, gb)
		}
	}
	if strings.Contains(gb, "988") || strings.Contains(gb, "741741") {
		t.Errorf("GB mail names a US line:\n%s", gb)
	}
	if none := mailText("Bo", "", week, Report{Suggestion: "Rest."}, "https://example.com/insights"); !strings.Contains(none, "findahelpline.com") || strings.Contains(none, "988") {
		t.Errorf("mail without a country:\n%s", none)
	}
}
