package httpapi

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/percolate/percolate/backend/internal/config"
	"github.com/percolate/percolate/backend/internal/contact"
	"github.com/percolate/percolate/backend/internal/mail"
	"github.com/percolate/percolate/backend/internal/mail/smtptest"
	"github.com/percolate/percolate/backend/internal/queue/queuetest"
	"github.com/percolate/percolate/backend/internal/store"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
)

func newContactHandler(t *testing.T) (http.Handler, *store.Store, *smtptest.Server) {
	t.Helper()
	srv := smtptest.Start(t)
	cfg, err := config.Load(func(k string) string {
		return map[string]string{config.EnvSMTPURL: srv.URL()}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	sender, err := mail.New(cfg.Mail, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	st := pgtest.New(t)
	q := queuetest.New(t, st)
	h := newTestHandler(t, Deps{DB: st, Contact: contact.New(st, q, sender, cfg.Mail.SupportEmail, nil)})
	queuetest.Start(t, q)
	return h, st, srv
}

func countContacts(t *testing.T, st *store.Store) int64 {
	t.Helper()
	n, err := st.Queries().CountContactMessages(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

const goodContact = `{"name":"Ada","email":"ada@example.com","message":"Hi!","website":""}`

func TestContactAcceptedStoredAndMailed(t *testing.T) {
	h, st, srv := newContactHandler(t)

	res := do(h, http.MethodPost, "/api/public/contact", goodContact)

	if res.Code != http.StatusAccepted {
		t.Fatalf("status %d: %s", res.Code, res.Body)
	}
	if msg, _ := res.json(t)["message"].(string); msg == "" {
		t.Errorf("no message in %s", res.Body)
	}
	if n := countContacts(t, st); n != 1 {
		t.Errorf("stored %d", n)
	}
	got := srv.WaitFor(t, 1, 5*time.Second)
	if got[0].To[0] != config.DefaultSupportEmail {
		t.Errorf("mailed to %v", got[0].To)
	}
}

func TestContactFieldErrors(t *testing.T) {
	h, st, _ := newContactHandler(t)

	res := do(h, http.MethodPost, "/api/public/contact",
		`{"name":"","email":"nope","message":"`+strings.Repeat("x", 5001)+`"}`)

	if res.Code != http.StatusBadRequest {
		t.Fatalf("status %d: %s", res.Code, res.Body)
	}
	body := res.json(t)
	if body["code"] != "VALIDATION_ERROR" {
		t.Errorf("code %v", body["code"])
	}
	details, _ := body["details"].(map[string]any)
	for _, f := range []string{"name", "email", "message"} {
		if s, _ := details[f].(string); s == "" {
			t.Errorf("no detail for %s in %v", f, details)
		}
	}
	if n := countContacts(t, st); n != 0 {
		t.Errorf("stored %d", n)
	}
}

func TestContactHoneypotLooksAccepted(t *testing.T) {
	h, st, srv := newContactHandler(t)

	res := do(h, http.MethodPost, "/api/public/contact",
		`{"name":"Bot","email":"bot@example.com","message":"buy","website":"http://spam.example"}`)

	if res.Code != http.StatusAccepted {
		t.Fatalf("status %d: %s", res.Code, res.Body)
	}
	if n := countContacts(t, st); n != 0 {
		t.Errorf("stored %d bot messages", n)
	}
	// A mail would be a job queued with the stored row.
	var jobs int
	if err := st.Pool().QueryRow(context.Background(), `SELECT count(*) FROM river_job`).Scan(&jobs); err != nil {
		t.Fatal(err)
	}
	if jobs != 0 || len(srv.Messages()) != 0 {
		t.Errorf("queued %d jobs and mailed %d messages for a bot", jobs, len(srv.Messages()))
	}
}

func TestContactRateLimited(t *testing.T) {
	h, st, _ := newContactHandler(t)

	for i := range contact.Rule.Limit {
		if res := do(h, http.MethodPost, "/api/public/contact", goodContact); res.Code != http.StatusAccepted {
			t.Fatalf("message %d: status %d", i+1, res.Code)
		}
	}
	res := do(h, http.MethodPost, "/api/public/contact", goodContact)

	if res.Code != http.StatusTooManyRequests {
		t.Fatalf("status %d: %s", res.Code, res.Body)
	}
	if res.Header().Get("Retry-After") == "" {
		t.Error("no Retry-After")
	}
	if res.json(t)["code"] != "RATE_LIMITED" {
		t.Errorf("body %s", res.Body)
	}
	if n := countContacts(t, st); n != int64(contact.Rule.Limit) {
		t.Errorf("stored %d", n)
	}
}
