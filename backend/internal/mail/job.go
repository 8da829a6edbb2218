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

// Deliver sends m from the worker of job. A message that could never be sent (a bad
// address, an empty body) cancels the job, as trying again cannot help; any other failure
// is returned, and the queue tries again later. Once the mail went, the job is recorded
// done at once, so that a crash before River's next batch of completions does not send it
// twice (should that write fail, the batch records it).
func Deliver[T river.JobArgs](ctx context.Context, st *store.Store, job *river.Job[T], s Sender, m Message) error {
	if err := s.Send(ctx, m); err != nil {
		if errors.Is(err, ErrInvalidMessage) {
			return river.JobCancel(err)
		}
		return err
	}
	_ = st.InTx(ctx, func(tx store.Tx) error { return queue.CompleteTx(ctx, tx, job) })
	return nil
}
