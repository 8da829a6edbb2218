package app

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"log/slog"
	"path/filepath"

	"github.com/percolate/percolate/backend/internal/account"
	"github.com/percolate/percolate/backend/internal/auth"
	"github.com/percolate/percolate/backend/internal/billing"
	"github.com/percolate/percolate/backend/internal/config"
	"github.com/percolate/percolate/backend/internal/mail"
	"github.com/percolate/percolate/backend/internal/queue"
	"github.com/percolate/percolate/backend/internal/store"
	dbgen "github.com/percolate/percolate/gen/db"
)

// newAccounts builds the token issuer (its key made at first start in <data dir>/keys, 0600),
// the account service and third-party sign-in.
// Deleting an account first cancels its Stripe subscriptions, so nobody keeps paying for an
// account that no longer exists.
func newAccounts(st *store.Store, jobs *queue.Queue, cfg config.Config, mailer mail.Sender, payments *billing.Service, logger *slog.Logger) (*account.Service, *auth.Tokens, *account.OIDC, error) {
	key, err := auth.LoadOrCreateKey(filepath.Join(cfg.DataDir, "keys"))
	if err != nil {
		return nil, nil, nil, err
	}
	tokens, err := auth.NewTokens(st, auth.Config{Key: key, Issuer: cfg.PublicURL})
	if err != nil {
		return nil, nil, nil, err
	}
	svc := account.NewService(st, auth.NewHasher(auth.DefaultArgon2, 0), tokens, mailer, jobs, account.Config{
		PublicURL: cfg.PublicURL,
		Logger:    logger,
		Limits:    accountLimits(cfg.Limits),
		BeforeDelete: func(ctx context.Context, u dbgen.User) error {
			return payments.CancelForUser(ctx, u.ID)
		},
	})
	cookieKey := hmac.New(sha256.New, key)
	cookieKey.Write([]byte("percolate oidc cookie"))
	oidc := account.NewOIDC(svc, account.OIDCConfig{
		Issuer: cfg.OIDC.Issuer, ClientID: cfg.OIDC.ClientID, ClientSecret: cfg.OIDC.ClientSecret,
		RedirectURL: cfg.PublicURL + "/oauth2/callback/google",
		CookieKey:   cookieKey.Sum(nil),
	})
	return svc, tokens, oidc, nil
}
