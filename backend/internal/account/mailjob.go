package account

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/percolate/percolate/backend/internal/mail"
	"github.com/percolate/percolate/backend/internal/queue"
	"github.com/percolate/percolate/backend/internal/store"
)

// The account mails, the values of MailArgs.Mail.
const (
	mailVerify            = "verify"
	mailReset             = "reset"
	mailAlreadyRegistered = "already-registered"
	mailClaimed           = "claimed"
)

// MailArgs asks for one account mail to a user. It names the mail and the account, not
// the address or a link: the job reads the account when it runs, and a verification or
// reset mail makes its one-time token then, in its own transaction. So the raw token only
// ever exists in the mail itself; the database keeps its hash, and the job row (which is
// stored, and logged when the job fails) holds no secret.
//
// Queueing the job is all a request does, whatever the mail: whether an account exists
// shows neither in the answer nor in its timing.
type MailArgs struct {
	Mail   string    `json:"mail"`
	UserID uuid.UUID `json:"userId"`
}

// Kind implements river.JobArgs.
func (MailArgs) Kind() string { return "account.mail" }

// unsentStates are the states of a job whose mail has not gone yet.
var unsentStates = []rivertype.JobState{
	rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRetryable,
	rivertype.JobStateRunning, rivertype.JobStateScheduled,
}

// InsertOpts sends account mails on the mail queue. While a verification mail of an
// account is waiting to go, asking for another is a no-op; once one went, its token's age
// limits the next (resendVerifyEvery).
func (a MailArgs) InsertOpts() river.InsertOpts {
	opts := mail.JobOpts()
	if a.Mail == mailVerify {
		opts.UniqueOpts = river.UniqueOpts{ByArgs: true, ByState: unsentStates}
	}
	return opts
}

type mailWorker struct {
	river.WorkerDefaults[MailArgs]
	s *Service
}

func (w *mailWorker) Work(ctx context.Context, job *river.Job[MailArgs]) error {
	return w.s.sendMail(ctx, job)
}

// queueMail queues an account mail in tx.
func (s *Service) queueMail(ctx context.Context, tx store.Tx, m string, userID uuid.UUID) error {
	return s.jobs.InsertTx(ctx, tx, MailArgs{Mail: m, UserID: userID})
}

// sendMail writes and sends one account mail. A retry after a failed send makes a fresh
// token; the one of the failed attempt was never seen by anyone and expires unused.
func (s *Service) sendMail(ctx context.Context, job *river.Job[MailArgs]) error {
	a := job.Args
	q := s.st.Queries()
	u, err := q.GetUserByID(ctx, a.UserID)
	if store.IsNotFound(err) {
		return nil // the account was deleted meanwhile: nobody to write to
	}
	if err != nil {
		return fmt.Errorf("load account: %w", err)
	}
	var m mail.Message
	switch a.Mail {
	case mailVerify:
		if u.EmailVerifiedAt != nil {
			return nil // verified meanwhile (by a reset link or a third-party sign-in)
		}
		token, err := newEmailToken(ctx, q, u.ID, purposeVerify, verifyTTL)
		if err != nil {
			return err
		}
		m = verifyMail(u.Email, u.Name, s.link("/email-verified?t=", token))
	case mailReset:
		token, err := newEmailToken(ctx, q, u.ID, purposeReset, resetTTL)
		if err != nil {
			return err
		}
		m = resetMail(u.Email, u.Name, s.link("/reset?token=", token))
	case mailAlreadyRegistered:
		m = alreadyRegisteredMail(u.Email, u.Name, s.link("/login", ""))
	case mailClaimed:
		m = claimedMail(u.Email, u.Name, s.link("/login", ""))
	default:
		return river.JobCancel(fmt.Errorf("unknown account mail %q", a.Mail))
	}
	return mail.Deliver(ctx, s.st, job, s.mail, m)
}

// registerWorkers adds the workers of the account's background jobs to the queue.
func (s *Service) registerWorkers(q *queue.Queue) {
	queue.AddWorker(q, &mailWorker{s: s})
}
