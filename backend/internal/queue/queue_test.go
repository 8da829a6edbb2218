package queue_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/percolate/percolate/backend/internal/queue"
	"github.com/percolate/percolate/backend/internal/queue/queuetest"
	"github.com/percolate/percolate/backend/internal/store"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
)

type noteArgs struct {
	Note string `json:"note"`
}

func (noteArgs) Kind() string { return "test.note" }

// noteWorker counts its runs; when started is set it says when a run begins, and when
// release is set it holds each run until release closes (or its context ends).
type noteWorker struct {
	river.WorkerDefaults[noteArgs]
	runs    atomic.Int32
	started chan struct{}
	release chan struct{}
}

func (w *noteWorker) Work(ctx context.Context, _ *river.Job[noteArgs]) error {
	w.runs.Add(1)
	if w.started != nil {
		w.started <- struct{}{}
	}
	if w.release != nil {
		select {
		case <-w.release:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

func insertTx(t *testing.T, st *store.Store, q *queue.Queue, args river.JobArgs, fail error) error {
	t.Helper()
	return st.InTx(context.Background(), func(tx store.Tx) error {
		if err := q.InsertTx(context.Background(), tx, args); err != nil {
			t.Fatal(err)
		}
		return fail
	})
}

func TestJobQueuedInATransactionRunsOnlyIfItCommits(t *testing.T) {
	st := pgtest.New(t)
	q := queuetest.New(t, st)
	w := &noteWorker{}
	queue.AddWorker(q, w)
	rollback := errors.New("rolled back")
	if err := insertTx(t, st, q, noteArgs{Note: "dropped"}, rollback); !errors.Is(err, rollback) {
		t.Fatalf("InTx = %v", err)
	}
	if err := insertTx(t, st, q, noteArgs{Note: "kept"}, nil); err != nil {
		t.Fatal(err)
	}
	queuetest.Start(t, q)
	queuetest.Drain(t, q)

	jobs := queuetest.Jobs(t, q, noteArgs{}.Kind())
	if len(jobs) != 1 {
		t.Fatalf("%d jobs, want only the committed one", len(jobs))
	}
	var args noteArgs
	if err := json.Unmarshal(jobs[0].EncodedArgs, &args); err != nil || args.Note != "kept" || jobs[0].State != rivertype.JobStateCompleted {
		t.Fatalf("job %s %s (%v), want the committed one, completed", jobs[0].State, jobs[0].EncodedArgs, err)
	}
	if n := w.runs.Load(); n != 1 {
		t.Fatalf("the worker ran %d times, want 1", n)
	}
}

// stopWhileRunning starts q with a worker that holds its one job until released, and calls
// Stop while the job runs: stopped gets what Stop returns.
func stopWhileRunning(t *testing.T, q *queue.Queue) (w *noteWorker, stopped <-chan error) {
	t.Helper()
	w = &noteWorker{started: make(chan struct{}, 1), release: make(chan struct{})}
	queue.AddWorker(q, w)
	if err := q.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := q.Insert(context.Background(), noteArgs{Note: "held"}); err != nil {
		t.Fatal(err)
	}
	<-w.started
	out := make(chan error, 1)
	go func() { out <- q.Stop(context.Background()) }()
	return w, out
}

func TestStopLetsRunningJobsFinish(t *testing.T) {
	st := pgtest.New(t)
	q := queuetest.New(t, st)
	w, stopped := stopWhileRunning(t, q)
	// Stop waits for the running job (its grace is 20 s): it cannot return while the
	// job is held. A slow machine can only make this check pass, never fail.
	select {
	case err := <-stopped:
		t.Fatalf("Stop returned (%v) while a job was running", err)
	case <-time.After(200 * time.Millisecond):
	}
	close(w.release)
	select {
	case err := <-stopped:
		if err != nil {
			t.Fatalf("Stop: %v", err)
		}
	case <-time.After(queuetest.DrainTimeout):
		t.Fatal("Stop did not return after the running job finished")
	}
	jobs := queuetest.Jobs(t, q, noteArgs{}.Kind())
	if len(jobs) != 1 || jobs[0].State != rivertype.JobStateCompleted {
		t.Fatalf("jobs after Stop = %+v, want the running one completed", jobs)
	}
}

func TestStopIsBoundedAndAJobCutShortRunsAgain(t *testing.T) {
	st := pgtest.New(t)
	q := queuetest.NewWith(t, st, queue.Config{StopGrace: 100 * time.Millisecond})
	_, stopped := stopWhileRunning(t, q) // its job is never released
	select {
	case err := <-stopped:
		if err != nil {
			t.Fatalf("Stop: %v", err)
		}
	case <-time.After(queuetest.DrainTimeout):
		t.Fatal("Stop did not return: a job that never ends holds the shutdown")
	}

	// The job was cancelled, not lost: another instance runs it to completion.
	next := queuetest.New(t, st)
	done := &noteWorker{}
	queue.AddWorker(next, done)
	queuetest.Start(t, next)
	queuetest.Drain(t, next)
	jobs := queuetest.Jobs(t, next, noteArgs{}.Kind())
	if len(jobs) != 1 || jobs[0].State != rivertype.JobStateCompleted || done.runs.Load() != 1 {
		t.Fatalf("jobs = %+v, runs on the next instance %d; want the cut-short job completed there", jobs, done.runs.Load())
	}
}

type tickArgs struct{}

func (tickArgs) Kind() string { return "test.tick" }

type tickWorker struct {
	river.WorkerDefaults[tickArgs]
	runs atomic.Int32
}

func (w *tickWorker) Work(context.Context, *river.Job[tickArgs]) error {
	w.runs.Add(1)
	return nil
}

func TestPeriodicJobRunsOnceAcrossInstances(t *testing.T) {
	st := pgtest.New(t)
	var workers []*tickWorker
	for _, id := range []string{"instance-a", "instance-b"} {
		q := queuetest.NewWith(t, st, queue.Config{ID: id})
		w := &tickWorker{}
		queue.AddWorker(q, w)
		q.AddPeriodic(time.Hour, tickArgs{})
		queuetest.Start(t, q)
		workers = append(workers, w)
	}
	probe := queuetest.New(t, st)
	queuetest.WaitCompleted(t, probe, tickArgs{}.Kind())
	jobs := queuetest.Jobs(t, probe, tickArgs{}.Kind())
	if len(jobs) != 1 || jobs[0].UniqueKey == nil {
		t.Fatalf("jobs = %+v, want one, unique within its hour", jobs)
	}
	if runs := workers[0].runs.Load() + workers[1].runs.Load(); runs != 1 {
		t.Fatalf("the periodic job ran %d times across the instances, want 1", runs)
	}
}
