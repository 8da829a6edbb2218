package billing

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stripe/stripe-go/v86/webhook"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/billing/stripetest"
	"github.com/percolate/percolate/backend/internal/config"
	"github.com/percolate/percolate/backend/internal/store"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
	dbgen "github.com/percolate/percolate/gen/db"
)

const (
	testSecret   = "whsec_test_secret"
	priceBasic   = "price_basic_test"
	pricePremium = "price_premium_test"
	publicURL    = "https://percolate.example"
)

var quiet = slog.New(slog.DiscardHandler)

func newService(t *testing.T, st *store.Store) (*Service, *stripetest.Server) {
	t.Helper()
	mock := stripetest.Start(t)
	cfg := config.Stripe{SecretKey: "sk_test_123", WebhookSecret: testSecret, PriceBasic: priceBasic, PricePremium: pricePremium, APIURL: mock.URL}
	return New(st, cfg, publicURL, "https://community.example/invite", mock.HTTPClient(), quiet), mock
}

func newUser(t *testing.T, st *store.Store, email string) dbgen.User {
	t.Helper()
	u, err := st.Queries().CreateUser(context.Background(), dbgen.CreateUserParams{Email: email, Name: "Test User"})
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func role(t *testing.T, st *store.Store, id uuid.UUID) string {
	t.Helper()
	u, err := st.Queries().GetUserByID(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return u.Role
}

func TestCheckoutSendsPlanPriceUserAndURLs(t *testing.T) {
	st := pgtest.New(t)
	svc, mock := newService(t, st)
	u := newUser(t, st, "ada@example.com")
	ctx := context.Background()

	url, err := svc.Checkout(ctx, u.ID, PlanPremium)
	if err != nil || url == "" {
		t.Fatalf("checkout: %q, %v", url, err)
	}
	cust, ok := mock.Last("POST", "/v1/customers")
	if !ok || cust.Form.Get("email") != "ada@example.com" || cust.Form.Get("metadata[userId]") != u.ID.String() {
		t.Fatalf("customer call: %v %v", ok, cust.Form)
	}
	cs, ok := mock.Last("POST", "/v1/checkout/sessions")
	if !ok {
		t.Fatal("no checkout session created")
	}
	want := map[string]string{
		"mode":                              "subscription",
		"line_items[0][price]":              pricePremium,
		"client_reference_id":               u.ID.String(),
		"metadata[userId]":                  u.ID.String(),
		"metadata[plan]":                    "PREMIUM",
		"success_url":                       publicURL + "/subscription-success",
		"cancel_url":                        publicURL + "/about",
		"subscription_data[metadata][plan]": "PREMIUM",
	}
	for k, v := range want {
		if got := cs.Form.Get(k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
	stored, _ := st.Queries().GetUserByID(ctx, u.ID)
	if stored.StripeCustomerID == nil || cs.Form.Get("customer") != *stored.StripeCustomerID {
		t.Fatalf("customer not stored or not used: %v / %q", stored.StripeCustomerID, cs.Form.Get("customer"))
	}

	// A second checkout reuses the customer.
	before := len(mock.Requests())
	if _, err := svc.Checkout(ctx, u.ID, PlanBasic); err != nil {
		t.Fatal(err)
	}
	for _, r := range mock.Requests()[before:] {
		if r.Path == "/v1/customers" {
			t.Fatal("a second customer was created")
		}
	}
}

func TestCheckoutRefusals(t *testing.T) {
	st := pgtest.New(t)
	svc, _ := newService(t, st)
	ctx := context.Background()
	u := newUser(t, st, "sub@example.com")
	if _, err := st.Queries().UpsertSubscription(ctx, dbgen.UpsertSubscriptionParams{
		UserID: u.ID, StripeSubscriptionID: "sub_live", StripeCustomerID: "cus_1", Plan: PlanBasic, Status: "active", LastEventAt: time.Now(),
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Checkout(ctx, u.ID, PlanPremium); !errors.Is(err, ErrAlreadySubscribed) {
		t.Errorf("subscribed user: %v", err)
	}
	var verr *apperr.ValidationError
	if _, err := svc.Checkout(ctx, u.ID, "GOLD"); !errors.As(err, &verr) {
		t.Errorf("unknown plan: %v", err)
	}

	off := New(st, config.Stripe{}, publicURL, "", nil, quiet)
	var coded *apperr.Error
	if _, err := off.Checkout(ctx, u.ID, PlanBasic); !errors.As(err, &coded) || coded.Message != "Payments are not configured on this server" || !errors.Is(err, apperr.ErrUnavailable) {
		t.Errorf("not configured: %v", err)
	}
	if _, err := off.Portal(ctx, u.ID); !errors.Is(err, apperr.ErrUnavailable) {
		t.Errorf("portal not configured: %v", err)
	}
}

func TestPortal(t *testing.T) {
	st := pgtest.New(t)
	svc, mock := newService(t, st)
	ctx := context.Background()
	u := newUser(t, st, "portal@example.com")
	if _, err := svc.Portal(ctx, u.ID); !errors.Is(err, apperr.ErrBadRequest) {
		t.Fatalf("no customer yet: %v", err)
	}
	cid := "cus_portal"
	if err := st.Queries().SetStripeCustomerID(ctx, dbgen.SetStripeCustomerIDParams{ID: u.ID, StripeCustomerID: &cid}); err != nil {
		t.Fatal(err)
	}
	url, err := svc.Portal(ctx, u.ID)
	if err != nil || url == "" {
		t.Fatalf("portal: %q %v", url, err)
	}
	r, _ := mock.Last("POST", "/v1/billing_portal/sessions")
	if r.Form.Get("customer") != cid || r.Form.Get("return_url") != publicURL+"/profile" {
		t.Errorf("portal params: %v", r.Form)
	}
}

// event builds and signs a Stripe event.
func event(t *testing.T, id, typ string, created time.Time, object map[string]any, signedAt time.Time, secret string) ([]byte, string) {
	t.Helper()
	payload, err := json.Marshal(map[string]any{
		"id": id, "object": "event", "type": typ, "created": created.Unix(), "api_version": "2025-01-01",
		"data": map[string]any{"object": object},
	})
	if err != nil {
		t.Fatal(err)
	}
	sp := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret, Timestamp: signedAt})
	return payload, sp.Header
}

func subscription(id, customer, price, status string, meta map[string]string) map[string]any {
	return map[string]any{
		"id": id, "object": "subscription", "status": status, "customer": customer, "metadata": meta,
		"items": map[string]any{"object": "list", "data": []any{map[string]any{
			"id": "si_1", "object": "subscription_item", "current_period_end": time.Now().Add(30 * 24 * time.Hour).Unix(),
			"price": map[string]any{"id": price, "object": "price"},
		}}},
	}
}

// deliver has svc apply the event id of type typ about object, signed now with the webhook's
// secret, and fails the test if it is refused.
func deliver(t *testing.T, svc *Service, id, typ string, created time.Time, object map[string]any) {
	t.Helper()
	p, sig := event(t, id, typ, created, object, time.Now(), testSecret)
	if err := svc.HandleWebhook(context.Background(), p, sig); err != nil {
		t.Fatalf("%s %s: %v", id, typ, err)
	}
}

func TestWebhookCheckoutThenSubscriptionLifecycle(t *testing.T) {
	st := pgtest.New(t)
	svc, _ := newService(t, st)
	ctx := context.Background()
	u := newUser(t, st, "hook@example.com")
	now := time.Now()

	checkout := map[string]any{
		"id": "cs_1", "object": "checkout.session", "client_reference_id": u.ID.String(),
		"customer": "cus_hook", "subscription": "sub_hook", "metadata": map[string]string{"userId": u.ID.String(), "plan": "BASIC"},
	}
	deliver(t, svc, "evt_1", "checkout.session.completed", now.Add(-50*time.Second), checkout)
	if r := role(t, st, u.ID); r != "BASIC" {
		t.Fatalf("after checkout: role %s", r)
	}

	// An upgrade to Premium through the portal.
	deliver(t, svc, "evt_2", "customer.subscription.updated", now.Add(-40*time.Second), subscription("sub_hook", "cus_hook", pricePremium, "active", nil))
	if r := role(t, st, u.ID); r != "PREMIUM" {
		t.Fatalf("after upgrade: role %s", r)
	}

	// An older event arriving late does not overwrite the newer state.
	deliver(t, svc, "evt_0", "customer.subscription.updated", now.Add(-45*time.Second), subscription("sub_hook", "cus_hook", priceBasic, "canceled", nil))
	if r := role(t, st, u.ID); r != "PREMIUM" {
		t.Fatalf("stale event applied: role %s", r)
	}

	// A failed payment marks it past due; access continues meanwhile.
	deliver(t, svc, "evt_3", "invoice.payment_failed", now.Add(-30*time.Second), map[string]any{
		"id": "in_1", "object": "invoice",
		"parent": map[string]any{"type": "subscription_details", "subscription_details": map[string]any{"subscription": "sub_hook"}},
	})
	sub, _ := st.Queries().GetSubscriptionByStripeID(ctx, "sub_hook")
	if sub.Status != "past_due" || role(t, st, u.ID) != "PREMIUM" {
		t.Fatalf("after payment failure: %s / %s", sub.Status, role(t, st, u.ID))
	}

	// Deleted: back to the free tier.
	deliver(t, svc, "evt_4", "customer.subscription.deleted", now.Add(-20*time.Second), subscription("sub_hook", "cus_hook", pricePremium, "active", nil))
	if r := role(t, st, u.ID); r != "USER" {
		t.Fatalf("after deletion: role %s", r)
	}

	// A replayed event has no second effect.
	deliver(t, svc, "evt_2", "customer.subscription.updated", now.Add(-40*time.Second), subscription("sub_hook", "cus_hook", pricePremium, "active", nil))
	if r := role(t, st, u.ID); r != "USER" {
		t.Fatalf("replay re-applied: role %s", r)
	}

	// Unknown types are acknowledged.
	deliver(t, svc, "evt_5", "charge.refunded", now, map[string]any{"id": "ch_1", "object": "charge"})
}

func TestWebhookSignatureChecks(t *testing.T) {
	st := pgtest.New(t)
	svc, _ := newService(t, st)
	ctx := context.Background()
	u := newUser(t, st, "sig@example.com")
	obj := subscription("sub_sig", "cus_sig", priceBasic, "active", map[string]string{"userId": u.ID.String()})
	now := time.Now()

	cases := map[string]func() ([]byte, string){
		"forged": func() ([]byte, string) {
			return event(t, "evt_f", "customer.subscription.created", now, obj, now, "whsec_wrong")
		},
		"stale": func() ([]byte, string) {
			return event(t, "evt_s", "customer.subscription.created", now, obj, now.Add(-6*time.Minute), testSecret)
		},
		"unsigned": func() ([]byte, string) {
			p, _ := event(t, "evt_u", "customer.subscription.created", now, obj, now, testSecret)
			return p, ""
		},
		"tampered": func() ([]byte, string) {
			p, sig := event(t, "evt_t", "customer.subscription.created", now, obj, now, testSecret)
			return append(p[:len(p)-1:len(p)-1], []byte(` `+"}")...), sig
		},
	}
	for name, mk := range cases {
		t.Run(name, func(t *testing.T) {
			p, sig := mk()
			err := svc.HandleWebhook(ctx, p, sig)
			var coded *apperr.Error
			if !errors.As(err, &coded) || coded.Code != "INVALID_SIGNATURE" {
				t.Fatalf("err = %v", err)
			}
		})
	}
	if r := role(t, st, u.ID); r != "USER" {
		t.Fatalf("a refused event changed the role to %s", r)
	}

	// The same event, properly signed, is applied (metadata names the user).
	deliver(t, svc, "evt_ok", "customer.subscription.created", now, obj)
	if r := role(t, st, u.ID); r != "BASIC" {
		t.Fatalf("role %s", r)
	}
}

func TestWebhookUnknownUserIsAcknowledgedWithoutEffect(t *testing.T) {
	st := pgtest.New(t)
	svc, _ := newService(t, st)
	ctx := context.Background()
	now := time.Now()
	deliver(t, svc, "evt_nobody", "customer.subscription.created", now,
		subscription("sub_nobody", "cus_nobody", priceBasic, "active", map[string]string{"userId": uuid.NewString()}))
	if _, err := st.Queries().GetSubscriptionByStripeID(ctx, "sub_nobody"); !store.IsNotFound(err) {
		t.Fatalf("a subscription of nobody was stored: %v", err)
	}
}

func TestAdminsKeepTheirRole(t *testing.T) {
	st := pgtest.New(t)
	svc, _ := newService(t, st)
	u := pgtest.User(t, st, "ADMIN")
	deliver(t, svc, "evt_admin", "customer.subscription.created", time.Now(),
		subscription("sub_admin", "cus_admin", priceBasic, "active", map[string]string{"userId": u.ID.String()}))
	if r := role(t, st, u.ID); r != "ADMIN" {
		t.Fatalf("role %s", r)
	}
}

func TestCancelForUserCancelsLiveSubscriptionsAtStripe(t *testing.T) {
	st := pgtest.New(t)
	svc, mock := newService(t, st)
	ctx := context.Background()
	u := newUser(t, st, "leaving@example.com")
	for i, status := range []string{"active", "canceled"} {
		if _, err := st.Queries().UpsertSubscription(ctx, dbgen.UpsertSubscriptionParams{
			UserID: u.ID, StripeSubscriptionID: fmt.Sprintf("sub_%d", i), StripeCustomerID: "cus_l", Plan: PlanBasic, Status: status, LastEventAt: time.Now(),
		}); err != nil {
			t.Fatal(err)
		}
	}
	if err := svc.CancelForUser(ctx, u.ID); err != nil {
		t.Fatal(err)
	}
	if _, ok := mock.Last("DELETE", "/v1/subscriptions/sub_0"); !ok {
		t.Error("the live subscription was not cancelled")
	}
	if _, ok := mock.Last("DELETE", "/v1/subscriptions/sub_1"); ok {
		t.Error("an already cancelled subscription was cancelled again")
	}
}

func TestCommunityIsForPremium(t *testing.T) {
	st := pgtest.New(t)
	svc, _ := newService(t, st)
	ctx := context.Background()
	u := newUser(t, st, "c@example.com")
	if _, err := svc.Community(ctx, u.ID); !errors.Is(err, apperr.ErrForbidden) {
		t.Fatalf("USER: %v", err)
	}
	if _, err := st.Queries().SetUserRoleByEmail(ctx, dbgen.SetUserRoleByEmailParams{Role: "PREMIUM", Email: u.Email}); err != nil {
		t.Fatal(err)
	}
	url, err := svc.Community(ctx, u.ID)
	if err != nil || url != "https://community.example/invite" {
		t.Fatalf("PREMIUM: %q %v", url, err)
	}
}
