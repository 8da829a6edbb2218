package companion

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/percolate/percolate/backend/internal/companion/llmtest"
)

func TestSignalFromModeration(t *testing.T) {
	cases := []struct {
		flagged []string
		want    bool
	}{
		{[]string{"self-harm"}, true},
		{[]string{"self-harm/intent"}, true},
		{[]string{"self-harm/instructions"}, true},
		{[]string{"violence"}, false}, // only the self-harm categories count
		{nil, false},
	}
	for _, c := range cases {
		p, srv := newTestOpenAI(t, OpenAIOptions{SignalBudget: 5 * time.Second})
		srv.SetModeration(llmtest.Moderation{Flagged: c.flagged})
		got, err := p.Signal(context.Background(), "some message")
		if err != nil || got != c.want {
			t.Errorf("flagged %v: Signal = %v, %v; want %v", c.flagged, got, err, c.want)
		}
		if in := srv.Moderated(); len(in) != 1 || in[0] != "some message" {
			t.Errorf("moderation inputs = %q", in)
		}
		if n := srv.RequestCount(); n != 0 {
			t.Errorf("the chat model was asked %d times besides the moderation endpoint", n)
		}
	}
}

func TestSignalFailsWithinBudget(t *testing.T) {
	for name, m := range map[string]llmtest.Moderation{
		"slow":    {Stall: true},
		"down":    {Fail: http.StatusInternalServerError},
		"garbled": {Garbage: true},
	} {
		p, srv := newTestOpenAI(t, OpenAIOptions{SignalBudget: 200 * time.Millisecond})
		srv.SetModeration(m)
		got, err := p.Signal(context.Background(), "I want to die")
		if err == nil || got {
			t.Errorf("%s: Signal = %v, %v; want no signal and an error", name, got, err)
		}
	}
}

func TestSignalFallsBackToClassificationWithoutModeration(t *testing.T) {
	p, srv := newTestOpenAI(t, OpenAIOptions{SignalBudget: 5 * time.Second})
	srv.SetModeration(llmtest.Moderation{Fail: http.StatusNotFound})
	srv.Enqueue(
		llmtest.Script{Chunks: []string{"RISK"}},
		llmtest.Script{Chunks: []string{"safe."}},
		llmtest.Script{Chunks: []string{"I'm not sure what you mean"}},
		llmtest.Script{Fail: http.StatusServiceUnavailable},
	)
	want := []struct {
		risky, err bool
	}{{true, false}, {false, false}, {false, true}, {false, true}}
	for i, w := range want {
		got, err := p.Signal(context.Background(), "message")
		if got != w.risky || (err != nil) != w.err {
			t.Errorf("answer %d: Signal = %v, %v; want %v (error %v)", i, got, err, w.risky, w.err)
		}
	}
	// The 404 is remembered: the moderation endpoint was asked once.
	if n := len(srv.Moderated()); n != 1 {
		t.Errorf("moderation asked %d times, want 1", n)
	}
	reqs := srv.Requests()
	if len(reqs) < 1 || reqs[0].Stream || reqs[0].Messages[0].Content != classifyInstruction || reqs[0].Messages[1].Content != "message" {
		t.Fatalf("classification request = %+v", reqs)
	}
}
