package mail

import (
	"context"
	"errors"

	"github.com/riverqueue/river"

	"github.com/percolate/percolate/backend/internal/queue"
	"github.com/percolate/percolate/backend/internal/store"
)

// JobAttempts is how often a mail job tries to send. With River's backoff (attempt⁴
// seconds: 1 s, 16 s, 81 s, 4 min, 10 min…) ten tries ride out a relay outage of about
// four hours.
const JobAttempts = 10

// JobOpts are the insert options of every job that sends a mail: the mail queue, and
// JobAttempts tries. A mail job's InsertOpts method starts from them.
func JobOpts() river.InsertOpts {
	return river.InsertOpts{Queue: queue.Mail, MaxAttempts: JobAttempts}
}

// Compose writes the mail of a job when the job runs, from the rows its arguments name. It
// returns ErrNothingToSend when there is no longer anything to send (the account was
// deleted meanwhile, say); any other error is retried.
type Compose[T river.JobArgs] func(ctx context.Context, args T) (Message, error)

// ErrNothingToSend ends a mail job without a mail.
var ErrNothingToSend = errors.New("nothing to send")

// NewWorker returns the worker of one kind of mail job: it composes the mail and sends it
// with s. A message that could never be sent (a bad address, an empty body) cancels the
// job, as trying again cannot help; any other failure is retried by the queue. Once the
// mail went, the job is recorded done at once, so that a crash before River's next batch
// of completions does not send it twice (should that write fail, the batch records it).
//
// Register it with queue.AddWorker where the service that queues the mail is built.
func NewWorker[T river.JobArgs](st *store.Store, s Sender, compose Compose[T]) river.Worker[T] {
	return &worker[T]{st: st, sender: s, compose: compose}
}

type worker[T river.JobArgs] struct {
	river.WorkerDefaults[T]
	st      *store.Store
	sender  Sender
	compose Compose[T]
}

func (w *worker[T]) Work(ctx context.Context, job *river.Job[T]) error {
	m, err := w.compose(ctx, job.Args)
	if errors.Is(err, ErrNothingToSend) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := w.sender.Send(ctx, m); err != nil {
		if errors.Is(err, ErrInvalidMessage) {
			return river.JobCancel(err)
		}
		return err
	}
	_ = w.st.InTx(ctx, func(tx store.Tx) error { return queue.CompleteTx(ctx, tx, job) })
	return nil
}
