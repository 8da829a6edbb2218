package httpapi

// Operations of the contract that later issues implement. Each answers 501 NOT_IMPLEMENTED
// until then, so the whole API is routed, validated and documented from the start.

import (
	"context"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/gen/api"
)

// Login is not built yet.
func (s *Server) Login(context.Context, api.LoginRequestObject) (api.LoginResponseObject, error) {
	return nil, apperr.ErrNotImplemented
}

// Logout is not built yet.
func (s *Server) Logout(context.Context, api.LogoutRequestObject) (api.LogoutResponseObject, error) {
	return nil, apperr.ErrNotImplemented
}

// GetCurrentUser is not built yet.
func (s *Server) GetCurrentUser(context.Context, api.GetCurrentUserRequestObject) (api.GetCurrentUserResponseObject, error) {
	return nil, apperr.ErrNotImplemented
}

// ExchangeOidcCode is not built yet.
func (s *Server) ExchangeOidcCode(context.Context, api.ExchangeOidcCodeRequestObject) (api.ExchangeOidcCodeResponseObject, error) {
	return nil, apperr.ErrNotImplemented
}

// RefreshTokens is not built yet.
func (s *Server) RefreshTokens(context.Context, api.RefreshTokensRequestObject) (api.RefreshTokensResponseObject, error) {
	return nil, apperr.ErrNotImplemented
}

// Register is not built yet.
func (s *Server) Register(context.Context, api.RegisterRequestObject) (api.RegisterResponseObject, error) {
	return nil, apperr.ErrNotImplemented
}

// VerifyEmail is not built yet.
func (s *Server) VerifyEmail(context.Context, api.VerifyEmailRequestObject) (api.VerifyEmailResponseObject, error) {
	return nil, apperr.ErrNotImplemented
}

// SendChatMessage is not built yet.
func (s *Server) SendChatMessage(context.Context, api.SendChatMessageRequestObject) (api.SendChatMessageResponseObject, error) {
	return nil, apperr.ErrNotImplemented
}

// StreamChatMessage is not built yet.
func (s *Server) StreamChatMessage(context.Context, api.StreamChatMessageRequestObject) (api.StreamChatMessageResponseObject, error) {
	return nil, apperr.ErrNotImplemented
}

// ListChatSessions is not built yet.
func (s *Server) ListChatSessions(context.Context, api.ListChatSessionsRequestObject) (api.ListChatSessionsResponseObject, error) {
	return nil, apperr.ErrNotImplemented
}

// DeleteChatSession is not built yet.
func (s *Server) DeleteChatSession(context.Context, api.DeleteChatSessionRequestObject) (api.DeleteChatSessionResponseObject, error) {
	return nil, apperr.ErrNotImplemented
}

// GetChatSession is not built yet.
func (s *Server) GetChatSession(context.Context, api.GetChatSessionRequestObject) (api.GetChatSessionResponseObject, error) {
	return nil, apperr.ErrNotImplemented
}

// EndChatSession is not built yet.
func (s *Server) EndChatSession(context.Context, api.EndChatSessionRequestObject) (api.EndChatSessionResponseObject, error) {
	return nil, apperr.ErrNotImplemented
}

// TranscribeAudio is not built yet.
func (s *Server) TranscribeAudio(context.Context, api.TranscribeAudioRequestObject) (api.TranscribeAudioResponseObject, error) {
	return nil, apperr.ErrNotImplemented
}

// SendVoiceMessage is not built yet.
func (s *Server) SendVoiceMessage(context.Context, api.SendVoiceMessageRequestObject) (api.SendVoiceMessageResponseObject, error) {
	return nil, apperr.ErrNotImplemented
}

// ListWeeklyReports is not built yet.
func (s *Server) ListWeeklyReports(context.Context, api.ListWeeklyReportsRequestObject) (api.ListWeeklyReportsResponseObject, error) {
	return nil, apperr.ErrNotImplemented
}

// DeleteAccount is not built yet.
func (s *Server) DeleteAccount(context.Context, api.DeleteAccountRequestObject) (api.DeleteAccountResponseObject, error) {
	return nil, apperr.ErrNotImplemented
}

// GetProfile is not built yet.
func (s *Server) GetProfile(context.Context, api.GetProfileRequestObject) (api.GetProfileResponseObject, error) {
	return nil, apperr.ErrNotImplemented
}

// UpdateProfile is not built yet.
func (s *Server) UpdateProfile(context.Context, api.UpdateProfileRequestObject) (api.UpdateProfileResponseObject, error) {
	return nil, apperr.ErrNotImplemented
}

// ChangePassword is not built yet.
func (s *Server) ChangePassword(context.Context, api.ChangePasswordRequestObject) (api.ChangePasswordResponseObject, error) {
	return nil, apperr.ErrNotImplemented
}

// SearchProfileSessions is not built yet.
func (s *Server) SearchProfileSessions(context.Context, api.SearchProfileSessionsRequestObject) (api.SearchProfileSessionsResponseObject, error) {
	return nil, apperr.ErrNotImplemented
}

// GetProfileSession is not built yet.
func (s *Server) GetProfileSession(context.Context, api.GetProfileSessionRequestObject) (api.GetProfileSessionResponseObject, error) {
	return nil, apperr.ErrNotImplemented
}

// SendContactMessage is not built yet.
func (s *Server) SendContactMessage(context.Context, api.SendContactMessageRequestObject) (api.SendContactMessageResponseObject, error) {
	return nil, apperr.ErrNotImplemented
}

// ResetPassword is not built yet.
func (s *Server) ResetPassword(context.Context, api.ResetPasswordRequestObject) (api.ResetPasswordResponseObject, error) {
	return nil, apperr.ErrNotImplemented
}

// RequestPasswordReset is not built yet.
func (s *Server) RequestPasswordReset(context.Context, api.RequestPasswordResetRequestObject) (api.RequestPasswordResetResponseObject, error) {
	return nil, apperr.ErrNotImplemented
}

// CreateCheckoutSession is not built yet.
func (s *Server) CreateCheckoutSession(context.Context, api.CreateCheckoutSessionRequestObject) (api.CreateCheckoutSessionResponseObject, error) {
	return nil, apperr.ErrNotImplemented
}

// GetCommunityInvite is not built yet.
func (s *Server) GetCommunityInvite(context.Context, api.GetCommunityInviteRequestObject) (api.GetCommunityInviteResponseObject, error) {
	return nil, apperr.ErrNotImplemented
}

// CreatePortalSession is not built yet.
func (s *Server) CreatePortalSession(context.Context, api.CreatePortalSessionRequestObject) (api.CreatePortalSessionResponseObject, error) {
	return nil, apperr.ErrNotImplemented
}

// StripeWebhook is not built yet.
func (s *Server) StripeWebhook(context.Context, api.StripeWebhookRequestObject) (api.StripeWebhookResponseObject, error) {
	return nil, apperr.ErrNotImplemented
}

// StartOidcSignIn is not built yet.
func (s *Server) StartOidcSignIn(context.Context, api.StartOidcSignInRequestObject) (api.StartOidcSignInResponseObject, error) {
	return nil, apperr.ErrNotImplemented
}

// OidcCallback is not built yet.
func (s *Server) OidcCallback(context.Context, api.OidcCallbackRequestObject) (api.OidcCallbackResponseObject, error) {
	return nil, apperr.ErrNotImplemented
}
