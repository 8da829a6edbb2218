package app

import (
	"testing"

	"github.com/percolate/percolate/backend/internal/config"
	"github.com/percolate/percolate/backend/internal/voice"
)

// The pricing page disables its upgrade buttons when the public config says payments are off,
// so the flag must follow the Stripe settings exactly: off on the embedded defaults, on once
// the key, the webhook secret and both prices are set.
func TestFeaturesReportPaymentsBothWays(t *testing.T) {
	stripe := map[string]string{
		config.EnvStripeSecretKey:     "sk_test_features",
		config.EnvStripeWebhookSecret: "whsec_features",
		config.EnvStripePriceBasic:    "price_basic",
		config.EnvStripePricePremium:  "price_premium",
	}
	for _, tc := range []struct {
		name string
		env  map[string]string
		want bool
	}{
		{"embedded defaults", map[string]string{}, false},
		{"stripe configured", stripe, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := config.Load(func(k string) string { return tc.env[k] })
			if err != nil {
				t.Fatalf("load: %v", err)
			}
			f := features(cfg, &voice.Service{}, tiers(cfg.Limits))
			if f.Payments != tc.want {
				t.Errorf("payments = %v, want %v", f.Payments, tc.want)
			}
			// Pricing reads the plans from the table the server enforces (issue 36).
			if f.Plans == nil || f.Plans.Free.SessionTokens != tiers(cfg.Limits).For("USER").SessionTokens || f.Plans.Premium.Insights != true || f.Plans.Basic.Insights {
				t.Errorf("plans = %+v", f.Plans)
			}
		})
	}
}
