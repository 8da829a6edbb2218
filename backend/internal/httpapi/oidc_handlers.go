package httpapi

// Third-party sign-in: the start path and callback on the server root, and the exchange of
// the one-time code the callback hands the SPA (so that no token travels in a URL).

import (
	"context"
	"errors"
	"net/http"
	"net/url"

	"github.com/percolate/percolate/backend/internal/account"
	"github.com/percolate/percolate/gen/api"
)

// oidcCookie carries the signed flow (state, nonce, PKCE verifier) from start to callback.
const oidcCookie = "percolate_oidc"

type oidcCookieKey struct{}

// withOIDCCookie is a strict-handler middleware that hands the callback its flow cookie,
// which the generated request object does not carry.
func withOIDCCookie(f api.StrictHandlerFunc, operationID string) api.StrictHandlerFunc {
	if operationID != "OidcCallback" {
		return f
	}
	return func(ctx context.Context, w http.ResponseWriter, r *http.Request, req any) (any, error) {
		if c, err := r.Cookie(oidcCookie); err == nil {
			ctx = context.WithValue(ctx, oidcCookieKey{}, c.Value)
		}
		return f(ctx, w, r, req)
	}
}

// oidcRedirect is a 302 that may set or clear the flow cookie.
type oidcRedirect struct {
	location string
	cookie   *http.Cookie
}

func (o oidcRedirect) visit(w http.ResponseWriter) error {
	if o.cookie != nil {
		http.SetCookie(w, o.cookie)
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Location", o.location)
	w.WriteHeader(http.StatusFound)
	return nil
}

func (o oidcRedirect) VisitStartOidcSignInResponse(w http.ResponseWriter) error { return o.visit(w) }
func (o oidcRedirect) VisitOidcCallbackResponse(w http.ResponseWriter) error    { return o.visit(w) }

// flowCookie is the only cookie Percolate sets: it carries a sign-in with the identity provider
// from start to callback, for oidcFlowSeconds at most. Over HTTPS it is HTTP-only, Secure and
// SameSite=None (an identity provider may answer with a cross-site POST); over plain HTTP, where
// browsers refuse SameSite=None, it is Lax. The privacy page says so (TestPrivacyPageTellsTheTruth).
func (s *Server) flowCookie(value string, maxAge int) *http.Cookie {
	sameSite := http.SameSiteLaxMode
	if s.deps.SecureCookies {
		sameSite = http.SameSiteNoneMode
	}
	return &http.Cookie{ // #nosec G124 -- HttpOnly always; Secure and SameSite=None whenever the public URL is https (plain http in development cannot carry Secure)
		Name: oidcCookie, Value: value, Path: "/oauth2/", MaxAge: maxAge,
		HttpOnly: true, Secure: s.deps.SecureCookies, SameSite: sameSite,
	}
}

// oidcFlowSeconds is how long the flow cookie lives.
const oidcFlowSeconds = 600

// loginError sends the browser to /login with the code of what went wrong (an
// account.OIDCFailure, listed in the contract), never with text: the page maps each code to a
// fixed message.
func (s *Server) loginError(err error) oidcRedirect {
	code := account.OIDCFailed
	var oe *account.OIDCError
	if errors.As(err, &oe) && oe.Code != "" {
		code = oe.Code
	}
	if oe == nil || oe.Err != nil {
		s.deps.Logger.Warn("third-party sign-in failed", "error", err.Error())
	}
	return oidcRedirect{location: "/login?oauthError=" + url.QueryEscape(string(code)), cookie: s.flowCookie("", -1)}
}

// StartOidcSignIn sends the browser to the identity provider.
func (s *Server) StartOidcSignIn(ctx context.Context, req api.StartOidcSignInRequestObject) (api.StartOidcSignInResponseObject, error) {
	if !s.deps.OIDC.Configured() {
		return s.loginError(&account.OIDCError{Code: account.OIDCUnavailable}), nil
	}
	to, cookie, err := s.deps.OIDC.Start(ctx, req.Params.BrowserNonce)
	if err != nil {
		return s.loginError(err), nil
	}
	return oidcRedirect{location: to, cookie: s.flowCookie(cookie, oidcFlowSeconds)}, nil
}

// OidcCallback finishes sign-in and hands the SPA a one-time code.
func (s *Server) OidcCallback(ctx context.Context, req api.OidcCallbackRequestObject) (api.OidcCallbackResponseObject, error) {
	if !s.deps.OIDC.Configured() {
		return s.loginError(&account.OIDCError{Code: account.OIDCUnavailable}), nil
	}
	val := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	cookie, _ := ctx.Value(oidcCookieKey{}).(string)
	code, err := s.deps.OIDC.Callback(ctx, val(req.Params.Code), val(req.Params.State), val(req.Params.Error), cookie)
	if err != nil {
		return s.loginError(err), nil
	}
	return oidcRedirect{location: "/login?oauthCode=" + url.QueryEscape(code), cookie: s.flowCookie("", -1)}, nil
}

// ExchangeOidcCode trades the one-time code for tokens.
func (s *Server) ExchangeOidcCode(ctx context.Context, req api.ExchangeOidcCodeRequestObject) (api.ExchangeOidcCodeResponseObject, error) {
	acc := s.deps.Accounts
	sess, err := acc.ExchangeLoginCode(ctx, req.Body.Code, req.Body.BrowserNonce, ClientIP(ctx))
	if err != nil {
		return nil, err
	}
	return api.ExchangeOidcCode200JSONResponse{AccessToken: sess.Access, RefreshToken: sess.Refresh, User: apiUser(sess.User)}, nil
}
