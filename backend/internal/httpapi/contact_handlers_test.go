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
	"github.com/percolate/percolate/gen/api"
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

// goodContact is a message a person sends: the honeypot field is there, and empty.
func goodContact() api.ContactRequest {
	empty := ""
	return api.ContactRequest{Name: "Ada", Email: "ada@example.com", Message: "Hi!", Website: &empty}
}

func TestContactAcceptedStoredAndMailed(t *testing.T) {
	h, st, srv := newContactHandler(t)

	res, err := apiClient(t, h, "192.0.2.1").SendContactMessageWithResponse(context.Background(), goodContact())

	wantStatus(t, res, err, http.StatusAccepted)
	if res.JSON202.Message == "" {
		t.Errorf("message is empty")
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

	v := wantValidationError(t, "a contact message with three bad fields", res.Code, res.Body.Bytes())
	for _, f := range []string{"name", "email", "message"} {
		if v.Details[f] == "" {
			t.Errorf("details.%s is missing or empty: %v", f, v.Details)
		}
	}
	if n := countContacts(t, st); n != 0 {
		t.Errorf("stored %d", n)
	}
}

func TestContactHoneypotLooksAccepted(t *testing.T) {
	h, st, srv := newContactHandler(t)

	website := "http://spam.example"
	res, err := apiClient(t, h, "192.0.2.1").SendContactMessageWithResponse(context.Background(),
		api.ContactRequest{Name: "Bot", Email: "bot@example.com", Message: "buy", Website: &website})

	wantStatus(t, res, err, http.StatusAccepted)
	if res.JSON202.Message == "" {
		t.Errorf("message is empty: a bot must not tell the answer apart")
	}
	if n := countContacts(t, st); n != 0 {
		t.Errorf("stored %d bot messages", n)
	}
	// A mail would be a job queued with the stored row.
	var jobs int
	if err := st.Pool().QueryRow(context.Background(), `SELECT count(*) FROM river_job`).Scan(&jobs); err != nil {
		t.Fatal(err)
	}
	if jobs != 0 {
		t.Errorf("queued %d jobs for a bot", jobs)
	}
	if n := len(srv.Messages()); n != 0 {
		t.Errorf("mailed %d messages for a bot", n)
	}
}

func TestContactRateLimited(t *testing.T) {
	h, st, _ := newContactHandler(t)
	c, ctx := apiClient(t, h, "192.0.2.1"), context.Background()

	for range contact.Rule.Limit {
		res, err := c.SendContactMessageWithResponse(ctx, goodContact())
		wantStatus(t, res, err, http.StatusAccepted)
	}
	res, err := c.SendContactMessageWithResponse(ctx, goodContact())

	wantStatus(t, res, err, http.StatusTooManyRequests)
	if res.Headers429 == nil || res.Headers429.RetryAfter == nil || *res.Headers429.RetryAfter < 1 {
		t.Errorf("Retry-After = %q, want a number of seconds", res.HTTPResponse.Header.Get("Retry-After"))
	}
	if res.JSON429.Code != "RATE_LIMITED" {
		t.Errorf("code = %q, want RATE_LIMITED", res.JSON429.Code)
	}
	if n := countContacts(t, st); n != int64(contact.Rule.Limit) {
		t.Errorf("stored %d", n)
	}
}
