package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/percolate/percolate/backend/internal/store/pgtest"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func TestJobRunsOnceWithTwoWorkers(t *testing.T) {
	st := pgtest.New(t)
	ctx := context.Background()
	for i := 0; i < 5; i++ {
		if err := Enqueue(ctx, st.Queries(), "count", map[string]int{"n": i}, ""); err != nil {
			t.Fatal(err)
		}
	}
	// The same unique key twice queues one job.
	for i := 0; i < 2; i++ {
		if err := Enqueue(ctx, st.Queries(), "count", map[string]int{"n": 99}, "only-once"); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	runs := map[int]int{}
	h := func(_ context.Context, j Job) error {
		var v struct{ N int }
		if err := json.Unmarshal(j.Payload, &v); err != nil {
			return err
		}
		time.Sleep(30 * time.Millisecond)
		mu.Lock()
		runs[v.N]++
		mu.Unlock()
		return nil
	}
	var wg sync.WaitGroup
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			wk := &Worker{Store: st, Handlers: map[string]Handler{"count": h}, Logger: quiet}
			for {
				did, err := wk.RunOne(ctx)
				if err != nil {
					t.Error(err)
					return
				}
				if !did {
					return
				}
			}
		}()
	}
	wg.Wait()
	if len(runs) != 6 {
		t.Fatalf("runs = %v, want 6 distinct jobs", runs)
	}
	for n, c := range runs {
		if c != 1 {
			t.Errorf("job %d ran %d times", n, c)
		}
	}
	jobs, _ := st.Queries().ListJobsByKind(ctx, "count")
	for _, j := range jobs {
		if j.State != "done" {
			t.Errorf("job %d is %s", j.ID, j.State)
		}
	}
}

func TestFailingJobIsRetriedWithBackoffThenFails(t *testing.T) {
	st := pgtest.New(t)
	ctx := context.Background()
	if err := Enqueue(ctx, st.Queries(), "flaky", struct{}{}, ""); err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int32
	wk := &Worker{Store: st, Logger: quiet, Backoff: time.Millisecond, Handlers: map[string]Handler{"flaky": func(context.Context, Job) error {
		if calls.Add(1) < 3 {
			return errors.New("model down")
		}
		return nil
	}}}
	deadline := time.Now().Add(10 * time.Second)
	for calls.Load() < 3 && time.Now().Before(deadline) {
		if _, err := wk.RunOne(ctx); err != nil {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond) // the backoff rounds up to whole seconds at most 0 s here
	}
	jobs, _ := st.Queries().ListJobsByKind(ctx, "flaky")
	if calls.Load() != 3 || len(jobs) != 1 || jobs[0].State != "done" || jobs[0].Attempts != 3 {
		t.Fatalf("calls %d, jobs %+v", calls.Load(), jobs)
	}

	// A job that always fails ends as failed after its attempts.
	if err := Enqueue(ctx, st.Queries(), "broken", struct{}{}, ""); err != nil {
		t.Fatal(err)
	}
	wk.Handlers["broken"] = func(context.Context, Job) error { return errors.New("always") }
	for i := 0; i < DefaultMaxAttempts+2; i++ {
		if _, err := wk.RunOne(ctx); err != nil {
			t.Fatal(err)
		}
	}
	jobs, _ = st.Queries().ListJobsByKind(ctx, "broken")
	if jobs[0].State != "failed" || jobs[0].Attempts != DefaultMaxAttempts || jobs[0].LastError == nil {
		t.Fatalf("job = %+v", jobs[0])
	}
}
