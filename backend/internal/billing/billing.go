// Package billing sells the Basic and Premium plans through Stripe: hosted checkout, the
// billing portal, and webhooks that turn a subscription's state into the user's role.
package billing

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"

	"github.com/google/uuid"
	"github.com/stripe/stripe-go/v86"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/config"
	"github.com/percolate/percolate/backend/internal/entitlement"
	"github.com/percolate/percolate/backend/internal/store"
	dbgen "github.com/percolate/percolate/gen/db"
)

// Plans that can be bought.
const (
	PlanBasic   = entitlement.RoleBasic
	PlanPremium = entitlement.RolePremium
)

// ErrAlreadySubscribed: the user has a subscription that still gives access; the spec's
// client expects a 400 with the text AlreadySubscribedText.
var ErrAlreadySubscribed = errors.New("already subscribed")

// AlreadySubscribedText is the body the pricing page recognises.
const AlreadySubscribedText = "Head to your profile to manage your subscription."

var errNotConfigured = apperr.New(apperr.ErrUnavailable, "PAYMENTS_NOT_CONFIGURED", "Payments are not configured on this server")

// tiers says which roles include the community (features are fixed per tier).
var tiers = entitlement.Default()

// Service talks to Stripe and keeps subscriptions and roles in step with it.
type Service struct {
	db        *store.Store
	sc        *stripe.Client // nil when payments are not configured
	cfg       config.Stripe
	publicURL string
	community string
	logger    *slog.Logger
}

// New returns the billing service. httpClient may be nil (the default client); tests pass one
// that records what reaches the Stripe API.
func New(db *store.Store, cfg config.Stripe, publicURL, communityURL string, httpClient *http.Client, logger *slog.Logger) *Service {
	s := &Service{db: db, cfg: cfg, publicURL: strings.TrimRight(publicURL, "/"), community: communityURL, logger: logger}
	if cfg.Configured() {
		bc := &stripe.BackendConfig{MaxNetworkRetries: stripe.Int64(2), HTTPClient: httpClient, LeveledLogger: &stripe.LeveledLogger{Level: stripe.LevelError}}
		if cfg.APIURL != "" {
			bc.URL = stripe.String(cfg.APIURL)
			bc.MaxNetworkRetries = stripe.Int64(0)
		}
		s.sc = stripe.NewClient(cfg.SecretKey, stripe.WithBackends(&stripe.Backends{
			API:     stripe.GetBackendWithConfig(stripe.APIBackend, bc),
			Connect: stripe.GetBackendWithConfig(stripe.ConnectBackend, bc),
			Uploads: stripe.GetBackendWithConfig(stripe.UploadsBackend, bc),
		}))
	}
	return s
}

// Configured reports whether checkout and portal can be used.
func (s *Service) Configured() bool { return s.sc != nil }

// Checkout starts a Stripe Checkout Session for a plan and returns its URL.
func (s *Service) Checkout(ctx context.Context, userID uuid.UUID, plan string) (string, error) {
	if s.sc == nil {
		return "", errNotConfigured
	}
	price, ok := map[string]string{PlanBasic: s.cfg.PriceBasic, PlanPremium: s.cfg.PricePremium}[plan]
	if !ok {
		return "", apperr.Invalid("plan", "Must be one of: BASIC, PREMIUM.")
	}
	q := s.db.Queries()
	if _, err := q.LivePlanForUser(ctx, userID); err == nil {
		return "", ErrAlreadySubscribed
	} else if !store.IsNotFound(err) {
		return "", fmt.Errorf("checkout: %w", err)
	}
	customer, err := s.customerFor(ctx, userID)
	if err != nil {
		return "", err
	}
	meta := map[string]string{"userId": userID.String(), "plan": plan}
	cs, err := s.sc.V1CheckoutSessions.Create(ctx, &stripe.CheckoutSessionCreateParams{
		Mode:              stripe.String(string(stripe.CheckoutSessionModeSubscription)),
		Customer:          stripe.String(customer),
		ClientReferenceID: stripe.String(userID.String()),
		LineItems:         []*stripe.CheckoutSessionCreateLineItemParams{{Price: stripe.String(price), Quantity: stripe.Int64(1)}},
		Metadata:          meta,
		SubscriptionData:  &stripe.CheckoutSessionCreateSubscriptionDataParams{Metadata: meta},
		SuccessURL:        stripe.String(s.publicURL + "/subscription-success"),
		CancelURL:         stripe.String(s.publicURL + "/about"),
	})
	if err != nil {
		return "", s.stripeFailed("create checkout session", err)
	}
	return cs.URL, nil
}

// Portal opens a Billing Portal session for the user's Stripe customer.
func (s *Service) Portal(ctx context.Context, userID uuid.UUID) (string, error) {
	if s.sc == nil {
		return "", errNotConfigured
	}
	u, err := s.db.Queries().GetUserByID(ctx, userID)
	if err != nil {
		return "", fmt.Errorf("portal: %w", notFoundAs(err))
	}
	if u.StripeCustomerID == nil || *u.StripeCustomerID == "" {
		return "", apperr.New(apperr.ErrBadRequest, "NO_SUBSCRIPTION", "You don't have a subscription to manage yet. Choose a plan on the pricing page first.")
	}
	ps, err := s.sc.V1BillingPortalSessions.Create(ctx, &stripe.BillingPortalSessionCreateParams{
		Customer:  u.StripeCustomerID,
		ReturnURL: stripe.String(s.publicURL + "/profile"),
	})
	if err != nil {
		return "", s.stripeFailed("create portal session", err)
	}
	return ps.URL, nil
}

// CancelForUser cancels every subscription of the user that still gives access, at once. It
// runs before an account is deleted so that nobody keeps paying for a deleted account.
func (s *Service) CancelForUser(ctx context.Context, userID uuid.UUID) error {
	subs, err := s.db.Queries().ListLiveSubscriptionsForUser(ctx, userID)
	if err != nil {
		return fmt.Errorf("list subscriptions: %w", err)
	}
	if len(subs) > 0 && s.sc == nil {
		return fmt.Errorf("cancel subscriptions: %w", errNotConfigured)
	}
	for _, sub := range subs {
		_, err := s.sc.V1Subscriptions.Cancel(ctx, sub.StripeSubscriptionID, &stripe.SubscriptionCancelParams{})
		var se *stripe.Error
		if errors.As(err, &se) && se.HTTPStatusCode == http.StatusNotFound {
			continue // already gone at Stripe
		}
		if err != nil {
			return s.stripeFailed("cancel subscription", err)
		}
	}
	return nil
}

// Community returns the community invite to users whose tier includes it.
func (s *Service) Community(ctx context.Context, userID uuid.UUID) (string, error) {
	u, err := s.db.Queries().GetUserByID(ctx, userID)
	if err != nil {
		return "", fmt.Errorf("community: %w", notFoundAs(err))
	}
	if !tiers.For(u.Role).Community {
		return "", apperr.New(apperr.ErrForbidden, "PREMIUM_ONLY", "The community is part of the Premium plan.")
	}
	if s.community == "" {
		return "", apperr.New(apperr.ErrNotFound, "NO_COMMUNITY", "There is no community set up on this server yet.")
	}
	return s.community, nil
}

// customerFor returns the user's Stripe customer, creating it with their e-mail on first use.
func (s *Service) customerFor(ctx context.Context, userID uuid.UUID) (string, error) {
	q := s.db.Queries()
	u, err := q.GetUserByID(ctx, userID)
	if err != nil {
		return "", fmt.Errorf("checkout: %w", notFoundAs(err))
	}
	if u.StripeCustomerID != nil && *u.StripeCustomerID != "" {
		return *u.StripeCustomerID, nil
	}
	c, err := s.sc.V1Customers.Create(ctx, &stripe.CustomerCreateParams{
		Email:    stripe.String(u.Email),
		Name:     stripe.String(u.Name),
		Metadata: map[string]string{"userId": userID.String()},
	})
	if err != nil {
		return "", s.stripeFailed("create customer", err)
	}
	if err := q.SetStripeCustomerID(ctx, dbgen.SetStripeCustomerIDParams{ID: userID, StripeCustomerID: &c.ID}); err != nil {
		return "", fmt.Errorf("store customer: %w", err)
	}
	// Another request may have stored a customer first; use whichever was kept.
	u, err = q.GetUserByID(ctx, userID)
	if err != nil || u.StripeCustomerID == nil {
		return "", fmt.Errorf("reload customer: %w", notFoundAs(err))
	}
	return *u.StripeCustomerID, nil
}

func (s *Service) stripeFailed(what string, err error) error {
	s.logger.Error("stripe call failed", "call", what, "error", err.Error())
	return apperr.New(apperr.ErrUnavailable, "PAYMENTS_UNAVAILABLE", "The payment service is not reachable right now. Please try again.")
}

// notFoundAs turns the caller's missing user row (the account was deleted while the request
// ran) into a 401, as every other operation answers it; 404 is not among their answers.
func notFoundAs(err error) error {
	if store.IsNotFound(err) {
		return apperr.ErrUnauthorized
	}
	return err
}
