package app

import (
	"context"
	"log/slog"

	"github.com/percolate/percolate/backend/internal/account"
	"github.com/percolate/percolate/backend/internal/auth"
	"github.com/percolate/percolate/backend/internal/billing"
	"github.com/percolate/percolate/backend/internal/config"
	"github.com/percolate/percolate/backend/internal/mail"
	"github.com/percolate/percolate/backend/internal/queue"
	"github.com/percolate/percolate/backend/internal/store"
	dbgen "github.com/percolate/percolate/gen/db"
)

// OpenKeyring returns the signing keys: derived from PERCOLATE_SECRET_KEY when it is set,
// otherwise those in the database (the first made at first start), shared by every instance.
func OpenKeyring(ctx context.Context, st *store.Store, cfg config.Config, logger *slog.Logger) (*auth.Keyring, error) {
	if cfg.SecretKey != "" {
		return auth.SecretKeyring([]byte(cfg.SecretKey)), nil
	}
	return auth.OpenKeyring(ctx, st, auth.KeyringConfig{Logger: logger})
}

// newAccounts builds the token issuer over the signing keys, the account service and
// third-party sign-in.
// Deleting an account first cancels its Stripe subscriptions, so nobody keeps paying for an
// account that no longer exists.
func newAccounts(st *store.Store, keys *auth.Keyring, jobs *queue.Queue, cfg config.Config, mailer mail.Sender, payments *billing.Service, logger *slog.Logger) (*account.Service, *auth.Tokens, *account.OIDC, error) {
	tokens, err := auth.NewTokens(st, auth.Config{Keys: keys, Issuer: cfg.PublicURL})
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
	oidc := account.NewOIDC(svc, account.OIDCConfig{
		Issuer: cfg.OIDC.Issuer, ClientID: cfg.OIDC.ClientID, ClientSecret: cfg.OIDC.ClientSecret,
		RedirectURL: cfg.PublicURL + "/oauth2/callback/google",
		Keys:        keys,
	})
	return svc, tokens, oidc, nil
}
