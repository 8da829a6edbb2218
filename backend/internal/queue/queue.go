// Package queue runs all of Percolate's background work on River (riverqueue/river), a
// job queue kept in the app's own PostgreSQL database: session summaries and memory, every mail,
// the weekly insight reports and housekeeping. Because jobs are rows beside the app's
// rows, a job queued in a transaction exists exactly when the rows written with it do.
// Any instance may run a job, and each job runs once; a failed job is retried with
// backoff; periodic jobs are inserted by the one instance elected leader; Stop lets
// running jobs finish. Nothing that must happen is left to a bare goroutine.
//
// River's tables are created by its own migrations, applied with ours by store.Migrate
// (at start and by `percolate migrate`).
//
// # Adding a kind of job
//
// 1. Arguments, in the domain package that owns the work: a struct with JSON tags and a
// Kind method. Carry ids, not data (the worker reads the rows when it runs), and never a
// secret such as a token or a link holding one: a job row keeps its arguments as they are
// for an hour after the job ran (a day when it was cancelled, a week when it failed for
// good). A job about one user names them with the JSON key "userId" (and an address it must
// carry, "email"): deleting the account deletes its jobs by those keys (DeleteUserJobsTx).
// Options that belong to the kind (queue, attempts, uniqueness) go in an InsertOpts method.
//
//	type MemoryArgs struct {
//		SessionID uuid.UUID `json:"sessionId"`
//		UserID    uuid.UUID `json:"userId"`
//	}
//
//	func (MemoryArgs) Kind() string { return "chat.memory" }
//
// 2. A worker: a struct embedding river.WorkerDefaults[MemoryArgs], with a Work method.
// An error means "retry later" (job.Attempt and job.MaxAttempts say which try this is);
// river.JobCancel(err) gives up for good. When the work writes rows, record the job done in
// the same transaction with CompleteTx (the session summary does), so it is never done
// twice. Register the worker where the service is built, before the queue starts:
//
//	queue.AddWorker(q, &sessionWorker[MemoryArgs]{timeout: 5 * time.Minute, work: s.remember})
//
// A job that sends a mail needs no worker of its own: mail.NewWorker takes a function that
// writes the mail from the arguments, and does the sending, the retries and the rest; its
// arguments' InsertOpts start from mail.JobOpts.
//
// 3. Queue it, in the transaction that makes it due:
//
//	err := s.store.InTx(ctx, func(tx store.Tx) error {
//		// … the rows …
//		return s.queue.InsertTx(ctx, tx, MemoryArgs{SessionID: id, UserID: uid})
//	})
//
// A job that runs on a schedule instead is added with AddPeriodic in package app, where
// every schedule is listed.
//
// Tests use package queuetest: a queue that picks jobs up at once and retries at once,
// and Drain, which waits until every job that is due has finished.
package queue

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/percolate/percolate/backend/internal/store"
)

// The queues jobs go to. Mail has its own, so that summaries waiting on a slow model
// never hold a verification mail back.
const (
	Default = river.QueueDefault
	Mail    = "mail"
)

// Defaults of Config.
const (
	// DefaultStopGrace is how long Stop lets running jobs finish before it cancels them.
	DefaultStopGrace = 20 * time.Second
	// stopCancelWait is how long Stop then waits for the cancelled jobs to return.
	stopCancelWait = 5 * time.Second
	// jobTimeout bounds one run of a job, unless its worker's Timeout says otherwise.
	jobTimeout = time.Minute
	// rescueAfter is when a job still marked running (its instance died) is run again.
	// It must outlast the longest worker timeout.
	rescueAfter = 15 * time.Minute
	// completedRetention is how long a finished job's row stays. Rows carry ids and, for a
	// mail asked for by address, the address typed: nothing uses them once the job is done,
	// and whatever they name should not outlive its purpose (an account deleted meanwhile).
	// An hour still covers unique jobs (a summary asked for twice is one job) and a look
	// at what just ran. River's default is a day.
	completedRetention = time.Hour
	// deleteBatch is how many jobs DeleteUserJobsTx deletes with one statement.
	deleteBatch = 1000
)

// Config tunes a Queue; zero values take the defaults.
type Config struct {
	Logger *slog.Logger
	// ID names this instance among the clients of the queue (default: host name and time).
	ID string
	// Workers is how many jobs of the default queue one instance runs at once (default
	// 10); the mail queue runs half as many.
	Workers int
	// StopGrace is how long Stop lets running jobs finish (default DefaultStopGrace).
	StopGrace time.Duration
	// RetryPolicy decides when a failed job runs again (default River's: attempt⁴
	// seconds, so 1 s, 16 s, 81 s, 4 min, 10 min…).
	RetryPolicy river.ClientRetryPolicy
	// PollInterval is how often an instance looks for jobs that no notification
	// announced (default 1 s).
	PollInterval time.Duration
	// TestOnly starts River's maintenance (the periodic jobs among it) without its
	// production start-up delay. For tests only.
	TestOnly bool
}

// Queue is this instance's River client: it inserts jobs and, once started, runs them.
type Queue struct {
	client    *river.Client[pgx.Tx]
	workers   *river.Workers
	stopGrace time.Duration
	started   atomic.Bool
}

// New returns a queue on the store's database. Register workers (AddWorker) and
// schedules (AddPeriodic), then Start it; jobs can be inserted at any time.
func New(st *store.Store, cfg Config) (*Queue, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Workers <= 0 {
		cfg.Workers = 10
	}
	if cfg.StopGrace <= 0 {
		cfg.StopGrace = DefaultStopGrace
	}
	rc := &river.Config{
		ID:     cfg.ID,
		Logger: cfg.Logger,
		Queues: map[string]river.QueueConfig{
			Default: {MaxWorkers: cfg.Workers},
			Mail:    {MaxWorkers: max(1, cfg.Workers/2)},
		},
		JobTimeout:                  jobTimeout,
		RescueStuckJobsAfter:        rescueAfter,
		CompletedJobRetentionPeriod: completedRetention,
		RetryPolicy:                 cfg.RetryPolicy,
		SoftStopTimeout:             cfg.StopGrace,
		TestOnly:                    cfg.TestOnly,
		// Workers are added after the client exists (services queue jobs and run them,
		// so each needs the other); River reads this bundle when it inserts and runs.
		Workers: river.NewWorkers(),
	}
	if cfg.PollInterval > 0 {
		rc.FetchPollInterval = cfg.PollInterval
		rc.FetchCooldown = min(cfg.PollInterval, 100*time.Millisecond)
	}
	client, err := river.NewClient(riverpgxv5.New(st.Pool()), rc)
	if err != nil {
		return nil, fmt.Errorf("job queue: %w", err)
	}
	return &Queue{client: client, workers: rc.Workers, stopGrace: cfg.StopGrace}, nil
}

// AddWorker registers the worker of one kind of job. It must be called before Start,
// once per kind; it panics otherwise, as that is a wiring mistake.
func AddWorker[T river.JobArgs](q *Queue, w river.Worker[T]) {
	if q.started.Load() {
		panic("queue: AddWorker after Start")
	}
	river.AddWorker(q.workers, w)
}

// AddPeriodic inserts a job with args every interval, and once at start. Only the
// instance elected leader inserts them, and a job is unique within its interval, so it
// runs once across instances however many there are.
func (q *Queue) AddPeriodic(every time.Duration, args river.JobArgs) {
	q.client.PeriodicJobs().Add(river.NewPeriodicJob(
		river.PeriodicInterval(every),
		func() (river.JobArgs, *river.InsertOpts) {
			return args, &river.InsertOpts{UniqueOpts: river.UniqueOpts{ByPeriod: every}}
		},
		&river.PeriodicJobOpts{RunOnStart: true},
	))
}

// InsertTx queues a job in tx: it is run only if tx commits, and only once it has.
func (q *Queue) InsertTx(ctx context.Context, tx store.Tx, args river.JobArgs) error {
	if _, err := q.client.InsertTx(ctx, tx.Pgx(), args, nil); err != nil {
		return fmt.Errorf("queue %s: %w", args.Kind(), err)
	}
	return nil
}

// Insert queues a job on its own, for work that goes with no rows of the caller's.
func (q *Queue) Insert(ctx context.Context, args river.JobArgs) error {
	if _, err := q.client.Insert(ctx, args, nil); err != nil {
		return fmt.Errorf("queue %s: %w", args.Kind(), err)
	}
	return nil
}

// CompleteTx records in tx that job is done, from inside its worker. Use it when the work
// writes rows, so the rows and the completion commit together and a job is never done
// twice; and after work that cannot be undone (a mail sent), so it is recorded at once
// rather than with River's next batch of completions, a quarter of a second later.
func CompleteTx[T river.JobArgs](ctx context.Context, tx store.Tx, job *river.Job[T]) error {
	if _, err := river.JobCompleteTx[*riverpgxv5.Driver](ctx, tx.Pgx(), job); err != nil {
		return fmt.Errorf("complete %s job %d: %w", job.Kind, job.ID, err)
	}
	return nil
}

// DeleteUserJobsTx deletes, in tx, the jobs that name a user: by id (args "userId") or by
// address (args "email", in any case), finished or waiting, and returns how many went. A job
// running now is left to finish (it finds the user gone); its row goes with the completed
// ones, after completedRetention.
func (q *Queue) DeleteUserJobsTx(ctx context.Context, tx store.Tx, userID uuid.UUID, email string) (int, error) {
	params := river.NewJobDeleteManyParams().First(deleteBatch).Where(
		"args @> jsonb_build_object('userId', @user_id::text) OR lower(args->>'email') = lower(@email::text)",
		river.NamedArgs{"user_id": userID.String(), "email": email},
	)
	deleted := 0
	for {
		res, err := q.client.JobDeleteManyTx(ctx, tx.Pgx(), params)
		if err != nil {
			return deleted, fmt.Errorf("delete jobs of a user: %w", err)
		}
		deleted += len(res.Jobs)
		if len(res.Jobs) < deleteBatch {
			return deleted, nil
		}
	}
}

// Start runs jobs in the background until Stop. Jobs run under a context of their own:
// ending ctx does not cancel them, Stop does.
func (q *Queue) Start(ctx context.Context) error {
	if !q.started.CompareAndSwap(false, true) {
		return errors.New("job queue: already started")
	}
	if err := q.client.Start(context.WithoutCancel(ctx)); err != nil {
		q.started.Store(false)
		return fmt.Errorf("start job queue: %w", err)
	}
	return nil
}

// Stop stops taking jobs and lets the running ones finish, for up to the configured
// grace; those still running then are cancelled, and run again later by any instance
// (River puts them back without counting the attempt). Stop returns within the grace and
// a few seconds more, or sooner when ctx ends.
func (q *Queue) Stop(ctx context.Context) error {
	if !q.started.Load() {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, q.stopGrace+stopCancelWait)
	defer cancel()
	if err := q.client.Stop(ctx); err != nil {
		return fmt.Errorf("stop job queue: %w", err)
	}
	return nil
}

// Client is the River client, for tests and tools that list or wait on jobs.
func (q *Queue) Client() *river.Client[pgx.Tx] { return q.client }
