package reminders

import (
	"fmt"
	"time"
)

// Days is a set of weekdays, bit n for time.Weekday(n) (bit 0 Sunday).
type Days uint8

// daysOf reads the stored bit set; the column's CHECK keeps it within 0..127.
func daysOf(v int16) Days { return Days(v & 0x7f) } // #nosec G115 -- masked to seven bits

// Has tells whether d holds w.
func (d Days) Has(w time.Weekday) bool { return d&(1<<w) != 0 }

// parseClock reads "HH:MM" (24-hour) into hours and minutes.
func parseClock(s string) (int, int, error) {
	t, err := time.Parse("15:04", s)
	if err != nil || len(s) != 5 {
		return 0, 0, fmt.Errorf("not HH:MM: %q", s)
	}
	return t.Hour(), t.Minute(), nil
}

// NextDue returns the first reminder instant strictly after `after`: the local time hh:mm
// in loc on one of days. A local time the clocks skip (spring forward) moves forward by the
// gap (01:30 in London on the last Sunday of March is 02:30 BST); a local time the clocks
// repeat (fall back) goes at its first occurrence only. It returns nil when days is empty.
func NextDue(days Days, hh, mm int, loc *time.Location, after time.Time) *time.Time {
	if days&0x7f == 0 {
		return nil
	}
	local := after.In(loc)
	y, m, d := local.Date()
	// Eight days reach the same weekday a week on, whatever the hour of `after`.
	for i := range 9 {
		date := time.Date(y, m, d+i, 0, 0, 0, 0, time.UTC)
		if !days.Has(date.Weekday()) {
			continue
		}
		t := wallInstant(date.Year(), date.Month(), date.Day(), hh, mm, loc)
		if t.After(after) {
			return &t
		}
	}
	return nil // unreachable with a non-empty set
}

// wallInstant is the earliest instant whose wall clock in loc reads y-m-d hh:mm, or, when
// the clocks skip that time, the instant the wall clock would read it with the offset in
// force before the gap (which reads later than hh:mm after the gap).
func wallInstant(y int, m time.Month, d, hh, mm int, loc *time.Location) time.Time {
	u := time.Date(y, m, d, hh, mm, 0, 0, time.UTC)
	var valid, latest time.Time
	for _, probe := range []time.Duration{-30 * time.Hour, 0, 30 * time.Hour} {
		_, off := u.Add(probe).In(loc).Zone()
		t := u.Add(-time.Duration(off) * time.Second)
		if t.After(latest) {
			latest = t
		}
		w := t.In(loc)
		if w.Hour() == hh && w.Minute() == mm && w.Day() == d {
			if valid.IsZero() || t.Before(valid) {
				valid = t
			}
		}
	}
	if !valid.IsZero() {
		return valid
	}
	return latest
}
