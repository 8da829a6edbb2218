package httpapi

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/chat"
	"github.com/percolate/percolate/backend/internal/queue/queuetest"
)

// TestKeptDetailIsTheFreshAnswer: GET /api/chat/sessions/{id} answered with a kept answer
// (the first read, which keeps the gzipped answer, and the next, which writes it as kept) is
// byte for byte the answer of a server that keeps nothing, with the same headers: gzipped to a
// client that accepts gzip, plain to one that does not.
func TestKeptDetailIsTheFreshAnswer(t *testing.T) {
	e := newChatEnv(t, nil)
	uid := e.user(t, "PREMIUM")
	sid := e.newChat(t, uid)
	for _, msg := range []string{strings.Repeat("A long week of exams & <deadlines>. ", 40), "And now?"} {
		if res := e.call(http.MethodPost, "/api/chat/message", uid, map[string]any{"sessionId": sid, "message": msg}); res.Code != http.StatusOK {
			t.Fatalf("send: %d %s", res.Code, res.Body.String())
		}
	}
	svc := chat.New(e.st, e.p, chat.Options{Queue: queuetest.New(t, e.st), Logger: discardLogger(), PollInterval: time.Hour, DetailCacheBytes: -1})
	uncached := httptest.NewServer(newTestHandler(t, Deps{Verifier: chatTokens{}, Chat: svc}))
	defer uncached.Close()
	cached := httptest.NewServer(e.h)
	defer cached.Close()
	get := func(srv *httptest.Server, token, accept string) (*http.Response, []byte) {
		t.Helper()
		return getAnswer(t, srv.URL+"/api/chat/sessions/"+sid, token, accept)
	}
	headers := answerHeaders
	var plain []byte
	for _, accept := range []string{"", "gzip, deflate, br"} {
		want, wantBody := get(uncached, uid, accept)
		if want.StatusCode != http.StatusOK || (accept != "") != (want.Header.Get("Content-Encoding") == "gzip") {
			t.Fatalf("uncached (Accept-Encoding %q): %d, Content-Encoding %q", accept, want.StatusCode, want.Header.Get("Content-Encoding"))
		}
		for i, read := range []string{"the read that keeps it", "the read from the cache", "another read from the cache"} {
			got, body := get(cached, uid, accept)
			if got.StatusCode != want.StatusCode || !bytes.Equal(body, wantBody) {
				t.Fatalf("%s (Accept-Encoding %q): %d, %d bytes; want %d, %d bytes", read, accept, got.StatusCode, len(body), want.StatusCode, len(wantBody))
			}
			if g, w := headers(got), headers(want); !equalHeaders(g, w) {
				t.Fatalf("%s (Accept-Encoding %q): headers\n%v\nwant\n%v", read, accept, g, w)
			}
			if i == 0 && accept != "" && !bytes.Equal(gunzip(t, body), plain) {
				t.Fatal("the gzipped answer is not the plain one")
			}
		}
		if accept == "" {
			plain = wantBody
		}
	}
	// A new message moves the session's version: the answer is made again.
	if res := e.call(http.MethodPost, "/api/chat/message", uid, map[string]any{"sessionId": sid, "message": "One more thing."}); res.Code != http.StatusOK {
		t.Fatalf("send: %d %s", res.Code, res.Body.String())
	}
	_, want := get(uncached, uid, "gzip")
	if _, got := get(cached, uid, "gzip"); !bytes.Equal(got, want) || !strings.Contains(string(gunzip(t, got)), "One more thing.") {
		t.Fatal("the answer kept before a new message was written after it")
	}
	// The cache is asked only once the database said the session is the caller's.
	other := e.user(t, "PREMIUM")
	if res, _ := get(cached, other, "gzip"); res.StatusCode != http.StatusNotFound {
		t.Fatalf("another user's read of a cached session: %d, want 404", res.StatusCode)
	}
}

// TestKeptDetailIsKeyedByVersionAndTheRest: the kept answer is written while the detail's
// version and everything but its messages are the same (its messages are then the same; here
// they are changed to show which answer is written), and made again when the version, the
// reply in progress or what the role sees changes. A detail of no known version, or to a
// client that does not accept gzip, is never kept.
func TestKeptDetailIsKeyedByVersionAndTheRest(t *testing.T) {
	kept := newKeptAnswers(keptAnswerBytes)
	long := strings.Repeat("a message long enough to be worth compressing ", 40)
	d := chat.Detail{Session: chat.Session{ID: uuid.New(), Title: "t", Status: "ACTIVE", Active: true, TokenLimit: 100}, Version: 3,
		Messages: []chat.Message{{ID: uuid.New(), Role: "user", Content: long, Status: "complete"}}}
	read := func(d chat.Detail, accept string) string {
		t.Helper()
		h := gzipResponses(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			if err := (detailAnswer{d: d, kept: kept}).VisitGetChatSessionResponse(w); err != nil {
				t.Fatal(err)
			}
		}))
		res := do(h, http.MethodGet, "/", "", "Accept-Encoding", accept)
		if res.Header().Get("Content-Encoding") != "gzip" {
			return res.Body.String()
		}
		return string(gunzip(t, res.Body.Bytes()))
	}
	with := func(content string, change func(*chat.Detail)) chat.Detail {
		c := d
		c.Messages = []chat.Message{d.Messages[0]}
		c.Messages[0].Content = content
		change(&c)
		return c
	}
	if !strings.Contains(read(d, "gzip"), long) {
		t.Fatal("the first read is not the detail")
	}
	if !strings.Contains(read(with("other", func(*chat.Detail) {}), "gzip"), long) {
		t.Fatal("the same version and rest: the kept answer was not written")
	}
	for name, change := range map[string]func(*chat.Detail){
		"a later version":   func(c *chat.Detail) { c.Version = 4 },
		"a reply under way": func(c *chat.Detail) { c.ReplyInProgress = true },
		"another tier":      func(c *chat.Detail) { c.TokenLimit = 200 },
		"no known version":  func(c *chat.Detail) { c.Version = -1 },
	} {
		if got := read(with("changed "+name, change), "gzip"); !strings.Contains(got, "changed "+name) {
			t.Errorf("%s: the kept answer was written", name)
		}
	}
	if got := read(with("plain", func(*chat.Detail) {}), ""); !strings.Contains(got, `"content":"plain"`) {
		t.Error("a client that does not accept gzip got the kept answer")
	}
}

// TestKeptListIsTheFreshAnswer: GET /api/chat/sessions answered with a kept answer is byte for
// byte, headers and Link included, the answer of an instance that has kept nothing, for a
// whole list and a page of it, gzipped or not; and it is made again when a session is written,
// when the caller's role changes what an item shows, when the next page goes away, and for
// another user.
func TestKeptListIsTheFreshAnswer(t *testing.T) {
	e := newChatEnv(t, nil)
	uid := e.user(t, "USER")
	var sids []string
	for i := range 8 {
		sid := e.newChat(t, uid)
		msg := fmt.Sprintf("Session %d: %s", i, strings.Repeat("exams & <deadlines> again, ", 20))
		if res := e.call(http.MethodPost, "/api/chat/message", uid, map[string]any{"sessionId": sid, "message": msg}); res.Code != http.StatusOK {
			t.Fatalf("send: %d %s", res.Code, res.Body.String())
		}
		sids = append(sids, sid)
	}
	exec := func(sql string, args ...any) {
		t.Helper()
		if _, err := e.st.Pool().Exec(context.Background(), sql, args...); err != nil {
			t.Fatal(err)
		}
	}
	exec(`UPDATE chat_sessions SET status = 'ENDED', ended_at = now(), summary = 'We talked about deadlines.', emotions = '{calm}' WHERE id = $1`, sids[7])
	svc := chat.New(e.st, e.p, chat.Options{Queue: queuetest.New(t, e.st), Logger: discardLogger(), PollInterval: time.Hour})
	get := func(h http.Handler, token, target, accept string) (http.Header, string) {
		t.Helper()
		srv := httptest.NewServer(h)
		defer srv.Close()
		res, body := getAnswer(t, srv.URL+target, token, accept)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d", target, res.StatusCode)
		}
		return answerHeaders(res), string(body)
	}
	// fresh is the answer of an instance that has kept nothing.
	fresh := func(token, target, accept string) (http.Header, string) {
		return get(newTestHandler(t, Deps{Verifier: chatTokens{}, Chat: svc}), token, target, accept)
	}
	same := func(what, token, target string, reads int) string {
		t.Helper()
		wantH, want := fresh(token, target, "gzip")
		for i := range reads {
			gotH, got := get(e.h, token, target, "gzip")
			if got != want || !equalHeaders(gotH, wantH) {
				t.Fatalf("%s, read %d of %s: %d bytes, headers %v; want %d bytes, headers %v", what, i, target, len(got), gotH, len(want), wantH)
			}
		}
		if wantH.Get("Content-Encoding") != "gzip" {
			t.Fatalf("%s: %s is too short to be kept (%d bytes)", what, target, len(want))
		}
		return string(gunzip(t, []byte(want)))
	}
	for _, target := range []string{"/api/chat/sessions", "/api/chat/sessions?limit=7"} {
		same("unchanged", uid, target, 3)
		wantH, want := fresh(uid, target, "")
		if gotH, got := get(e.h, uid, target, ""); got != want || !equalHeaders(gotH, wantH) {
			t.Fatalf("%s without gzip: %q; want %q", target, got, want)
		}
	}
	if h, _ := get(e.h, uid, "/api/chat/sessions?limit=7", "gzip"); h.Get("Link") == "" || h.Get("Content-Encoding") != "gzip" {
		t.Fatalf("a kept page: headers %v, want a Link and gzip", h)
	}

	// A message written to a session moves its version (and the session to the top).
	if res := e.call(http.MethodPost, "/api/chat/message", uid, map[string]any{"sessionId": sids[0], "message": "One more thing."}); res.Code != http.StatusOK {
		t.Fatalf("send: %d %s", res.Code, res.Body.String())
	}
	if body := same("after a message", uid, "/api/chat/sessions", 2); !strings.HasPrefix(body, `[{"id":"`+sids[0]) {
		t.Fatalf("the list after a message: %s", body)
	}
	// What a role may see changes with no session written: a summary shows to PREMIUM only.
	if body := same("as USER", uid, "/api/chat/sessions", 1); strings.Contains(body, "We talked about deadlines.") {
		t.Fatalf("a USER's list shows a summary: %s", body)
	}
	exec(`UPDATE users SET role = 'PREMIUM' WHERE id = $1`, uid)
	if body := same("as PREMIUM", uid, "/api/chat/sessions", 2); !strings.Contains(body, "We talked about deadlines.") {
		t.Fatalf("a PREMIUM list has no summary: %s", body)
	}
	// The next page goes away: the Link with it.
	same("with a next page", uid, "/api/chat/sessions?limit=7", 1)
	exec(`DELETE FROM chat_sessions WHERE id = $1`, sids[0])
	same("after the next page went", uid, "/api/chat/sessions?limit=7", 2)
	if h, _ := get(e.h, uid, "/api/chat/sessions?limit=7", "gzip"); h.Get("Link") != "" {
		t.Fatalf("a page with no next page has a Link: %v", h)
	}
	// Another user's list is their own.
	other := e.user(t, "PREMIUM")
	if _, body := get(e.h, other, "/api/chat/sessions", ""); body != "[]\n" {
		t.Fatalf("another user's list: %s", body)
	}
}

// getAnswer GETs url as the bearer of token, asking for the Accept-Encoding accept (none when
// ""), and returns the answer and its body as sent (the client decompresses nothing).
func getAnswer(t *testing.T, url, token, accept string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, url, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	if accept != "" {
		req.Header.Set("Accept-Encoding", accept)
	}
	res, err := (&http.Client{Transport: &http.Transport{DisableCompression: true}}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, body
}

// answerHeaders are an answer's headers without those that differ from one answer to the next.
func answerHeaders(res *http.Response) http.Header {
	h := res.Header.Clone()
	h.Del("Date")
	h.Del("X-Request-Id")
	return h
}
