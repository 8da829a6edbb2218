package billing

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/stripe/stripe-go/v86"
	"github.com/stripe/stripe-go/v86/webhook"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/store"
	dbgen "github.com/percolate/percolate/gen/db"
)

// WebhookTolerance is how old a signed event may be.
const WebhookTolerance = 300 * time.Second

// HandleWebhook verifies a Stripe event on its raw body and applies it. The event id is
// recorded in the same transaction as its effect, so a redelivery changes nothing; an event
// older than the state already stored for its subscription is ignored.
func (s *Service) HandleWebhook(ctx context.Context, payload []byte, signature string) error {
	if s.cfg.WebhookSecret == "" {
		return errNotConfigured
	}
	ev, err := webhook.ConstructEventWithOptions(payload, signature, s.cfg.WebhookSecret, webhook.ConstructEventOptions{
		Tolerance:                WebhookTolerance,
		IgnoreAPIVersionMismatch: true,
	})
	if err != nil {
		return apperr.New(apperr.ErrBadRequest, "INVALID_SIGNATURE", "The webhook signature is not valid.")
	}
	return s.db.WithTx(ctx, func(q *dbgen.Queries) error {
		n, err := q.RecordWebhookEvent(ctx, dbgen.RecordWebhookEventParams{EventID: ev.ID, EventType: string(ev.Type)})
		if err != nil {
			return fmt.Errorf("record event %s: %w", ev.ID, err)
		}
		if n == 0 {
			return nil // already applied
		}
		at := time.Unix(ev.Created, 0).UTC()
		switch ev.Type {
		case "checkout.session.completed":
			var cs stripe.CheckoutSession
			if err := json.Unmarshal(ev.Data.Raw, &cs); err != nil {
				return fmt.Errorf("decode checkout session: %w", err)
			}
			return s.applyCheckout(ctx, q, &cs, at)
		case "customer.subscription.created", "customer.subscription.updated", "customer.subscription.deleted":
			var sub stripe.Subscription
			if err := json.Unmarshal(ev.Data.Raw, &sub); err != nil {
				return fmt.Errorf("decode subscription: %w", err)
			}
			if ev.Type == "customer.subscription.deleted" {
				sub.Status = stripe.SubscriptionStatusCanceled
			}
			return s.applySubscription(ctx, q, &sub, at)
		case "invoice.payment_failed":
			var inv stripe.Invoice
			if err := json.Unmarshal(ev.Data.Raw, &inv); err != nil {
				return fmt.Errorf("decode invoice: %w", err)
			}
			if inv.Parent == nil || inv.Parent.SubscriptionDetails == nil || inv.Parent.SubscriptionDetails.Subscription == nil {
				return nil
			}
			_, err := q.MarkSubscriptionPastDue(ctx, dbgen.MarkSubscriptionPastDueParams{
				StripeSubscriptionID: inv.Parent.SubscriptionDetails.Subscription.ID, LastEventAt: at,
			})
			return err
		default:
			return nil // acknowledged
		}
	})
}

func (s *Service) applyCheckout(ctx context.Context, q *dbgen.Queries, cs *stripe.CheckoutSession, at time.Time) error {
	ref := cs.ClientReferenceID
	if ref == "" {
		ref = cs.Metadata["userId"]
	}
	userID, err := uuid.Parse(ref)
	plan := cs.Metadata["plan"]
	if err != nil || (plan != PlanBasic && plan != PlanPremium) || cs.Subscription == nil || cs.Customer == nil {
		s.logger.Warn("checkout event without a user, plan or subscription", "session", cs.ID)
		return nil
	}
	if _, err := q.GetUserByID(ctx, userID); store.IsNotFound(err) {
		s.logger.Warn("checkout event for an unknown user", "session", cs.ID)
		return nil
	} else if err != nil {
		return err
	}
	if err := q.SetStripeCustomerID(ctx, dbgen.SetStripeCustomerIDParams{ID: userID, StripeCustomerID: &cs.Customer.ID}); err != nil {
		return err
	}
	if _, err := q.UpsertSubscription(ctx, dbgen.UpsertSubscriptionParams{
		UserID: userID, StripeSubscriptionID: cs.Subscription.ID, StripeCustomerID: cs.Customer.ID,
		Plan: plan, Status: "active", LastEventAt: at,
	}); err != nil {
		return fmt.Errorf("store subscription: %w", err)
	}
	return syncRole(ctx, q, userID)
}

func (s *Service) applySubscription(ctx context.Context, q *dbgen.Queries, sub *stripe.Subscription, at time.Time) error {
	userID, ok, err := s.subscriber(ctx, q, sub)
	if err != nil || !ok {
		return err
	}
	plan := s.planOf(sub)
	stored, err := q.GetSubscriptionByStripeID(ctx, sub.ID)
	if plan == "" && err == nil {
		plan = stored.Plan
	}
	if plan == "" {
		s.logger.Warn("subscription event with an unknown price", "subscription", sub.ID)
		return nil
	}
	var periodEnd *time.Time
	if sub.Items != nil && len(sub.Items.Data) > 0 && sub.Items.Data[0].CurrentPeriodEnd > 0 {
		t := time.Unix(sub.Items.Data[0].CurrentPeriodEnd, 0).UTC()
		periodEnd = &t
	}
	customer := ""
	if sub.Customer != nil {
		customer = sub.Customer.ID
	}
	if _, err := q.UpsertSubscription(ctx, dbgen.UpsertSubscriptionParams{
		UserID: userID, StripeSubscriptionID: sub.ID, StripeCustomerID: customer, Plan: plan,
		Status: string(sub.Status), CurrentPeriodEnd: periodEnd, CancelAtPeriodEnd: sub.CancelAtPeriodEnd, LastEventAt: at,
	}); err != nil {
		return fmt.Errorf("store subscription: %w", err)
	}
	return syncRole(ctx, q, userID)
}

// subscriber finds the account a subscription belongs to: the stored row, its metadata, or
// its customer. ok is false for a subscription of nobody we know (acknowledged, no effect).
func (s *Service) subscriber(ctx context.Context, q *dbgen.Queries, sub *stripe.Subscription) (uuid.UUID, bool, error) {
	if stored, err := q.GetSubscriptionByStripeID(ctx, sub.ID); err == nil {
		return stored.UserID, true, nil
	}
	if id, err := uuid.Parse(sub.Metadata["userId"]); err == nil {
		if _, err := q.GetUserByID(ctx, id); err == nil {
			return id, true, nil
		}
	}
	if sub.Customer != nil && sub.Customer.ID != "" {
		id, err := q.GetUserIDByStripeCustomer(ctx, &sub.Customer.ID)
		if err == nil {
			return id, true, nil
		}
		if !store.IsNotFound(err) {
			return uuid.Nil, false, err
		}
	}
	s.logger.Warn("subscription event for an unknown user", "subscription", sub.ID)
	return uuid.Nil, false, nil
}

// planOf reads the plan from the subscription's price (compared with the configured price
// ids), else from its metadata.
func (s *Service) planOf(sub *stripe.Subscription) string {
	if sub.Items != nil {
		for _, it := range sub.Items.Data {
			if it.Price == nil {
				continue
			}
			switch it.Price.ID {
			case s.cfg.PriceBasic:
				return PlanBasic
			case s.cfg.PricePremium:
				return PlanPremium
			}
		}
	}
	if p := sub.Metadata["plan"]; p == PlanBasic || p == PlanPremium {
		return p
	}
	return ""
}

// syncRole gives the user the best plan among their live subscriptions, or USER.
func syncRole(ctx context.Context, q *dbgen.Queries, userID uuid.UUID) error {
	role := "USER"
	plan, err := q.LivePlanForUser(ctx, userID)
	switch {
	case err == nil:
		role = plan
	case !store.IsNotFound(err):
		return err
	}
	return q.SetPaidRole(ctx, dbgen.SetPaidRoleParams{ID: userID, Role: role})
}
