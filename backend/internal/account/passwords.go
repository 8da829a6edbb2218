// Passwords: reset by e-mail link, change by the signed-in user.

package account

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/auth"
	"github.com/percolate/percolate/backend/internal/store"
	dbgen "github.com/percolate/percolate/gen/db"
)

// RequestPasswordReset mails a reset link when the address has an account. The caller
// answers MsgResetMailSent either way. It returns a validation error for a malformed address
// and an *apperr.LimitError when too many mails were asked for.
func (s *Service) RequestPasswordReset(ctx context.Context, email, clientIP string) error {
	if err := s.requestMail(ctx, mailReset, email, clientIP); err != nil {
		return fmt.Errorf("request reset: %w", err)
	}
	return nil
}

// ResetPassword sets a new password with a reset token and closes every login of the user.
// Refusals are *apperr.ValidationError with one field ("token", "password" or
// "confirmPassword") whose message is shown as it is.
func (s *Service) ResetPassword(ctx context.Context, token, password, confirm, clientIP string) error {
	hashTok := auth.HashToken(token)
	q := s.st.Queries()
	row, err := q.GetValidEmailToken(ctx, dbgen.GetValidEmailTokenParams{TokenHash: hashTok, Purpose: purposeReset})
	if store.IsNotFound(err) {
		if err := s.tokenFailed(ctx, clientIP); err != nil {
			return err
		}
		return apperr.Invalid("token", MsgResetInvalid)
	}
	if err != nil {
		return fmt.Errorf("reset: %w", err)
	}
	if m := checkPassword(password, row.Email); m != "" {
		return apperr.Invalid("password", m)
	}
	if password != confirm {
		return apperr.Invalid("confirmPassword", msgPasswordMismatch)
	}
	hash, err := s.hasher.Hash(ctx, password)
	if err != nil {
		return fmt.Errorf("reset: %w", err)
	}
	used := false
	err = s.st.WithTx(ctx, func(q *dbgen.Queries) error {
		uid, err := q.UseEmailToken(ctx, dbgen.UseEmailTokenParams{TokenHash: hashTok, Purpose: purposeReset})
		if store.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		used = true
		if err := q.SetPasswordHash(ctx, dbgen.SetPasswordHashParams{PasswordHash: &hash, ID: uid}); err != nil {
			return err
		}
		// Following the link proved the mailbox is theirs.
		if err := q.MarkEmailVerified(ctx, uid); err != nil {
			return err
		}
		if err := q.InvalidateEmailTokens(ctx, dbgen.InvalidateEmailTokensParams{UserID: uid, Purpose: purposeReset}); err != nil {
			return err
		}
		return s.tokens.RevokeAll(ctx, q, uid, uuid.Nil, revokeReasonReset)
	})
	if err != nil {
		return fmt.Errorf("reset: %w", err)
	}
	if !used {
		return apperr.Invalid("token", MsgResetInvalid)
	}
	// The real owner is back in: forget the failed sign-ins against the account.
	return s.forgetFailedLogins(ctx, row.Email)
}

// PasswordChange is the change-password form.
type PasswordChange struct {
	Current, New, Confirm string
}

// ChangePassword replaces the caller's password and closes their other logins (the one
// identified by keepFamily stays signed in).
func (s *Service) ChangePassword(ctx context.Context, userID, keepFamily uuid.UUID, c PasswordChange) error {
	rule := s.cfg.Limits.PasswordFailPerUser
	subject := userID.String()
	// Counted before the hash, as a sign-in is (see Login).
	if _, err := s.limiter.Reserve(ctx, rule, subject); err != nil {
		return err
	}
	u, err := s.row(ctx, userID)
	if err != nil {
		return err
	}
	match := false
	if u.PasswordHash != nil {
		match, err = s.hasher.Verify(ctx, *u.PasswordHash, c.Current)
		if err != nil && !errors.Is(err, auth.ErrMalformedHash) {
			return fmt.Errorf("change password: %w", err)
		}
	}
	if !match {
		return apperr.Invalid("currentPassword", msgCurrentWrong)
	}
	// The current password was right: the failures against it are forgotten.
	if err := s.limiter.Reset(ctx, rule, subject); err != nil {
		return err
	}
	hash, err := s.hashNewPassword(ctx, map[string]string{}, u.Email, newPassword{"newPassword", c.New, "confirmNewPassword", c.Confirm})
	if err != nil {
		return err
	}
	err = s.st.WithTx(ctx, func(q *dbgen.Queries) error {
		if err := q.SetPasswordHash(ctx, dbgen.SetPasswordHashParams{PasswordHash: &hash, ID: userID}); err != nil {
			return err
		}
		return s.tokens.RevokeAll(ctx, q, userID, keepFamily, revokeReasonChange)
	})
	if err != nil {
		return fmt.Errorf("change password: %w", err)
	}
	return nil
}

// newPassword is a new password and its confirmation as a form sends them, each with the name
// of its field.
type newPassword struct {
	field, password, confirmField, confirm string
}

// hashNewPassword hashes a new password for the account of email once it and its
// confirmation are right. What is wrong with them joins fields (what the form already found
// wrong), and then nothing is hashed: the error is the validation error of all of fields.
func (s *Service) hashNewPassword(ctx context.Context, fields map[string]string, email string, p newPassword) (string, error) {
	if m := checkPassword(p.password, email); m != "" {
		fields[p.field] = m
	}
	if p.confirm != p.password {
		fields[p.confirmField] = msgPasswordMismatch
	}
	if len(fields) > 0 {
		return "", &apperr.ValidationError{Fields: fields}
	}
	hash, err := s.hasher.Hash(ctx, p.password)
	if err != nil {
		return "", fmt.Errorf("hash the new password: %w", err)
	}
	return hash, nil
}
