package chat

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/keyset"
	"github.com/percolate/percolate/backend/internal/queue/queuetest"
	"github.com/percolate/percolate/backend/internal/store"
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
	good := keyset.Encode(time.Now(), uuid.New())
	for _, c := range []string{"x", "!!", good + "A", "MTIz", "YWJjX2Rl", keyset.Encode(time.Now(), uuid.Nil)[:10]} {
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

// explainAnalyze runs the one query that query sends, as the service sends it (recorded through
// a recorder), under EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF), and returns the plan.
func explainAnalyze(t *testing.T, f *fixture, query func(*dbgen.Queries) error) string {
	t.Helper()
	var rec recorder
	if err := query(dbgen.New(&rec)); !errors.Is(err, errRecorded) {
		t.Fatal(err)
	}
	rows, err := f.st.Pool().Query(context.Background(), "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) "+rec.sql, rec.args...)
	if err != nil {
		t.Fatal(err)
	}
	lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(lines, "\n")
}

// planNode is one node of an EXPLAIN (ANALYZE) plan: its name, the rows it gave and whether it
// ran at all.
type planNode struct {
	name string
	rows int
	ran  bool
}

var planLine = regexp.MustCompile(`^\s*(?:->\s+)?([A-Z][A-Za-z ]*?(?: using \w+| on \w+)?)(?: on \w+)?(?: \w+)? \((?:actual rows=(\d+) loops=\d+|never executed)\)`)

// planNodes reads the nodes of an EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) plan.
func planNodes(plan string) []planNode {
	var out []planNode
	for _, line := range strings.Split(plan, "\n") {
		m := planLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		n := planNode{name: m[1], ran: m[2] != ""}
		if n.ran {
			n.rows, _ = strconv.Atoi(m[2])
		}
		out = append(out, n)
	}
	return out
}

// TestSearchUsesTheTrigramIndex runs the search query under EXPLAIN ANALYZE, as the service
// sends it, for a user with 10,000 sessions, first alone in the table and then among 40,000.
//
// A rare term is found through the user's trigram index (chat_sessions_search_text_idx), not by
// reading every session: alone, the three per-column indexes of migration 00011 lost to a
// sequential scan of the whole table (148 ms for 10,000 sessions). Before it, the query reads
// the newest sessions in order, but no more than the head (searchHead rows per page row).
//
// A common term, in every seventh session as in the bench, is read newest first from the
// (user_id, updated_at, id) index and the reading stops once the page is full (about 350 rows);
// the trigram index is not used, so its ~1,430 matches are neither fetched nor sorted. Among
// 40,000 sessions, table-wide statistics price "rain" at 301 matches for the user, and a plain
// query then fetched them all from the trigram index to sort them (migration 00014's query).
//
// No plan lower-cases the rows it reads: they test the stored search_text (migration 00015).
// The planner is left free (sequential scans stay on). VACUUM moves the rows just inserted out
// of the GIN index's pending list, as autovacuum does in use; before it the planner prices them
// high.
func TestSearchUsesTheTrigramIndex(t *testing.T) {
	f := newFixture(t, false, nil)
	ctx := context.Background()
	uid := f.user(t, "USER")
	// Every seventh session, newest first, mentions rain, as in the bench; one old one has a
	// needle in its title. (An UPDATE would make them the newest: the trigger sets updated_at.)
	if _, err := f.st.Pool().Exec(ctx, `
		INSERT INTO chat_sessions (user_id, title, last_message, created_at, updated_at)
		SELECT $1, CASE WHEN i = 6000 THEN 'A Needle in the hay' ELSE 'Evening ' || i END,
		       CASE WHEN i % 7 = 0 THEN 'The rain kept me in today.' ELSE md5(i::text) END,
		       $2::timestamptz - i * interval '1 second', $2::timestamptz - i * interval '1 second'
		FROM generate_series(1, 10000) AS i`, uid, time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	const maxRows = DefaultPageLimit + 1
	explain := func(query string) string {
		t.Helper()
		return explainAnalyze(t, f, func(q *dbgen.Queries) error {
			_, err := q.SearchSessionsPage(ctx, dbgen.SearchSessionsPageParams{
				UserID: uid, AfterUpdated: keyset.First, Pattern: likePattern(query), MaxRows: maxRows,
				HeadRows: maxRows * searchHead,
			})
			return err
		})
	}
	check := func(table string) {
		t.Helper()
		if _, err := f.st.Pool().Exec(ctx, `VACUUM ANALYZE chat_sessions`); err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{"needle", "no such words", "RAIN"} {
			plan := explain(q)
			t.Logf("EXPLAIN ANALYZE search %q, %s:\n%s", q, table, plan)
			if strings.Contains(plan, "Seq Scan") {
				t.Errorf("search %q, %s, scans the table", q, table)
			}
			if strings.Contains(plan, "lower(") {
				t.Errorf("search %q, %s, lower-cases the rows it reads rather than reading search_text", q, table)
			}
			var walked, trigram int
			usedTrigram := false
			for _, n := range planNodes(plan) {
				switch {
				case !n.ran:
				case n.name == "Index Scan using chat_sessions_user_id_updated_at_id_idx":
					walked += n.rows
				case n.name == "Bitmap Heap Scan":
					trigram += n.rows
				case n.name == "Bitmap Index Scan on chat_sessions_search_text_idx":
					usedTrigram = true
				}
			}
			if walked == 0 || walked > maxRows*searchHead {
				t.Errorf("search %q, %s, read %d sessions in order, want 1 to %d", q, table, walked, maxRows*searchHead)
			}
			if q != "RAIN" {
				if !usedTrigram {
					t.Errorf("search %q, %s, does not use the trigram index", q, table)
				}
				continue
			}
			// The common term: read newest first until the page is full, nothing from the
			// trigram index.
			if usedTrigram || trigram > 0 {
				t.Errorf("search %q, %s, fetched %d matches from the trigram index to sort them", q, table, trigram)
			}
			if walked != 7*maxRows { // the page's last match is the 357th session
				t.Errorf("search %q, %s, read %d sessions in order for a page of %d, want %d", q, table, walked, maxRows, 7*maxRows)
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
	rain := f.list(t, uid, "Rain")
	if len(rain) != 10000/7 {
		t.Errorf("rain found %d times, want %d", len(rain), 10000/7)
	}
	for i, s := range rain {
		if !strings.Contains(s.LastMessage, "rain") || i > 0 && rain[i-1].UpdatedAt.Before(s.UpdatedAt) {
			t.Fatalf("rain result %d: %q at %v", i, s.LastMessage, s.UpdatedAt)
		}
	}
}

// TestHistoryReadStopsAtItsPage runs a send's reads of history (ListContextMessages, as many
// rows as the previous send needed, and ListRecentMessages, a page of historyPage) under
// EXPLAIN ANALYZE for a session of 2,000 messages whose rows are interleaved
// in the table with those of 1,000 other sessions, as they are in use. The read is a backward
// scan of the (session_id, user_id, created_at) index that stops at its limit: no sort, and no
// more rows read than the limit, however long the session.
//
// The planner multiplied the selectivities of session_id and user_id as if they were
// independent, expected a few dozen rows, and read the whole session by a bitmap scan to sort
// it (1 ms here, growing with the session). Migration 00016's statistics tell it that a session
// has one owner.
func TestHistoryReadStopsAtItsPage(t *testing.T) {
	f := newFixture(t, false, nil)
	ctx := context.Background()
	uid := f.user(t, "USER")
	start := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	var long uuid.UUID
	if _, err := f.st.Pool().Exec(ctx, `
		WITH people AS (
			INSERT INTO users (email, name) SELECT 'p' || g || '@example.com', 'P' FROM generate_series(1, 49) g RETURNING id
		), sessions AS (
			INSERT INTO chat_sessions (user_id, title, last_message)
			SELECT id, 'Other', 'Hello' FROM people, generate_series(1, 20)
			UNION ALL SELECT $1, 'Other', 'Hello' FROM generate_series(1, 19)
			RETURNING id, user_id
		)
		INSERT INTO messages (session_id, user_id, role, content, token_count, created_at)
		SELECT id, user_id, 'user', 'message ' || g, 20, $2::timestamptz + g * interval '1 second'
		FROM sessions, generate_series(1, 100) g`, uid, start); err != nil {
		t.Fatal(err)
	}
	if err := f.st.Pool().QueryRow(ctx, `INSERT INTO chat_sessions (user_id, title, last_message) VALUES ($1, 'Long', 'Hello') RETURNING id`, uid).Scan(&long); err != nil {
		t.Fatal(err)
	}
	if _, err := f.st.Pool().Exec(ctx, `
		INSERT INTO messages (session_id, user_id, role, content, token_count, created_at)
		SELECT $1, $2, 'user', 'long ' || g, 20, $3::timestamptz + g * interval '50 ms'
		FROM generate_series(1, 2000) g`, long, uid, start); err != nil {
		t.Fatal(err)
	}
	if _, err := f.st.Pool().Exec(ctx, `ANALYZE messages`); err != nil {
		t.Fatal(err)
	}
	// The first read of a send (ListContextMessages) takes as many rows as the previous send
	// needed, here more than a page; a further read takes a page (ListRecentMessages).
	const needed = 180
	if _, err := f.st.Pool().Exec(ctx, `UPDATE chat_sessions SET context_rows = $2 WHERE id = $1`, long, needed); err != nil {
		t.Fatal(err)
	}
	for _, read := range []struct {
		name string
		rows int
		run  func(q *dbgen.Queries) error
	}{
		{"ListContextMessages", needed, func(q *dbgen.Queries) error {
			_, err := q.ListContextMessages(ctx, dbgen.ListContextMessagesParams{SessionID: long, UserID: uid, MinRows: historyPage})
			return err
		}},
		{"ListRecentMessages", historyPage, func(q *dbgen.Queries) error {
			_, err := q.ListRecentMessages(ctx, dbgen.ListRecentMessagesParams{SessionID: long, UserID: uid, MaxRows: historyPage})
			return err
		}},
	} {
		plan := explainAnalyze(t, f, read.run)
		t.Logf("EXPLAIN ANALYZE of a send's history read (%s), a session of 2,000 messages:\n%s", read.name, plan)
		if strings.Contains(plan, "Sort") || strings.Contains(plan, "Bitmap") {
			t.Errorf("%s sorts or bitmap-scans the session rather than reading its newest rows in index order", read.name)
		}
		scanned := false
		for _, n := range planNodes(plan) {
			if strings.HasPrefix(n.name, "Index Scan Backward using messages_session_user_created_at_idx") {
				scanned = true
				if n.rows != read.rows {
					t.Errorf("%s: the index scan gave %d rows, want %d", read.name, n.rows, read.rows)
				}
			}
		}
		if !scanned {
			t.Errorf("%s does not scan messages_session_user_created_at_idx backward", read.name)
		}
	}
}

// A deleted account's reads are refused as unauthorised, not answered as an empty list or a
// missing session: the role is read with them, and its absence is the account's.
func TestReadsOfADeletedAccountAreUnauthorized(t *testing.T) {
	f := newFixture(t, false, nil)
	ctx := context.Background()
	uid := f.user(t, "BASIC")
	sid := f.newSession(t, uid)
	if _, err := f.st.Pool().Exec(ctx, "DELETE FROM users WHERE id = $1", uid); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Sessions(ctx, uid, "", MaxPageLimit, ""); !errors.Is(err, apperr.ErrUnauthorized) {
		t.Errorf("list: err = %v, want unauthorized", err)
	}
	if _, err := f.svc.Sessions(ctx, uid, "walk", MaxPageLimit, ""); !errors.Is(err, apperr.ErrUnauthorized) {
		t.Errorf("search: err = %v, want unauthorized", err)
	}
	if _, err := f.svc.Detail(ctx, uid, sid); !errors.Is(err, apperr.ErrUnauthorized) {
		t.Errorf("detail: err = %v, want unauthorized", err)
	}
}

// TestSessionListIsNotPlannedOnEveryRead reads the first page of a user with two sessions ten
// times on one connection, among 3,000 sessions of another user, and then asks PostgreSQL how
// it planned the list's prepared statement there: once its five custom plans are made, every
// read runs the one generic plan. That plan is the index scan of (user_id, updated_at, id)
// that stops at the LIMIT: for the user with 3,000 sessions it reads the 51 rows of a page
// of 50, and sorts nothing.
//
// With the arguments in the planner's sight, a custom plan for the user with two sessions cost
// less than the generic plan (priced for a third of the table's rows), so PostgreSQL planned
// every read again: a quarter of its CPU under the bench's session list. The query reads its
// arguments through scalar subqueries, which the planner cannot see into (ListSessionsPage).
func TestSessionListIsNotPlannedOnEveryRead(t *testing.T) {
	f := newFixture(t, false, nil)
	ctx := context.Background()
	few, many := f.user(t, "USER"), f.user(t, "USER")
	start := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	f.seedSessions(t, few, 2, "Few", start)
	f.seedSessions(t, many, 3000, "Many", start)
	if _, err := f.st.Pool().Exec(ctx, `ANALYZE chat_sessions`); err != nil {
		t.Fatal(err)
	}
	// One connection: every read prepares and runs the statement on it, and pg_prepared_statements
	// (one connection's) is read on it too.
	u, err := url.Parse(f.st.Pool().Config().ConnString())
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("pool_max_conns", "1")
	u.RawQuery = q.Encode()
	one, err := store.Open(ctx, u.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(one.Close)
	svc := New(one, f.provider, Options{Queue: queuetest.New(t, f.st), Logger: quiet})

	const reads = 10
	for range reads {
		p, err := svc.Sessions(ctx, few, "", 0, "")
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Items) != 2 || p.Next != "" {
			t.Fatalf("page of %d sessions, next %q; want 2 and none", len(p.Items), p.Next)
		}
	}
	var name string
	var generic, custom int64
	err = one.Pool().QueryRow(ctx, `SELECT name, generic_plans, custom_plans FROM pg_prepared_statements
		WHERE statement LIKE '-- name: ListSessionsPage %'`).Scan(&name, &generic, &custom)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d reads: %d generic plans, %d custom plans", reads, generic, custom)
	if custom > 5 || generic+custom != reads {
		t.Errorf("%d reads of the list made %d custom plans and ran the generic plan %d times; want at most 5 custom plans", reads, custom, generic)
	}

	rows, err := one.Pool().Query(ctx, fmt.Sprintf(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) EXECUTE %s('%s', '%s', '%s', %d)`,
		pgx.Identifier{name}.Sanitize(), many, keyset.First.Format(time.RFC3339), uuid.Nil, DefaultPageLimit+1))
	if err != nil {
		t.Fatal(err)
	}
	lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	plan := strings.Join(lines, "\n")
	t.Logf("EXPLAIN ANALYZE of the statement on that connection, the user with 3,000 sessions:\n%s", plan)
	walked := -1
	for _, n := range planNodes(plan) {
		switch {
		case n.name == "Index Scan using chat_sessions_user_id_updated_at_id_idx":
			walked = n.rows
		case strings.Contains(n.name, "Sort") || strings.Contains(n.name, "Seq Scan") || strings.Contains(n.name, "Bitmap"):
			t.Errorf("the list's plan has a %s", n.name)
		}
	}
	if walked != DefaultPageLimit+1 {
		t.Errorf("the list read %d rows of the (user_id, updated_at, id) index for a page of %d, want %d", walked, DefaultPageLimit, DefaultPageLimit+1)
	}
}
