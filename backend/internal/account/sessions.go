// Sessions: sign-in with a password, refreshing tokens, signing out.

package account

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/auth"
	"github.com/percolate/percolate/backend/internal/store"
)

// Session is a successful sign-in.
type Session struct {
	auth.Pair
	User User
}

// Login checks a password and opens a session. Wrong passwords and unknown addresses get the
// same error after the same work; verified accounts only.
func (s *Service) Login(ctx context.Context, email, password, clientIP string) (Session, error) {
	email = normalizeEmail(email)
	lim := s.cfg.Limits
	// Every attempt is counted as a failure before the password is hashed, and given back
	// when the password was right: so concurrent attempts cannot all pass the limit, and no
	// more than the limit are hashed.
	//
	// Failed sign-ins are counted three ways, as OWASP's guidance on lockout has it: per
	// client address, whatever the account (one client trying many accounts); per account and
	// client address together, so that a stranger's wrong passwords lock only the stranger's
	// own pairing with the account, never its owner on their own device; and per account from
	// every address, a much higher ceiling (100 to the pairing's 10) against guessing spread
	// over many addresses.
	// Whichever refuses, the owner gets in with a sign-in link, which forgets the account's
	// counts (as a password reset does); the 429 says so.
	addr, err := s.limiter.Reserve(ctx, lim.LoginFailPerAddress, clientIP)
	if err != nil {
		return Session{}, err
	}
	mine, err := s.limiter.ReservePair(ctx, lim.LoginFailPerAccount, email, clientIP)
	if err != nil {
		return Session{}, err
	}
	total, err := s.limiter.Reserve(ctx, lim.LoginFailPerAccountTotal, email)
	if err != nil {
		// Refused by the ceiling, the password was not tried: the pairing's count goes back,
		// so the owner's own tries are not used up while others' lock the account.
		return Session{}, errors.Join(err, s.limiter.Release(ctx, mine))
	}
	q := s.st.Queries()
	u, err := q.GetUserByEmail(ctx, email)
	found := err == nil
	if err != nil && !store.IsNotFound(err) {
		return Session{}, fmt.Errorf("login: %w", err)
	}
	hash := u.PasswordHash
	if found && u.EmailVerifiedAt == nil {
		// An unverified account has no password yet. The one its newest registration chose
		// (which its link will set) is let through to the "please verify" answer below; an
		// earlier registrant's is wrong like any other.
		pending, err := q.GetPendingPassword(ctx, u.ID)
		switch {
		case err == nil:
			hash = &pending
		case !store.IsNotFound(err):
			return Session{}, fmt.Errorf("login: %w", err)
		}
	}
	match := false
	if found && hash != nil {
		match, err = s.hasher.Verify(ctx, *hash, password)
		if err != nil && !errors.Is(err, auth.ErrMalformedHash) {
			return Session{}, fmt.Errorf("login: %w", err)
		}
	} else {
		s.hasher.VerifyDummy(ctx, password)
	}
	if !match {
		return Session{}, ErrInvalidCredentials
	}
	if err := s.limiter.Release(ctx, addr); err != nil {
		return Session{}, err
	}
	// The right password is no failure.
	if err := s.limiter.Release(ctx, total); err != nil {
		return Session{}, err
	}
	if u.EmailVerifiedAt == nil {
		if err := s.limiter.Release(ctx, mine); err != nil {
			return Session{}, err
		}
		s.resendVerification(ctx, u, clientIP)
		return Session{}, apperr.New(apperr.ErrForbidden, CodeNotVerified, MsgNotVerified)
	}
	// The owner is in: forget the failed sign-ins from this address. Those from elsewhere
	// stay counted towards the account's ceiling.
	if err := s.limiter.ResetPair(ctx, lim.LoginFailPerAccount, email, clientIP); err != nil {
		return Session{}, err
	}
	pair, err := s.tokens.StartSession(ctx, q, u.ID, u.Role)
	if err != nil {
		return Session{}, fmt.Errorf("login: %w", err)
	}
	return Session{Pair: pair, User: userOf(u)}, nil
}

// Refresh rotates a refresh token (see auth.Tokens.Refresh).
func (s *Service) Refresh(ctx context.Context, refreshToken, clientIP string) (auth.Pair, error) {
	p, err := s.tokens.Refresh(ctx, refreshToken)
	if errors.Is(err, auth.ErrInvalidRefresh) {
		if lerr := s.limiter.Hit(ctx, s.cfg.Limits.RefreshFailPerAddress, clientIP); lerr != nil {
			return auth.Pair{}, lerr
		}
	}
	return p, err
}

// Logout closes the caller's login (its refresh family).
func (s *Service) Logout(ctx context.Context, userID, family uuid.UUID) error {
	return s.tokens.RevokeFamily(ctx, s.st.Queries(), userID, family, revokeReasonLogout)
}
