package checkin

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/keyset"
	dbgen "github.com/percolate/percolate/gen/db"
)

// DefaultPageLimit and MaxPageLimit bound a page of the list (the contract's limit parameter).
const (
	DefaultPageLimit = 50
	MaxPageLimit     = 200
)

// MinTagSide is how many check-ins a tag needs on each side (with it and without it) to be shown.
const MinTagSide = 5

// msgBadCursor answers a cursor that no page handed out.
const msgBadCursor = "This isn't a page we know. Start again from the first page."

// Page is one page of check-ins and the cursor of the next ("" when none).
type Page struct {
	Items []Checkin
	Next  string
}

// List returns one page of the user's check-ins dated in [from, to] (nil: unbounded), newest
// first, after cursor ("" for the first page). limit 0 means the default.
func (s *Service) List(ctx context.Context, userID uuid.UUID, from, to *time.Time, limit int, cursor string) (Page, error) {
	if limit == 0 {
		limit = DefaultPageLimit
	}
	if limit < 1 || limit > MaxPageLimit {
		return Page{}, apperr.Invalid("limit", fmt.Sprintf("Must be between 1 and %d.", MaxPageLimit))
	}
	p := dbgen.ListCheckinsPageParams{UserID: userID, FromDate: time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC), ToDate: keyset.First, AfterCreated: keyset.First, MaxRows: int32(limit + 1)} // #nosec G115 -- at most MaxPageLimit+1
	if from != nil {
		p.FromDate = day(*from)
	}
	if to != nil {
		p.ToDate = day(*to)
	}
	if p.ToDate.Before(p.FromDate) {
		return Page{}, apperr.Invalid("to", "Must not be before from.")
	}
	if cursor != "" {
		var err error
		if p.AfterCreated, p.AfterID, err = keyset.Decode(cursor, apperr.Invalid("cursor", msgBadCursor)); err != nil {
			return Page{}, err
		}
	}
	rows, err := s.st.Queries().ListCheckinsPage(ctx, p)
	if err != nil {
		return Page{}, fmt.Errorf("list check-ins: %w", err)
	}
	var out Page
	if len(rows) > limit {
		rows = rows[:limit]
		last := rows[limit-1]
		out.Next = keyset.Encode(last.CreatedAt, last.ID)
	}
	out.Items = make([]Checkin, len(rows))
	for i, r := range rows {
		out.Items[i] = of(r)
	}
	return out, nil
}

// Mean is a mean mood and how many check-ins it is over.
type Mean struct {
	Mood  float64
	Count int
}

// DayMood is one day's mean mood.
type DayMood struct {
	Date time.Time
	Mean
}

// WeekdayMood is one weekday's mean mood; 0 is Monday.
type WeekdayMood struct {
	Weekday int
	Mean
}

// TagMood is a tag's mean mood with it and without it.
type TagMood struct {
	Tag           string
	With, Without Mean
}

// Summary is the view of moods over the last Days days up to To.
type Summary struct {
	Days          int
	From, To      time.Time
	PerDay        []DayMood
	DaysThisMonth int
	Weekdays      []WeekdayMood
	// Tags is nil for a tier without the tag patterns.
	Tags []TagMood
}

// maxSummaryRows bounds the check-ins one summary reads.
const maxSummaryRows = 20000

// Summary returns the user's summary over days (30 or 365) ending on today (the caller's own;
// nil: today in UTC). The year view and the tag patterns are for paid tiers.
func (s *Service) Summary(ctx context.Context, userID uuid.UUID, days int, today *time.Time) (Summary, error) {
	if days != 30 && days != 365 {
		return Summary{}, apperr.Invalid("days", "Must be 30 or 365.")
	}
	to, err := s.localDay("today", today, false)
	if err != nil {
		return Summary{}, err
	}
	u, err := s.st.Queries().GetUserByID(ctx, userID)
	if err != nil {
		return Summary{}, fmt.Errorf("check-in summary: %w", apperr.ErrUnauthorized)
	}
	patterns := s.tiers.For(u.Role).MoodPatterns
	if days == 365 && !patterns {
		return Summary{}, apperr.New(apperr.ErrForbidden, "MOOD_PATTERNS_NOT_INCLUDED", "The year view of your moods is part of the Basic and Premium plans. The last 30 days are always here.")
	}
	from := to.AddDate(0, 0, 1-days)
	rows, err := s.st.Queries().ListCheckinMoodsBetween(ctx, dbgen.ListCheckinMoodsBetweenParams{UserID: userID, FromDate: from, ToDate: to, MaxRows: maxSummaryRows})
	if err != nil {
		return Summary{}, fmt.Errorf("check-in summary: %w", err)
	}
	month := time.Date(to.Year(), to.Month(), 1, 0, 0, 0, 0, time.UTC)
	n, err := s.st.Queries().CountCheckinDaysBetween(ctx, dbgen.CountCheckinDaysBetweenParams{UserID: userID, FromDate: month, ToDate: to})
	if err != nil {
		return Summary{}, fmt.Errorf("check-in summary: %w", err)
	}
	out := summarize(rows, patterns)
	out.Days, out.From, out.To, out.DaysThisMonth = days, from, to, int(n)
	return out, nil
}

type acc struct{ sum, n int }

func (a *acc) add(m int32) { a.sum += int(m); a.n++ }

func (a acc) mean() Mean {
	if a.n == 0 {
		return Mean{}
	}
	return Mean{Mood: math.Round(float64(a.sum)/float64(a.n)*100) / 100, Count: a.n}
}

// summarize computes the per-day, per-weekday and (with patterns) per-tag means of rows,
// which are ordered by day. Means are rounded to two decimals.
func summarize(rows []dbgen.ListCheckinMoodsBetweenRow, patterns bool) Summary {
	var out Summary
	out.PerDay = []DayMood{}
	var weekdays [7]acc
	tagWith := make([]acc, len(Tags))
	var all acc
	for i := 0; i < len(rows); {
		j, d := i, acc{}
		for ; j < len(rows) && rows[j].LocalDate.Equal(rows[i].LocalDate); j++ {
			d.add(rows[j].Mood)
		}
		out.PerDay = append(out.PerDay, DayMood{Date: rows[i].LocalDate, Mean: d.mean()})
		i = j
	}
	for _, r := range rows {
		all.add(r.Mood)
		weekdays[(int(r.LocalDate.Weekday())+6)%7].add(r.Mood)
		for k, t := range Tags {
			if slices.Contains(r.Tags, t) {
				tagWith[k].add(r.Mood)
			}
		}
	}
	out.Weekdays = []WeekdayMood{}
	for w, a := range weekdays {
		if a.n > 0 {
			out.Weekdays = append(out.Weekdays, WeekdayMood{Weekday: w, Mean: a.mean()})
		}
	}
	if !patterns {
		return out
	}
	out.Tags = []TagMood{}
	for k, t := range Tags {
		with := tagWith[k]
		without := acc{sum: all.sum - with.sum, n: all.n - with.n}
		if with.n >= MinTagSide && without.n >= MinTagSide {
			out.Tags = append(out.Tags, TagMood{Tag: t, With: with.mean(), Without: without.mean()})
		}
	}
	return out
}
