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
		Auth:            map[string]int{"login_per_account": 4, "register_per_address": 2, "bad_tokens_per_address": 9},
	}
	cl := chatLimits(c)
	if cl.SessionTokens["BASIC"] != 5000 || cl.SessionTokens["USER"] != 1000 || cl.MessagesPerDay["USER"] != 10 ||
		cl.MessagesPerDay["PREMIUM"] != 500 || cl.MaxMessageChars != 1200 {
		t.Errorf("chat limits: %+v", cl)
	}
	if v := voiceLimits(c); v["PREMIUM"] != 7 || v["BASIC"] != 30 {
		t.Errorf("voice limits: %v", v)
	}
	al := accountLimits(c)
	if al.LoginFailPerAccount.Limit != 4 || al.RegisterPerAddress.Limit != 2 || al.LoginFailPerAddress.Limit != 100 || al.TokenFailPerAddress.Limit != 9 {
		t.Errorf("account limits: %+v", al)
	}
	if d := chatLimits(config.Limits{}); d.MaxMessageChars != 4000 || d.MessagesPerDay["BASIC"] != 200 {
		t.Errorf("defaults changed: %+v", d)
	}
}
