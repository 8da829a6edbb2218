// Sign-up: registration, e-mail verification and sending the link again.

package account

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/auth"
	"github.com/percolate/percolate/backend/internal/store"
	dbgen "github.com/percolate/percolate/gen/db"
)

// Registration is the register form.
type Registration struct {
	Name, Email, Password, ConfirmPassword string
}

// Register creates an unverified account and mails a verification link. An address that is
// already registered gets the same answer; its account is not touched (its owner is mailed a
// note, or a fresh link when still unverified).
func (s *Service) Register(ctx context.Context, r Registration, clientIP string) error {
	if err := s.limiter.Hit(ctx, s.cfg.Limits.RegisterPerAddress, clientIP); err != nil {
		return err
	}
	name := strings.TrimSpace(r.Name)
	email := normalizeEmail(r.Email)
	fields := map[string]string{}
	switch n := utf8.RuneCountInString(name); {
	case n == 0:
		fields["name"] = msgNameRequired
	case n > MaxName:
		fields["name"] = msgNameTooLong
	}
	if m := checkEmail(email); m != "" {
		fields["email"] = m
	}
	if m := checkPassword(r.Password, email); m != "" {
		fields["password"] = m
	}
	if r.ConfirmPassword != r.Password {
		fields["confirmPassword"] = msgPasswordMismatch
	}
	if len(fields) > 0 {
		return &apperr.ValidationError{Fields: fields}
	}
	hash, err := s.hasher.Hash(ctx, r.Password)
	if err != nil {
		return fmt.Errorf("register: %w", err)
	}
	var existing, created *dbgen.User
	err = s.st.WithTx(ctx, func(q *dbgen.Queries) error {
		if err := q.RelaxCommit(ctx); err != nil {
			return err
		}
		u, err := q.GetUserByEmail(ctx, email)
		if err == nil {
			existing = &u
			return nil
		}
		if !store.IsNotFound(err) {
			return err
		}
		u, err = q.CreateUser(ctx, dbgen.CreateUserParams{Email: email, Name: name, PasswordHash: &hash})
		if store.IsUniqueViolation(err, "users_email_lower_key") {
			// Registered a moment ago by a concurrent request: treat as a duplicate.
			return errDuplicate
		}
		if err != nil {
			return err
		}
		created = &u
		return nil
	})
	if errors.Is(err, errDuplicate) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("register: %w", err)
	}
	// A new account's mail is counted and queued after the transaction, as an existing
	// account's is, so that both do the same work in the same order (and take the same
	// time). Should the process die in between, the new account gets its link when its
	// owner first tries to sign in.
	var m MailArgs
	switch {
	case created != nil:
		m = MailArgs{Mail: mailVerify, UserID: created.ID}
	case existing.EmailVerifiedAt == nil:
		s.resendVerification(ctx, *existing, clientIP)
		return nil
	default:
		m = MailArgs{Mail: mailAlreadyRegistered, UserID: existing.ID}
	}
	if !s.quietMailAllowed(ctx, email, clientIP) {
		return nil
	}
	if err := s.jobs.Insert(ctx, m); err != nil {
		return fmt.Errorf("register: %w", err)
	}
	return nil
}

var errDuplicate = errors.New("duplicate registration")

// VerifyEmail uses a verification token. It answers false for an unknown, used or expired one.
func (s *Service) VerifyEmail(ctx context.Context, token, clientIP string) (bool, error) {
	ok := false
	err := s.st.WithTx(ctx, func(q *dbgen.Queries) error {
		uid, err := q.UseEmailToken(ctx, dbgen.UseEmailTokenParams{TokenHash: auth.HashToken(token), Purpose: purposeVerify})
		if store.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		ok = true
		return q.MarkEmailVerified(ctx, uid)
	})
	if err != nil {
		return false, fmt.Errorf("verify email: %w", err)
	}
	if !ok {
		return false, s.tokenFailed(ctx, clientIP)
	}
	return true, nil
}

// ResendVerification mails a new verification link when an unverified account has the
// address. It answers the same whether or not one does; the per-address registration limit
// applies to every request alike.
func (s *Service) ResendVerification(ctx context.Context, email, clientIP string) error {
	if err := s.limiter.Hit(ctx, s.cfg.Limits.RegisterPerAddress, clientIP); err != nil {
		return err
	}
	u, err := s.st.Queries().GetUserByEmail(ctx, normalizeEmail(email))
	if store.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("resend verification: %w", err)
	}
	if u.EmailVerifiedAt == nil {
		s.resendVerification(ctx, u, clientIP)
	}
	return nil
}

// resendVerification mails a fresh verification link, at most one a minute per account and
// within the mail limits (silently: the answer must not change).
func (s *Service) resendVerification(ctx context.Context, u dbgen.User, clientIP string) {
	err := s.st.InTx(ctx, func(q store.Tx) error {
		if err := q.RelaxCommit(ctx); err != nil {
			return err
		}
		secs, err := q.SecondsSinceLastEmailToken(ctx, dbgen.SecondsSinceLastEmailTokenParams{UserID: u.ID, Purpose: purposeVerify})
		if err != nil || secs < resendVerifyEvery.Seconds() {
			return err
		}
		if !s.quietMailAllowed(ctx, u.Email, clientIP) {
			return nil
		}
		return s.queueMail(ctx, q, mailVerify, u.ID)
	})
	if err != nil {
		s.log.ErrorContext(ctx, "resend verification", "error", err.Error())
	}
}

// quietMailAllowed counts one account mail against the e-mail and address limits and says
// whether it may go. It is for mails whose refusal must not show in the answer (it would
// reveal whether the account exists).
func (s *Service) quietMailAllowed(ctx context.Context, email, clientIP string) bool {
	if err := s.limiter.Hit(ctx, s.cfg.Limits.RegisterMailPerEmail, email); err != nil {
		return false
	}
	return s.limiter.Hit(ctx, s.cfg.Limits.MailPerAddress, clientIP) == nil
}
