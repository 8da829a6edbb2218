// Profile: the caller's account, its profile fields, and deleting it.

package account

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/store"
	dbgen "github.com/percolate/percolate/gen/db"
)

// Me returns who the caller is: the ID, Email, Name, Role and IsStudent of User, read
// without the rest of the row (Profile reads all of it).
func (s *Service) Me(ctx context.Context, userID uuid.UUID) (User, error) {
	u, err := s.st.Queries().GetUserIdentity(ctx, userID)
	if err != nil {
		return User{}, meErr(err)
	}
	return User{ID: u.ID, Email: u.Email, Name: u.Name, Role: u.Role, IsStudent: u.IsStudent}, nil
}

// row reads the caller's account row, for the service's own use.
func (s *Service) row(ctx context.Context, userID uuid.UUID) (dbgen.User, error) {
	u, err := s.st.Queries().GetUserByID(ctx, userID)
	if err != nil {
		return dbgen.User{}, meErr(err)
	}
	return u, nil
}

// meErr is the error of a read of the caller's own account: a missing account (deleted since
// its token was checked) is signed out.
func meErr(err error) error {
	if store.IsNotFound(err) {
		return fmt.Errorf("me: %w", apperr.ErrUnauthorized)
	}
	return fmt.Errorf("me: %w", err)
}

// ProfileChange is one changed profile field. SetAge with a nil Age clears the age.
type ProfileChange struct {
	SetAge          bool
	Age             *int
	FocusAreas      *string
	PrimaryConcerns *string
	SensitiveTopics *string
	// MemoryEnabled turns memory across sessions on or off.
	MemoryEnabled *bool
	// Country is an ISO 3166-1 alpha-2 code (any case), or empty to clear it.
	Country *string
	// Onboarded records that the first sign-in's onboarding was completed or skipped.
	Onboarded *bool
}

// Profile returns the caller's profile (the account row).
func (s *Service) Profile(ctx context.Context, userID uuid.UUID) (User, error) {
	u, err := s.row(ctx, userID)
	return userOf(u), err
}

// UpdateProfile changes profile fields of the caller.
func (s *Service) UpdateProfile(ctx context.Context, userID uuid.UUID, c ProfileChange) (User, error) {
	fields := map[string]string{}
	p := dbgen.UpdateProfileParams{ID: userID, SetAge: c.SetAge}
	if c.SetAge && c.Age != nil {
		switch a := *c.Age; {
		case a < MinAge:
			fields["age"] = msgAgeUnder13
		case a > MaxAge:
			fields["age"] = msgAgeRange
		default:
			v := int32(a)
			p.Age = &v
		}
	}
	text := func(field string, v *string) *string {
		if v == nil {
			return nil
		}
		t := strings.TrimSpace(*v)
		if utf8.RuneCountInString(t) > MaxProfileText {
			fields[field] = msgTextTooLong
		}
		return &t
	}
	p.FocusAreas = text("focusAreas", c.FocusAreas)
	p.PrimaryConcerns = text("primaryConcerns", c.PrimaryConcerns)
	p.SensitiveTopics = text("sensitiveTopics", c.SensitiveTopics)
	p.MemoryEnabled = c.MemoryEnabled
	p.Onboarded = c.Onboarded
	if c.Country != nil {
		p.SetCountry = true
		if strings.TrimSpace(*c.Country) != "" {
			code, ok := NormalizeCountry(*c.Country)
			if !ok {
				fields["country"] = msgCountry
			}
			p.Country = &code
		}
	}
	if len(fields) > 0 {
		return User{}, &apperr.ValidationError{Fields: fields}
	}
	u, err := s.st.Queries().UpdateProfile(ctx, p)
	if store.IsNotFound(err) {
		return User{}, fmt.Errorf("update profile: %w", apperr.ErrUnauthorized)
	}
	if err != nil {
		return User{}, fmt.Errorf("update profile: %w", err)
	}
	return userOf(u), nil
}

// DeleteAccount deletes the caller's account and, through ON DELETE CASCADE, everything of
// it: logins and tokens, chat sessions, messages, reports, usage, identities. Its background
// jobs go in the same transaction: those that name it by id, and the mails asked for its
// address (a reset, a sign-in link), so no job row keeps the address or the id afterwards.
func (s *Service) DeleteAccount(ctx context.Context, userID uuid.UUID) error {
	u, err := s.row(ctx, userID)
	if err != nil {
		return err
	}
	if s.cfg.BeforeDelete != nil {
		if err := s.cfg.BeforeDelete(ctx, u); err != nil {
			return fmt.Errorf("delete account: %w", err)
		}
	}
	del := func() error {
		return s.st.InTx(ctx, func(tx store.Tx) error {
			if _, err := tx.DeleteUser(ctx, userID); err != nil {
				return err
			}
			_, err := s.jobs.DeleteUserJobsTx(ctx, tx, userID, u.Email)
			return err
		})
	}
	err = del()
	for try := 0; try < 3 && store.IsDeadlock(err); try++ {
		// Two deletions of the same account at once lock its rows in different orders;
		// PostgreSQL cancels one, and its retry finds the account gone.
		err = del()
	}
	s.tokens.ForgetLogins()
	if err != nil {
		if store.IsNotFound(err) {
			// Deleted by a concurrent request of the same caller: the account is gone.
			return fmt.Errorf("delete account: %w", apperr.ErrUnauthorized)
		}
		return fmt.Errorf("delete account: %w", err)
	}
	return nil
}
