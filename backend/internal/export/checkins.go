package export

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/google/uuid"

	dbgen "github.com/percolate/percolate/gen/db"
)

// fileCheckin is one check-in in percolate-export.json.
type fileCheckin struct {
	ID        uuid.UUID `json:"id"`
	Mood      int32     `json:"mood"`
	Energy    *int32    `json:"energy"`
	Emotions  []string  `json:"emotions"`
	Tags      []string  `json:"tags"`
	Note      *string   `json:"note"`
	LocalDate string    `json:"localDate"`
	CreatedAt time.Time `json:"createdAt"`
}

// CheckinsFile is the journal's file of check-ins: one Markdown line each, oldest first.
const CheckinsFile = "checkins.md"

// moodWords names the moods as the check-in card does.
var moodWords = [...]string{1: "very low", 2: "low", 3: "okay", 4: "good", 5: "great"}

// eachCheckin calls fn for each of the user's check-ins, oldest first, a page at a time.
func eachCheckin(ctx context.Context, q *dbgen.Queries, userID uuid.UUID, fn func(dbgen.Checkin) error) error {
	after, afterID := time.Time{}, uuid.Nil
	for {
		page, err := q.ListCheckinsForExport(ctx, dbgen.ListCheckinsForExportParams{UserID: userID, AfterCreated: after, AfterID: afterID, MaxRows: pageSize})
		if err != nil {
			return fmt.Errorf("export check-ins: %w", err)
		}
		for _, c := range page {
			if err := fn(c); err != nil {
				return err
			}
		}
		if len(page) < pageSize {
			return nil
		}
		last := page[len(page)-1]
		after, afterID = last.CreatedAt, last.ID
	}
}

// writeCheckinsJSON writes the "checkins" array of percolate-export.json.
func writeCheckinsJSON(ctx context.Context, q *dbgen.Queries, userID uuid.UUID, raw func(string) error, part func(any) error) error {
	if err := raw(`,"checkins":[`); err != nil {
		return err
	}
	first := true
	err := eachCheckin(ctx, q, userID, func(c dbgen.Checkin) error {
		if !first {
			if err := raw(","); err != nil {
				return err
			}
		}
		first = false
		return part(fileCheckin{
			ID: c.ID, Mood: c.Mood, Energy: c.Energy, Emotions: nonNil(c.Emotions), Tags: nonNil(c.Tags), Note: c.Note,
			LocalDate: c.LocalDate.Format(time.DateOnly), CreatedAt: c.CreatedAt.UTC(),
		})
	})
	if err != nil {
		return err
	}
	return raw("]")
}

func nonNil(v []string) []string {
	if v == nil {
		return []string{}
	}
	return v
}

// checkinLine is one check-in as a line of the journal:
// "- 2026-11-29 (14:02 UTC): mood 2/5, low · energy 1/5 · tiredness · sleep, exams · “note”".
func checkinLine(c dbgen.Checkin) string {
	parts := []string{fmt.Sprintf("mood %d/5, %s", c.Mood, moodWords[min(max(c.Mood, 1), 5)])}
	if c.Energy != nil {
		parts = append(parts, fmt.Sprintf("energy %d/5", *c.Energy))
	}
	if len(c.Emotions) > 0 {
		parts = append(parts, strings.Join(c.Emotions, ", "))
	}
	if len(c.Tags) > 0 {
		parts = append(parts, strings.Join(c.Tags, ", "))
	}
	if c.Note != nil {
		parts = append(parts, "“"+strings.Join(strings.Fields(*c.Note), " ")+"”")
	}
	return fmt.Sprintf("- %s (%s UTC): %s\n", c.LocalDate.Format(time.DateOnly), c.CreatedAt.UTC().Format("15:04"), strings.Join(parts, " · "))
}

// writeCheckinsJournal writes checkins.md.
func writeCheckinsJournal(ctx context.Context, q *dbgen.Queries, userID uuid.UUID, w io.Writer) error {
	if _, err := io.WriteString(w, "# Check-ins\n\n"); err != nil {
		return err
	}
	return eachCheckin(ctx, q, userID, func(c dbgen.Checkin) error {
		_, err := io.WriteString(w, checkinLine(c))
		return err
	})
}
