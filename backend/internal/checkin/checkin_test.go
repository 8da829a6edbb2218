package checkin

import (
	"context"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
	dbgen "github.com/percolate/percolate/gen/db"
)

func date(s string) time.Time {
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return d
}

// TestSummarizeByHand: the summary's means against figures worked out by hand.
func TestSummarizeByHand(t *testing.T) {
	row := func(d string, mood int32, tags ...string) dbgen.ListCheckinMoodsBetweenRow {
		return dbgen.ListCheckinMoodsBetweenRow{LocalDate: date(d), Mood: mood, Tags: tags}
	}
	// 2026-11-23 is a Monday. Sleep: 5 check-ins with it (1,2,2,1,3 → 9/5 = 1.8) and 6 without
	// (4,5,4,3,5,4 → 25/6 = 4.1666… → 4.17). Exams has 5 with it but only... see below.
	rows := []dbgen.ListCheckinMoodsBetweenRow{
		row("2026-11-23", 1, "sleep", "exams"), row("2026-11-23", 4), // Monday: 5/2 = 2.5
		row("2026-11-24", 2, "sleep", "exams"),                                             // Tuesday 2
		row("2026-11-25", 2, "sleep", "exams"), row("2026-11-25", 5), row("2026-11-25", 4), // Wednesday 11/3 = 3.67
		row("2026-11-27", 1, "sleep", "exams"),                                    // Friday 1
		row("2026-11-29", 3, "sleep"), row("2026-11-29", 3), row("2026-11-29", 5), // Sunday 11/3
		row("2026-11-30", 4, "friends"), // Monday again: Monday is 1,4,4 → 3
	}
	got := summarize(rows, true)
	wantDays := []DayMood{
		{date("2026-11-23"), Mean{2.5, 2}}, {date("2026-11-24"), Mean{2, 1}}, {date("2026-11-25"), Mean{3.67, 3}},
		{date("2026-11-27"), Mean{1, 1}}, {date("2026-11-29"), Mean{3.67, 3}}, {date("2026-11-30"), Mean{4, 1}},
	}
	if !reflect.DeepEqual(got.PerDay, wantDays) {
		t.Errorf("per day %+v\nwant %+v", got.PerDay, wantDays)
	}
	wantWeek := []WeekdayMood{{0, Mean{3, 3}}, {1, Mean{2, 1}}, {2, Mean{3.67, 3}}, {4, Mean{1, 1}}, {6, Mean{3.67, 3}}}
	if !reflect.DeepEqual(got.Weekdays, wantWeek) {
		t.Errorf("weekdays %+v\nwant %+v", got.Weekdays, wantWeek)
	}
	// sleep: with 1,2,2,1,3 = 9/5 = 1.8; without 4,5,4,3,5,4 = 25/6 = 4.17. exams has only 4
	// with it, friends only 1: neither is shown.
	wantTags := []TagMood{{"sleep", Mean{1.8, 5}, Mean{4.17, 6}}}
	if !reflect.DeepEqual(got.Tags, wantTags) {
		t.Errorf("tags %+v\nwant %+v", got.Tags, wantTags)
	}
	if free := summarize(rows, false); free.Tags != nil {
		t.Errorf("without patterns: tags %+v", free.Tags)
	}
	// Five on each side is the threshold: with four without it, sleep is not shown either.
	if few := summarize(rows[:9], true); len(few.Tags) != 0 {
		t.Errorf("4 without sleep: tags %+v", few.Tags)
	}
	if empty := summarize(nil, true); len(empty.PerDay) != 0 || len(empty.Weekdays) != 0 || len(empty.Tags) != 0 || empty.PerDay == nil {
		t.Errorf("no check-ins: %+v", empty)
	}
}

func fixedNow(s *Service, at string) {
	t, _ := time.Parse(time.RFC3339, at)
	s.now = func() time.Time { return t }
}

// TestSummaryReadsTheWindowAndTheMonth: the window ends on the caller's today, and the days
// of this month count each day once.
func TestSummaryReadsTheWindowAndTheMonth(t *testing.T) {
	ctx := context.Background()
	st := pgtest.New(t)
	s := New(st, nil)
	fixedNow(s, "2026-11-29T12:00:00Z")
	u := pgtest.User(t, st, "PREMIUM").ID
	for _, c := range []struct {
		d    string
		mood int
	}{{"2026-10-30", 1}, {"2026-10-31", 2}, {"2026-11-01", 3}, {"2026-11-01", 5}, {"2026-11-30", 4}} {
		if _, err := st.Queries().InsertCheckin(ctx, dbgen.InsertCheckinParams{UserID: u, Mood: int32(c.mood), Emotions: []string{}, Tags: []string{}, LocalDate: date(c.d)}); err != nil {
			t.Fatal(err)
		}
	}
	// Today in UTC: 30 days are 2026-10-31 … 2026-11-29; November so far has one day.
	sum, err := s.Summary(ctx, u, 30, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !sum.From.Equal(date("2026-10-31")) || !sum.To.Equal(date("2026-11-29")) || sum.DaysThisMonth != 1 || len(sum.PerDay) != 2 || sum.PerDay[1].Mood != 4 {
		t.Fatalf("UTC today: %+v", sum)
	}
	// The caller's today is already the 30th (east of UTC): that day is in, the 31st out.
	sum, err = s.Summary(ctx, u, 30, new(date("2026-11-30")))
	if err != nil {
		t.Fatal(err)
	}
	if !sum.From.Equal(date("2026-11-01")) || sum.DaysThisMonth != 2 || len(sum.PerDay) != 2 || sum.PerDay[1].Mood != 4 {
		t.Fatalf("caller's today: %+v", sum)
	}
	var invalid *apperr.ValidationError
	if _, err := s.Summary(ctx, u, 30, new(date("2026-12-05"))); !errors.As(err, &invalid) || invalid.Fields["today"] == "" {
		t.Fatalf("a today far from UTC's: %v", err)
	}
	if sum, err = s.Summary(ctx, u, 365, nil); err != nil || len(sum.PerDay) != 3 {
		t.Fatalf("the year: %+v, %v", sum, err)
	}
}

// TestSummaryYearIsTheLast365Days: days=365 is today and the 364 days before it, counting both,
// the same days the mood page's year view draws (YearPixels: end - 364 … end): the day before
// the first is out, the first and today are in, tomorrow is out.
func TestSummaryYearIsTheLast365Days(t *testing.T) {
	ctx := context.Background()
	st := pgtest.New(t)
	s := New(st, nil)
	fixedNow(s, "2026-11-29T12:00:00Z")
	u := pgtest.User(t, st, "PREMIUM").ID
	for _, d := range []string{"2025-11-29", "2025-11-30", "2026-11-29", "2026-11-30"} {
		if _, err := st.Queries().InsertCheckin(ctx, dbgen.InsertCheckinParams{UserID: u, Mood: 3, Emotions: []string{}, Tags: []string{}, LocalDate: date(d)}); err != nil {
			t.Fatal(err)
		}
	}
	days := func(sum Summary) []string {
		var out []string
		for _, d := range sum.PerDay {
			out = append(out, d.Date.Format(time.DateOnly))
		}
		return out
	}
	for _, c := range []struct {
		today    *time.Time
		from, to string
		perDay   []string
	}{
		{nil, "2025-11-30", "2026-11-29", []string{"2025-11-30", "2026-11-29"}},
		// The caller's today is already the 30th: the window moves with it.
		{new(date("2026-11-30")), "2025-12-01", "2026-11-30", []string{"2026-11-29", "2026-11-30"}},
	} {
		sum, err := s.Summary(ctx, u, 365, c.today)
		if err != nil {
			t.Fatal(err)
		}
		if n := int(sum.To.Sub(sum.From).Hours()/24) + 1; n != 365 || sum.Days != 365 {
			t.Errorf("%d days from %s to %s (Days %d), want 365", n, sum.From.Format(time.DateOnly), sum.To.Format(time.DateOnly), sum.Days)
		}
		if got := days(sum); sum.From.Format(time.DateOnly) != c.from || sum.To.Format(time.DateOnly) != c.to || !reflect.DeepEqual(got, c.perDay) {
			t.Errorf("today %v: %s … %s with %v, want %s … %s with %v", c.today, sum.From.Format(time.DateOnly), sum.To.Format(time.DateOnly), got, c.from, c.to, c.perDay)
		}
	}
}

// TestLowStreakAtMostOnceAWeek: the third very low check-in in a row brings the card; the
// fourth does not, nor does another streak within seven days; a week later one does.
func TestLowStreakAtMostOnceAWeek(t *testing.T) {
	ctx := context.Background()
	st := pgtest.New(t)
	s := New(st, nil)
	u := pgtest.User(t, st, "USER").ID
	streak := func(moods ...int) []bool {
		var out []bool
		for _, m := range moods {
			saved, err := s.Create(ctx, u, Input{Mood: m})
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, saved.LowStreak)
		}
		return out
	}
	if got := streak(1, 1, 2, 1, 1, 1, 1); !reflect.DeepEqual(got, []bool{false, false, false, false, false, true, false}) {
		t.Fatalf("first streak: %v", got)
	}
	if got := streak(3, 1, 1, 1); !reflect.DeepEqual(got, []bool{false, false, false, false}) {
		t.Fatalf("a second streak the same week: %v", got)
	}
	if _, err := st.Pool().Exec(ctx, "UPDATE users SET checkin_low_streak_at = now() - interval '7 days 1 minute' WHERE id = $1", u); err != nil {
		t.Fatal(err)
	}
	if got := streak(1); !reflect.DeepEqual(got, []bool{true}) {
		t.Fatalf("a week later: %v", got)
	}
}

// TestRiskyNoteIsMarked: a risky note is stored with the screen's category (so memory and the
// companion leave it alone); a plain one, or a change to a plain one, is not marked.
func TestRiskyNoteIsMarked(t *testing.T) {
	ctx := context.Background()
	st := pgtest.New(t)
	s := New(st, nil)
	u := pgtest.User(t, st, "USER").ID
	risky, err := s.Create(ctx, u, Input{Mood: 1, Note: new("I want to kill myself tonight")})
	if err != nil {
		t.Fatal(err)
	}
	plain, err := s.Create(ctx, u, Input{Mood: 2, Note: new("Exams tomorrow, barely slept")})
	if err != nil {
		t.Fatal(err)
	}
	if risky.Safety == "" || plain.Safety != "" {
		t.Fatalf("risky %q, plain %q", risky.Safety, plain.Safety)
	}
	changed, err := s.Update(ctx, u, risky.ID, Patch{Note: new("Feeling a bit better now")})
	if err != nil || changed.Safety != "" {
		t.Fatalf("changed to a plain note: %+v, %v", changed, err)
	}
	cleared, err := s.Update(ctx, u, plain.ID, Patch{Note: new("  ")})
	if err != nil || cleared.Note != nil {
		t.Fatalf("cleared: %+v, %v", cleared, err)
	}
}

// TestWritesAreRateLimited: check-in writes stop at the hourly limit with a 429.
func TestWritesAreRateLimited(t *testing.T) {
	ctx := context.Background()
	st := pgtest.New(t)
	s := New(st, nil)
	at := time.Now()
	s.limiter.Now = func() time.Time { return at } // one window for the whole test
	u := pgtest.User(t, st, "USER").ID
	var err error
	for range WritesPerHour.Limit + 1 {
		if _, err = s.Create(ctx, u, Input{Mood: 3}); err != nil {
			break
		}
	}
	var limit *apperr.LimitError
	if !errors.As(err, &limit) || limit.RetryAfter <= 0 {
		t.Fatalf("after %d writes: %v", WritesPerHour.Limit+1, err)
	}
	// A refused write stores nothing, and is counted (hammering does not shorten the wait):
	// the count and the check-in are one transaction, and over the limit it is rolled back and
	// counted again on its own.
	if _, err := s.Create(ctx, u, Input{Mood: 2, Note: new("one more")}); !errors.As(err, &limit) {
		t.Fatalf("the write after the refusal: %v", err)
	}
	var stored, counted int
	if err := st.Pool().QueryRow(ctx, "SELECT count(*) FROM checkins WHERE user_id = $1", u).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if err := st.Pool().QueryRow(ctx, "SELECT coalesce(sum(count), 0) FROM rate_limits WHERE key LIKE $1", WritesPerHour.Name+":%").Scan(&counted); err != nil {
		t.Fatal(err)
	}
	if stored != WritesPerHour.Limit || counted != WritesPerHour.Limit+2 {
		t.Errorf("stored %d check-ins (want %d), counted %d writes (want %d)", stored, WritesPerHour.Limit, counted, WritesPerHour.Limit+2)
	}
}

// TestAccountDeletionTakesCheckins: deleting the account deletes its check-ins.
func TestAccountDeletionTakesCheckins(t *testing.T) {
	ctx := context.Background()
	st := pgtest.New(t)
	s := New(st, nil)
	u := pgtest.User(t, st, "USER").ID
	if _, err := s.Create(ctx, u, Input{Mood: 3, Note: new("a note")}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Queries().DeleteUser(ctx, u); err != nil { // as account.DeleteAccount does
		t.Fatal(err)
	}
	var n int
	if err := st.Pool().QueryRow(ctx, "SELECT count(*) FROM checkins WHERE user_id = $1", u).Scan(&n); err != nil || n != 0 {
		t.Fatalf("check-ins left: %d, %v", n, err)
	}
}

// TestKeptCheckinDatesBack: a check-in with a client id (kept offline, sent when the
// connection returns) may be dated up to KeptDaysBack days before today and is stored on that
// day; one without may be a day either side; neither more than a day ahead. Both sides of
// each boundary, with the clock at the end of a UTC day.
func TestKeptCheckinDatesBack(t *testing.T) {
	ctx := context.Background()
	st := pgtest.New(t)
	s := New(st, nil)
	s.now = func() time.Time { return time.Date(2026, 3, 10, 23, 59, 0, 0, time.UTC) }
	u := pgtest.User(t, st, "USER").ID
	for _, c := range []struct {
		date string
		kept bool
		ok   bool
	}{
		{"2026-03-03", true, true}, // seven days back
		{"2026-03-02", true, false},
		{"2026-03-11", true, true},
		{"2026-03-12", true, false},
		{"2026-03-09", false, true},
		{"2026-03-08", false, false},
		{"2026-03-11", false, true},
		{"2026-03-12", false, false},
	} {
		in := Input{Mood: 2, LocalDate: new(date(c.date))}
		if c.kept {
			in.ClientID = new(uuid.New())
		}
		saved, err := s.Create(ctx, u, in)
		if !c.ok {
			var invalid *apperr.ValidationError
			if !errors.As(err, &invalid) || invalid.Fields["localDate"] == "" {
				t.Errorf("%s (kept %v): %v, want a refusal naming localDate", c.date, c.kept, err)
			}
			continue
		}
		if err != nil || !saved.LocalDate.Equal(date(c.date)) {
			t.Errorf("%s (kept %v): %+v, %v", c.date, c.kept, saved.Checkin, err)
		}
	}
}

// TestContractStatesKeptDaysBack: the contract says how far back a kept check-in may be dated.
func TestContractStatesKeptDaysBack(t *testing.T) {
	spec, err := os.ReadFile("../../../openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("up to %d days before today", KeptDaysBack); !strings.Contains(strings.Join(strings.Fields(string(spec)), " "), want) {
		t.Errorf("openapi.yaml does not say %q", want)
	}
}
