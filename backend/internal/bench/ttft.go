package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// model is a minimal OpenAI-wire chat model: it streams three chunks at once and notes, for the
// latest streamed request, when the request arrived and when its first chunk was flushed.
type model struct {
	ln net.Listener

	mu          sync.Mutex
	got, sent   time.Time
	streamCalls int
}

func startModel() (*model, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	m := &model{ln: ln}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/moderations", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"modr-bench","model":"omni-moderation-latest","results":[{"flagged":false,"categories":{},"category_scores":{}}]}`)
	})
	mux.HandleFunc("POST /v1/chat/completions", m.chat)
	go func() { _ = (&http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}).Serve(ln) }()
	return m, nil
}

func (m *model) URL() string { return "http://" + m.ln.Addr().String() + "/v1" }

func (m *model) chat(w http.ResponseWriter, r *http.Request) {
	got := time.Now()
	var req struct {
		Stream bool `json:"stream"`
	}
	_ = json.NewDecoder(r.Body).Decode(&req)
	if !req.Stream {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"chatcmpl-bench","object":"chat.completion","created":0,"model":"bench","choices":[{"index":0,"message":{"role":"assistant","content":"Thank you for telling me."},"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}`)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	rc := http.NewResponseController(w)
	chunk := func(content, finish string) {
		f := "null"
		if finish != "" {
			f = `"` + finish + `"`
		}
		c, _ := json.Marshal(content)
		fmt.Fprintf(w, "data: {\"id\":\"chatcmpl-bench\",\"object\":\"chat.completion.chunk\",\"created\":0,\"model\":\"bench\",\"choices\":[{\"index\":0,\"delta\":{\"content\":%s},\"finish_reason\":%s}]}\n\n", c, f)
		_ = rc.Flush()
	}
	chunk("That", "")
	sent := time.Now()
	m.mu.Lock()
	m.got, m.sent = got, sent
	m.streamCalls++
	m.mu.Unlock()
	chunk(" sounds like a lot", "")
	chunk(".", "stop")
	_, _ = io.WriteString(w, "data: {\"id\":\"chatcmpl-bench\",\"object\":\"chat.completion.chunk\",\"created\":0,\"model\":\"bench\",\"choices\":[],\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":3,\"total_tokens\":13}}\n\ndata: [DONE]\n\n")
	_ = rc.Flush()
}

func (m *model) last() (got, sent time.Time, calls int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.got, m.sent, m.streamCalls
}

// TTFT is the time to first token the server adds, over n streamed messages in one session.
type TTFT struct {
	Name     string `json:"name"`
	History  int    `json:"historyMessages"`
	Requests int    `json:"requests"`
	Errors   int    `json:"errors"`
	FirstErr string `json:"firstError,omitempty"`
	// Added is (client's first delta − request sent) − (model's first chunk − request reached the model).
	AddedP50ms float64 `json:"addedP50Ms"`
	AddedP99ms float64 `json:"addedP99Ms"`
	// Downstream is client's first delta − model's first chunk sent.
	DownP50ms float64 `json:"downstreamP50Ms"`
	DownP99ms float64 `json:"downstreamP99Ms"`
	// Upstream is the model's request arrival − the client's request sent.
	UpP50ms float64 `json:"upstreamP50Ms"`
	UpP99ms float64 `json:"upstreamP99Ms"`
}

// streamTarget is one user's session and how many messages to send to it.
type streamTarget struct {
	token, session string
	n              int
}

// ttft sends the targets' messages one after another as server-sent events.
func ttft(ctx context.Context, c *http.Client, base string, targets []streamTarget, history int, m *model) TTFT {
	out := TTFT{Name: fmt.Sprintf("stream, %d messages of history", history), History: history}
	var added, down, up []time.Duration
	for _, tg := range targets {
		for i := range tg.n {
			if ctx.Err() != nil {
				break
			}
			one(ctx, c, base, tg, i, m, &out, &added, &down, &up)
		}
	}
	for _, s := range [][]time.Duration{added, down, up} {
		slices.Sort(s)
	}
	out.AddedP50ms, out.AddedP99ms = ms(pct(added, .5)), ms(pct(added, .99))
	out.DownP50ms, out.DownP99ms = ms(pct(down, .5)), ms(pct(down, .99))
	out.UpP50ms, out.UpP99ms = ms(pct(up, .5)), ms(pct(up, .99))
	return out
}

func one(ctx context.Context, c *http.Client, base string, tg streamTarget, i int, m *model, out *TTFT, added, down, up *[]time.Duration) {
	{
		body, _ := json.Marshal(map[string]string{"sessionId": tg.session, "message": fmt.Sprintf("Today was busy, and I am winding down slowly (%d).", i)})
		req, _ := http.NewRequestWithContext(ctx, "POST", base+"/api/chat/message/stream", bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+tg.token)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "text/event-stream")
		_, _, before := m.last()
		start := time.Now()
		first, err := firstDelta(c, req)
		if err == nil {
			got, sent, calls := m.last()
			if calls == before {
				err = fmt.Errorf("the model was not asked")
			} else {
				*added = append(*added, first.Sub(start)-sent.Sub(got))
				*down = append(*down, first.Sub(sent))
				*up = append(*up, got.Sub(start))
			}
		}
		if err != nil {
			out.Errors++
			if out.FirstErr == "" {
				out.FirstErr = err.Error()
			}
			return
		}
		out.Requests++
	}
}

// firstDelta answers when the first delta event arrived, and reads the stream to its end (done).
func firstDelta(c *http.Client, req *http.Request) (time.Time, error) {
	resp, err := c.Do(req)
	if err != nil {
		return time.Time{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		return time.Time{}, fmt.Errorf("status %d: %.200s", resp.StatusCode, b)
	}
	var first time.Time
	event := ""
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if e, ok := strings.CutPrefix(line, "event:"); ok {
			event = strings.TrimSpace(e)
			if event == "delta" && first.IsZero() {
				first = time.Now()
			}
			if event == "error" {
				return time.Time{}, fmt.Errorf("error event")
			}
		}
	}
	if err := sc.Err(); err != nil {
		return time.Time{}, err
	}
	if first.IsZero() {
		return time.Time{}, fmt.Errorf("no delta event")
	}
	if event != "done" {
		return time.Time{}, fmt.Errorf("stream ended with %q, not done", event)
	}
	return first, nil
}
