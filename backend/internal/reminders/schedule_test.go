package reminders

import (
	"testing"
	"time"
)

const everyDay Days = 0x7f

func zone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func utc(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

// Due times across zones and daylight saving: each case is the next reminder after `after`.
func TestNextDueAcrossZonesAndDaylightSaving(t *testing.T) {
	for _, c := range []struct {
		name   string
		zone   string
		days   Days
		clock  string
		after  string
		wantAt string // UTC
	}{
		// Europe/London, spring forward (29 March 2026, 01:00 GMT → 02:00 BST): 01:30 does not
		// exist and moves forward by the gap, to 02:30 BST.
		{"London skipped time", "Europe/London", everyDay, "01:30", "2026-03-29T00:00:00Z", "2026-03-29T01:30:00Z"},
		{"London before the change", "Europe/London", everyDay, "19:00", "2026-03-28T12:00:00Z", "2026-03-28T19:00:00Z"},
		{"London after the change", "Europe/London", everyDay, "19:00", "2026-03-29T12:00:00Z", "2026-03-29T18:00:00Z"},
		// Europe/London, fall back (25 October 2026, 02:00 BST → 01:00 GMT): 01:30 happens twice
		// and goes at the first (00:30 UTC) only.
		{"London repeated time", "Europe/London", everyDay, "01:30", "2026-10-25T00:00:00Z", "2026-10-25T00:30:00Z"},
		{"London repeated time once", "Europe/London", everyDay, "01:30", "2026-10-25T00:30:00Z", "2026-10-26T01:30:00Z"},
		{"London after fall back", "Europe/London", everyDay, "19:00", "2026-10-25T12:00:00Z", "2026-10-25T19:00:00Z"},
		// America/Los_Angeles: PST −8 in January, PDT −7 in July; 8 March 2026 skips 02:00–03:00.
		{"Los Angeles winter", "America/Los_Angeles", everyDay, "21:15", "2026-01-10T00:00:00Z", "2026-01-10T05:15:00Z"},
		{"Los Angeles summer", "America/Los_Angeles", everyDay, "21:15", "2026-07-10T00:00:00Z", "2026-07-10T04:15:00Z"},
		{"Los Angeles skipped time", "America/Los_Angeles", everyDay, "02:30", "2026-03-08T08:00:00Z", "2026-03-08T10:30:00Z"},
		// Asia/Kolkata, +5:30 all year.
		{"Kolkata", "Asia/Kolkata", everyDay, "07:30", "2026-06-01T00:00:00Z", "2026-06-01T02:00:00Z"},
		{"Kolkata next day", "Asia/Kolkata", everyDay, "07:30", "2026-06-01T02:00:00Z", "2026-06-02T02:00:00Z"},
		// Pacific/Chatham: +12:45 in its winter, +13:45 in its summer.
		{"Chatham winter", "Pacific/Chatham", everyDay, "20:00", "2026-06-01T00:00:00Z", "2026-06-01T07:15:00Z"},
		{"Chatham summer", "Pacific/Chatham", everyDay, "20:00", "2026-12-01T00:00:00Z", "2026-12-01T06:15:00Z"},
		// Days: only Mondays (1 June 2026 is a Monday); from a Tuesday the next is a week on less a day.
		{"Mondays only", "Europe/London", 1 << time.Monday, "09:00", "2026-06-02T00:00:00Z", "2026-06-08T08:00:00Z"},
		{"Monday today, later", "Europe/London", 1 << time.Monday, "09:00", "2026-06-01T07:00:00Z", "2026-06-01T08:00:00Z"},
		{"Monday today, passed", "Europe/London", 1 << time.Monday, "09:00", "2026-06-01T08:00:00Z", "2026-06-08T08:00:00Z"},
	} {
		t.Run(c.name, func(t *testing.T) {
			hh, mm, err := parseClock(c.clock)
			if err != nil {
				t.Fatal(err)
			}
			got := NextDue(c.days, hh, mm, zone(t, c.zone), utc(c.after))
			if got == nil || !got.Equal(utc(c.wantAt)) {
				t.Fatalf("NextDue(%s %s after %s) = %v, want %s", c.zone, c.clock, c.after, got, c.wantAt)
			}
		})
	}
}

// The repeated hour on the fall-back day fires once: stepping from slot to slot over the day
// gives one reminder on 25 October.
func TestRepeatedLocalTimeFiresOnce(t *testing.T) {
	loc := zone(t, "Europe/London")
	at := utc("2026-10-24T12:00:00Z")
	count := 0
	for range 4 {
		next := NextDue(everyDay, 1, 30, loc, at)
		if y, m, d := next.In(loc).Date(); y == 2026 && m == time.October && d == 25 {
			count++
		}
		at = *next
	}
	if count != 1 {
		t.Fatalf("%d reminders on the fall-back day, want 1", count)
	}
}

func TestNoDaysNoReminder(t *testing.T) {
	if got := NextDue(0, 9, 0, time.UTC, time.Now()); got != nil {
		t.Fatalf("no days gave %v", got)
	}
}

func TestBadClockAndZoneRefused(t *testing.T) {
	for _, s := range []string{"", "7:30", "24:00", "12:60", "12:5", "ab:cd", "12:30:00"} {
		if _, _, err := parseClock(s); err == nil {
			t.Errorf("parseClock(%q) accepted", s)
		}
	}
	for _, z := range []string{"", "Local", "Mars/Olympus", "../etc/passwd"} {
		if _, err := loadZone(z); err == nil {
			t.Errorf("loadZone(%q) accepted", z)
		}
	}
}
