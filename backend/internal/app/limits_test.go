package app

import (
	"testing"

	"github.com/percolate/percolate/backend/internal/config"
)

func TestLimitOverrides(t *testing.T) {
	c := config.Limits{
		SessionTokens:   map[string]int{"BASIC": 5000},
		MessagesPerDay:  map[string]int{"USER": 10},
		VoicePerDay:     map[string]int{"PREMIUM": 7},
		MaxMessageChars: 1200,
		Auth:            map[string]int{"login_per_account": 4, "login_per_account_total": 40, "register_per_address": 2, "bad_tokens_per_address": 9},
	}
	tt := tiers(c)
	cl := chatLimits(c, tt)
	if tt.For("BASIC").SessionTokens != 5000 || tt.For("USER").SessionTokens != 4000 || tt.For("USER").MessagesPerDay != 10 ||
		tt.For("PREMIUM").MessagesPerDay != 500 || cl.MaxMessageChars != 1200 || cl.Tiers.For("USER").MessagesPerDay != 10 {
		t.Errorf("chat limits: %+v", cl)
	}
	if tt.For("PREMIUM").VoicePerDay != 7 || tt.For("BASIC").VoicePerDay != 30 || tt.For("USER").Voice() {
		t.Errorf("voice limits: %+v", tt)
	}
	al := accountLimits(c)
	if al.LoginFailPerAccount.Limit != 4 || al.LoginFailPerAccountTotal.Limit != 40 || al.RegisterPerAddress.Limit != 2 || al.LoginFailPerAddress.Limit != 100 || al.TokenFailPerAddress.Limit != 9 {
		t.Errorf("account limits: %+v", al)
	}
	if d := chatLimits(config.Limits{}, tiers(config.Limits{})); d.MaxMessageChars != 4000 || d.Tiers.For("BASIC").MessagesPerDay != 200 {
		t.Errorf("defaults changed: %+v", d)
	}
}
