// Package app wires the configuration to the services and the HTTP server, and runs it until
// the context ends (SIGTERM/SIGINT), finishing in-flight requests before it returns.
package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/percolate/percolate/backend/internal/auth"
	"github.com/percolate/percolate/backend/internal/billing"
	"github.com/percolate/percolate/backend/internal/chat"
	"github.com/percolate/percolate/backend/internal/checkin"
	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/config"
	"github.com/percolate/percolate/backend/internal/contact"
	"github.com/percolate/percolate/backend/internal/entitlement"
	"github.com/percolate/percolate/backend/internal/export"
	"github.com/percolate/percolate/backend/internal/httpapi"
	"github.com/percolate/percolate/backend/internal/insights"
	"github.com/percolate/percolate/backend/internal/mail"
	"github.com/percolate/percolate/backend/internal/memory"
	"github.com/percolate/percolate/backend/internal/queue"
	"github.com/percolate/percolate/backend/internal/reminders"
	"github.com/percolate/percolate/backend/internal/store"
	"github.com/percolate/percolate/backend/internal/store/pglocal"
	"github.com/percolate/percolate/backend/internal/voice"
	"github.com/percolate/percolate/frontend"
	"github.com/percolate/percolate/gen/api"
)

// shutdownGrace is how long in-flight requests (a streamed reply, say) may take to finish.
// Replies in progress get replyGrace of it to finish; then they are stopped and stored as
// interrupted, which the rest of the grace leaves time for.
const (
	shutdownGrace = 30 * time.Second
	replyGrace    = 20 * time.Second
)

// Database is an open, migrated database and what must be stopped with it.
type Database struct {
	*store.Store
	cluster *pglocal.Cluster
	url     string // the connection URL; it may hold a password, so it is never logged
}

// Close closes the pool and stops the built-in cluster, if this process started it.
func (d *Database) Close() {
	d.Store.Close()
	if d.cluster != nil {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := d.cluster.Stop(ctx); err != nil {
			slog.Error("stop built-in database", "error", err)
		}
	}
}

// OpenDatabase connects to DATABASE_URL or, without it, to the built-in PostgreSQL cluster
// under the data dir (started if needed), and applies the migrations.
func OpenDatabase(ctx context.Context, cfg config.Config, logger *slog.Logger) (*Database, error) {
	if err := ensureDataDir(cfg.DataDir); err != nil {
		return nil, err
	}
	url := cfg.DatabaseURL
	var cluster *pglocal.Cluster
	if url == "" {
		start := time.Now()
		c, err := pglocal.Start(ctx, filepath.Join(cfg.DataDir, "postgres"), logger)
		if err != nil {
			return nil, err
		}
		cluster = c
		url = c.URL()
		logger.Info("built-in database ready", "data_dir", c.DataDir(), "seconds", time.Since(start).Seconds())
	}
	st, err := store.Open(ctx, url)
	if err == nil {
		err = st.Migrate(ctx)
		if err != nil {
			st.Close()
		}
	}
	if err != nil {
		if cluster != nil {
			_ = cluster.Stop(context.Background())
		}
		return nil, err
	}
	return &Database{Store: st, cluster: cluster, url: url}, nil
}

// ensureDataDir creates the data dir, readable by this user only. Run as root, the built-in
// PostgreSQL runs as the postgres system user, which must be able to pass through the data
// dir to reach its own subdirectory: then the dir is 0711 (others may traverse, not list);
// everything secret inside has its own 0600/0700 modes.
func ensureDataDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create data dir %s (PERCOLATE_DATA_DIR): %w", dir, err)
	}
	if os.Geteuid() == 0 {
		if err := os.Chmod(dir, 0o711); err != nil { // #nosec G302 -- the data directory must be traversable (not listable) by the PostgreSQL user the built-in cluster runs as
			return fmt.Errorf("data dir %s: %w", dir, err)
		}
	}
	return nil
}

// Serve runs the whole application until ctx ends, then shuts down gracefully.
func Serve(ctx context.Context, cfg config.Config, logger *slog.Logger, version string) error {
	db, err := OpenDatabase(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer db.Close()

	// All background work runs on the job queue (River, in the same database): each
	// service below registers the workers of the jobs it queues, so the queue starts once
	// they are all built, and stops after the HTTP server (see the end of Serve).
	jobs, err := queue.New(db.Store, queue.Config{Logger: logger})
	if err != nil {
		return err
	}
	// Mail: verification and reset links, contact messages, weekly reports; each a job.
	mailer, err := mail.New(cfg.Mail, cfg.DataDir, logger)
	if err != nil {
		return err
	}
	warnIfSampleContent(frontend.Dist(), logger)
	payments := billing.New(db.Store, cfg.Stripe, cfg.PublicURL, cfg.CommunityURL, nil, logger)
	// Signing keys: every instance on the database shares them (or derives them from
	// PERCOLATE_SECRET_KEY), and reads them again now and then to learn of a rotation.
	keys, err := OpenKeyring(ctx, db.Store, cfg, logger)
	if err != nil {
		return err
	}
	keysCtx, stopKeys := context.WithCancel(ctx)
	defer stopKeys()
	go keys.Run(keysCtx)
	accounts, tokens, oidc, err := newAccounts(db.Store, keys, jobs, cfg, mailer, payments, logger)
	if err != nil {
		return err
	}
	// One connection of its own LISTENs for the whole instance: for login changes (logins
	// checked are cached for half a second while this instance hears of every change) and
	// for the chat's stops and stored replies from other instances. It stops after the chat
	// has finished its replies (deferred before the chat's shutdown, so run after it).
	notes := db.NewListener(logger, auth.LoginChannel, chat.NotifyChannel)
	tokens.FollowLoginChanges(notes)
	notesCtx, stopNotes := context.WithCancel(context.WithoutCancel(ctx))
	notesDone := make(chan struct{})
	go func() {
		defer close(notesDone)
		notes.Run(notesCtx)
	}()
	defer func() {
		stopNotes()
		<-notesDone
	}()

	// What each tier includes, with the configured numbers: chat, voice and /me read it.
	tiers := tiers(cfg.Limits)
	// Chat and its background jobs (session summaries).
	chatSvc := chat.New(db.Store, companion.New(cfg.LLM), chat.Options{Queue: jobs, Listener: notes, Logger: logger, Limits: new(chatLimits(cfg.Limits, tiers)), ReplyTimeout: cfg.LLM.ReplyTimeout})
	chatSvc.Start()
	replyCtx, stopReplies := context.WithCancel(context.Background())
	defer func() {
		stopReplies() // on an early return, stop the replies at once
		chatSvc.Shutdown(replyCtx)
	}()
	// Voice: the model's speech endpoint, else espeak-ng + lame when installed, else the browser.
	voiceSvc := voice.NewService(chatSvc, db.Store, voice.NewSpeaker(cfg.LLM, logger), voice.NewTranscriber(cfg.LLM), tiers, logger)

	// Weekly insight reports for Premium users: stored once per user and week.
	reports := insights.New(db.Store, jobs, mailer, cfg.PublicURL, companion.New(cfg.LLM), logger)
	contactSvc := contact.New(db.Store, jobs, mailer, cfg.Mail.SupportEmail, logger)
	// Gentle reminders by e-mail and Web Push; the dispatch runs every minute (schedule).
	remindSvc := reminders.New(db.Store, jobs, mailer, reminders.Config{
		PublicURL: cfg.PublicURL, Subscriber: cfg.Mail.SupportEmail, Logger: logger,
		VAPIDPublic: cfg.VAPIDPublicKey, VAPIDPrivate: cfg.VAPIDPrivateKey,
	})
	schedule(jobs, db.Store, logger)
	if err := jobs.Start(ctx); err != nil {
		return err
	}
	// Deferred, so it also runs on an early return; on a normal shutdown it runs after
	// the server below has finished its requests (a request may still queue a job).
	defer func() {
		if err := jobs.Stop(context.Background()); err != nil {
			logger.Error("stop job queue", "error", err.Error())
		}
		logger.Info("stopped")
	}()

	handler, err := httpapi.NewHandler(httpapi.Deps{
		Logger:   logger,
		DB:       db,
		Verifier: httpapi.NewTokenVerifier(tokens),
		Tiers:    tiers,
		Accounts: accounts,
		OIDC:     oidc,
		Features: features(cfg, voiceSvc, tiers),
		Version:  version,
		WebApp:   frontend.Dist(),

		SupportEmail:   cfg.Mail.SupportEmail,
		TrustedProxies: cfg.TrustedProxies,
		SecureCookies:  strings.HasPrefix(cfg.PublicURL, "https://"),
		HSTS:           strings.HasPrefix(cfg.PublicURL, "https://"),
		Billing:        payments,
		Insights:       reports,
		Voice:          voiceSvc,
		Contact:        contactSvc,
		Chat:           chatSvc,
		Memory:         memory.New(db.Store),
		Checkins:       checkin.New(db.Store, tiers),
		Export:         export.New(db.Store),
		Reminders:      remindSvc,
	})
	if err != nil {
		return err
	}

	if cfg.PprofAddr != "" {
		if err := servePprof(ctx, cfg.PprofAddr, logger); err != nil {
			return err
		}
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s (PERCOLATE_ADDR): %w", cfg.Addr, err)
	}
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       time.Minute,
		// No WriteTimeout: streamed replies may legitimately take longer.
		IdleTimeout:    2 * time.Minute,
		MaxHeaderBytes: 64 << 10,
		ErrorLog:       slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
		BaseContext:    func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	// Start-up (migrations, say) leaves heap behind that an idle server never uses again; give
	// it back to the system now rather than whenever the scavenger gets to it.
	debug.FreeOSMemory()
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	logger.Info("percolate is serving", "url", "http://"+ln.Addr().String(), "public_url", cfg.PublicURL, "version", version)

	select {
	case err := <-errc:
		return fmt.Errorf("http server: %w", err)
	case <-ctx.Done():
	}
	logger.Info("shutting down: finishing in-flight requests and replies")
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	// A reply outlives its request, so the replies are drained beside the server's own
	// shutdown, which waits for the streams that follow them.
	rctx, rcancel := context.WithTimeout(context.Background(), replyGrace)
	defer rcancel()
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		chatSvc.Shutdown(rctx)
	}()
	err = srv.Shutdown(sctx)
	<-drained
	if err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("http server: %w", err)
	}
	// The deferred queue stop runs now: running jobs get queue.DefaultStopGrace to finish.
	logger.Info("requests finished; stopping the job queue")
	return nil
}

// features tells the web app what this server has configured.
func features(cfg config.Config, v *voice.Service, t entitlement.Table) api.ClientConfig {
	return api.ClientConfig{
		OidcSignIn:       cfg.OIDC.Configured(),
		Payments:         cfg.Stripe.Configured(),
		OfflineCompanion: !cfg.LLM.Configured(),
		ServerSpeech:     v.Speaks(),
		Transcription:    v.Transcribes(),
		// Pricing reads the plans from the table the server enforces (issue 36).
		Plans: &api.Plans{
			Free:    httpapi.EntitlementsJSON(t.For(entitlement.RoleFree)),
			Basic:   httpapi.EntitlementsJSON(t.For(entitlement.RoleBasic)),
			Premium: httpapi.EntitlementsJSON(t.For(entitlement.RolePremium)),
		},
	}
}
