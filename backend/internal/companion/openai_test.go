package companion

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/percolate/percolate/backend/internal/companion/llmtest"
)

// newTestOpenAI is a client of opts talking to a scripted test model.
func newTestOpenAI(t *testing.T, opts OpenAIOptions) (*OpenAI, *llmtest.Server) {
	srv := llmtest.New(t)
	return NewOpenAIWithConfig(srv.ClientConfig(), "test-model", opts), srv
}

func TestOpenAIStreamsChunksInOrderWithUsage(t *testing.T) {
	p, srv := newTestOpenAI(t, OpenAIOptions{IdleTimeout: 5 * time.Second})
	srv.Enqueue(llmtest.Script{Chunks: []string{"It ", "sounds ", "hard", "."}, PromptTokens: 42, CompletionTokens: 7, Delay: 20 * time.Millisecond})
	var (
		mu     sync.Mutex
		chunks []string
		times  []time.Time
	)
	reply, err := p.Stream(context.Background(), Prompt{System: "sys", Message: "hi"}, func(s string) error {
		mu.Lock()
		defer mu.Unlock()
		chunks = append(chunks, s)
		times = append(times, time.Now())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(chunks, "|"); got != "It |sounds |hard|." {
		t.Fatalf("chunks = %q", got)
	}
	if reply.Text != "It sounds hard." {
		t.Fatalf("text = %q", reply.Text)
	}
	if !reply.Usage.Reported || reply.Usage.PromptTokens != 42 || reply.Usage.CompletionTokens != 7 {
		t.Fatalf("usage = %+v", reply.Usage)
	}
	// Chunks arrive as they are sent, not batched at the end.
	if times[len(times)-1].Sub(times[0]) < 40*time.Millisecond {
		t.Fatalf("chunks arrived together: %v", times)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || !reqs[0].Stream || reqs[0].StreamOptions == nil || !reqs[0].StreamOptions.IncludeUsage {
		t.Fatalf("request = %+v", reqs)
	}
	if reqs[0].Messages[0].Content != "sys" || reqs[0].Messages[len(reqs[0].Messages)-1].Content != "hi" {
		t.Fatalf("messages = %+v", reqs[0].Messages)
	}
}

func TestOpenAIRetriesOnceBeforeAnythingWasSent(t *testing.T) {
	p, srv := newTestOpenAI(t, OpenAIOptions{IdleTimeout: 5 * time.Second})
	srv.Enqueue(llmtest.Script{Fail: 500}, llmtest.Script{Chunks: []string{"ok"}})
	reply, err := p.Stream(context.Background(), Prompt{Message: "hi"}, func(string) error { return nil })
	if err != nil || reply.Text != "ok" {
		t.Fatalf("reply %q, err %v", reply.Text, err)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Fatalf("%d requests, want 2", n)
	}
}

func TestOpenAIFailsCleanlyAfterTwo500s(t *testing.T) {
	p, srv := newTestOpenAI(t, OpenAIOptions{IdleTimeout: 5 * time.Second})
	srv.Enqueue(llmtest.Script{Fail: 500}, llmtest.Script{Fail: 500}, llmtest.Script{Chunks: []string{"never"}})
	_, err := p.Stream(context.Background(), Prompt{Message: "hi"}, func(string) error { return nil })
	if !errors.Is(err, ErrModel) {
		t.Fatalf("err = %v, want ErrModel", err)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Fatalf("%d requests, want 2 (one retry)", n)
	}
}

func TestOpenAIStallTimesOutWithoutRetryAfterChunks(t *testing.T) {
	p, srv := newTestOpenAI(t, OpenAIOptions{IdleTimeout: 200 * time.Millisecond})
	srv.Enqueue(llmtest.Script{Chunks: []string{"a", "b", "c"}, StallAfter: 1})
	var got []string
	start := time.Now()
	_, err := p.Stream(context.Background(), Prompt{Message: "hi"}, func(s string) error { got = append(got, s); return nil })
	if !errors.Is(err, ErrModel) || !strings.Contains(err.Error(), "no data") {
		t.Fatalf("err = %v", err)
	}
	if time.Since(start) > 3*time.Second {
		t.Fatal("stall was not cut by the idle timeout")
	}
	if len(got) != 1 || len(srv.Requests()) != 1 {
		t.Fatalf("chunks %v, requests %d: no retry after a chunk was sent", got, len(srv.Requests()))
	}
}

func TestOpenAIStallBeforeFirstChunkIsNotRetried(t *testing.T) {
	p, srv := newTestOpenAI(t, OpenAIOptions{IdleTimeout: 150 * time.Millisecond})
	srv.Enqueue(llmtest.Script{StallAfter: llmtest.StallImmediately}, llmtest.Script{Chunks: []string{"never asked"}})
	_, err := p.Stream(context.Background(), Prompt{Message: "hi"}, func(string) error { return nil })
	if !errors.Is(err, ErrStalled) || !errors.Is(err, ErrModel) {
		t.Fatalf("err = %v, want ErrStalled", err)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Fatalf("%d requests, want 1: a stalled model is not asked again", n)
	}
}

func TestOpenAIDroppedConnectionBeforeAnyByteIsRetriedOnce(t *testing.T) {
	p, srv := newTestOpenAI(t, OpenAIOptions{IdleTimeout: 5 * time.Second})
	srv.Enqueue(llmtest.Script{CutAfter: llmtest.CutImmediately}, llmtest.Script{Chunks: []string{"ok"}})
	reply, err := p.Stream(context.Background(), Prompt{Message: "hi"}, func(string) error { return nil })
	if err != nil || reply.Text != "ok" || len(srv.Requests()) != 2 {
		t.Fatalf("reply %q, err %v, %d requests", reply.Text, err, len(srv.Requests()))
	}
	srv.Enqueue(llmtest.Script{CutAfter: llmtest.CutImmediately}, llmtest.Script{CutAfter: llmtest.CutImmediately}, llmtest.Script{Chunks: []string{"never"}})
	if _, err := p.Stream(context.Background(), Prompt{Message: "hi"}, func(string) error { return nil }); !errors.Is(err, ErrModel) {
		t.Fatalf("err = %v", err)
	}
	if n := len(srv.Requests()); n != 4 {
		t.Fatalf("%d requests, want 4 (one retry each time)", n)
	}
}

func TestOpenAIStreamCutPartWayIsNotRetried(t *testing.T) {
	p, srv := newTestOpenAI(t, OpenAIOptions{IdleTimeout: 5 * time.Second})
	srv.Enqueue(llmtest.Script{Chunks: []string{"a", "b", "c"}, CutAfter: 2}, llmtest.Script{Chunks: []string{"never"}})
	var got []string
	_, err := p.Stream(context.Background(), Prompt{Message: "hi"}, func(s string) error { got = append(got, s); return nil })
	if !errors.Is(err, ErrModel) || strings.Join(got, "") != "ab" || len(srv.Requests()) != 1 {
		t.Fatalf("err %v, chunks %q, %d requests", err, got, len(srv.Requests()))
	}
}

func TestOpenAIGarbageChunkIsAnError(t *testing.T) {
	p, srv := newTestOpenAI(t, OpenAIOptions{IdleTimeout: 5 * time.Second})
	srv.Enqueue(llmtest.Script{Chunks: []string{"a", "b"}, Garbage: true})
	_, err := p.Stream(context.Background(), Prompt{Message: "hi"}, func(string) error { return nil })
	if !errors.Is(err, ErrModel) {
		t.Fatalf("err = %v", err)
	}
}

func TestOpenAISummarizeParsesJSON(t *testing.T) {
	p, srv := newTestOpenAI(t, OpenAIOptions{IdleTimeout: 5 * time.Second})
	srv.Enqueue(llmtest.Script{Chunks: []string{`{"summary":"You talked about exams. You felt tense.","emotions":["stress","ANXIETY","bogus"]}`}})
	s, err := p.Summarize(context.Background(), []Turn{{Role: RoleUser, Content: "exams"}})
	if err != nil {
		t.Fatal(err)
	}
	if s.Text != "You talked about exams. You felt tense." || strings.Join(s.Emotions, ",") != "stress,anxiety" {
		t.Fatalf("summary = %+v", s)
	}
	srv.Enqueue(llmtest.Script{Chunks: []string{"not json"}})
	if _, err := p.Summarize(context.Background(), nil); !errors.Is(err, ErrModel) {
		t.Fatalf("err = %v", err)
	}
}

func TestOpenAIReplyStopsAtTheWordCap(t *testing.T) {
	p, srv := newTestOpenAI(t, OpenAIOptions{IdleTimeout: 5 * time.Second})
	// 200 words in chunks that split words and spaces unevenly.
	var chunks []string
	for i := 0; i < 100; i++ {
		chunks = append(chunks, "wo", "rd ", fmt.Sprintf("n%d", i), " ")
	}
	srv.Enqueue(llmtest.Script{Chunks: chunks})
	var got []string
	reply, err := p.Stream(context.Background(), Prompt{System: "sys", Message: "hi"}, func(s string) error { got = append(got, s); return nil })
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, "") != reply.Text {
		t.Fatalf("streamed %q, stored %q", strings.Join(got, ""), reply.Text)
	}
	words := strings.Fields(strings.TrimSuffix(reply.Text, "…"))
	if len(words) != MaxReplyWords || !strings.HasSuffix(reply.Text, "…") || words[len(words)-1] != "n74" {
		t.Fatalf("capped reply has %d words and ends %q", len(words), reply.Text[len(reply.Text)-20:])
	}
	if reply.Usage.Reported || reply.Usage.CompletionTokens == 0 {
		t.Fatalf("usage = %+v", reply.Usage)
	}
	// A reply within the cap is passed on whole.
	srv.Enqueue(llmtest.Script{Chunks: chunks[:40]})
	reply, err = p.Stream(context.Background(), Prompt{System: "sys", Message: "hi"}, func(string) error { return nil })
	if err != nil || reply.Text != strings.Join(chunks[:40], "") {
		t.Fatalf("reply = %q, %v", reply.Text, err)
	}
}
