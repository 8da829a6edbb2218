package account

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"

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
	MsgLoginLimited    = "Too many failed sign-in attempts. Please wait 15 minutes and try again, or reset your password."
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
	LoginFailPerAccount ratelimit.Rule
	LoginFailPerAddress ratelimit.Rule
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
		LoginFailPerAccount:   ratelimit.Rule{Name: "login-fail-account", Limit: 10, Window: 15 * time.Minute, Message: MsgLoginLimited},
		LoginFailPerAddress:   ratelimit.Rule{Name: "login-fail-addr", Limit: 100, Window: 15 * time.Minute, Message: MsgLoginLimited},
		MailPerEmail:          ratelimit.Rule{Name: "account-mail-email", Limit: 3, Window: time.Hour, Message: MsgMailLimited},
		RegisterMailPerEmail:  ratelimit.Rule{Name: "register-mail-email", Limit: 3, Window: time.Hour, Message: MsgMailLimited},
		MailPerAddress:        ratelimit.Rule{Name: "account-mail-addr", Limit: 20, Window: time.Hour, Message: MsgMailLimited},
		RegisterPerAddress:    ratelimit.Rule{Name: "register-addr", Limit: 20, Window: time.Hour, Message: MsgRegisterLimited},
		PasswordFailPerUser:   ratelimit.Rule{Name: "password-change-fail", Limit: 10, Window: 15 * time.Minute, Message: MsgPasswordLimited},
		TokenFailPerAddress:   ratelimit.Rule{Name: "token-fail-addr", Limit: 50, Window: 15 * time.Minute, Message: MsgTokenLimited},
		RefreshFailPerAddress: ratelimit.Rule{Name: "refresh-fail-addr", Limit: 50, Window: 15 * time.Minute, Message: MsgTokenLimited},
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

// Session is a successful sign-in.
type Session struct {
	auth.Pair
	User User
}

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

// Login checks a password and opens a session. Wrong passwords and unknown addresses get the
// same error after the same work; verified accounts only.
func (s *Service) Login(ctx context.Context, email, password, clientIP string) (Session, error) {
	email = normalizeEmail(email)
	lim := s.cfg.Limits
	// Every attempt is counted as a failure before the password is hashed, and given back
	// when the password was right: so concurrent attempts cannot all pass the limit, and no
	// more than the limit are hashed.
	addr, err := s.limiter.Reserve(ctx, lim.LoginFailPerAddress, clientIP)
	if err != nil {
		return Session{}, err
	}
	acct, err := s.limiter.Reserve(ctx, lim.LoginFailPerAccount, email)
	if err != nil {
		return Session{}, err
	}
	q := s.st.Queries()
	u, err := q.GetUserByEmail(ctx, email)
	found := err == nil
	if err != nil && !store.IsNotFound(err) {
		return Session{}, fmt.Errorf("login: %w", err)
	}
	match := false
	if found && u.PasswordHash != nil {
		match, err = s.hasher.Verify(ctx, *u.PasswordHash, password)
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
	if u.EmailVerifiedAt == nil {
		if err := s.limiter.Release(ctx, acct); err != nil {
			return Session{}, err
		}
		s.resendVerification(ctx, u, clientIP)
		return Session{}, apperr.New(apperr.ErrForbidden, CodeNotVerified, MsgNotVerified)
	}
	// The owner is in: forget the failed sign-ins against the account.
	if err := s.limiter.Reset(ctx, lim.LoginFailPerAccount, email); err != nil {
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

// Me returns the caller's account.
func (s *Service) Me(ctx context.Context, userID uuid.UUID) (User, error) {
	u, err := s.row(ctx, userID)
	return userOf(u), err
}

// row reads the caller's account row, for the service's own use.
func (s *Service) row(ctx context.Context, userID uuid.UUID) (dbgen.User, error) {
	u, err := s.st.Queries().GetUserByID(ctx, userID)
	if store.IsNotFound(err) {
		return dbgen.User{}, fmt.Errorf("me: %w", apperr.ErrUnauthorized)
	}
	if err != nil {
		return dbgen.User{}, fmt.Errorf("me: %w", err)
	}
	return u, nil
}

// RequestPasswordReset mails a reset link when the address has an account. The caller
// answers MsgResetMailSent either way. It returns a validation error for a malformed address
// and an *apperr.LimitError when too many mails were asked for.
func (s *Service) RequestPasswordReset(ctx context.Context, email, clientIP string) error {
	if err := s.requestMail(ctx, mailReset, email, clientIP); err != nil {
		return fmt.Errorf("request reset: %w", err)
	}
	return nil
}

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
	return s.limiter.Reset(ctx, s.cfg.Limits.LoginFailPerAccount, row.Email)
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
}

// Profile returns the caller's profile (the account row).
func (s *Service) Profile(ctx context.Context, userID uuid.UUID) (User, error) {
	return s.Me(ctx, userID)
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
	fields := map[string]string{}
	if m := checkPassword(c.New, u.Email); m != "" {
		fields["newPassword"] = m
	}
	if c.Confirm != c.New {
		fields["confirmNewPassword"] = msgPasswordMismatch
	}
	if len(fields) > 0 {
		return &apperr.ValidationError{Fields: fields}
	}
	hash, err := s.hasher.Hash(ctx, c.New)
	if err != nil {
		return fmt.Errorf("change password: %w", err)
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

// DeleteAccount deletes the caller's account and, through ON DELETE CASCADE, everything of
// it: logins and tokens, chat sessions, messages, reports, usage, identities.
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
	_, err = s.st.Queries().DeleteUser(ctx, userID)
	for try := 0; try < 3 && store.IsDeadlock(err); try++ {
		// Two deletions of the same account at once lock its rows in different orders;
		// PostgreSQL cancels one, and its retry finds the account gone.
		_, err = s.st.Queries().DeleteUser(ctx, userID)
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

// tokenFailed counts an e-mail link or login code that did not work against clientIP; it
// returns the limit error when that was one too many. It runs only once the token was found
// not to work, so a valid token is never refused.
func (s *Service) tokenFailed(ctx context.Context, clientIP string) error {
	return s.limiter.Hit(ctx, s.cfg.Limits.TokenFailPerAddress, clientIP)
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
	if _, err := q.CreateEmailToken(ctx, dbgen.CreateEmailTokenParams{UserID: userID, Purpose: purpose, TokenHash: hash, ExpiresAt: time.Now().Add(ttl)}); err != nil {
		return "", fmt.Errorf("create %s token: %w", purpose, err)
	}
	return token, nil
}

// Logger is the service's logger.
func (s *Service) Logger() *slog.Logger { return s.log }
