package httpapi

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
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

	for _, first := range []string{"/api/chat/sessions?limit=5", "/api/profile/sessions?query=walk&limit=5", "/api/profile/sessions?limit=10"} {
		var got []string
		target, pages := first, 0
		for target != "" {
			res := e.call(http.MethodGet, target, owner, nil)
			if res.Code != http.StatusOK {
				t.Fatalf("%s: %d %s", target, res.Code, res.Body)
			}
			var list []map[string]any
			if err := json.Unmarshal(res.Body.Bytes(), &list); err != nil {
				t.Fatalf("%s: not an array: %s", target, res.Body)
			}
			for _, s := range list {
				got = append(got, s["id"].(string))
			}
			pages++
			target = ""
			if link := res.Header().Get("Link"); link != "" {
				m := nextLink.FindStringSubmatch(link)
				if m == nil {
					t.Fatalf("Link = %q", link)
				}
				u, _ := url.Parse(m[1])
				f, _ := url.Parse(first)
				if u.Path != f.Path || u.Query().Get("limit") != f.Query().Get("limit") || u.Query().Get("query") != f.Query().Get("query") || u.Query().Get("cursor") == "" {
					t.Fatalf("next of %s = %s", first, m[1])
				}
				target = m[1]
			}
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("%s: pages joined to %d sessions, want the owner's %d in order", first, len(got), len(want))
		}
		if limit := map[bool]int{true: 10, false: 5}[strings.Contains(first, "=10")]; pages != (23+limit-1)/limit {
			t.Errorf("%s: %d pages", first, pages)
		}
	}
	// Without a limit the page is 50: all 23, and no Link.
	if res := e.call(http.MethodGet, "/api/chat/sessions", owner, nil); res.Header().Get("Link") != "" {
		t.Errorf("a single page has a Link: %q", res.Header().Get("Link"))
	}
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
			body := res.json(t)
			details, _ := body["details"].(map[string]any)
			if res.Code != http.StatusBadRequest || body["code"] != "VALIDATION_ERROR" || details[field] == nil {
				t.Errorf("%s%s: %d %s, want a 400 naming %s", path, q, res.Code, res.Body, field)
			}
		}
	}
}
