package app

import (
	"github.com/percolate/percolate/backend/internal/account"
	"github.com/percolate/percolate/backend/internal/chat"
	"github.com/percolate/percolate/backend/internal/config"
	"github.com/percolate/percolate/backend/internal/entitlement"
)

// tiers is the entitlement table with the configured numbers applied.
func tiers(c config.Limits) entitlement.Table {
	return entitlement.Default().With(entitlement.Overrides{
		SessionTokens: c.SessionTokens, MessagesPerDay: c.MessagesPerDay, VoicePerDay: c.VoicePerDay,
	})
}

// chatLimits applies the configured overrides to the chat defaults.
func chatLimits(c config.Limits, t entitlement.Table) chat.Limits {
	l := chat.DefaultLimits()
	l.Tiers = t
	if c.MaxMessageChars > 0 {
		l.MaxMessageChars = c.MaxMessageChars
	}
	return l
}

// accountLimits applies the configured overrides to the account rate limits.
func accountLimits(c config.Limits) account.Limits {
	l := account.DefaultLimits()
	for name, n := range c.Auth {
		switch name {
		case "login_per_account":
			l.LoginFailPerAccount.Limit = n
		case "login_per_account_total":
			l.LoginFailPerAccountTotal.Limit = n
		case "login_per_address":
			l.LoginFailPerAddress.Limit = n
		case "mail_per_email":
			l.MailPerEmail.Limit = n
			l.RegisterMailPerEmail.Limit = n
		case "mail_per_address":
			l.MailPerAddress.Limit = n
		case "register_per_address":
			l.RegisterPerAddress.Limit = n
		case "bad_tokens_per_address":
			l.TokenFailPerAddress.Limit = n
			l.RefreshFailPerAddress.Limit = n
		}
	}
	return l
}
