package checkin

import (
	"strings"
	"testing"
)

// The acknowledgement names the mood alone when that is all there is, lists three tags as a
// sentence does, quotes a long note only in part, and never quotes a flagged one.
func TestAcknowledgement(t *testing.T) {
	long := strings.Repeat("revision ", 40)
	for _, tc := range []struct {
		c          Checkin
		want, lack string
	}{
		{Checkin{Mood: 4}, "You said you're feeling good. Would you like", "came up"},
		{Checkin{Mood: 3, Tags: []string{"sleep", "work", "money"}}, "feeling okay, and sleep, work and money came up.", "with some"},
		{Checkin{Mood: 5, Emotions: []string{"joy"}}, "feeling great, with some joy.", "came up"},
		{Checkin{Mood: 2, Note: &long}, "You wrote: \u201crevision revision", long},
		{Checkin{Mood: 1, Note: new("a flagged note"), Safety: "suicide"}, "feeling very low.", "flagged note"},
	} {
		got := tc.c.Acknowledgement()
		if !strings.Contains(got, tc.want) || strings.Contains(got, tc.lack) {
			t.Errorf("%+v: %q, want %q and not %q", tc.c, got, tc.want, tc.lack)
		}
	}
	if got := (Checkin{Mood: 2, Note: &long}).Acknowledgement(); !strings.Contains(got, "…\u201d") || len([]rune(got)) > 300 {
		t.Errorf("long note: %q", got)
	}
}
