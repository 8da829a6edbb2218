// Package contact handles messages sent through the public contact form: it validates them,
// drops what the honeypot catches, limits how often one address may write, stores each
// message and, with a job queued in the same transaction, mails it to the support mailbox.
package contact

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"github.com/percolate/percolate/backend/internal/account"
	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/mail"
	"github.com/percolate/percolate/backend/internal/queue"
	"github.com/percolate/percolate/backend/internal/ratelimit"
	"github.com/percolate/percolate/backend/internal/store"
	dbgen "github.com/percolate/percolate/gen/db"
	"github.com/percolate/percolate/gen/limits"
)

// Field limits, in characters, as the contract states them.
const (
	MaxName    = limits.ContactRequestNameMaxLength
	MaxEmail   = limits.ContactRequestEmailMaxLength
	MaxMessage = limits.ContactRequestMessageMaxLength
)

// Retention is how long a contact message is kept: long enough to answer it and what follows,
// no longer. Housekeeping deletes older ones; the privacy page states it (a test compares).
const Retention = 90 * 24 * time.Hour

// Rule limits contact messages per client address.
var Rule = ratelimit.Rule{
	Name:    "contact:ip",
	Limit:   5,
	Window:  time.Hour,
	Message: "You've sent several messages in a short time. Please wait a while before sending another.",
}

// Input is one submission of the contact form.
type Input struct {
	Name    string
	Email   string
	Message string
	// Website is the honeypot: hidden from people, so only bots fill it.
	Website string
	// ClientIP is the sender's address, the subject of the rate limit.
	ClientIP string
}

// Service handles contact messages.
type Service struct {
	st      *store.Store
	jobs    *queue.Queue
	limiter *ratelimit.Limiter
	sender  mail.Sender
	support string
	logger  *slog.Logger
}

// New returns a Service that stores in st, mails through sender to the support address
// with jobs of the queue (New registers their worker: build it before the queue starts),
// and logs to logger (nil discards).
func New(st *store.Store, jobs *queue.Queue, sender mail.Sender, support string, logger *slog.Logger) *Service {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	s := &Service{st: st, jobs: jobs, limiter: ratelimit.New(st.Queries()), sender: sender, support: support, logger: logger}
	queue.AddWorker(jobs, mail.NewWorker(st, sender, s.composeMail))
	return s
}

// Limiter exposes the rate limiter, so tests can move its clock.
func (s *Service) Limiter() *ratelimit.Limiter { return s.limiter }

// Send validates, rate-limits, stores and mails one message. A filled honeypot returns nil
// without doing anything, so a bot cannot tell it was caught. Validation problems come back
// as *apperr.ValidationError, an exhausted limit as *apperr.LimitError.
func (s *Service) Send(ctx context.Context, in Input) error {
	if strings.TrimSpace(in.Website) != "" {
		s.logger.InfoContext(ctx, "contact message dropped by the honeypot")
		return nil
	}
	name, email, message, err := validate(in)
	if err != nil {
		return err
	}
	if err := s.limiter.Hit(ctx, Rule, in.ClientIP); err != nil {
		return err
	}
	// The stored row is the record; the mail, a job of the same transaction, notifies
	// support and is retried until the relay takes it.
	err = s.st.InTx(ctx, func(tx store.Tx) error {
		saved, err := tx.CreateContactMessage(ctx, dbgen.CreateContactMessageParams{Name: name, Email: email, Message: message})
		if err != nil {
			return err
		}
		return s.jobs.InsertTx(ctx, tx, MailArgs{MessageID: saved.ID})
	})
	if err != nil {
		return fmt.Errorf("store contact message: %w", err)
	}
	return nil
}

// MailArgs asks for a stored contact message to be mailed to support. It carries the id
// only: the message stays in its table, not in the job's.
type MailArgs struct {
	MessageID uuid.UUID `json:"messageId"`
}

// Kind implements river.JobArgs.
func (MailArgs) Kind() string { return "contact.mail" }

// InsertOpts sends it on the mail queue.
func (MailArgs) InsertOpts() river.InsertOpts { return mail.JobOpts() }

// composeMail writes the mail of a stored contact message to support.
func (s *Service) composeMail(ctx context.Context, a MailArgs) (mail.Message, error) {
	m, err := s.st.Queries().GetContactMessage(ctx, a.MessageID)
	if store.IsNotFound(err) {
		return mail.Message{}, mail.ErrNothingToSend // an operator deleted it meanwhile
	}
	if err != nil {
		return mail.Message{}, fmt.Errorf("load contact message: %w", err)
	}
	return mail.Message{
		To:      s.support,
		Subject: "Contact form: " + account.OneLine(m.Name),
		Text: fmt.Sprintf("A message arrived through the Percolate contact form.\n\nName: %s\nE-mail: %s\nReceived: %s\nReference: %s\n\n%s\n",
			m.Name, m.Email, m.CreatedAt.UTC().Format(time.RFC1123), m.ID, m.Message),
	}, nil
}

// validate trims the fields and checks them, returning every problem at once.
func validate(in Input) (name, email, message string, err error) {
	name = strings.TrimSpace(in.Name)
	email = strings.TrimSpace(in.Email)
	message = strings.TrimSpace(in.Message)
	fields := map[string]string{}

	switch n := utf8.RuneCountInString(name); {
	case n == 0:
		fields["name"] = "Please enter your name."
	case n > MaxName:
		fields["name"] = fmt.Sprintf("Please keep your name under %d characters.", MaxName+1)
	case strings.ContainsFunc(name, unicode.IsControl):
		fields["name"] = "Please write your name on one line."
	}

	switch {
	case email == "":
		fields["email"] = "Please enter your email address."
	case utf8.RuneCountInString(email) > MaxEmail || !account.ValidEmail(email):
		fields["email"] = "Please enter a valid email address."
	}

	switch n := utf8.RuneCountInString(message); {
	case n == 0:
		fields["message"] = "Please write a message."
	case n > MaxMessage:
		fields["message"] = fmt.Sprintf("Please keep your message to %d characters or fewer.", MaxMessage)
	}

	if len(fields) > 0 {
		return "", "", "", &apperr.ValidationError{Fields: fields}
	}
	return name, email, message, nil
}
