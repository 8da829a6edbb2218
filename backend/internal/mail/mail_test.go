package mail_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"mime"
	netmail "net/mail"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/percolate/percolate/backend/internal/config"
	"github.com/percolate/percolate/backend/internal/mail"
	"github.com/percolate/percolate/backend/internal/mail/smtptest"
)

// loadMail builds the mail configuration the way the app does, from
// environment variables.
func loadMail(t *testing.T, env map[string]string) config.Mail {
	t.Helper()
	c, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatalf("config.Load: %v", err)
	}
	return c.Mail
}

// longText has non-ASCII characters and a line longer than 76 characters so
// that quoted-printable soft breaks are exercised.
const longText = "Hello Zoë,\n\nPlease confirm your address by opening this link, which is rather long so that the encoder has to wrap it: https://percolate.example/verify?token=abcdefghijklmnopqrstuvwxyz0123456789\n\n— Percolate ☕"

func TestOutboxWritesParseableMessage(t *testing.T) {
	dataDir := t.TempDir()
	var logs bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&logs, nil))
	sender, err := mail.New(loadMail(t, nil), dataDir, logger)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	if _, ok := sender.(*mail.Outbox); !ok {
		t.Fatalf("New without SMTP returned %T, want *mail.Outbox", sender)
	}

	msg := mail.Message{
		To:      "Zoë Example <zoe@example.com>",
		Subject: "Bestätige deine E-Mail ☕",
		Text:    longText,
	}
	if err := sender.Send(context.Background(), msg); err != nil {
		t.Fatalf("Send: %v", err)
	}

	dir := mail.OutboxDir(dataDir)
	assertMode(t, dir, 0o700)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Fatalf("outbox has %d entries, want 1", len(entries))
	}
	name := entries[0].Name()
	if !regexp.MustCompile(`^\d{8}T\d{6}\.\d{9}Z-[0-9a-f]{8}\.eml$`).MatchString(name) {
		t.Errorf("file name %q does not look like <timestamp>-<random>.eml", name)
	}
	path := filepath.Join(dir, name)
	assertMode(t, path, 0o600)
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}

	parsed, err := netmail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("outbox file is not an RFC 5322 message: %v\n%s", err, raw)
	}
	h := parsed.Header
	from, err := h.AddressList("From")
	if err != nil || len(from) != 1 || from[0].Address != "no-reply@localhost" || from[0].Name != "Percolate" {
		t.Errorf("From = %v (%v)", from, err)
	}
	to, err := h.AddressList("To")
	if err != nil || len(to) != 1 || to[0].Address != "zoe@example.com" || to[0].Name != "Zoë Example" {
		t.Errorf("To = %v (%v)", to, err)
	}
	rawSubject := h.Get("Subject")
	if !strings.HasPrefix(rawSubject, "=?UTF-8?") {
		t.Errorf("non-ASCII Subject is not RFC 2047 encoded: %q", rawSubject)
	}
	subject, err := new(mime.WordDecoder).DecodeHeader(rawSubject)
	if err != nil || subject != msg.Subject {
		t.Errorf("Subject decodes to %q (%v), want %q", subject, err, msg.Subject)
	}
	if d, err := h.Date(); err != nil || time.Since(d) > time.Minute {
		t.Errorf("Date = %v (%v)", d, err)
	}
	if id := h.Get("Message-Id"); !regexp.MustCompile(`^<[0-9a-f]{32}@localhost>$`).MatchString(id) {
		t.Errorf("Message-ID = %q", id)
	}
	if v := h.Get("Mime-Version"); v != "1.0" {
		t.Errorf("MIME-Version = %q", v)
	}
	mt, params, err := mime.ParseMediaType(h.Get("Content-Type"))
	if err != nil || mt != "text/plain" || !strings.EqualFold(params["charset"], "utf-8") {
		t.Errorf("Content-Type = %q", h.Get("Content-Type"))
	}
	if cte := h.Get("Content-Transfer-Encoding"); cte != "quoted-printable" {
		t.Errorf("Content-Transfer-Encoding = %q", cte)
	}
	for _, line := range strings.Split(string(raw), "\r\n") {
		if len(line) > 78 {
			t.Errorf("line longer than 78 characters: %q", line)
		}
	}
	text, err := smtptest.Body(raw, "text/plain")
	if err != nil {
		t.Fatal(err)
	}
	// Like SMTP, the file ends with a line break after the body.
	if text != longText+"\n" {
		t.Errorf("decoded body = %q, want %q", text, longText+"\n")
	}

	// The log says where the file is; it holds nothing of the body, least of all the
	// link and its token (issue 15, finding 8).
	logged := logs.String()
	for _, want := range []string{`"msg":"mail written to outbox"`, `"path":"` + path + `"`} {
		if !strings.Contains(logged, want) {
			t.Errorf("log lacks %q: %s", want, logged)
		}
	}
	for _, secret := range []string{"Please confirm", "token=", "abcdefghijklmnopqrstuvwxyz0123456789"} {
		if strings.Contains(logged, secret) {
			t.Errorf("log contains %q from the body: %s", secret, logged)
		}
	}
}

func TestOutboxHTMLAlternative(t *testing.T) {
	dataDir := t.TempDir()
	sender, err := mail.New(loadMail(t, nil), dataDir, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = sender.Send(context.Background(), mail.Message{
		To: "a@example.com", Subject: "Hi", Text: "plain version", HTML: "<p>html version</p>",
	})
	if err != nil {
		t.Fatal(err)
	}
	raw := readOnlyOutboxFile(t, dataDir)
	if text, err := smtptest.Body(raw, "text/plain"); err != nil || text != "plain version" {
		t.Errorf("text part = %q (%v)", text, err)
	}
	if html, err := smtptest.Body(raw, "text/html"); err != nil || html != "<p>html version</p>" {
		t.Errorf("html part = %q (%v)", html, err)
	}
}

// Extra headers (a reminder's one-click unsubscribe, RFC 8058) are written as given.
func TestOutboxWritesExtraHeaders(t *testing.T) {
	dataDir := t.TempDir()
	sender, err := mail.New(loadMail(t, nil), dataDir, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = sender.Send(context.Background(), mail.Message{
		To: "a@example.com", Subject: "A moment for you", Text: "plain",
		Headers: map[string]string{
			"List-Unsubscribe":      "<https://app.example/api/public/reminders/unsubscribe?token=abc>",
			"List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	m, err := netmail.ReadMessage(bytes.NewReader(readOnlyOutboxFile(t, dataDir)))
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Header.Get("List-Unsubscribe"); got != "<https://app.example/api/public/reminders/unsubscribe?token=abc>" {
		t.Errorf("List-Unsubscribe = %q", got)
	}
	if got := m.Header.Get("List-Unsubscribe-Post"); got != "List-Unsubscribe=One-Click" {
		t.Errorf("List-Unsubscribe-Post = %q", got)
	}
}

func TestOutboxTightensExistingDirectory(t *testing.T) {
	dataDir := t.TempDir()
	if err := os.MkdirAll(mail.OutboxDir(dataDir), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := mail.New(loadMail(t, nil), dataDir, nil); err != nil {
		t.Fatal(err)
	}
	assertMode(t, mail.OutboxDir(dataDir), 0o700)
}

func TestRejectsInvalidMessages(t *testing.T) {
	tests := []struct {
		name string
		msg  mail.Message
	}{
		{"CRLF in recipient", mail.Message{To: "a@example.com\r\nBcc: victim@example.com", Subject: "s", Text: "t"}},
		{"LF in recipient", mail.Message{To: "a@example.com\nBcc: victim@example.com", Subject: "s", Text: "t"}},
		{"CRLF in subject", mail.Message{To: "a@example.com", Subject: "s\r\nBcc: victim@example.com", Text: "t"}},
		{"LF in subject", mail.Message{To: "a@example.com", Subject: "s\nX-Injected: 1", Text: "t"}},
		{"bare CR in subject", mail.Message{To: "a@example.com", Subject: "s\rX-Injected: 1", Text: "t"}},
		{"two recipients", mail.Message{To: "a@example.com, b@example.com", Subject: "s", Text: "t"}},
		{"not an address", mail.Message{To: "nobody", Subject: "s", Text: "t"}},
		{"empty body", mail.Message{To: "a@example.com", Subject: "s", Text: "  "}},
		{"CRLF in a header", mail.Message{To: "a@example.com", Subject: "s", Text: "t", Headers: map[string]string{"List-Unsubscribe": "<x>\r\nBcc: victim@example.com"}}},
		{"colon in a header name", mail.Message{To: "a@example.com", Subject: "s", Text: "t", Headers: map[string]string{"Bcc: v@example.com\r\nX": "1"}}},
	}
	srv := smtptest.Start(t)
	dataDir := t.TempDir()
	outbox, err := mail.New(loadMail(t, nil), dataDir, nil)
	if err != nil {
		t.Fatal(err)
	}
	relay, err := mail.New(loadMail(t, map[string]string{config.EnvSMTPURL: srv.URL()}), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		for name, s := range map[string]mail.Sender{"outbox": outbox, "smtp": relay} {
			t.Run(tt.name+"/"+name, func(t *testing.T) {
				err := s.Send(context.Background(), tt.msg)
				if !errors.Is(err, mail.ErrInvalidMessage) {
					t.Fatalf("Send error = %v, want ErrInvalidMessage", err)
				}
			})
		}
	}
	if entries, _ := os.ReadDir(mail.OutboxDir(dataDir)); len(entries) != 0 {
		t.Errorf("outbox has %d files after rejected sends", len(entries))
	}
	if n := len(srv.Messages()); n != 0 {
		t.Errorf("relay received %d messages after rejected sends", n)
	}
}

// withCredentials adds user:password to a server URL.
func withCredentials(t *testing.T, raw, user, pass string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.UserPassword(user, pass)
	return u.String()
}

func TestSMTPSendsThroughRelay(t *testing.T) {
	srv := smtptest.Start(t)
	cfg := loadMail(t, map[string]string{
		config.EnvSMTPURL:  withCredentials(t, srv.URL(), "mailer", "hunter2"),
		config.EnvMailFrom: "Percolate <hello@percolate.example>",
	})
	sender, err := mail.New(cfg, t.TempDir(), nil)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	if _, ok := sender.(*mail.SMTPSender); !ok {
		t.Fatalf("New with SMTP returned %T, want *mail.SMTPSender", sender)
	}
	err = sender.Send(context.Background(), mail.Message{
		To: "Zoë <zoe@example.com>", Subject: "Reset your password", Text: longText,
	})
	if err != nil {
		t.Fatalf("Send: %v", err)
	}

	got := srv.WaitFor(t, 1, 5*time.Second)[0]
	if got.From != "hello@percolate.example" {
		t.Errorf("MAIL FROM = %q", got.From)
	}
	if len(got.To) != 1 || got.To[0] != "zoe@example.com" {
		t.Errorf("RCPT TO = %q", got.To)
	}
	if got.Username != "mailer" || got.Password != "hunter2" {
		t.Errorf("AUTH = %q/%q, want mailer/hunter2", got.Username, got.Password)
	}
	m, err := got.Message()
	if err != nil {
		t.Fatal(err)
	}
	if s := m.Header.Get("Subject"); s != "Reset your password" {
		t.Errorf("Subject = %q", s)
	}
	if id := m.Header.Get("Message-Id"); !strings.HasSuffix(id, "@percolate.example>") {
		t.Errorf("Message-ID = %q", id)
	}
	text, err := got.TextBody()
	if err != nil {
		t.Fatal(err)
	}
	if text != longText+"\n" {
		t.Errorf("body = %q, want %q", text, longText+"\n")
	}
}

func TestSMTPWithoutCredentialsDoesNotAuthenticate(t *testing.T) {
	srv := smtptest.Start(t)
	sender, err := mail.New(loadMail(t, map[string]string{config.EnvSMTPURL: srv.URL()}), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := sender.Send(context.Background(), mail.Message{To: "a@example.com", Subject: "s", Text: "t"}); err != nil {
		t.Fatal(err)
	}
	if got := srv.WaitFor(t, 1, 5*time.Second)[0]; got.Username != "" {
		t.Errorf("authenticated as %q without credentials", got.Username)
	}
}

func TestSMTPUsesTLS(t *testing.T) {
	for _, mode := range []smtptest.Mode{smtptest.STARTTLS, smtptest.ImplicitTLS} {
		srv := smtptest.StartMode(t, mode)
		cfg := loadMail(t, map[string]string{config.EnvSMTPURL: withCredentials(t, srv.URL(), "u", "p")})
		sender, err := mail.New(cfg, "", nil, mail.WithTLSConfig(srv.ClientTLSConfig()))
		if err != nil {
			t.Fatal(err)
		}
		if err := sender.Send(context.Background(), mail.Message{To: "a@example.com", Subject: "s", Text: "t"}); err != nil {
			t.Fatalf("mode %d: Send: %v", mode, err)
		}
		if got := srv.WaitFor(t, 1, 5*time.Second)[0]; !got.TLS || got.Username != "u" {
			t.Errorf("mode %d: TLS=%v user=%q, want an authenticated TLS session", mode, got.TLS, got.Username)
		}
	}
}

func TestSMTPRejectsUntrustedCertificate(t *testing.T) {
	srv := smtptest.StartMode(t, smtptest.ImplicitTLS)
	sender, err := mail.New(loadMail(t, map[string]string{config.EnvSMTPURL: srv.URL()}), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := sender.Send(context.Background(), mail.Message{To: "a@example.com", Subject: "s", Text: "t"}); err == nil {
		t.Fatal("Send trusted a self-signed certificate")
	}
}

func TestSMTPFailureIsReportedWithoutPassword(t *testing.T) {
	srv := smtptest.Start(t)
	srv.FailNext(1)
	cfg := loadMail(t, map[string]string{config.EnvSMTPURL: withCredentials(t, srv.URL(), "u", "hunter2")})
	sender, err := mail.New(cfg, "", nil, mail.WithTimeout(5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	err = sender.Send(context.Background(), mail.Message{To: "a@example.com", Subject: "s", Text: "t"})
	if err == nil {
		t.Fatal("Send succeeded against a failing relay")
	}
	if !strings.Contains(err.Error(), "451") {
		t.Errorf("error does not carry the relay's reply: %v", err)
	}
	if strings.Contains(err.Error(), "hunter2") {
		t.Errorf("error leaks the password: %v", err)
	}
	// The relay recovers; the next message goes through.
	if err := sender.Send(context.Background(), mail.Message{To: "a@example.com", Subject: "s", Text: "t"}); err != nil {
		t.Fatalf("second Send: %v", err)
	}
}

func TestSMTPHonoursCancelledContext(t *testing.T) {
	srv := smtptest.Start(t)
	cfg := loadMail(t, map[string]string{config.EnvSMTPURL: srv.URL()})
	sender, err := mail.New(cfg, "", nil, mail.WithTimeout(2*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := sender.Send(ctx, mail.Message{To: "a@example.com", Subject: "s", Text: "t"}); err == nil {
		t.Fatal("Send with a cancelled context succeeded")
	}
	if n := len(srv.Messages()); n != 0 {
		t.Errorf("relay received %d messages", n)
	}
}

func readOnlyOutboxFile(t *testing.T, dataDir string) []byte {
	t.Helper()
	entries, err := os.ReadDir(mail.OutboxDir(dataDir))
	if err != nil || len(entries) != 1 {
		t.Fatalf("outbox: %d entries (%v), want 1", len(entries), err)
	}
	raw, err := os.ReadFile(filepath.Join(mail.OutboxDir(dataDir), entries[0].Name()))
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func assertMode(t *testing.T, path string, want os.FileMode) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode().Perm(); got != want {
		t.Errorf("%s mode = %o, want %o", path, got, want)
	}
}

// An outbox that cannot be written (here its directory was replaced by a file; permissions
// would not stop the root user the tests may run as) makes Send fail, and leaves nothing
// half-written behind.
func TestOutboxNotWritableFailsAndLeavesNothing(t *testing.T) {
	dataDir := t.TempDir()
	sender, err := mail.New(loadMail(t, nil), dataDir, nil)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	dir := mail.OutboxDir(dataDir)
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	err = sender.Send(context.Background(), mail.Message{To: "zoe@example.com", Subject: "Verify", Text: longText})
	if err == nil {
		t.Fatal("Send into an unwritable outbox succeeded")
	}
	entries, err := os.ReadDir(dataDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != filepath.Base(dir) || entries[0].IsDir() {
		t.Fatalf("the data directory holds %v", entries)
	}
	if fi, err := os.Stat(dir); err != nil || fi.Size() != 0 {
		t.Fatalf("the outbox path was written to: %v %v", fi, err)
	}
}
