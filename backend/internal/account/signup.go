// Sign-up: registration, e-mail verification and sending the link again.

package account

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/auth"
	"github.com/percolate/percolate/backend/internal/store"
	dbgen "github.com/percolate/percolate/gen/db"
)

// Registration is the register form.
type Registration struct {
	Name, Email, Password, ConfirmPassword string
}

// Register records a registration and mails a verification link. An address that is
// already registered gets the same answer. A verified account is not touched (its owner is
// mailed a note). An unverified one keeps no password of its own: the registration's
// password and name are stored with the links that verify it, and only following such a
// link sets them, so a later registration of the address replaces an earlier one and uses
// up its links (the earlier registrant may not own the mailbox).
func (s *Service) Register(ctx context.Context, r Registration, clientIP string) error {
	if err := s.limiter.Hit(ctx, s.cfg.Limits.RegisterPerAddress, clientIP); err != nil {
		return err
	}
	name := strings.TrimSpace(r.Name)
	email := normalizeEmail(r.Email)
	fields := map[string]string{}
	if m := checkName(name); m != "" {
		fields["name"] = m
	}
	if m := checkEmail(email); m != "" {
		fields["email"] = m
	}
	hash, err := s.hashNewPassword(ctx, fields, email, newPassword{"password", r.Password, "confirmPassword", r.ConfirmPassword})
	if err != nil {
		return err
	}
	mailKind := mailVerify
	var userID uuid.UUID
	err = s.st.WithTx(ctx, func(q *dbgen.Queries) error {
		if err := q.RelaxCommit(ctx); err != nil {
			return err
		}
		u, err := q.GetUserByEmail(ctx, email)
		switch {
		case err == nil && u.EmailVerifiedAt != nil:
			mailKind, userID = mailAlreadyRegistered, u.ID
			return nil
		case err == nil:
			// A registration replaces the earlier ones: their links stop working.
			if err := q.InvalidateEmailTokens(ctx, dbgen.InvalidateEmailTokensParams{UserID: u.ID, Purpose: purposeVerify}); err != nil {
				return err
			}
		case store.IsNotFound(err):
			u, err = q.CreateUser(ctx, dbgen.CreateUserParams{Email: email, Name: name})
			if store.IsUniqueViolation(err, "users_email_lower_key") {
				// Registered a moment ago by a concurrent request: treat as a duplicate.
				return errDuplicate
			}
			if err != nil {
				return err
			}
		default:
			return err
		}
		userID = u.ID
		return q.CreateRegistration(ctx, dbgen.CreateRegistrationParams{
			UserID: u.ID, PasswordHash: &hash, Name: &name, ExpiresAt: time.Now().Add(verifyTTL),
		})
	})
	if errors.Is(err, errDuplicate) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("register: %w", err)
	}
	// The mail is counted and queued after the transaction, whichever case this was, so
	// that every case does the same work in the same order (and takes the same time).
	// Should the process die in between, the registrant gets the link when they first try
	// to sign in.
	if !s.quietMailAllowed(ctx, email, clientIP) {
		return nil
	}
	if err := s.jobs.Insert(ctx, MailArgs{Mail: mailKind, UserID: userID}); err != nil {
		return fmt.Errorf("register: %w", err)
	}
	return nil
}

var errDuplicate = errors.New("duplicate registration")

// VerifyEmail uses a verification token: the account is verified, with the password and
// name of the registration the link was made for. It answers false for an unknown, used,
// expired or replaced one. A link of an account verified meanwhile (by a reset or a
// third-party sign-in) is used up without setting anything.
func (s *Service) VerifyEmail(ctx context.Context, token, clientIP string) (bool, error) {
	ok := false
	err := s.st.WithTx(ctx, func(q *dbgen.Queries) error {
		link, err := q.UseVerifyLink(ctx, auth.HashToken(token))
		if store.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		ok = true
		if _, err := q.VerifyRegistration(ctx, dbgen.VerifyRegistrationParams{ID: link.UserID, PasswordHash: link.PasswordHash, Name: link.Name}); err != nil {
			return err
		}
		return q.InvalidateEmailTokens(ctx, dbgen.InvalidateEmailTokensParams{UserID: link.UserID, Purpose: purposeVerify})
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
