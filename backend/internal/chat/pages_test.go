package chat

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/percolate/percolate/backend/internal/apperr"
	dbgen "github.com/percolate/percolate/gen/db"
)

// list is every page of the user's sessions (matching q), joined.
func (f *fixture) list(t *testing.T, uid uuid.UUID, q string) []Session {
	t.Helper()
	var all []Session
	cursor := ""
	for {
		p, err := f.svc.Sessions(context.Background(), uid, q, MaxPageLimit, cursor)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, p.Items...)
		if cursor = p.Next; cursor == "" {
			return all
		}
	}
}

// seedSessions inserts n sessions for the user directly, updated one second apart from start
// going back, except that every fourth shares its time with the one before (ties are ordered by
// id). Titles are "<prefix> i"; the last messages are distinct hex strings.
func (f *fixture) seedSessions(t *testing.T, uid uuid.UUID, n int, prefix string, start time.Time) {
	t.Helper()
	_, err := f.st.Pool().Exec(context.Background(), `
		INSERT INTO chat_sessions (user_id, title, last_message, created_at, updated_at)
		SELECT $1, $2 || ' ' || i, md5(i::text || $2), $3::timestamptz - (i - i / 4) * interval '1 second',
		       $3::timestamptz - (i - i / 4) * interval '1 second'
		FROM generate_series(1, $4::int) AS i`, uid, prefix, start, n)
	if err != nil {
		t.Fatal(err)
	}
}

func TestSessionPagesJoinUpInOrder(t *testing.T) {
	f := newFixture(t, false, nil)
	ctx := context.Background()
	uid, other := f.user(t, "USER"), f.user(t, "USER")
	start := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	f.seedSessions(t, uid, 131, "Mine", start)
	f.seedSessions(t, other, 40, "Theirs", start.Add(time.Millisecond))

	var want []uuid.UUID
	rows, err := f.st.Pool().Query(ctx, `SELECT id FROM chat_sessions WHERE user_id = $1 ORDER BY updated_at DESC, id DESC`, uid)
	if err != nil {
		t.Fatal(err)
	}
	want, err = pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
	if err != nil || len(want) != 131 {
		t.Fatalf("seeded %d, %v", len(want), err)
	}

	for _, limit := range []int{1, 7, 50, 131, 200} {
		var got []uuid.UUID
		cursor, pages := "", 0
		for {
			p, err := f.svc.Sessions(ctx, uid, "", limit, cursor)
			if err != nil {
				t.Fatal(err)
			}
			pages++
			if len(p.Items) > limit || (p.Next != "" && len(p.Items) != limit) {
				t.Fatalf("limit %d: page of %d, next %q", limit, len(p.Items), p.Next)
			}
			for _, s := range p.Items {
				got = append(got, s.ID)
			}
			if cursor = p.Next; cursor == "" {
				break
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("limit %d: pages joined to %d sessions, not the %d in order (gaps, repeats or another user's)", limit, len(got), len(want))
		}
		if wantPages := (131 + limit - 1) / limit; pages != wantPages {
			t.Errorf("limit %d: %d pages, want %d", limit, pages, wantPages)
		}
	}

	// Without a limit the page holds 50.
	p, err := f.svc.Sessions(ctx, uid, "", 0, "")
	if err != nil || len(p.Items) != DefaultPageLimit || p.Next == "" {
		t.Fatalf("default page: %d, %q, %v", len(p.Items), p.Next, err)
	}

	// A search pages the same way and stays the caller's.
	mine := f.list(t, uid, "mine 1")
	for _, s := range mine {
		if !strings.HasPrefix(strings.ToLower(s.Title), "mine 1") {
			t.Fatalf("search found %q", s.Title)
		}
	}
	if len(mine) != 43 { // Mine 1, 10-19, 100-131
		t.Errorf("search found %d sessions, want 43", len(mine))
	}
	sp, err := f.svc.Sessions(ctx, uid, "MINE 1", 10, "")
	if err != nil || len(sp.Items) != 10 || sp.Next == "" {
		t.Fatalf("search page: %d, %q, %v", len(sp.Items), sp.Next, err)
	}
	if got := f.list(t, uid, "theirs"); len(got) != 0 {
		t.Errorf("another user's sessions found: %d", len(got))
	}
	if got := f.list(t, other, "mine"); len(got) != 0 {
		t.Errorf("the other user found %d of mine", len(got))
	}
	// The other user's cursor taken from my pages shows none of mine.
	p2, err := f.svc.Sessions(ctx, other, "", 200, p.Next)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range p2.Items {
		if !strings.HasPrefix(s.Title, "Theirs") {
			t.Fatalf("another user's cursor showed %q", s.Title)
		}
	}
	// Wildcards in a query are literal.
	if got := f.list(t, uid, "%"); len(got) != 0 {
		t.Errorf("%% matched %d sessions", len(got))
	}
	if got := f.list(t, uid, "_"); len(got) != 0 {
		t.Errorf("_ matched %d sessions", len(got))
	}
}

func TestSessionPagesRejectBadLimitAndCursor(t *testing.T) {
	f := newFixture(t, false, nil)
	uid := f.user(t, "USER")
	for _, limit := range []int{-1, MaxPageLimit + 1} {
		_, err := f.svc.Sessions(context.Background(), uid, "", limit, "")
		var ve *apperr.ValidationError
		if !errors.As(err, &ve) || ve.Fields["limit"] == "" {
			t.Errorf("limit %d: %v, want a validation error naming limit", limit, err)
		}
	}
	good := encodeCursor(time.Now(), uuid.New())
	for _, c := range []string{"x", "!!", good + "A", "MTIz", "YWJjX2Rl", encodeCursor(time.Now(), uuid.Nil)[:10]} {
		_, err := f.svc.Sessions(context.Background(), uid, "", 10, c)
		var ve *apperr.ValidationError
		if !errors.As(err, &ve) || ve.Fields["cursor"] != MsgBadCursor {
			t.Errorf("cursor %q: %v, want a validation error naming cursor", c, err)
		}
	}
	if _, err := f.svc.Sessions(context.Background(), uid, "", 10, good); err != nil {
		t.Errorf("a good cursor: %v", err)
	}
}

// recorder is a dbgen.DBTX that keeps the SQL and arguments of a query instead of running it.
type recorder struct {
	sql  string
	args []any
}

var errRecorded = errors.New("recorded")

func (r *recorder) Exec(context.Context, string, ...any) (pgconn.CommandTag, error) {
	return pgconn.CommandTag{}, errRecorded
}

func (r *recorder) Query(_ context.Context, sql string, args ...any) (pgx.Rows, error) {
	r.sql, r.args = sql, args
	return nil, errRecorded
}

func (r *recorder) QueryRow(context.Context, string, ...any) pgx.Row { return nil }

// TestSearchUsesTheTrigramIndex explains the search query, as the service sends it, for a user
// with 10,000 sessions, first alone in the table and then among 40,000: each plan reads the
// user's trigram index (chat_sessions_search_idx), not every session. Alone, the three
// per-column indexes of migration 00011 lost to a sequential scan of the whole table for a rare
// term (148 ms for 10,000 sessions). The planner is left free (sequential scans stay on). VACUUM
// moves the rows just inserted out of the GIN index's pending list, as autovacuum does in use;
// before it the planner prices them high.
func TestSearchUsesTheTrigramIndex(t *testing.T) {
	f := newFixture(t, false, nil)
	ctx := context.Background()
	uid := f.user(t, "USER")
	f.seedSessions(t, uid, 10000, "Evening", time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC))
	if _, err := f.st.Pool().Exec(ctx, `UPDATE chat_sessions SET title = 'A Needle in the hay' WHERE id = (SELECT id FROM chat_sessions WHERE user_id = $1 LIMIT 1)`, uid); err != nil {
		t.Fatal(err)
	}
	explain := func(query string) string {
		t.Helper()
		var rec recorder
		_, err := dbgen.New(&rec).SearchSessionsPage(ctx, dbgen.SearchSessionsPageParams{
			UserID: uid, AfterUpdated: firstPage, Pattern: likePattern(query), MaxRows: DefaultPageLimit + 1,
		})
		if !errors.Is(err, errRecorded) {
			t.Fatal(err)
		}
		rows, err := f.st.Pool().Query(ctx, "EXPLAIN "+rec.sql, rec.args...)
		if err != nil {
			t.Fatal(err)
		}
		lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(lines, "\n")
	}
	check := func(table string) {
		t.Helper()
		if _, err := f.st.Pool().Exec(ctx, `VACUUM ANALYZE chat_sessions`); err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{"needle", "no such words"} {
			plan := explain(q)
			t.Logf("EXPLAIN search %q, %s:\n%s", q, table, plan)
			if !strings.Contains(plan, "chat_sessions_search_idx") {
				t.Errorf("search %q, %s, does not use the trigram index:\n%s", q, table, plan)
			}
			if strings.Contains(plan, "Seq Scan") {
				t.Errorf("search %q, %s, scans the table:\n%s", q, table, plan)
			}
		}
	}
	check("the user alone in the table")
	for range 3 { // other people's sessions share the table, as they do in use
		f.seedSessions(t, f.user(t, "USER"), 10000, "Morning", time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC))
	}
	check("among 40,000 sessions")
	if got := f.list(t, uid, "needle"); len(got) != 1 {
		t.Errorf("needle found %d times", len(got))
	}
}
