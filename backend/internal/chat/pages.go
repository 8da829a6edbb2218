package chat

import (
	"context"
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/keyset"
	"github.com/percolate/percolate/backend/internal/store"
	dbgen "github.com/percolate/percolate/gen/db"
)

// DefaultPageLimit and MaxPageLimit bound a page of the session lists (the contract's limit
// parameter has the same default and maximum).
const (
	DefaultPageLimit = 50
	MaxPageLimit     = 200
)

// MsgBadCursor answers a cursor that no page handed out.
const MsgBadCursor = "This isn't a page we know. Start again from the first page."

// Page is one page of the caller's sessions and the cursor of the next page ("" when none).
// Its items hold what a list item shows: their tokens and end reason are not read (zero).
// Version changes whenever an item would read differently: it is made of what the caller's
// tier may see and each item's id and row version (chat_sessions.version, one more at every
// write of the row), so two pages of one version hold the same items.
type Page struct {
	Items   []Session
	Next    string
	Version string
}

// searchHead is how many of the newest sessions, per row of the page, a search reads in order
// before it takes the term for a rare one and asks the trigram index for all its matches
// (SearchSessionsPage): a term in one session of ten or more fills its page from these.
const searchHead = 10

// likePattern is the LIKE pattern matching query anywhere, with its own % _ and \ taken literally.
func likePattern(query string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(query) + "%"
}

// Sessions lists one page of the caller's sessions, most recently updated first, starting after
// cursor ("" for the first page). A non-empty query keeps the sessions whose title, last message
// or id contains it, ignoring case. limit is clamped to 1..MaxPageLimit (0 means the default).
func (s *Service) Sessions(ctx context.Context, userID uuid.UUID, query string, limit int, cursor string) (Page, error) {
	switch {
	case limit == 0:
		limit = DefaultPageLimit
	case limit < 1 || limit > MaxPageLimit:
		return Page{}, apperr.Invalid("limit", fmt.Sprintf("Must be between 1 and %d.", MaxPageLimit))
	}
	afterUpdated, afterID := keyset.First, uuid.Nil
	if cursor != "" {
		var err error
		if afterUpdated, afterID, err = keyset.Decode(cursor, apperr.Invalid("cursor", MsgBadCursor)); err != nil {
			return Page{}, err
		}
	}
	// The caller's role and the page go out in one round trip. One row more than the page
	// says whether there is a next page.
	maxRows := int32(limit + 1)
	query = strings.TrimSpace(query)
	var pattern string
	if query != "" {
		pattern = likePattern(query)
	}
	var (
		role             string
		rows             []dbgen.ListSessionsPageRow
		found            []dbgen.SearchSessionsPageRow
		roleErr, pageErr error
	)
	b := store.NewBatch(func(q *dbgen.Queries) {
		role, roleErr = q.GetUserRole(ctx, userID)
		if query == "" {
			rows, pageErr = q.ListSessionsPage(ctx, dbgen.ListSessionsPageParams{
				UserID: userID, AfterUpdated: afterUpdated, AfterID: afterID, MaxRows: maxRows,
			})
		} else {
			found, pageErr = q.SearchSessionsPage(ctx, dbgen.SearchSessionsPageParams{
				UserID: userID, AfterUpdated: afterUpdated, AfterID: afterID, Pattern: pattern, MaxRows: maxRows,
				HeadRows: maxRows * searchHead,
			})
		}
	})
	if err := s.store.Send(ctx, b); err != nil {
		return Page{}, fmt.Errorf("list sessions: %w", err)
	}
	if err := userErr(roleErr); err != nil {
		return Page{}, err
	}
	if pageErr != nil {
		return Page{}, fmt.Errorf("list sessions: %w", pageErr)
	}
	for _, r := range found {
		rows = append(rows, dbgen.ListSessionsPageRow(r)) // the same columns
	}
	var p Page
	if len(rows) > limit {
		rows = rows[:limit]
		last := rows[limit-1]
		p.Next = keyset.Encode(last.UpdatedAt, last.ID)
	}
	p.Items = make([]Session, 0, len(rows))
	tier := s.limits.Tiers.For(role)
	version := make([]byte, 1, 1+len(rows)*(len(uuid.UUID{})+binary.MaxVarintLen64))
	if tier.Summaries {
		version[0] = 1
	}
	for _, row := range rows {
		p.Items = append(p.Items, view(listed(row), tier))
		version = binary.AppendVarint(append(version, row.ID[:]...), row.Version)
	}
	p.Version = string(version)
	return p, nil
}
