package account

import (
	"context"
	"fmt"
	"net/url"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/percolate/percolate/backend/internal/mail"
	"github.com/percolate/percolate/backend/internal/queue"
	"github.com/percolate/percolate/backend/internal/store"
	dbgen "github.com/percolate/percolate/gen/db"
)

// The account mails, the values of MailArgs.Mail.
const (
	mailVerify            = "verify"
	mailReset             = "reset"
	mailAlreadyRegistered = "already-registered"
	mailClaimed           = "claimed"
	mailLoginLink         = "login-link"
)

// MailArgs asks for one account mail. It names the mail and the account, never a link:
// the job reads the account when it runs, and a verification or reset mail makes its
// one-time token then, in its own transaction. So the raw token only ever exists in the
// mail itself; the database keeps its hash, and the job row (kept for an hour after the mail
// went) holds no secret.
//
// A reset or a sign-in link names the address that was asked for rather than an account:
// whether it has one is for the job to find out, so a request for a known address and one
// for an unknown address do the same work, and take the same time. Deleting the account
// deletes its jobs by both keys (queue.Queue.DeleteUserJobsTx).
type MailArgs struct {
	Mail   string    `json:"mail"`
	UserID uuid.UUID `json:"userId,omitzero"`
	Email  string    `json:"email,omitempty"`
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

// queueMail queues an account mail in tx.
func (s *Service) queueMail(ctx context.Context, tx store.Tx, m string, userID uuid.UUID) error {
	return s.jobs.InsertTx(ctx, tx, MailArgs{Mail: m, UserID: userID})
}

// composeMail writes one account mail, when its job runs. A verification or reset mail
// makes its token now (its hash is stored at once, in a transaction of its own); a retry
// after a failed send makes a fresh one, and the token of the failed attempt, which nobody
// ever saw, expires unused.
func (s *Service) composeMail(ctx context.Context, a MailArgs) (mail.Message, error) {
	q := s.st.Queries()
	var (
		u   dbgen.User
		err error
	)
	if a.Email != "" {
		u, err = q.GetUserByEmail(ctx, a.Email)
	} else {
		u, err = q.GetUserByID(ctx, a.UserID)
	}
	if store.IsNotFound(err) {
		return mail.Message{}, mail.ErrNothingToSend // no account there, or it was deleted meanwhile
	}
	if err != nil {
		return mail.Message{}, fmt.Errorf("load account: %w", err)
	}
	switch a.Mail {
	case mailVerify:
		if u.EmailVerifiedAt != nil {
			return mail.Message{}, mail.ErrNothingToSend // verified meanwhile (a reset link, a third-party sign-in)
		}
		token, err := newEmailToken(ctx, q, u.ID, purposeVerify, verifyTTL)
		if store.IsNotFound(err) {
			return mail.Message{}, mail.ErrNothingToSend // no open registration (verified or claimed meanwhile)
		}
		if err != nil {
			return mail.Message{}, err
		}
		// The address rides along so that the login page the landing leads to has it filled in.
		return verifyMail(u.Email, s.link("/email-verified?t=", token)+"&email="+url.QueryEscape(u.Email)), nil
	case mailReset:
		token, err := newEmailToken(ctx, q, u.ID, purposeReset, resetTTL)
		if err != nil {
			return mail.Message{}, err
		}
		return resetMail(u.Email, greeted(u), s.link("/reset?token=", token)), nil
	case mailLoginLink:
		if u.EmailVerifiedAt == nil {
			return mail.Message{}, mail.ErrNothingToSend // signing in needs a verified address
		}
		token, err := newEmailToken(ctx, q, u.ID, purposeLogin, loginLinkTTL)
		if err != nil {
			return mail.Message{}, err
		}
		return loginLinkMail(u.Email, u.Name, s.link("/login?loginToken=", token)), nil
	case mailAlreadyRegistered:
		return alreadyRegisteredMail(u.Email, u.Name, s.link("/login", "")), nil
	case mailClaimed:
		return claimedMail(u.Email, u.Name, s.link("/login", "")), nil
	}
	return mail.Message{}, river.JobCancel(fmt.Errorf("unknown account mail %q", a.Mail))
}

// greeted is the name a mail to u greets: none while the address is unverified, since
// whoever registered it typed that name and may not own the mailbox.
func greeted(u dbgen.User) string {
	if u.EmailVerifiedAt == nil {
		return ""
	}
	return u.Name
}

// registerWorkers adds the workers of the account's background jobs to the queue.
func (s *Service) registerWorkers(q *queue.Queue) {
	queue.AddWorker(q, mail.NewWorker(s.st, s.mail, s.composeMail))
}
