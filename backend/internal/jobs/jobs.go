// Package jobs is a small PostgreSQL-backed job queue. Jobs are rows of the jobs table;
// workers on any number of app instances claim the oldest due job with FOR UPDATE SKIP
// LOCKED under a lease, so a job runs once; a failed job is retried with exponential
// backoff until it has used its attempts. A job whose worker died is claimed again when its
// lease runs out.
package jobs

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/percolate/percolate/backend/internal/store"
	dbgen "github.com/percolate/percolate/gen/db"
)

// DefaultMaxAttempts is how often a job is tried before it is left as failed.
const DefaultMaxAttempts = 5

// Enqueue queues a job of a kind with a JSON payload in the transaction of q. A non-empty
// uniqueKey makes a second job with the same key a no-op.
func Enqueue(ctx context.Context, q *dbgen.Queries, kind string, payload any, uniqueKey string) error {
	b, err := json.Marshal(payload)
	if err != nil {
		return fmt.Errorf("enqueue %s: %w", kind, err)
	}
	var key *string
	if uniqueKey != "" {
		key = &uniqueKey
	}
	if _, err := q.EnqueueJob(ctx, dbgen.EnqueueJobParams{Kind: kind, Payload: b, UniqueKey: key, MaxAttempts: DefaultMaxAttempts}); err != nil {
		return fmt.Errorf("enqueue %s: %w", kind, err)
	}
	return nil
}

// Job is what a handler is given: the payload and which attempt this is.
type Job struct {
	Payload     json.RawMessage
	Attempt     int
	MaxAttempts int
}

// LastAttempt reports whether a failure now leaves the job failed for good.
func (j Job) LastAttempt() bool { return j.Attempt >= j.MaxAttempts }

// Handler runs one job; an error means it is retried later.
type Handler func(ctx context.Context, job Job) error

// Worker claims and runs jobs.
type Worker struct {
	Store    *store.Store
	Handlers map[string]Handler
	Logger   *slog.Logger
	// Poll is the wait when there is nothing to do (default 1 s).
	Poll time.Duration
	// Lease is how long a claimed job is reserved for its worker (default 5 min); a job
	// runs for at most Lease minus a margin.
	Lease time.Duration
	// Backoff is the base of the exponential retry delay (default 10 s: 10 s, 20 s, 40 s…).
	Backoff time.Duration
}

func (w *Worker) defaults() {
	if w.Poll <= 0 {
		w.Poll = time.Second
	}
	if w.Lease <= 0 {
		w.Lease = 5 * time.Minute
	}
	if w.Backoff <= 0 {
		w.Backoff = 10 * time.Second
	}
	if w.Logger == nil {
		w.Logger = slog.Default()
	}
}

// Start runs the worker in the background until ctx ends; the returned function stops it
// and waits for the job in hand to finish.
func (w *Worker) Start(ctx context.Context) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); w.Run(ctx) }()
	return func() { cancel(); wg.Wait() }
}

// Run claims and runs jobs until ctx ends.
func (w *Worker) Run(ctx context.Context) {
	w.defaults()
	for ctx.Err() == nil {
		did, err := w.RunOne(ctx)
		if err != nil && ctx.Err() == nil {
			w.Logger.Error("job queue", "error", err)
		}
		if did {
			continue
		}
		t := time.NewTimer(w.Poll)
		select {
		case <-ctx.Done():
			t.Stop()
		case <-t.C:
		}
	}
}

// RunOne claims one due job and runs it; it reports whether there was one.
func (w *Worker) RunOne(ctx context.Context) (bool, error) {
	w.defaults()
	q := w.Store.Queries()
	job, err := q.ClaimJob(ctx, int32(w.Lease.Seconds()))
	if store.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("claim job: %w", err)
	}
	runErr := w.run(ctx, job)
	// Record the outcome even when ctx was cancelled meanwhile.
	done := context.WithoutCancel(ctx)
	if runErr == nil {
		if err := q.CompleteJob(done, job.ID); err != nil {
			return true, fmt.Errorf("complete job %d: %w", job.ID, err)
		}
		return true, nil
	}
	backoff := w.Backoff << min(job.Attempts-1, 10)
	failed, err := q.FailJob(done, dbgen.FailJobParams{ID: job.ID, BackoffSeconds: int32(backoff.Seconds()), LastError: runErr.Error()})
	if err != nil {
		return true, fmt.Errorf("fail job %d: %w", job.ID, err)
	}
	w.Logger.Warn("job failed", "job_id", job.ID, "kind", job.Kind, "attempt", job.Attempts, "state", failed.State, "error", runErr.Error())
	return true, nil
}

func (w *Worker) run(ctx context.Context, job dbgen.Job) (err error) {
	h, ok := w.Handlers[job.Kind]
	if !ok {
		return fmt.Errorf("no handler for job kind %q", job.Kind)
	}
	ctx, cancel := context.WithTimeout(ctx, w.Lease*9/10)
	defer cancel()
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("job panicked: %v", p)
		}
	}()
	return h(ctx, Job{Payload: job.Payload, Attempt: int(job.Attempts), MaxAttempts: int(job.MaxAttempts)})
}
