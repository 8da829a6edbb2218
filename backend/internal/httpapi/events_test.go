package httpapi

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/percolate/percolate/backend/internal/chat"
)

// flushes is a response writer that keeps what each flush sent.
type flushes struct {
	*httptest.ResponseRecorder
	sent []string // the body written since the previous flush, at each flush
	done int      // how much of the body was flushed
}

func (f *flushes) Flush() {
	body := f.Body.String()
	f.sent = append(f.sent, body[f.done:])
	f.done = len(body)
	f.ResponseRecorder.Flush()
}

var _ http.Flusher = (*flushes)(nil)

// The headers go with the first delta when the reply already has text (one write, not a
// write of the headers alone first), pieces written together leave together, and whatever
// was written is flushed before the stream waits for more.
func TestReplyEventsFlushWhenTheReplyWaits(t *testing.T) {
	sid := chat.SendResult{Success: true, AIResponse: "Hello there", Status: chat.StatusComplete}
	t.Run("text at once", func(t *testing.T) {
		w := &flushes{ResponseRecorder: httptest.NewRecorder()}
		ev := replyEvents{ctx: context.Background(), follow: func(_ context.Context, onDelta func(string) error, flush func() error) (chat.SendResult, error) {
			for _, p := range []string{"Hello", " there"} {
				if err := onDelta(p); err != nil {
					return chat.SendResult{}, err
				}
			}
			if err := flush(); err != nil { // waiting for the store
				return chat.SendResult{}, err
			}
			return sid, nil
		}}
		if err := ev.write(w); err != nil {
			t.Fatal(err)
		}
		if len(w.sent) != 2 {
			t.Fatalf("%d flushes, want 2 (the headers and both deltas, then done): %q", len(w.sent), w.sent)
		}
		if first := w.sent[0]; strings.Count(first, "event: delta\n") != 2 || strings.Contains(first, "event: done") {
			t.Errorf("first flush %q, want both deltas and nothing else", first)
		}
		if !strings.HasPrefix(w.sent[1], "event: done\n") {
			t.Errorf("second flush %q, want done", w.sent[1])
		}
	})
	t.Run("no text yet", func(t *testing.T) {
		w := &flushes{ResponseRecorder: httptest.NewRecorder()}
		ev := replyEvents{ctx: context.Background(), follow: func(_ context.Context, onDelta func(string) error, flush func() error) (chat.SendResult, error) {
			if err := flush(); err != nil { // waiting for the model
				return chat.SendResult{}, err
			}
			if len(w.sent) != 1 || w.sent[0] != "" || !w.Flushed || w.Code != http.StatusOK {
				t.Errorf("before the first delta: flushes %q, flushed %v, status %d; want the headers alone", w.sent, w.Flushed, w.Code)
			}
			if err := onDelta("Hello there"); err != nil {
				return chat.SendResult{}, err
			}
			return sid, nil
		}}
		if err := ev.write(w); err != nil {
			t.Fatal(err)
		}
		if len(w.sent) != 2 || !strings.HasPrefix(w.sent[1], "event: delta\n") || !strings.Contains(w.sent[1], "event: done\n") {
			t.Errorf("flushes %q, want the headers, then the delta with done", w.sent)
		}
	})
}
