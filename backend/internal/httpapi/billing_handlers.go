package httpapi

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/billing"
	"github.com/percolate/percolate/gen/api"
)

// webhookPath is the one operation that needs its raw body (Stripe signs the bytes).
const webhookPath = "/api/subscription/webhook"

type rawBodyKey struct{}

// keepRawBody keeps the exact bytes of a webhook request for signature checks, before the
// validator and the strict handler decode them.
func keepRawBody(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != webhookPath || r.Body == nil {
			next.ServeHTTP(w, r)
			return
		}
		raw, err := io.ReadAll(r.Body)
		if err != nil {
			writeDomainError(w, r, err)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(raw))
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), rawBodyKey{}, raw)))
	})
}

// CreateCheckoutSession starts a Stripe checkout for a plan.
func (s *Server) CreateCheckoutSession(ctx context.Context, req api.CreateCheckoutSessionRequestObject) (api.CreateCheckoutSessionResponseObject, error) {
	c, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	url, err := s.deps.Billing.Checkout(ctx, c.UserID, string(req.Body.Plan))
	if errors.Is(err, billing.ErrAlreadySubscribed) {
		return api.CreateCheckoutSession400TextResponse(billing.AlreadySubscribedText), nil
	}
	if err != nil {
		return nil, err
	}
	return api.CreateCheckoutSession200JSONResponse{Url: url}, nil
}

// callerURL is the link that get makes for the caller (the billing portal, the community).
func callerURL(ctx context.Context, get func(context.Context, uuid.UUID) (string, error)) (string, error) {
	c, err := caller(ctx)
	if err != nil {
		return "", err
	}
	return get(ctx, c.UserID)
}

// CreatePortalSession opens the Stripe billing portal.
func (s *Server) CreatePortalSession(ctx context.Context, _ api.CreatePortalSessionRequestObject) (api.CreatePortalSessionResponseObject, error) {
	url, err := callerURL(ctx, s.deps.Billing.Portal)
	if err != nil {
		return nil, err
	}
	return api.CreatePortalSession200JSONResponse{Url: url}, nil
}

// StripeWebhook applies a signed Stripe event.
func (s *Server) StripeWebhook(ctx context.Context, req api.StripeWebhookRequestObject) (api.StripeWebhookResponseObject, error) {
	raw, _ := ctx.Value(rawBodyKey{}).([]byte)
	if err := s.deps.Billing.HandleWebhook(ctx, raw, req.Params.StripeSignature); err != nil {
		return nil, err
	}
	return api.StripeWebhook200JSONResponse{Received: true}, nil
}

// GetCommunityInvite serves the community invite to Premium users.
func (s *Server) GetCommunityInvite(ctx context.Context, _ api.GetCommunityInviteRequestObject) (api.GetCommunityInviteResponseObject, error) {
	url, err := callerURL(ctx, s.deps.Billing.Community)
	if err != nil {
		return nil, err
	}
	return api.GetCommunityInvite200JSONResponse{Url: url}, nil
}
