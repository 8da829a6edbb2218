package httpapi

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/percolate/percolate/backend/internal/account"
	"github.com/percolate/percolate/backend/internal/auth"
	"github.com/percolate/percolate/backend/internal/billing"
	"github.com/percolate/percolate/backend/internal/chat"
	"github.com/percolate/percolate/backend/internal/checkin"
	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/config"
	"github.com/percolate/percolate/backend/internal/contact"
	"github.com/percolate/percolate/backend/internal/export"
	"github.com/percolate/percolate/backend/internal/insights"
	"github.com/percolate/percolate/backend/internal/mail"
	"github.com/percolate/percolate/backend/internal/memory"
	"github.com/percolate/percolate/backend/internal/queue"
	"github.com/percolate/percolate/backend/internal/reminders"
	"github.com/percolate/percolate/backend/internal/store"
	"github.com/percolate/percolate/backend/internal/voice"
)

// offline is a full set of services on a database that never answers (nothing listens on
// its port): what a test leaves out of Deps is taken from it, so that a request reaching a
// service the test does not exercise gets the outage answer (503, try again). Built once.
var offline = sync.OnceValues(func() (Deps, error) {
	pool, err := pgxpool.New(context.Background(), "postgres://percolate@127.0.0.1:1/offline?connect_timeout=1")
	if err != nil {
		return Deps{}, err
	}
	st := store.FromPool(pool)
	quiet := discardLogger()
	jobs, err := queue.New(st, queue.Config{Logger: quiet})
	if err != nil {
		return Deps{}, err
	}
	tokens, err := auth.NewTokens(st, auth.Config{Key: bytes.Repeat([]byte("k"), auth.KeySize), Issuer: testPublicURL})
	if err != nil {
		return Deps{}, err
	}
	var sender noMail
	accounts := account.NewService(st, auth.NewHasher(cheapArgon, 0), tokens, sender, jobs, account.Config{PublicURL: testPublicURL, Logger: quiet})
	chatSvc := chat.New(st, &companion.Offline{}, chat.Options{Queue: jobs, Logger: quiet})
	return Deps{
		DB:        st,
		Verifier:  NewTokenVerifier(tokens),
		Accounts:  accounts,
		OIDC:      account.NewOIDC(accounts, account.OIDCConfig{}),
		Billing:   billing.New(st, config.Stripe{}, testPublicURL, "", nil, quiet),
		Insights:  insights.New(st, jobs, sender, testPublicURL, nil, quiet),
		Voice:     voice.NewService(chatSvc, st, voice.NewSpeaker(config.LLM{}, quiet), voice.NewTranscriber(config.LLM{}), nil, quiet),
		Contact:   contact.New(st, jobs, sender, "support@percolate.test", quiet),
		Chat:      chatSvc,
		Memory:    memory.New(st),
		Checkins:  checkin.New(st, nil),
		Export:    export.New(st),
		Reminders: reminders.New(st, jobs, sender, reminders.Config{PublicURL: testPublicURL, Logger: quiet}),
	}, nil
})

// noMail sends nothing: the offline services never get as far as a mail.
type noMail struct{}

func (noMail) Send(context.Context, mail.Message) error { return errors.New("no mail in this test") }

// withOffline fills what d leaves out with the offline services.
func withOffline(t testing.TB, d Deps) Deps {
	t.Helper()
	o, err := offline()
	if err != nil {
		t.Fatalf("offline services: %v", err)
	}
	fill := func(set bool, use func()) {
		if !set {
			use()
		}
	}
	fill(d.DB != nil, func() { d.DB = o.DB })
	fill(d.Verifier != nil, func() { d.Verifier = o.Verifier })
	fill(d.Accounts != nil, func() { d.Accounts = o.Accounts })
	fill(d.OIDC != nil, func() { d.OIDC = o.OIDC })
	fill(d.Billing != nil, func() { d.Billing = o.Billing })
	fill(d.Insights != nil, func() { d.Insights = o.Insights })
	fill(d.Voice != nil, func() { d.Voice = o.Voice })
	fill(d.Contact != nil, func() { d.Contact = o.Contact })
	fill(d.Chat != nil, func() { d.Chat = o.Chat })
	fill(d.Memory != nil, func() { d.Memory = o.Memory })
	fill(d.Checkins != nil, func() { d.Checkins = o.Checkins })
	fill(d.Export != nil, func() { d.Export = o.Export })
	fill(d.Reminders != nil, func() { d.Reminders = o.Reminders })
	return d
}

// TestNewHandlerRequiresEveryService: a server missing a handler's service does not start,
// and says which service it lacks; with all of them it does.
func TestNewHandlerRequiresEveryService(t *testing.T) {
	full := withOffline(t, Deps{Logger: discardLogger(), WebApp: fstest.MapFS{}})
	if _, err := NewHandler(full); err != nil {
		t.Fatalf("with every service: %v", err)
	}
	for name, drop := range map[string]func(*Deps){
		"DB":        func(d *Deps) { d.DB = nil },
		"Verifier":  func(d *Deps) { d.Verifier = nil },
		"Accounts":  func(d *Deps) { d.Accounts = nil },
		"OIDC":      func(d *Deps) { d.OIDC = nil },
		"Billing":   func(d *Deps) { d.Billing = nil },
		"Insights":  func(d *Deps) { d.Insights = nil },
		"Voice":     func(d *Deps) { d.Voice = nil },
		"Contact":   func(d *Deps) { d.Contact = nil },
		"Chat":      func(d *Deps) { d.Chat = nil },
		"Memory":    func(d *Deps) { d.Memory = nil },
		"Checkins":  func(d *Deps) { d.Checkins = nil },
		"Export":    func(d *Deps) { d.Export = nil },
		"Reminders": func(d *Deps) { d.Reminders = nil },
	} {
		d := full
		drop(&d)
		h, err := NewHandler(d)
		if err == nil || h != nil {
			t.Fatalf("without %s: NewHandler gave a handler (err %v)", name, err)
		}
		if !strings.Contains(err.Error(), name) {
			t.Fatalf("without %s: the error %q does not name it", name, err)
		}
	}
	if _, err := NewHandler(Deps{}); err == nil || !strings.Contains(err.Error(), "DB, Verifier, Accounts") {
		t.Fatalf("empty Deps: %v", err)
	}
}
