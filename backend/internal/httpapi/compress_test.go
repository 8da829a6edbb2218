package httpapi

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not gzip: %v", err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestLargeJSONIsGzippedWhenAccepted: the contract (YAML, 60+ KB) and a large JSON body come
// compressed to a client that accepts gzip, and whole to one that does not; small answers
// come as they are.
func TestLargeJSONIsGzippedWhenAccepted(t *testing.T) {
	big := strings.Repeat(`{"title":"A session about exams"},`, 100)
	h := gzipResponses(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/small" {
			_, _ = io.WriteString(w, `{"ok":true}`)
			return
		}
		// Written in pieces, as an encoder does.
		for _, part := range strings.SplitAfter(big, ",") {
			_, _ = io.WriteString(w, part)
		}
	}))
	get := func(path, accept string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		if accept != "" {
			req.Header.Set("Accept-Encoding", accept)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}

	rec := get("/big", "br, gzip;q=0.8")
	if got := rec.Header().Get("Content-Encoding"); got != "gzip" {
		t.Fatalf("Content-Encoding = %q, want gzip", got)
	}
	if got := rec.Header().Get("Vary"); !strings.Contains(got, "Accept-Encoding") {
		t.Errorf("Vary = %q, want Accept-Encoding in it", got)
	}
	if got := string(gunzip(t, rec.Body.Bytes())); got != big {
		t.Fatal("the gzipped body is not the response")
	}
	if rec.Body.Len() >= len(big)/2 {
		t.Errorf("compressed %d of %d bytes", rec.Body.Len(), len(big))
	}
	for _, accept := range []string{"", "identity", "gzip;q=0"} {
		rec := get("/big", accept)
		if got := rec.Header().Get("Content-Encoding"); got != "" {
			t.Errorf("Accept-Encoding %q: Content-Encoding = %q, want none", accept, got)
		}
		if rec.Body.String() != big {
			t.Errorf("Accept-Encoding %q: %d bytes, not the %d of the response", accept, rec.Body.Len(), len(big))
		}
	}
	small := get("/small", "gzip")
	if got := small.Header().Get("Content-Encoding"); got != "" {
		t.Errorf("small answer: Content-Encoding = %q, want none", got)
	}
	if got := small.Body.String(); got != `{"ok":true}` {
		t.Errorf("small answer: body = %q", got)
	}
}

// TestEventStreamsAreNeverGzipped: each server-sent event leaves at once, uncompressed,
// through the gzip middleware.
func TestEventStreamsAreNeverGzipped(t *testing.T) {
	next := make(chan struct{})
	srv := httptest.NewServer(gzipResponses(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		_, _ = io.WriteString(w, "event: delta\ndata: {\"text\":\"first\"}\n\n")
		_ = http.NewResponseController(w).Flush()
		<-next
		_, _ = io.WriteString(w, "event: done\ndata: {}\n\n")
	})))
	defer srv.Close()
	req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
	req.Header.Set("Accept-Encoding", "gzip")
	res, err := http.DefaultTransport.RoundTrip(req) // no transparent decompression
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.Header.Get("Content-Encoding") != "" {
		t.Fatalf("an event stream was encoded %q", res.Header.Get("Content-Encoding"))
	}
	got := make(chan string, 1)
	go func() {
		buf := make([]byte, 64)
		n, _ := io.ReadAtLeast(res.Body, buf, len("event: delta\n"))
		got <- string(buf[:n])
	}()
	select {
	case s := <-got:
		if !strings.HasPrefix(s, "event: delta") {
			t.Fatalf("first bytes %q", s)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the first event did not arrive before the stream went on")
	}
	close(next)
}

// TestTheAPIGzipsItsContract: the whole handler gzips a large answer (the contract itself).
func TestTheAPIGzipsItsContract(t *testing.T) {
	h := newTestHandler(t, Deps{})
	res := do(h, http.MethodGet, "/api/openapi.yaml", "", "Accept-Encoding", "gzip")
	if res.Code != http.StatusOK {
		t.Fatalf("status = %d, want 200", res.Code)
	}
	if got := res.Header().Get("Content-Encoding"); got != "gzip" {
		t.Fatalf("Content-Encoding = %q, want gzip", got)
	}
	if body := gunzip(t, res.Body.Bytes()); !bytes.HasPrefix(body, []byte("openapi:")) {
		t.Fatalf("body starts %q", body[:min(20, len(body))])
	}
}

// TestAnswerAlreadyEncodedPassesThrough: a handler that writes bytes it gzipped itself, with
// their Content-Encoding, gets them to the client untouched: not
// compressed again, and with the headers as the handler set them.
func TestAnswerAlreadyEncodedPassesThrough(t *testing.T) {
	big := []byte(strings.Repeat(`{"title":"A session about exams"},`, 100))
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	_, _ = zw.Write(big)
	_ = zw.Close()
	encoded := buf.Bytes()
	h := gzipResponses(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Add("Vary", "Accept-Encoding")
		// In two writes, the first one large: neither may start a gzip stream.
		_, _ = w.Write(encoded[:len(encoded)/2])
		_, _ = w.Write(encoded[len(encoded)/2:])
	}))
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if !bytes.Equal(rec.Body.Bytes(), encoded) {
		t.Fatalf("the encoded answer was changed (%d bytes, want %d)", rec.Body.Len(), len(encoded))
	}
	if got := rec.Header().Values("Content-Encoding"); len(got) != 1 || got[0] != "gzip" {
		t.Errorf("Content-Encoding = %q, want [gzip]", got)
	}
	if got := rec.Header().Values("Vary"); len(got) != 1 || got[0] != "Accept-Encoding" {
		t.Errorf("Vary = %q, want the handler's one", got)
	}
	if got := string(gunzip(t, rec.Body.Bytes())); got != string(big) {
		t.Fatal("the answer does not decompress to what was encoded")
	}
}
