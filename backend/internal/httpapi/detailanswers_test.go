package httpapi

import (
	"bytes"
	"context"
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
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	get := func(srv *httptest.Server, token, accept string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, srv.URL+"/api/chat/sessions/"+sid, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		if accept != "" {
			req.Header.Set("Accept-Encoding", accept)
		}
		res, err := client.Do(req)
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
	headers := func(res *http.Response) http.Header {
		h := res.Header.Clone()
		h.Del("Date")
		h.Del("X-Request-Id")
		return h
	}
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
	kept := newKeptDetails(keptDetailBytes)
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
