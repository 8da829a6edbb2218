package contact_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/riverqueue/river/rivertype"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/config"
	"github.com/percolate/percolate/backend/internal/contact"
	"github.com/percolate/percolate/backend/internal/mail"
	"github.com/percolate/percolate/backend/internal/mail/smtptest"
	"github.com/percolate/percolate/backend/internal/queue"
	"github.com/percolate/percolate/backend/internal/queue/queuetest"
	"github.com/percolate/percolate/backend/internal/store"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
)

type fixture struct {
	st   *store.Store
	smtp *smtptest.Server
	q    *queue.Queue
	svc  *contact.Service
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	srv := smtptest.Start(t)
	cfg, err := config.Load(func(k string) string {
		return map[string]string{config.EnvSMTPURL: srv.URL(), config.EnvSupportEmail: "help@percolate.example"}[k]
	})
	if err != nil {
		t.Fatalf("config.Load: %v", err)
	}
	sender, err := mail.New(cfg.Mail, t.TempDir(), nil)
	if err != nil {
		t.Fatalf("mail.New: %v", err)
	}
	st := pgtest.New(t)
	q := queuetest.New(t, st)
	svc := contact.New(st, q, sender, cfg.Mail.SupportEmail, nil)
	queuetest.Start(t, q)
	return fixture{st: st, smtp: srv, q: q, svc: svc}
}

func (f fixture) stored(t *testing.T) int64 {
	t.Helper()
	n, err := f.st.Queries().CountContactMessages(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// send has the service take in, failing the test if it is refused, and runs the mail jobs
// it queued: the answer is how many messages were stored before they ran.
func (f fixture) send(t *testing.T, in contact.Input) int64 {
	t.Helper()
	if err := f.svc.Send(context.Background(), in); err != nil {
		t.Fatalf("Send: %v", err)
	}
	n := f.stored(t)
	queuetest.Drain(t, f.q)
	return n
}

func valid() contact.Input {
	return contact.Input{Name: "Ada", Email: "ada@example.com", Message: "Hello there, I love the app.", ClientIP: "203.0.113.7"}
}

func TestSendStoresAndMailsSupport(t *testing.T) {
	f := newFixture(t)
	in := valid()
	in.Name = "  Ada  "

	if n := f.send(t, in); n != 1 {
		t.Fatalf("stored %d messages, want 1", n)
	}
	got := f.smtp.WaitFor(t, 1, 5*time.Second)[0]
	if len(got.To) != 1 || got.To[0] != "help@percolate.example" {
		t.Errorf("mail went to %v, want the support mailbox", got.To)
	}
	msg, err := got.Message()
	if err != nil {
		t.Fatal(err)
	}
	if s := msg.Header.Get("Subject"); s != "Contact form: Ada" {
		t.Errorf("subject %q", s)
	}
	if rt := msg.Header.Get("Reply-To"); rt != "" {
		t.Errorf("Reply-To %q set; the sender's address must not become a header", rt)
	}
	body, err := got.TextBody()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Name: Ada\n", "E-mail: ada@example.com", "Hello there, I love the app."} {
		if !strings.Contains(body, want) {
			t.Errorf("body lacks %q:\n%s", want, body)
		}
	}
}

func TestSendValidates(t *testing.T) {
	f := newFixture(t)
	tests := []struct {
		name   string
		change func(*contact.Input)
		fields []string
	}{
		{"empty name", func(in *contact.Input) { in.Name = "   " }, []string{"name"}},
		{"name too long", func(in *contact.Input) { in.Name = strings.Repeat("n", 101) }, []string{"name"}},
		{"name on two lines", func(in *contact.Input) { in.Name = "Ada\r\nBcc: x@y.z" }, []string{"name"}},
		{"empty email", func(in *contact.Input) { in.Email = "" }, []string{"email"}},
		{"not an email", func(in *contact.Input) { in.Email = "ada-at-example" }, []string{"email"}},
		{"display-name email", func(in *contact.Input) { in.Email = "Ada <ada@example.com>" }, []string{"email"}},
		{"email too long", func(in *contact.Input) { in.Email = strings.Repeat("a", 250) + "@example.com" }, []string{"email"}},
		{"empty message", func(in *contact.Input) { in.Message = "\n " }, []string{"message"}},
		{"message too long", func(in *contact.Input) { in.Message = strings.Repeat("m", 5001) }, []string{"message"}},
		{"everything wrong", func(in *contact.Input) { *in = contact.Input{ClientIP: in.ClientIP} }, []string{"name", "email", "message"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := valid()
			tt.change(&in)
			err := f.svc.Send(context.Background(), in)
			var verr *apperr.ValidationError
			if !errors.As(err, &verr) {
				t.Fatalf("Send = %v, want a ValidationError", err)
			}
			if len(verr.Fields) != len(tt.fields) {
				t.Errorf("fields %v, want %v", verr.Fields, tt.fields)
			}
			for _, field := range tt.fields {
				if verr.Fields[field] == "" {
					t.Errorf("no message for %s: %v", field, verr.Fields)
				}
			}
		})
	}
	if n := f.stored(t); n != 0 {
		t.Errorf("stored %d invalid messages", n)
	}

	// The limits themselves are allowed.
	in := valid()
	in.Name, in.Message = strings.Repeat("n", 100), strings.Repeat("é", 5000)
	if err := f.svc.Send(context.Background(), in); err != nil {
		t.Errorf("Send at the limits: %v", err)
	}
}

func TestHoneypotDropsSilently(t *testing.T) {
	f := newFixture(t)
	in := valid()
	in.Website = "http://spam.example"

	if n := f.send(t, in); n != 0 { // answered as if sent
		t.Errorf("stored %d messages from a bot", n)
	}
	if jobs := queuetest.Jobs(t, f.q, contact.MailArgs{}.Kind()); len(jobs) != 0 {
		t.Errorf("queued %d mails for a bot", len(jobs))
	}
	if m := f.smtp.Messages(); len(m) != 0 {
		t.Errorf("mailed %d messages from a bot", len(m))
	}
}

// TestMailIsRetriedUntilTheRelayTakesIt: the relay refuses the first delivery; the message
// still reaches support, on the job's second attempt, and the sender was told it arrived.
func TestMailIsRetriedUntilTheRelayTakesIt(t *testing.T) {
	f := newFixture(t)
	f.smtp.FailNext(1)
	f.send(t, valid()) // answered as sent: the message is stored
	msgs := f.smtp.Messages()
	if len(msgs) != 1 {
		t.Fatalf("support got %d mails, want 1", len(msgs))
	}
	if body, err := msgs[0].TextBody(); err != nil || !strings.Contains(body, "Hello there, I love the app.") {
		t.Fatalf("body %q (%v)", body, err)
	}
	jobs := queuetest.Jobs(t, f.q, contact.MailArgs{}.Kind())
	if len(jobs) != 1 || jobs[0].State != rivertype.JobStateCompleted || jobs[0].Attempt != 2 || len(jobs[0].Errors) != 1 {
		t.Fatalf("mail jobs %+v, want one completed at its second attempt after one error", jobs)
	}
	// The job carries the message's id, not its text.
	if strings.Contains(string(jobs[0].EncodedArgs), "Hello there") || strings.Contains(string(jobs[0].EncodedArgs), "ada@example.com") {
		t.Errorf("the job row holds the message: %s", jobs[0].EncodedArgs)
	}
}

func TestRateLimitPerAddress(t *testing.T) {
	f := newFixture(t)
	now := time.Date(2026, 3, 1, 10, 5, 0, 0, time.UTC)
	f.svc.Limiter().Now = func() time.Time { return now }
	ctx := context.Background()

	for i := range contact.Rule.Limit {
		if err := f.svc.Send(ctx, valid()); err != nil {
			t.Fatalf("message %d: %v", i+1, err)
		}
	}
	err := f.svc.Send(ctx, valid())
	var lerr *apperr.LimitError
	if !errors.As(err, &lerr) {
		t.Fatalf("message over the limit = %v, want a LimitError", err)
	}
	if lerr.RetryAfter != 55*time.Minute {
		t.Errorf("RetryAfter = %v, want 55m (the rest of the hour)", lerr.RetryAfter)
	}

	other := valid()
	other.ClientIP = "198.51.100.9"
	if err := f.svc.Send(ctx, other); err != nil {
		t.Errorf("another address is limited too: %v", err)
	}

	now = now.Add(time.Hour)
	if err := f.svc.Send(ctx, valid()); err != nil {
		t.Errorf("after the window: %v", err)
	}
	if n := f.stored(t); n != int64(contact.Rule.Limit)+2 {
		t.Errorf("stored %d, want %d", n, contact.Rule.Limit+2)
	}
}

// The privacy page states how long contact messages are kept: the period housekeeping keeps
// them for.
func TestPrivacyPageStatesTheRetention(t *testing.T) {
	page, err := os.ReadFile("../../../frontend/src/pages/Privacy/PrivacyPage.tsx")
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("export const CONTACT_MESSAGE_DAYS = %d;", int(contact.Retention/(24*time.Hour)))
	if !strings.Contains(string(page), want) {
		t.Errorf("the privacy page's contact-message period is not the server's: want %q in PrivacyPage.tsx", want)
	}
}
