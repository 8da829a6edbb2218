package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stripe/stripe-go/v86/webhook"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/billing"
	"github.com/percolate/percolate/backend/internal/billing/stripetest"
	"github.com/percolate/percolate/backend/internal/config"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
	"github.com/percolate/percolate/gen/api"
	"github.com/percolate/percolate/gen/apiclient"
	dbgen "github.com/percolate/percolate/gen/db"
)

// userTokens verifies "token-<uuid>" as that user: the accounts issue provides real tokens.
type userTokens struct{}

func (userTokens) VerifyAccessToken(_ context.Context, token string) (Caller, error) {
	id, err := uuid.Parse(strings.TrimPrefix(token, "token-"))
	if err != nil {
		return Caller{}, fmt.Errorf("bad token: %w", apperr.ErrUnauthorized)
	}
	return Caller{UserID: id}, nil
}

func TestBillingOverHTTP(t *testing.T) {
	st := pgtest.New(t)
	mock := stripetest.Start(t)
	cfg := config.Stripe{SecretKey: "sk_test_1", WebhookSecret: "whsec_http", PriceBasic: "price_b", PricePremium: "price_p", APIURL: mock.URL}
	quiet := discardLogger()
	h := newTestHandler(t, Deps{Verifier: userTokens{}, Billing: billing.New(st, cfg, "http://app.test", "", mock.HTTPClient(), quiet)})
	ctx := context.Background()
	u, err := st.Queries().CreateUser(ctx, dbgen.CreateUserParams{Email: "buyer@example.com", Name: "Buyer"})
	if err != nil {
		t.Fatal(err)
	}
	c, auth := apiClient(t, h, "192.0.2.1"), bearer("token-"+u.ID.String())
	basic := api.CheckoutRequest{Plan: api.PlanBASIC}

	res, err := c.CreateCheckoutSessionWithResponse(ctx, basic)
	wantStatus(t, res, err, http.StatusUnauthorized)
	res, err = c.CreateCheckoutSessionWithResponse(ctx, basic, auth)
	wantStatus(t, res, err, http.StatusOK)
	if res.JSON200.Url == "" {
		t.Fatalf("checkout: url is empty")
	}
	checkout, _ := mock.Last("POST", "/v1/checkout/sessions")

	// Stripe reports the completed checkout, signed over the raw body.
	payload, _ := json.Marshal(map[string]any{
		"id": "evt_http", "object": "event", "type": "checkout.session.completed", "created": time.Now().Unix(),
		"data": map[string]any{"object": map[string]any{
			"id": "cs_http", "object": "checkout.session", "client_reference_id": u.ID.String(),
			"customer": checkout.Form.Get("customer"), "subscription": "sub_http",
			"metadata": map[string]string{"userId": u.ID.String(), "plan": "BASIC"},
		}},
	})
	webhookCall := func(signature string) (*apiclient.StripeWebhookAnswer, error) {
		return c.StripeWebhookWithBodyWithResponse(ctx, &api.StripeWebhookParams{StripeSignature: signature}, "application/json", bytes.NewReader(payload))
	}
	signed := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: "whsec_http"})
	hook, err := webhookCall(signed.Header)
	wantStatus(t, hook, err, http.StatusOK)
	if !hook.JSON200.Received {
		t.Fatalf("webhook: received = false, want true")
	}
	if got, _ := st.Queries().GetUserByID(ctx, u.ID); got.Role != "BASIC" {
		t.Fatalf("role after webhook: %s", got.Role)
	}
	hook, err = webhookCall("t=1,v1=forged")
	wantStatus(t, hook, err, http.StatusBadRequest)
	if hook.JSON400.Code != "INVALID_SIGNATURE" {
		t.Fatalf("forged webhook: code = %s, want INVALID_SIGNATURE", hook.JSON400.Code)
	}

	// Subscribed now: the spec's text body.
	res, err = c.CreateCheckoutSessionWithResponse(ctx, api.CheckoutRequest{Plan: api.PlanPREMIUM}, auth)
	wantStatus(t, res, err, http.StatusBadRequest)
	if got := string(res.Body); got != "Head to your profile to manage your subscription." {
		t.Errorf("already subscribed: body = %q, want the spec's text", got)
	}
	if ct := res.HTTPResponse.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
		t.Errorf("already subscribed: Content-Type = %q, want text/plain", ct)
	}
	portal, err := c.CreatePortalSessionWithResponse(ctx, auth)
	wantStatus(t, portal, err, http.StatusOK)
	if portal.JSON200.Url == "" {
		t.Fatalf("portal: url is empty")
	}
	community, err := c.GetCommunityInviteWithResponse(ctx, auth)
	wantStatus(t, community, err, http.StatusForbidden)
}

func TestPaymentsNotConfiguredIs503(t *testing.T) {
	st := pgtest.New(t)
	quiet := discardLogger()
	h := newTestHandler(t, Deps{Verifier: userTokens{}, Billing: billing.New(st, config.Stripe{}, "http://app.test", "", nil, quiet)})
	res, err := apiClient(t, h, "192.0.2.1").CreateCheckoutSessionWithResponse(context.Background(), api.CheckoutRequest{Plan: api.PlanBASIC}, bearer("token-"+uuid.NewString()))
	wantStatus(t, res, err, http.StatusServiceUnavailable)
	if want := "Payments are not configured on this server"; res.JSON503.Message != want {
		t.Fatalf("message = %q, want %q", res.JSON503.Message, want)
	}
}
