package httpapi

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/percolate/percolate/backend/internal/chat"
	"github.com/percolate/percolate/backend/internal/queue/queuetest"
)

// TestCachedDetailIsTheUncachedAnswer: GET /api/chat/sessions/{id} answered from the chat
// service's cache (the first read, which keeps the encoded answer, and the next, which writes
// it as kept) is byte for byte the answer of a server that keeps nothing, with the same
// headers: gzipped to a client that accepts gzip, plain to one that does not.
func TestCachedDetailIsTheUncachedAnswer(t *testing.T) {
	e := newChatEnv(t, nil)
	uid := e.user(t, "PREMIUM")
	sid := e.newChat(t, uid)
	for _, msg := range []string{strings.Repeat("A long week of exams & <deadlines>. ", 40), "And now?"} {
		if res := e.call(http.MethodPost, "/api/chat/message", uid, map[string]any{"sessionId": sid, "message": msg}); res.Code != http.StatusOK {
			t.Fatalf("send: %d %s", res.Code, res.Body.String())
		}
	}
	svc := chat.New(e.st, e.p, chat.Options{Queue: queuetest.New(t, e.st), Logger: slog.New(slog.DiscardHandler), PollInterval: time.Hour, DetailCacheBytes: -1})
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
	// The cache is asked only once the database said the session is the caller's.
	other := e.user(t, "PREMIUM")
	if res, _ := get(cached, other, "gzip"); res.StatusCode != http.StatusNotFound {
		t.Fatalf("another user's read of a cached session: %d, want 404", res.StatusCode)
	}
}

func equalHeaders(a, b http.Header) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w := b[k]
		if len(v) != len(w) {
			return false
		}
		for i := range v {
			if v[i] != w[i] {
				return false
			}
		}
	}
	return true
}
