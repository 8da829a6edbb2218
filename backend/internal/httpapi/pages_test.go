package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/percolate/percolate/gen/api"
)

var nextLink = regexp.MustCompile(`^<([^>]+)>; rel="next"$`)

// TestSessionListsArePagedWithALinkHeader follows the Link headers of both lists from the first
// page to the last: every session once, newest first, only the caller's, and no Link on the last.
func TestSessionListsArePagedWithALinkHeader(t *testing.T) {
	e := newChatEnv(t, nil)
	owner, other := e.user(t, "USER"), e.user(t, "USER")
	for _, uid := range []string{owner, other} {
		if _, err := e.st.Pool().Exec(context.Background(), `
			INSERT INTO chat_sessions (user_id, title, updated_at)
			SELECT $1, 'Walk ' || i, now() - (i / 2) * interval '1 minute'
			FROM generate_series(1, 23) AS i`, uid); err != nil {
			t.Fatal(err)
		}
	}
	var want []string
	rows, _ := e.st.Pool().Query(context.Background(), `SELECT id::text FROM chat_sessions WHERE user_id = $1 ORDER BY updated_at DESC, id DESC`, owner)
	for rows.Next() {
		var id string
		_ = rows.Scan(&id)
		want = append(want, id)
	}
	rows.Close()

	c, ctx := apiClient(t, e.h, "192.0.2.1"), context.Background()
	walk := "walk"
	for _, list := range []struct {
		path  string
		query *string
		limit int
	}{
		{"/api/chat/sessions", nil, 5},
		{"/api/profile/sessions", &walk, 5},
		{"/api/profile/sessions", nil, 10},
	} {
		name := fmt.Sprintf("%s?limit=%d", list.path, list.limit)
		if list.query != nil {
			name += "&query=" + *list.query
		}
		// page is one page of the list and the next page's Link, from the typed answer.
		page := func(cursor *string) ([]api.SessionListItem, string) {
			limit := list.limit
			if list.path == "/api/chat/sessions" {
				res, err := c.ListChatSessionsWithResponse(ctx, &api.ListChatSessionsParams{Limit: &limit, Cursor: cursor}, bearer(owner))
				wantStatus(t, res, err, http.StatusOK)
				return *res.JSON200, res.HTTPResponse.Header.Get("Link")
			}
			res, err := c.SearchProfileSessionsWithResponse(ctx, &api.SearchProfileSessionsParams{Query: list.query, Limit: &limit, Cursor: cursor}, bearer(owner))
			wantStatus(t, res, err, http.StatusOK)
			return *res.JSON200, res.HTTPResponse.Header.Get("Link")
		}
		var got []string
		var cursor *string
		pages := 0
		for {
			items, link := page(cursor)
			for _, s := range items {
				got = append(got, s.Id.String())
			}
			pages++
			if link == "" {
				break
			}
			if pages > 23 {
				t.Fatalf("%s: still a Link after %d pages", name, pages)
			}
			m := nextLink.FindStringSubmatch(link)
			if m == nil {
				t.Fatalf("%s: Link = %q", name, link)
			}
			next := nextPage(t, name, m[1], list.path, list.query, list.limit)
			cursor = &next
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("%s: pages joined to %d sessions, want the owner's %d in order", name, len(got), len(want))
		}
		if want := (23 + list.limit - 1) / list.limit; pages != want {
			t.Errorf("%s: %d pages, want %d", name, pages, want)
		}
	}
	// Without a limit the page is 50: all 23, and no Link.
	res, err := c.ListChatSessionsWithResponse(ctx, nil, bearer(owner))
	wantStatus(t, res, err, http.StatusOK)
	if n := len(*res.JSON200); n != 23 {
		t.Errorf("a page without a limit has %d sessions, want all 23", n)
	}
	if link := res.HTTPResponse.Header.Get("Link"); link != "" {
		t.Errorf("a single page has a Link: %q", link)
	}
}

// nextPage checks that a Link's target asks for the next page of the same list (same path,
// limit and query, and a cursor, nothing else) and returns its cursor.
func nextPage(t *testing.T, list, target, path string, query *string, limit int) string {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatalf("%s: next %q: %v", list, target, err)
	}
	if u.Path != path {
		t.Errorf("%s: next path = %s, want %s", list, u.Path, path)
	}
	q := u.Query()
	if got := q.Get("limit"); got != strconv.Itoa(limit) {
		t.Errorf("%s: next limit = %q, want %d", list, got, limit)
	}
	if query == nil && q.Has("query") {
		t.Errorf("%s: next query = %q, want none", list, q.Get("query"))
	}
	if query != nil && q.Get("query") != *query {
		t.Errorf("%s: next query = %q, want %q", list, q.Get("query"), *query)
	}
	for name := range q {
		if name != "limit" && name != "query" && name != "cursor" {
			t.Errorf("%s: next has %s, which the list does not take", list, name)
		}
	}
	cursor := q.Get("cursor")
	if cursor == "" {
		t.Fatalf("%s: next %q has no cursor", list, target)
	}
	return cursor
}

func TestSessionListsRejectABadLimitOrCursor(t *testing.T) {
	e := newChatEnv(t, nil)
	tok := e.user(t, "USER")
	cases := map[string]string{
		"limit=0":                 "limit",
		"limit=201":               "limit",
		"limit=-3":                "limit",
		"limit=ten":               "limit",
		"cursor=":                 "cursor",
		"cursor=%21%21":           "cursor",
		"cursor=bm90LWEtY3Vyc29y": "cursor",
	}
	for q, field := range cases {
		for _, path := range []string{"/api/chat/sessions?", "/api/profile/sessions?query=a&"} {
			res := e.call(http.MethodGet, path+q, tok, nil)
			v := wantValidationError(t, path+q, res.Code, res.Body.Bytes())
			if _, ok := v.Details[field]; !ok {
				t.Errorf("%s%s: details = %v, want one for %s", path, q, v.Details, field)
			}
		}
	}
}

// TestSessionListItemsAreTheSessionsReadWhole holds every item of both lists, as bytes, equal
// to GET /api/profile/sessions/{id} of the same session, which reads the session's whole row:
// the lists read only the columns an item shows, and decode them by hand. The sessions vary in
// every column an item shows or hides (NULLs, empty and non-ASCII text, emotions, closing
// feelings, end reasons and tokens, active and ended), for a role that sees summaries and one
// that does not.
func TestSessionListItemsAreTheSessionsReadWhole(t *testing.T) {
	e := newChatEnv(t, nil)
	ctx := context.Background()
	for _, role := range []string{"USER", "PREMIUM"} {
		uid := e.user(t, role)
		if _, err := e.st.Pool().Exec(ctx, `
			INSERT INTO chat_sessions (user_id, title, status, tokens_used, token_limit, summary, emotions, end_reason,
			                           last_message, closing_feeling, updated_at, ended_at)
			SELECT $1,
			       CASE i % 3 WHEN 0 THEN '' WHEN 1 THEN 'Séance ' || i || ' — 日本語 🙂 <b>&' ELSE repeat('long title ', 15) END,
			       CASE WHEN i % 2 = 0 THEN 'ENDED' ELSE 'ACTIVE' END,
			       i * 7, 1000 + i,
			       CASE WHEN i % 4 = 2 THEN NULL ELSE 'A summary, "quoted" \ ' || i END,
			       CASE i % 4 WHEN 0 THEN '{}'::text[] WHEN 1 THEN ARRAY['calm'] ELSE ARRAY['calm', 'hope', 'tiredness', 'anxiety', 'gratitude'] END,
			       CASE WHEN i % 5 = 0 THEN 'user' ELSE NULL END,
			       CASE WHEN i % 3 = 0 THEN '' ELSE 'last ' || i || E'\n\tline' END,
			       CASE i % 4 WHEN 0 THEN NULL WHEN 1 THEN 'better' WHEN 2 THEN 'same' ELSE 'worse' END,
			       now() - i * interval '1 minute' - i * interval '1 microsecond',
			       CASE WHEN i % 2 = 0 THEN now() ELSE NULL END
			FROM generate_series(1, 30) AS i`, uid); err != nil {
			t.Fatal(err)
		}
		for _, target := range []string{"/api/chat/sessions?limit=200", "/api/profile/sessions?limit=200", "/api/profile/sessions?query=e&limit=7"} {
			res := e.call(http.MethodGet, target, uid, nil)
			if res.Code != http.StatusOK {
				t.Fatalf("%s %s: %d %s", role, target, res.Code, res.Body)
			}
			var items []json.RawMessage
			if err := json.Unmarshal(res.Body.Bytes(), &items); err != nil {
				t.Fatal(err)
			}
			if want := map[bool]int{true: 7, false: 30}[strings.Contains(target, "limit=7")]; len(items) != want {
				t.Fatalf("%s %s: %d items, want %d", role, target, len(items), want)
			}
			for _, item := range items {
				var it struct{ Id string }
				if err := json.Unmarshal(item, &it); err != nil {
					t.Fatal(err)
				}
				one := e.call(http.MethodGet, "/api/profile/sessions/"+it.Id, uid, nil)
				if one.Code != http.StatusOK {
					t.Fatalf("%s session %s: %d %s", role, it.Id, one.Code, one.Body)
				}
				if whole := bytes.TrimSuffix(one.Body.Bytes(), []byte("\n")); !bytes.Equal(item, whole) {
					t.Errorf("%s %s: the item of session %s differs from the session read whole:\nlist  %s\nwhole %s", role, target, it.Id, item, whole)
				}
			}
		}
	}
}
