package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stripe/stripe-go/v86/webhook"

	"github.com/percolate/percolate/backend/internal/billing"
	"github.com/percolate/percolate/backend/internal/billing/stripetest"
	"github.com/percolate/percolate/backend/internal/config"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
	dbgen "github.com/percolate/percolate/gen/db"
)

// userTokens verifies "token-<uuid>" as that user: the accounts issue provides real tokens.
type userTokens struct{}

func (userTokens) VerifyAccessToken(_ context.Context, token string) (Caller, error) {
	id, err := uuid.Parse(strings.TrimPrefix(token, "token-"))
	if err != nil {
		return Caller{}, errors.New("bad token")
	}
	return Caller{UserID: id}, nil
}

func TestBillingOverHTTP(t *testing.T) {
	st := pgtest.New(t)
	mock := stripetest.Start(t)
	cfg := config.Stripe{SecretKey: "sk_test_1", WebhookSecret: "whsec_http", PriceBasic: "price_b", PricePremium: "price_p", APIURL: mock.URL}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	h := newTestHandler(t, Deps{Verifier: userTokens{}, Billing: billing.New(st, cfg, "http://app.test", "", mock.HTTPClient(), quiet)})
	ctx := context.Background()
	u, err := st.Queries().CreateUser(ctx, dbgen.CreateUserParams{Email: "buyer@example.com", Name: "Buyer"})
	if err != nil {
		t.Fatal(err)
	}
	auth := []string{"Authorization", "Bearer token-" + u.ID.String()}

	if res := do(h, "POST", "/api/subscription/checkout", `{"plan":"BASIC"}`); res.Code != http.StatusUnauthorized {
		t.Fatalf("signed out: %d", res.Code)
	}
	res := do(h, "POST", "/api/subscription/checkout", `{"plan":"BASIC"}`, auth...)
	if res.Code != http.StatusOK || res.json(t)["url"] == "" {
		t.Fatalf("checkout: %d %s", res.Code, res.Body)
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
	signed := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: "whsec_http"})
	res = do(h, "POST", "/api/subscription/webhook", string(payload), "Stripe-Signature", signed.Header)
	if res.Code != http.StatusOK || res.json(t)["received"] != true {
		t.Fatalf("webhook: %d %s", res.Code, res.Body)
	}
	if got, _ := st.Queries().GetUserByID(ctx, u.ID); got.Role != "BASIC" {
		t.Fatalf("role after webhook: %s", got.Role)
	}
	if res := do(h, "POST", "/api/subscription/webhook", string(payload), "Stripe-Signature", "t=1,v1=forged"); res.Code != http.StatusBadRequest || res.json(t)["code"] != "INVALID_SIGNATURE" {
		t.Fatalf("forged webhook: %d %s", res.Code, res.Body)
	}

	// Subscribed now: the spec's text body.
	res = do(h, "POST", "/api/subscription/checkout", `{"plan":"PREMIUM"}`, auth...)
	if res.Code != http.StatusBadRequest || res.Body.String() != "Head to your profile to manage your subscription." ||
		!strings.HasPrefix(res.Header().Get("Content-Type"), "text/plain") {
		t.Fatalf("already subscribed: %d %q %s", res.Code, res.Body, res.Header().Get("Content-Type"))
	}
	res = do(h, "POST", "/api/subscription/portal", "", auth...)
	if res.Code != http.StatusOK || res.json(t)["url"] == "" {
		t.Fatalf("portal: %d %s", res.Code, res.Body)
	}
	if res := do(h, "GET", "/api/subscription/community", "", auth...); res.Code != http.StatusForbidden {
		t.Fatalf("community for BASIC: %d", res.Code)
	}
}

func TestPaymentsNotConfiguredIs503(t *testing.T) {
	st := pgtest.New(t)
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	h := newTestHandler(t, Deps{Verifier: userTokens{}, Billing: billing.New(st, config.Stripe{}, "http://app.test", "", nil, quiet)})
	auth := []string{"Authorization", "Bearer token-" + uuid.NewString()}
	res := do(h, "POST", "/api/subscription/checkout", `{"plan":"BASIC"}`, auth...)
	if res.Code != http.StatusServiceUnavailable || res.json(t)["message"] != "Payments are not configured on this server" {
		t.Fatalf("got %d %s", res.Code, res.Body)
	}
}
