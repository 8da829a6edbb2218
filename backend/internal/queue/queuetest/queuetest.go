// Package queuetest gives tests a job queue that runs jobs as soon as they are due, and
// ways to wait for them and look at them, without waiting on timings:
//
//	q := queuetest.New(t, st)
//	svc := account.NewService(…, q, …) // registers the service's workers
//	queuetest.Start(t, q)
//	// … the request under test queues a mail …
//	queuetest.Drain(t, q) // every due job has finished
package queuetest

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/percolate/percolate/backend/internal/queue"
	"github.com/percolate/percolate/backend/internal/store"
)

// DrainTimeout is how long Drain waits before it fails the test.
const DrainTimeout = 30 * time.Second

// RetryAtOnce retries a failed job as soon as it failed.
type RetryAtOnce struct{}

// NextRetry implements river.ClientRetryPolicy.
func (RetryAtOnce) NextRetry(*rivertype.JobRow) time.Time { return time.Now() }

// New returns a queue on st for a test: new jobs are picked up within 50 ms, and a
// failed job is retried at once. Register workers, then Start it.
func New(t testing.TB, st *store.Store) *queue.Queue {
	t.Helper()
	return NewWith(t, st, queue.Config{})
}

// NewWith is New with some settings of the test's own (an ID for a second "instance",
// River's own retry policy…); the test defaults fill what cfg leaves empty.
func NewWith(t testing.TB, st *store.Store, cfg queue.Config) *queue.Queue {
	t.Helper()
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.RetryPolicy == nil {
		cfg.RetryPolicy = RetryAtOnce{}
	}
	if cfg.PollInterval == 0 {
		cfg.PollInterval = 100 * time.Millisecond
	}
	cfg.TestOnly = true
	q, err := queue.New(st, cfg)
	if err != nil {
		t.Fatalf("queuetest: %v", err)
	}
	return q
}

// Start starts q and stops it when the test ends (before the test's database goes).
func Start(t testing.TB, q *queue.Queue) {
	t.Helper()
	if err := q.Start(context.Background()); err != nil {
		t.Fatalf("queuetest: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := q.Stop(ctx); err != nil {
			t.Errorf("queuetest: %v", err)
		}
	})
}

// unfinishedStates are the states of a job that is due and not done.
var unfinishedStates = []rivertype.JobState{rivertype.JobStateAvailable, rivertype.JobStateRunning, rivertype.JobStateRetryable}

// Drain waits until every job that is due has finished (completed, cancelled for good,
// or discarded after its last attempt), whichever instance ran it. It fails the test
// after DrainTimeout, naming the jobs left.
func Drain(t testing.TB, q *queue.Queue) {
	t.Helper()
	events, cancel := q.Client().Subscribe(river.EventKindJobCompleted, river.EventKindJobFailed,
		river.EventKindJobCancelled, river.EventKindJobSnoozed)
	defer cancel()
	// Another instance's jobs send this one no event, and a job its worker recorded done
	// (queue.CompleteTx) is done before its event: look again every few milliseconds too.
	recheck := time.NewTicker(25 * time.Millisecond)
	defer recheck.Stop()
	deadline := time.NewTimer(DrainTimeout)
	defer deadline.Stop()
	for {
		left := list(t, q, river.NewJobListParams().States(unfinishedStates...))
		if len(left) == 0 {
			return
		}
		select {
		case <-events:
		case <-recheck.C:
		case <-deadline.C:
			t.Fatalf("queuetest: jobs unfinished after %v: %s", DrainTimeout, describe(left))
		}
	}
}

// WaitCompleted waits until a job of kind has completed, on any instance, and returns it:
// for jobs the test does not queue itself, such as periodic ones. It fails the test after
// DrainTimeout.
func WaitCompleted(t testing.TB, q *queue.Queue, kind string) *rivertype.JobRow {
	t.Helper()
	deadline := time.Now().Add(DrainTimeout)
	for {
		done := list(t, q, river.NewJobListParams().Kinds(kind).States(rivertype.JobStateCompleted))
		if len(done) > 0 {
			return done[0]
		}
		if time.Now().After(deadline) {
			t.Fatalf("queuetest: no %s job completed after %v; its jobs: %s", kind, DrainTimeout, describe(Jobs(t, q, kind)))
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// Jobs returns every job of a kind, in any state, oldest first.
func Jobs(t testing.TB, q *queue.Queue, kind string) []*rivertype.JobRow {
	t.Helper()
	return list(t, q, river.NewJobListParams().Kinds(kind).States(
		rivertype.JobStateAvailable, rivertype.JobStateCancelled, rivertype.JobStateCompleted,
		rivertype.JobStateDiscarded, rivertype.JobStatePending, rivertype.JobStateRetryable,
		rivertype.JobStateRunning, rivertype.JobStateScheduled))
}

func list(t testing.TB, q *queue.Queue, params *river.JobListParams) []*rivertype.JobRow {
	t.Helper()
	res, err := q.Client().JobList(context.Background(), params.OrderBy(river.JobListOrderByID, river.SortOrderAsc).First(1000))
	if err != nil {
		t.Fatalf("queuetest: list jobs: %v", err)
	}
	return res.Jobs
}

func describe(jobs []*rivertype.JobRow) string {
	var b strings.Builder
	for _, j := range jobs {
		fmt.Fprintf(&b, "\n  %s #%d %s, attempt %d/%d", j.Kind, j.ID, j.State, j.Attempt, j.MaxAttempts)
		if n := len(j.Errors); n > 0 {
			fmt.Fprintf(&b, ", last error: %s", j.Errors[n-1].Error)
		}
	}
	return b.String()
}
