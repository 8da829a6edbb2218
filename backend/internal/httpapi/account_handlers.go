package httpapi

// The account operations: sign-in, tokens, verification, reset, profile, password, deletion.
// Each decodes, calls account.Service and shapes the answer; the rules live in the service.

import (
	"context"
	"errors"
	"math"
	"net/http"
	"strconv"

	"github.com/percolate/percolate/backend/internal/account"
	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/auth"
	"github.com/percolate/percolate/backend/internal/entitlement"
	"github.com/percolate/percolate/gen/api"
)

// NewTokenVerifier returns the TokenVerifier of the auth package's access tokens.
func NewTokenVerifier(t *auth.Tokens) TokenVerifier { return tokenVerifier{t} }

type tokenVerifier struct{ t *auth.Tokens }

func (v tokenVerifier) VerifyAccessToken(ctx context.Context, token string) (Caller, error) {
	p, err := v.t.VerifyAccess(ctx, token)
	if err != nil {
		return Caller{}, err
	}
	return Caller{UserID: p.UserID, Role: p.Role, Family: p.Family, Identity: p.Identity}, nil
}

// accountCaller is the account service and the caller, for the operations on the caller's own account.
func (s *Server) accountCaller(ctx context.Context) (*account.Service, Caller, error) {
	acc := s.deps.Accounts
	c, err := caller(ctx)
	if err != nil {
		return nil, Caller{}, err
	}
	return acc, c, nil
}

func apiUser(u account.User) api.User {
	return api.User{Id: u.ID, Email: u.Email, Name: u.Name, Role: api.Role(u.Role), IsStudent: u.IsStudent}
}

func apiProfile(u account.User) api.Profile {
	return api.Profile{
		Name: u.Name, Email: u.Email, Role: api.Role(u.Role), Age: u.Age,
		FocusAreas: u.FocusAreas, PrimaryConcerns: u.PrimaryConcerns, SensitiveTopics: u.SensitiveTopics,
		MemoryEnabled: u.MemoryEnabled, Country: u.Country, Onboarded: u.Onboarded,
	}
}

// Login signs in with e-mail and password.
func (s *Server) Login(ctx context.Context, req api.LoginRequestObject) (api.LoginResponseObject, error) {
	acc := s.deps.Accounts
	sess, err := acc.Login(ctx, string(req.Body.Email), req.Body.Password, ClientIP(ctx))
	if err != nil {
		return nil, err
	}
	return api.Login200JSONResponse{AccessToken: sess.Access, RefreshToken: sess.Refresh, User: apiUser(sess.User)}, nil
}

// Register creates an account (or answers alike for a registered address).
func (s *Server) Register(ctx context.Context, req api.RegisterRequestObject) (api.RegisterResponseObject, error) {
	acc := s.deps.Accounts
	b := req.Body
	if err := acc.Register(ctx, account.Registration{Name: b.Name, Email: string(b.Email), Password: b.Password, ConfirmPassword: b.ConfirmPassword}, ClientIP(ctx)); err != nil {
		return nil, err
	}
	return api.Register201JSONResponse{Message: account.MsgRegistered}, nil
}

// ResendVerification mails a new verification link to an unverified account.
func (s *Server) ResendVerification(ctx context.Context, req api.ResendVerificationRequestObject) (api.ResendVerificationResponseObject, error) {
	acc := s.deps.Accounts
	if err := acc.ResendVerification(ctx, string(req.Body.Email), ClientIP(ctx)); err != nil {
		return nil, err
	}
	return api.ResendVerification200JSONResponse{Message: account.MsgResent}, nil
}

// Logout closes the caller's login.
func (s *Server) Logout(ctx context.Context, _ api.LogoutRequestObject) (api.LogoutResponseObject, error) {
	acc, c, err := s.accountCaller(ctx)
	if err != nil {
		return nil, err
	}
	if err := acc.Logout(ctx, c.UserID, c.Family); err != nil {
		return nil, err
	}
	return api.Logout204Response{}, nil
}

// GetCurrentUser returns the signed-in user.
func (s *Server) GetCurrentUser(ctx context.Context, _ api.GetCurrentUserRequestObject) (api.GetCurrentUserResponseObject, error) {
	acc, c, err := s.accountCaller(ctx)
	if err != nil {
		return nil, err
	}
	// Who the caller is was read with the login's check (and its role); a verifier that did
	// not read it leaves it to the account service.
	u := account.User{ID: c.UserID, Role: c.Role}
	if id := c.Identity; id != nil {
		u.Email, u.Name, u.IsStudent = id.Email, id.Name, id.IsStudent
	} else if u, err = acc.Me(ctx, c.UserID); err != nil {
		return nil, err
	}
	e := s.deps.Tiers.For(u.Role)
	return currentUserJSON{
		Id: u.ID, Email: u.Email, Name: u.Name, Role: api.Role(u.Role), IsStudent: u.IsStudent,
		Entitlements: EntitlementsJSON(e),
	}, nil
}

// EntitlementsJSON is a tier's row of the entitlement table as the API shows it.
func EntitlementsJSON(e entitlement.Entitlements) api.Entitlements {
	return api.Entitlements{
		MessagesPerDay: e.MessagesPerDay, SessionTokens: e.SessionTokens, Voice: e.Voice(), VoicePerDay: e.VoicePerDay,
		Summaries: e.Summaries, Insights: e.Insights, Community: e.Community, Memory: e.Memory, MoodPatterns: e.MoodPatterns,
	}
}

// RefreshTokens rotates a refresh token.
func (s *Server) RefreshTokens(ctx context.Context, req api.RefreshTokensRequestObject) (api.RefreshTokensResponseObject, error) {
	acc := s.deps.Accounts
	p, err := acc.Refresh(ctx, req.Body.RefreshToken, ClientIP(ctx))
	if err != nil {
		return nil, err
	}
	return api.RefreshTokens200JSONResponse{AccessToken: p.Access, RefreshToken: p.Refresh}, nil
}

// VerifyEmail uses a verification link; it answers text.
func (s *Server) VerifyEmail(ctx context.Context, req api.VerifyEmailRequestObject) (api.VerifyEmailResponseObject, error) {
	acc := s.deps.Accounts
	ok, err := acc.VerifyEmail(ctx, req.Params.T, ClientIP(ctx))
	if err != nil {
		if t, ok := asTextRefusal(err); ok {
			return t, nil
		}
		return nil, err
	}
	if !ok {
		return api.VerifyEmail400TextResponse(account.MsgVerifyInvalid), nil
	}
	return api.VerifyEmail200TextResponse(account.MsgVerified), nil
}

// textRefusal is a text/plain answer for the operations whose client shows a string body:
// a 400 with the message, or a 429 with Retry-After.
type textRefusal struct {
	status     int
	message    string
	retryAfter int
}

func (t textRefusal) visit(w http.ResponseWriter) error {
	w.Header().Set("Content-Type", "text/plain")
	if t.retryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(t.retryAfter))
	}
	w.WriteHeader(t.status)
	_, err := w.Write([]byte(t.message))
	return err
}

func (t textRefusal) VisitRequestPasswordResetResponse(w http.ResponseWriter) error {
	return t.visit(w)
}
func (t textRefusal) VisitResetPasswordResponse(w http.ResponseWriter) error { return t.visit(w) }
func (t textRefusal) VisitVerifyEmailResponse(w http.ResponseWriter) error   { return t.visit(w) }

// asTextRefusal turns a validation or limit error into its text answer.
func asTextRefusal(err error) (textRefusal, bool) {
	var (
		verr *apperr.ValidationError
		lerr *apperr.LimitError
	)
	switch {
	case errors.As(err, &verr):
		msg := verr.Summary
		for _, m := range verr.Fields {
			msg = m
		}
		if msg == "" {
			msg = msgValidation
		}
		return textRefusal{status: http.StatusBadRequest, message: msg}, true
	case errors.As(err, &lerr):
		secs := int(math.Ceil(lerr.RetryAfter.Seconds()))
		if secs < 1 {
			secs = 1
		}
		msg := lerr.Message
		if msg == "" {
			msg = msgRateLimited
		}
		return textRefusal{status: http.StatusTooManyRequests, message: msg, retryAfter: secs}, true
	}
	return textRefusal{}, false
}

// RequestPasswordReset mails a reset link; the answer is the same whether or not the
// account exists.
func (s *Server) RequestPasswordReset(ctx context.Context, req api.RequestPasswordResetRequestObject) (api.RequestPasswordResetResponseObject, error) {
	acc := s.deps.Accounts
	if err := acc.RequestPasswordReset(ctx, string(req.Params.Email), ClientIP(ctx)); err != nil {
		if t, ok := asTextRefusal(err); ok {
			return t, nil
		}
		return nil, err
	}
	return api.RequestPasswordReset200TextResponse(account.MsgResetMailSent), nil
}

// ResetPassword sets a new password with a reset link.
func (s *Server) ResetPassword(ctx context.Context, req api.ResetPasswordRequestObject) (api.ResetPasswordResponseObject, error) {
	acc := s.deps.Accounts
	if err := acc.ResetPassword(ctx, req.Params.Token, req.Body.Password, req.Body.ConfirmPassword, ClientIP(ctx)); err != nil {
		if t, ok := asTextRefusal(err); ok {
			return t, nil
		}
		return nil, err
	}
	return api.ResetPassword200TextResponse(account.MsgResetDone), nil
}

// GetProfile returns the caller's profile.
func (s *Server) GetProfile(ctx context.Context, _ api.GetProfileRequestObject) (api.GetProfileResponseObject, error) {
	acc, c, err := s.accountCaller(ctx)
	if err != nil {
		return nil, err
	}
	u, err := acc.Profile(ctx, c.UserID)
	if err != nil {
		return nil, err
	}
	return api.GetProfile200JSONResponse(apiProfile(u)), nil
}

// UpdateProfile changes one profile field.
func (s *Server) UpdateProfile(ctx context.Context, req api.UpdateProfileRequestObject) (api.UpdateProfileResponseObject, error) {
	acc, c, err := s.accountCaller(ctx)
	if err != nil {
		return nil, err
	}
	b := req.Body
	ch := account.ProfileChange{Age: b.Age, FocusAreas: b.FocusAreas, PrimaryConcerns: b.PrimaryConcerns, SensitiveTopics: b.SensitiveTopics, MemoryEnabled: b.MemoryEnabled, Country: b.Country, Onboarded: b.Onboarded}
	// The body has exactly one property (the contract says so and the validator checks it):
	// with no other field set, it is the age, possibly null.
	ch.SetAge = b.Age != nil || (b.FocusAreas == nil && b.PrimaryConcerns == nil && b.SensitiveTopics == nil && b.MemoryEnabled == nil && b.Country == nil && b.Onboarded == nil)
	u, err := acc.UpdateProfile(ctx, c.UserID, ch)
	s.deps.Chat.ForgetUser(c.UserID) // the prompt carries the profile
	if err != nil {
		return nil, err
	}
	return api.UpdateProfile200JSONResponse(apiProfile(u)), nil
}

// ChangePassword replaces the caller's password.
func (s *Server) ChangePassword(ctx context.Context, req api.ChangePasswordRequestObject) (api.ChangePasswordResponseObject, error) {
	acc, c, err := s.accountCaller(ctx)
	if err != nil {
		return nil, err
	}
	b := req.Body
	if err := acc.ChangePassword(ctx, c.UserID, c.Family, account.PasswordChange{Current: b.CurrentPassword, New: b.NewPassword, Confirm: b.ConfirmNewPassword}); err != nil {
		return nil, err
	}
	return api.ChangePassword200JSONResponse{Message: account.MsgPasswordChanged}, nil
}

// DeleteAccount deletes the caller's account and everything of it.
func (s *Server) DeleteAccount(ctx context.Context, _ api.DeleteAccountRequestObject) (api.DeleteAccountResponseObject, error) {
	acc, c, err := s.accountCaller(ctx)
	if err != nil {
		return nil, err
	}
	if err := acc.DeleteAccount(ctx, c.UserID); err != nil {
		return nil, err
	}
	return api.DeleteAccount204Response{}, nil
}

// RequestLoginLink mails a one-time sign-in link (same answer whether or not the account exists).
func (s *Server) RequestLoginLink(ctx context.Context, req api.RequestLoginLinkRequestObject) (api.RequestLoginLinkResponseObject, error) {
	acc := s.deps.Accounts
	if err := acc.RequestLoginLink(ctx, string(req.Body.Email), ClientIP(ctx)); err != nil {
		return nil, err
	}
	return api.RequestLoginLink200JSONResponse{Message: account.MsgLoginLinkSent}, nil
}

// LookUpLoginLink names the account of a sign-in link, masked, without using the link.
func (s *Server) LookUpLoginLink(ctx context.Context, req api.LookUpLoginLinkRequestObject) (api.LookUpLoginLinkResponseObject, error) {
	masked, err := s.deps.Accounts.LookUpLoginLink(ctx, req.Body.Token, ClientIP(ctx))
	if err != nil {
		return nil, err
	}
	return api.LookUpLoginLink200JSONResponse{MaskedEmail: masked}, nil
}

// RedeemLoginLink signs in with the token of a sign-in link.
func (s *Server) RedeemLoginLink(ctx context.Context, req api.RedeemLoginLinkRequestObject) (api.RedeemLoginLinkResponseObject, error) {
	acc := s.deps.Accounts
	sess, err := acc.RedeemLoginLink(ctx, req.Body.Token, ClientIP(ctx))
	if err != nil {
		return nil, err
	}
	return api.RedeemLoginLink200JSONResponse{AccessToken: sess.Access, RefreshToken: sess.Refresh, User: apiUser(sess.User)}, nil
}
