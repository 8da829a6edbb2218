package bench_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/percolate/percolate/backend/internal/app"
	"github.com/percolate/percolate/backend/internal/bench"
	"github.com/percolate/percolate/backend/internal/config"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
)

// TestSmoke runs the whole harness with tiny phases against the server in this process and
// expects both result files, every phase with requests and none failed.
func TestSmoke(t *testing.T) {
	dataDir := t.TempDir()
	start := func(ctx context.Context, env map[string]string) (*bench.Server, error) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		addr := ln.Addr().String()
		ln.Close()
		env["PERCOLATE_ADDR"] = addr
		if env["PERCOLATE_DATA_DIR"] == "" {
			env["PERCOLATE_DATA_DIR"] = dataDir
		}
		cfg, err := config.Load(func(k string) string { return env[k] })
		if err != nil {
			return nil, err
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- app.Serve(ctx, cfg, slog.New(slog.DiscardHandler), "bench-test") }()
		s := &bench.Server{BaseURL: "http://" + addr, PID: os.Getpid(), Stop: func() { cancel(); <-done }}
		for deadline := time.Now().Add(30 * time.Second); ; {
			if resp, err := http.Get(s.BaseURL + "/api/health/ready"); err == nil {
				resp.Body.Close()
				if resp.StatusCode == http.StatusOK {
					return s, nil
				}
			}
			select {
			case err := <-done:
				cancel()
				return nil, err
			case <-time.After(50 * time.Millisecond):
			}
			if time.Now().After(deadline) {
				s.Stop()
				return nil, context.DeadlineExceeded
			}
		}
	}
	out := t.TempDir()
	res, err := bench.Run(context.Background(), bench.Options{
		DatabaseURL: pgtest.URL(t), Start: start, Phase: 150 * time.Millisecond, Conns: 4, BigSessions: 100, TTFTRequests: 5,
		ReminderUsers: 2000, OutDir: out, Note: "in the test process",
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"results.md", "results.json"} {
		if fi, err := os.Stat(filepath.Join(out, name)); err != nil || fi.Size() == 0 {
			t.Fatalf("%s: %v", name, err)
		}
	}
	var back bench.Results
	b, _ := os.ReadFile(filepath.Join(out, "results.json"))
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatalf("results.json: %v", err)
	}
	phases := append(append(append(append([]bench.Load{}, back.Reads...), back.Growth...), back.Login...), back.Checkins...)
	if len(back.Reads) != 4 || len(back.Growth) != 4 || len(back.Login) != 3 || len(back.Checkins) != 1 {
		t.Fatalf("phases: %d reads, %d growth, %d login, %d check-ins", len(back.Reads), len(back.Growth), len(back.Login), len(back.Checkins))
	}
	// The reminder job's claim: a whole batch of the due ones, with the index on next_due.
	if d := back.DueClaim; d == nil || d.Claimed != 500 || d.Runs < 20 || d.P50ms <= 0 || !d.UsesIndex {
		t.Errorf("due reminders: %+v", d)
	}
	for _, l := range phases {
		if l.RPS <= 0 || l.Errors != 0 {
			t.Errorf("%s: %.1f req/s, %d errors (first: %s)", l.Name, l.RPS, l.Errors, l.FirstErr)
		}
	}
	// Time to first token, against llmtest as the model: every streamed message answered.
	if len(back.TTFT) == 0 {
		t.Error("no time-to-first-token results")
	}
	for _, x := range back.TTFT {
		if x.Requests != 5 || x.Errors != 0 || x.AddedP50ms <= 0 {
			t.Errorf("TTFT %s: %d requests, %d errors (first: %s), added p50 %.2f ms", x.Name, x.Requests, x.Errors, x.FirstErr, x.AddedP50ms)
		}
	}
	if res.GrowthRatio.FirstPageBytes == 0 || len(back.Targets) == 0 {
		t.Errorf("growth %+v, %d targets", res.GrowthRatio, len(back.Targets))
	}
	// Two instances on one database act as one: the only proof in make test of the chat
	// session, the rate limit and the jobs across instances, so every such target is met.
	var two int
	for _, tg := range back.Targets {
		if strings.HasPrefix(tg.What, "two instances:") {
			two++
			if !tg.Met {
				t.Errorf("%s: want %s, got %s %s", tg.What, tg.Want, tg.Got, tg.Notes)
			}
		}
	}
	if two != 6 || back.Instances == nil {
		t.Errorf("%d two-instance targets, want 6", two)
	}
}
