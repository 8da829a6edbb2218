// Package httpapi implements the strict server interface generated from openapi.yaml and the
// HTTP concerns around it: validation, authentication, errors, security headers, logging, the
// docs page and the embedded web app. Handlers only translate; rules live in domain packages.
package httpapi

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"

	percolate "github.com/percolate/percolate"
	"github.com/percolate/percolate/backend/internal/account"
	"github.com/percolate/percolate/backend/internal/billing"
	"github.com/percolate/percolate/backend/internal/chat"
	"github.com/percolate/percolate/backend/internal/checkin"
	"github.com/percolate/percolate/backend/internal/contact"
	"github.com/percolate/percolate/backend/internal/entitlement"
	"github.com/percolate/percolate/backend/internal/export"
	"github.com/percolate/percolate/backend/internal/insights"
	"github.com/percolate/percolate/backend/internal/memory"
	"github.com/percolate/percolate/backend/internal/reminders"
	"github.com/percolate/percolate/backend/internal/voice"
	"github.com/percolate/percolate/gen/api"
)

// Pinger checks that the database answers.
type Pinger interface {
	Ping(ctx context.Context) error
}

// Deps is what the HTTP layer needs from the rest of the application. Every service a
// handler uses is required: NewHandler refuses Deps without one (see missing), so no
// handler checks for it.
type Deps struct {
	Logger   *slog.Logger
	DB       Pinger
	Verifier TokenVerifier
	// Accounts runs sign-in, tokens, verification, reset, profile and deletion.
	Accounts *account.Service
	// OIDC runs third-party sign-in (unconfigured: sign-in with Google is off).
	OIDC *account.OIDC
	// SecureCookies marks cookies Secure (the public URL is https).
	SecureCookies bool
	// HSTS sends Strict-Transport-Security on every response (the public URL is https).
	HSTS bool
	// Features tells the web app what this server has configured.
	Features api.ClientConfig
	Version  string
	// WebApp is the built front end (index.html at its root).
	WebApp fs.FS
	// SupportEmail is the mailbox the web app shows (PERCOLATE_SUPPORT_EMAIL).
	SupportEmail string
	// Billing sells plans through Stripe.
	Billing *billing.Service
	// Insights lists weekly insight reports.
	Insights *insights.Service
	// Voice runs spoken conversations.
	Voice *voice.Service
	// TrustedProxies may name the client in X-Forwarded-For.
	TrustedProxies []netip.Prefix
	// Contact handles the public contact form.
	Contact *contact.Service
	// Chat runs chat sessions and the companion's replies.
	Chat *chat.Service
	// Memory lists and changes what is remembered about users.
	Memory *memory.Service
	// Checkins stores and reads mood check-ins.
	Checkins *checkin.Service
	// Export writes a user's data as a zip archive.
	Export Exporter
	// Reminders keeps reminder settings and push subscriptions.
	Reminders *reminders.Service
	// Tiers is what each role includes, shown on /api/auth/me (nil: the product's defaults).
	Tiers entitlement.Table
}

// Exporter writes a user's data as a zip archive (export.Service).
type Exporter interface {
	// Begin refuses the export before the response starts (limit, account gone).
	Begin(ctx context.Context, userID uuid.UUID) error
	// Write writes the archive; an error means it was cut short.
	Write(ctx context.Context, userID uuid.UUID, w io.Writer) error
}

var _ Exporter = (*export.Service)(nil)

// Server implements api.StrictServerInterface.
type Server struct {
	deps Deps
	kept *keptAnswers
}

var _ api.StrictServerInterface = (*Server)(nil)

// missing names the required services d lacks.
func (d Deps) missing() []string {
	var out []string
	for _, dep := range []struct {
		name string
		nil  bool
	}{
		{"DB", d.DB == nil},
		{"Verifier", d.Verifier == nil},
		{"Accounts", d.Accounts == nil},
		{"OIDC", d.OIDC == nil},
		{"Billing", d.Billing == nil},
		{"Insights", d.Insights == nil},
		{"Voice", d.Voice == nil},
		{"Contact", d.Contact == nil},
		{"Chat", d.Chat == nil},
		{"Memory", d.Memory == nil},
		{"Checkins", d.Checkins == nil},
		{"Export", d.Export == nil},
		{"Reminders", d.Reminders == nil},
	} {
		if dep.nil {
			out = append(out, dep.name)
		}
	}
	return out
}

// NewHandler returns the application's whole HTTP handler. It refuses Deps that lack a
// required service.
func NewHandler(d Deps) (http.Handler, error) {
	if m := d.missing(); len(m) > 0 {
		return nil, fmt.Errorf("http handler: Deps lacks %s", strings.Join(m, ", "))
	}
	if d.Logger == nil {
		d.Logger = slog.Default()
	}
	if d.Tiers == nil {
		d.Tiers = entitlement.Default()
	}
	spec, err := api.GetSpec()
	if err != nil {
		return nil, fmt.Errorf("load embedded openapi spec: %w", err)
	}
	spa, err := newSPAHandler(d.WebApp, d.SupportEmail)
	if err != nil {
		return nil, err
	}
	s := &Server{deps: d, kept: newKeptAnswers(keptAnswerBytes)}
	validate, err := newValidator(spec, s.oidcRefusal)
	if err != nil {
		return nil, err
	}

	r := chi.NewRouter()
	r.Use(requestID, clientAddress(d.TrustedProxies), recoverer(d.Logger), accessLog(d.Logger), securityHeaders(d.HSTS), gzipResponses)
	r.Get("/api/openapi.yaml", serveBytes("application/yaml; charset=utf-8", percolate.OpenAPIYAML))
	r.Get("/api/docs", serveDocs(spec))
	r.Group(func(g chi.Router) {
		// The validator applies the body limits, so the webhook's raw body is kept after it.
		g.Use(authenticate(d.Verifier), validate.middleware, keepRawBody)
		strict := api.NewStrictHandlerWithOptions(s, []api.StrictMiddlewareFunc{withOIDCCookie}, api.StrictHTTPServerOptions{
			// The validator has checked the body against the contract, so this is a contract
			// the generated types cannot hold; the client still learns which part was refused.
			RequestErrorHandlerFunc: func(w http.ResponseWriter, r *http.Request, _ error) {
				refuse(w, r, map[string]string{bodyField: msgMalformedJSON})
			},
			ResponseErrorHandlerFunc: writeDomainError,
		})
		api.HandlerWithOptions(strict, api.ChiServerOptions{BaseRouter: g, ErrorHandlerFunc: bindError})
	})
	r.NotFound(func(w http.ResponseWriter, req *http.Request) {
		if isAPIPath(req.URL.Path) {
			writeError(w, http.StatusNotFound, "NOT_FOUND", "There is no such API endpoint.")
			return
		}
		spa.ServeHTTP(w, req)
	})
	r.MethodNotAllowed(func(w http.ResponseWriter, req *http.Request) {
		if isAPIPath(req.URL.Path) {
			w.Header().Set("Allow", strings.Join(allowedMethods(r, req.URL.Path), ", "))
			writeError(w, http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED", "This method is not allowed here.")
			return
		}
		spa.ServeHTTP(w, req)
	})
	return r, nil
}

// allowedMethods lists the methods routed on path (RFC 9110 asks a 405 to name them in Allow).
func allowedMethods(r chi.Routes, path string) []string {
	var out []string
	for _, m := range []string{http.MethodDelete, http.MethodGet, http.MethodPatch, http.MethodPost, http.MethodPut} {
		if r.Match(chi.NewRouteContext(), m, path) {
			out = append(out, m)
		}
	}
	return out
}

// GetHealth answers that the process serves requests (liveness): it asks nothing of the
// database, whose outage is no reason to restart an instance.
func (s *Server) GetHealth(context.Context, api.GetHealthRequestObject) (api.GetHealthResponseObject, error) {
	return api.GetHealth200JSONResponse{Status: api.HealthStatusOk, Version: &s.deps.Version}, nil
}

// GetReadiness reports whether the server and its database answer (readiness).
func (s *Server) GetReadiness(ctx context.Context, _ api.GetReadinessRequestObject) (api.GetReadinessResponseObject, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if s.deps.DB.Ping(ctx) != nil {
		down, retry := api.HealthDatabaseUnavailable, databaseRetryAfter
		return api.GetReadiness503JSONResponse{
			Body:    api.Health{Status: api.HealthStatusUnavailable, Database: &down, Version: &s.deps.Version},
			Headers: api.GetReadiness503ResponseHeaders{RetryAfter: &retry},
		}, nil
	}
	up := api.HealthDatabaseOk
	return api.GetReadiness200JSONResponse{Status: api.HealthStatusOk, Database: &up, Version: &s.deps.Version}, nil
}

// GetClientConfig tells the web app what this server has configured.
func (s *Server) GetClientConfig(context.Context, api.GetClientConfigRequestObject) (api.GetClientConfigResponseObject, error) {
	return api.GetClientConfig200JSONResponse(s.deps.Features), nil
}
