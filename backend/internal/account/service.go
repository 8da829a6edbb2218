// The account service: its configuration and limits, and the helpers its operations share.
// The operations are in signup.go (registration, verification), sessions.go (sign-in,
// refresh, sign-out), passwords.go (reset, change), profile.go (profile, deletion),
// loginlink.go and oidc.go; their mails in mailjob.go and mails.go.

package account

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/auth"
	"github.com/percolate/percolate/backend/internal/mail"
	"github.com/percolate/percolate/backend/internal/queue"
	"github.com/percolate/percolate/backend/internal/ratelimit"
	"github.com/percolate/percolate/backend/internal/store"
	dbgen "github.com/percolate/percolate/gen/db"
)

// Texts the API answers with.
const (
	MsgRegistered      = "Registration successful! Please check your email to verify your account."
	MsgResent          = "If that address has an account waiting for verification, we sent a new link. Check your inbox."
	MsgVerified        = "Your email has been verified. You can now sign in."
	MsgVerifyInvalid   = "This verification link is invalid or has expired."
	MsgInvalidLogin    = "Invalid email or password."
	MsgNotVerified     = "Please verify your email address before signing in. Check your inbox for the verification link we sent you."
	MsgResetMailSent   = "If an account exists for that email, we've sent a link to reset your password."
	MsgResetInvalid    = "This password reset link is invalid or has expired. Please request a new one."
	MsgResetDone       = "Your password has been reset. You can now sign in with your new password."
	MsgPasswordChanged = "Password changed successfully!"
	MsgLoginLimited    = "Too many failed sign-in attempts. Please wait 15 minutes and try again, or sign in with a link sent to your e-mail."
	MsgMailLimited     = "Too many emails requested. Please wait an hour and try again."
	MsgRegisterLimited = "Too many registrations from your network. Please try again later."
	MsgPasswordLimited = "Too many failed attempts. Please wait 15 minutes and try again."
	MsgTokenLimited    = "Too many invalid or expired links from your network. Please wait 15 minutes and try again."
	CodeNotVerified    = "EMAIL_NOT_VERIFIED"
	CodeBadCredentials = "INVALID_CREDENTIALS" // #nosec G101 -- an error code, not a credential
	verifyTTL          = 24 * time.Hour
	resetTTL           = time.Hour
	resendVerifyEvery  = time.Minute
	purposeVerify      = "verify"
	purposeReset       = "reset"
	revokeReasonReset  = "password-reset"
	revokeReasonChange = "password-change"
	revokeReasonLogout = "logout"
	// revokeReasonClaimed closes the logins of an unverified account whose address a
	// third-party sign-in proved to belong to someone else.
	revokeReasonClaimed = "claimed-by-mailbox-owner"
)

// ErrInvalidCredentials answers a wrong password and an unknown e-mail alike.
var ErrInvalidCredentials = apperr.New(apperr.ErrUnauthorized, CodeBadCredentials, MsgInvalidLogin)

// Limits are the rate limits of the account operations.
type Limits struct {
	// LoginFailPerAccount counts failed sign-ins per account and client address together;
	// LoginFailPerAccountTotal per account from any address, LoginFailPerAddress per
	// address to any account (see Login).
	LoginFailPerAccount      ratelimit.Rule
	LoginFailPerAccountTotal ratelimit.Rule
	LoginFailPerAddress      ratelimit.Rule
	// MailPerEmail counts the mails anyone may ask for an address (reset, sign-in link);
	// RegisterMailPerEmail counts those that registering or signing in to an unverified
	// account sends. They are apart so that the answers to reset requests never tell
	// whether someone registered the address lately.
	MailPerEmail         ratelimit.Rule
	RegisterMailPerEmail ratelimit.Rule
	MailPerAddress       ratelimit.Rule
	RegisterPerAddress   ratelimit.Rule
	PasswordFailPerUser  ratelimit.Rule
	// TokenFailPerAddress counts e-mail links and one-time login codes that did not work per
	// client address, RefreshFailPerAddress refresh tokens that did not work. A token that
	// works is never refused by either: they only slow down guessing.
	TokenFailPerAddress   ratelimit.Rule
	RefreshFailPerAddress ratelimit.Rule
}

// DefaultLimits are the limits of issue 3.
func DefaultLimits() Limits {
	return Limits{
		LoginFailPerAccount:      ratelimit.Rule{Name: "login-fail-account-client", Limit: 10, Window: 15 * time.Minute, Message: MsgLoginLimited},
		LoginFailPerAccountTotal: ratelimit.Rule{Name: "login-fail-account", Limit: 100, Window: 15 * time.Minute, Message: MsgLoginLimited},
		LoginFailPerAddress:      ratelimit.Rule{Name: "login-fail-addr", Limit: 100, Window: 15 * time.Minute, Message: MsgLoginLimited},
		MailPerEmail:             ratelimit.Rule{Name: "account-mail-email", Limit: 3, Window: time.Hour, Message: MsgMailLimited},
		RegisterMailPerEmail:     ratelimit.Rule{Name: "register-mail-email", Limit: 3, Window: time.Hour, Message: MsgMailLimited},
		MailPerAddress:           ratelimit.Rule{Name: "account-mail-addr", Limit: 20, Window: time.Hour, Message: MsgMailLimited},
		RegisterPerAddress:       ratelimit.Rule{Name: "register-addr", Limit: 20, Window: time.Hour, Message: MsgRegisterLimited},
		PasswordFailPerUser:      ratelimit.Rule{Name: "password-change-fail", Limit: 10, Window: 15 * time.Minute, Message: MsgPasswordLimited},
		TokenFailPerAddress:      ratelimit.Rule{Name: "token-fail-addr", Limit: 50, Window: 15 * time.Minute, Message: MsgTokenLimited},
		RefreshFailPerAddress:    ratelimit.Rule{Name: "refresh-fail-addr", Limit: 50, Window: 15 * time.Minute, Message: MsgTokenLimited},
	}
}

// Config configures the Service.
type Config struct {
	// PublicURL is the base of the links in e-mails, without a trailing slash.
	PublicURL string
	Limits    Limits
	Logger    *slog.Logger
	// BeforeDelete runs inside account deletion before the rows go, e.g. to cancel the
	// Stripe subscription once billing exists. An error stops the deletion.
	BeforeDelete func(ctx context.Context, u dbgen.User) error
}

// Service runs the account operations.
type Service struct {
	st      *store.Store
	hasher  *auth.Hasher
	tokens  *auth.Tokens
	mail    mail.Sender
	jobs    *queue.Queue
	limiter *ratelimit.Limiter
	cfg     Config
	log     *slog.Logger
}

// NewService returns the account service. Its mails are jobs of the queue, sent through
// sender; NewService registers their worker, so build it before the queue starts.
func NewService(st *store.Store, hasher *auth.Hasher, tokens *auth.Tokens, sender mail.Sender, jobs *queue.Queue, cfg Config) *Service {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Limits == (Limits{}) {
		cfg.Limits = DefaultLimits()
	}
	cfg.PublicURL = strings.TrimRight(cfg.PublicURL, "/")
	s := &Service{st: st, hasher: hasher, tokens: tokens, mail: sender, jobs: jobs, limiter: ratelimit.New(st.Queries()), cfg: cfg, log: cfg.Logger}
	s.registerWorkers(jobs)
	return s
}

// Limiter is the service's rate limiter (its clock is replaceable in tests).
func (s *Service) Limiter() *ratelimit.Limiter { return s.limiter }

// Tokens returns the token issuer.
func (s *Service) Tokens() *auth.Tokens { return s.tokens }

// Logger is the service's logger.
func (s *Service) Logger() *slog.Logger { return s.log }

// requestMail queues a mail that anyone may ask for an address (a reset or a sign-in link),
// within the per-address and per-client limits. Whether the address has an account is for
// the job to find out, not this request: known or not, the request does the very same work.
func (s *Service) requestMail(ctx context.Context, kind, email, clientIP string) error {
	email = normalizeEmail(email)
	if m := checkEmail(email); m != "" {
		return apperr.Invalid("email", m)
	}
	if err := s.limiter.Hit(ctx, s.cfg.Limits.MailPerAddress, clientIP); err != nil {
		return err
	}
	if err := s.limiter.Hit(ctx, s.cfg.Limits.MailPerEmail, email); err != nil {
		return err
	}
	return s.jobs.Insert(ctx, MailArgs{Mail: kind, Email: email})
}

// tokenFailed counts an e-mail link or login code that did not work against clientIP; it
// returns the limit error when that was one too many. It runs only once the token was found
// not to work, so a valid token is never refused.
func (s *Service) tokenFailed(ctx context.Context, clientIP string) error {
	return s.limiter.Hit(ctx, s.cfg.Limits.TokenFailPerAddress, clientIP)
}

func (s *Service) link(path, token string) string {
	return s.cfg.PublicURL + path + token
}

// newEmailToken stores the hash of a new one-time token and returns the token, which is
// kept nowhere but in the mail it is made for.
func newEmailToken(ctx context.Context, q *dbgen.Queries, userID uuid.UUID, purpose string, ttl time.Duration) (string, error) {
	token, hash, err := auth.NewOpaqueToken()
	if err != nil {
		return "", err
	}
	expires := time.Now().Add(ttl)
	if purpose == purposeVerify {
		// A verification link carries the password and name of the account's newest
		// registration (pgx.ErrNoRows when it has none open).
		_, err = q.CreateVerifyLink(ctx, dbgen.CreateVerifyLinkParams{UserID: userID, TokenHash: hash, ExpiresAt: expires})
	} else {
		_, err = q.CreateEmailToken(ctx, dbgen.CreateEmailTokenParams{UserID: userID, Purpose: purpose, TokenHash: hash, ExpiresAt: expires})
	}
	if err != nil {
		return "", fmt.Errorf("create %s token: %w", purpose, err)
	}
	return token, nil
}
