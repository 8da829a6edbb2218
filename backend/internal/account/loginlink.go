package account

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/auth"
	"github.com/percolate/percolate/backend/internal/store"
	dbgen "github.com/percolate/percolate/gen/db"
)

// Sign-in by e-mail link: what the owner of an address can do when wrong passwords (someone
// else's, perhaps) have locked the account, without waiting and without a new password.
const (
	MsgLoginLinkSent    = "If an account exists for that email, we've sent a sign-in link. It works once, for 15 minutes."
	MsgLoginLinkInvalid = "This sign-in link is invalid, used or expired. Please ask for a new one."
	CodeLoginLinkBad    = "INVALID_LOGIN_LINK"
	purposeLogin        = "login"
	loginLinkTTL        = 15 * time.Minute
)

// RequestLoginLink mails a one-time sign-in link when the address has a verified account.
// The caller answers MsgLoginLinkSent either way: known or not, the request does the same
// work (the job finds out), within the same limits as a reset mail.
func (s *Service) RequestLoginLink(ctx context.Context, email, clientIP string) error {
	if err := s.requestMail(ctx, mailLoginLink, email, clientIP); err != nil {
		return fmt.Errorf("request sign-in link: %w", err)
	}
	return nil
}

// RedeemLoginLink signs in with the token of a sign-in link. It lifts the lock that failed
// sign-ins put on the account: the link proved the mailbox is the owner's.
func (s *Service) RedeemLoginLink(ctx context.Context, token, clientIP string) (Session, error) {
	var sess Session
	found := false
	err := s.st.WithTx(ctx, func(q *dbgen.Queries) error {
		uid, err := q.UseEmailToken(ctx, dbgen.UseEmailTokenParams{TokenHash: auth.HashToken(token), Purpose: purposeLogin})
		if store.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		u, err := q.GetUserByID(ctx, uid)
		if err != nil {
			return err
		}
		if u.EmailVerifiedAt == nil {
			return nil // links are only mailed to verified accounts
		}
		if err := q.InvalidateEmailTokens(ctx, dbgen.InvalidateEmailTokensParams{UserID: uid, Purpose: purposeLogin}); err != nil {
			return err
		}
		pair, err := s.tokens.StartSession(ctx, q, u.ID, u.Role)
		if err != nil {
			return err
		}
		sess, found = Session{Pair: pair, User: userOf(u)}, true
		return nil
	})
	if err != nil {
		return Session{}, fmt.Errorf("redeem sign-in link: %w", err)
	}
	if !found {
		if err := s.tokenFailed(ctx, clientIP); err != nil {
			return Session{}, err
		}
		return Session{}, apperr.New(apperr.ErrUnauthorized, CodeLoginLinkBad, MsgLoginLinkInvalid)
	}
	if err := s.forgetFailedLogins(ctx, sess.User.Email); err != nil {
		return Session{}, err
	}
	return sess, nil
}

// forgetFailedLogins lifts every lock that failed sign-ins put on the account with this
// address, from any client: its owner proved the mailbox is theirs.
func (s *Service) forgetFailedLogins(ctx context.Context, email string) error {
	lim := s.cfg.Limits
	if err := s.limiter.ResetOwner(ctx, lim.LoginFailPerAccount, email); err != nil {
		return err
	}
	return s.limiter.Reset(ctx, lim.LoginFailPerAccountTotal, email)
}

// LookUpLoginLink names the account a sign-in link opens, masked (MaskEmail), without using
// the link: /login shows it and signs in only when the user says so, so that opening a link
// someone sent never switches accounts silently (issue 33, item 2). A token that would not
// redeem is refused the same way as a redeem, and counts towards the same limit of bad tokens
// per client address, so the look-up is no cheaper a way to guess tokens.
func (s *Service) LookUpLoginLink(ctx context.Context, token, clientIP string) (string, error) {
	q := s.st.Queries()
	row, err := q.GetValidEmailToken(ctx, dbgen.GetValidEmailTokenParams{TokenHash: auth.HashToken(token), Purpose: purposeLogin})
	if err == nil {
		// As RedeemLoginLink: links are only good for verified accounts.
		var u dbgen.User
		if u, err = q.GetUserByID(ctx, row.UserID); err == nil && u.EmailVerifiedAt == nil {
			err = pgx.ErrNoRows
		}
	}
	switch {
	case store.IsNotFound(err):
		if err := s.tokenFailed(ctx, clientIP); err != nil {
			return "", err
		}
		return "", apperr.New(apperr.ErrUnauthorized, CodeLoginLinkBad, MsgLoginLinkInvalid)
	case err != nil:
		return "", fmt.Errorf("look up sign-in link: %w", err)
	}
	return MaskEmail(row.Email), nil
}

// MaskEmail hides all of an address's local part but its first character: s•••@example.com.
// The domain stays, so the owner of several addresses can tell which one a link is for; the
// length of the local part does not show.
func MaskEmail(email string) string {
	local, domain, ok := strings.Cut(email, "@")
	if !ok || local == "" {
		return "•••"
	}
	first, _ := utf8.DecodeRuneInString(local)
	return string(first) + "•••@" + domain
}
