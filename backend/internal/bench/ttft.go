package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/percolate/percolate/backend/internal/companion/llmtest"
)

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
func ttft(ctx context.Context, c *http.Client, base string, targets []streamTarget, history int, m *llmtest.Server) TTFT {
	out := TTFT{Name: fmt.Sprintf("stream, %d messages of history", history), History: history}
	var added, down, up []time.Duration
	for _, tg := range targets {
		// The web app reads a chat as it opens it (untimed here), before the user can type into it.
		if code, err := call(ctx, c, "GET", base+"/api/chat/sessions/"+tg.session, tg.token, nil, nil); err != nil || code != http.StatusOK {
			out.failed(fmt.Errorf("open chat: status %d %v", code, err))
			continue
		}
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

func one(ctx context.Context, c *http.Client, base string, tg streamTarget, i int, m *llmtest.Server, out *TTFT, added, down, up *[]time.Duration) {
	{
		body, _ := json.Marshal(map[string]string{"sessionId": tg.session, "message": fmt.Sprintf("Today was busy, and I am winding down slowly (%d).", i)})
		req, _ := http.NewRequestWithContext(ctx, "POST", base+"/api/chat/message/stream", bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+tg.token)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "text/event-stream")
		_, before := m.LastStream()
		start := time.Now()
		first, err := firstDelta(c, req)
		if err == nil {
			ts, calls := m.LastStream()
			got, sent := ts.Received, ts.FirstChunk
			if calls == before {
				err = fmt.Errorf("the model was not asked")
			} else {
				*added = append(*added, first.Sub(start)-sent.Sub(got))
				*down = append(*down, first.Sub(sent))
				*up = append(*up, got.Sub(start))
			}
		}
		if err != nil {
			out.failed(err)
			return
		}
		out.Requests++
	}
}

// failed counts a request that failed, keeping the first error.
func (t *TTFT) failed(err error) {
	t.Errors++
	if t.FirstErr == "" {
		t.FirstErr = err.Error()
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
