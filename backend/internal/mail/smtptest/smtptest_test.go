package smtptest_test

import (
	"crypto/tls"
	"net/smtp"
	"strings"
	"testing"
	"time"

	"github.com/percolate/percolate/backend/internal/mail/smtptest"
)

const rawMessage = "From: a@example.com\r\n" +
	"To: b@example.com\r\n" +
	"Subject: hi\r\n" +
	"Content-Type: multipart/alternative; boundary=XYZ\r\n" +
	"\r\n" +
	"--XYZ\r\n" +
	"Content-Type: text/plain; charset=utf-8\r\n" +
	"Content-Transfer-Encoding: quoted-printable\r\n" +
	"\r\n" +
	"caf=C3=A9 and a very long line that was soft-=\r\nwrapped\r\n" +
	"--XYZ\r\n" +
	"Content-Type: text/html; charset=utf-8\r\n" +
	"Content-Transfer-Encoding: base64\r\n" +
	"\r\n" +
	"PHA+aGk8L3A+\r\n" +
	"--XYZ--\r\n"

func send(t *testing.T, c *smtp.Client, auth bool) {
	t.Helper()
	if auth {
		if err := c.Auth(smtp.PlainAuth("", "alice", "s3cret", "127.0.0.1")); err != nil {
			t.Fatalf("auth: %v", err)
		}
	}
	if err := c.Mail("a@example.com"); err != nil {
		t.Fatalf("mail: %v", err)
	}
	for _, r := range []string{"b@example.com", "c@example.com"} {
		if err := c.Rcpt(r); err != nil {
			t.Fatalf("rcpt: %v", err)
		}
	}
	w, err := c.Data()
	if err != nil {
		t.Fatalf("data: %v", err)
	}
	if _, err := w.Write([]byte(rawMessage)); err != nil {
		t.Fatalf("write: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatalf("close data: %v", err)
	}
	if err := c.Quit(); err != nil {
		t.Fatalf("quit: %v", err)
	}
}

func TestPlainServerRecordsEnvelopeAuthAndBody(t *testing.T) {
	srv := smtptest.Start(t)
	if !strings.HasPrefix(srv.URL(), "smtp://127.0.0.1:") {
		t.Fatalf("URL() = %q", srv.URL())
	}
	if srv.ClientTLSConfig() != nil {
		t.Error("plain server should have no client TLS config")
	}
	c, err := smtp.Dial(srv.Addr())
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	send(t, c, true)

	got := srv.WaitFor(t, 1, 5*time.Second)
	r := got[0]
	if r.From != "a@example.com" || strings.Join(r.To, ",") != "b@example.com,c@example.com" {
		t.Errorf("envelope = %q -> %q", r.From, r.To)
	}
	if r.Username != "alice" || r.Password != "s3cret" {
		t.Errorf("auth = %q/%q, want alice/s3cret", r.Username, r.Password)
	}
	if r.TLS {
		t.Error("TLS = true on a plain session")
	}
	msg, err := r.Message()
	if err != nil {
		t.Fatal(err)
	}
	if s := msg.Header.Get("Subject"); s != "hi" {
		t.Errorf("Subject = %q", s)
	}
	text, err := r.TextBody()
	if err != nil {
		t.Fatal(err)
	}
	if want := "café and a very long line that was soft-wrapped"; text != want {
		t.Errorf("TextBody = %q, want %q", text, want)
	}
	html, err := r.HTMLBody()
	if err != nil {
		t.Fatal(err)
	}
	if html != "<p>hi</p>" {
		t.Errorf("HTMLBody = %q", html)
	}
	if _, err := smtptest.Body(r.Data, "image/png"); err != smtptest.ErrNoPart {
		t.Errorf("Body(image/png) error = %v, want ErrNoPart", err)
	}

	srv.Reset()
	if n := len(srv.Messages()); n != 0 {
		t.Errorf("after Reset: %d messages", n)
	}
}

func TestFailNextRejectsData(t *testing.T) {
	srv := smtptest.Start(t)
	srv.FailNext(1)
	c, err := smtp.Dial(srv.Addr())
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	defer c.Close()
	if err := c.Mail("a@example.com"); err != nil {
		t.Fatal(err)
	}
	if err := c.Rcpt("b@example.com"); err != nil {
		t.Fatal(err)
	}
	w, err := c.Data()
	if err != nil {
		t.Fatal(err)
	}
	_, _ = w.Write([]byte(rawMessage))
	if err := w.Close(); err == nil || !strings.Contains(err.Error(), "451") {
		t.Fatalf("DATA error = %v, want a 451", err)
	}
	if n := len(srv.Messages()); n != 0 {
		t.Errorf("rejected message was recorded: %d", n)
	}
}

func TestSTARTTLS(t *testing.T) {
	srv := smtptest.StartMode(t, smtptest.STARTTLS)
	c, err := smtp.Dial(srv.Addr())
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	if ok, _ := c.Extension("STARTTLS"); !ok {
		t.Fatal("STARTTLS not offered")
	}
	if err := c.StartTLS(srv.ClientTLSConfig()); err != nil {
		t.Fatalf("starttls: %v", err)
	}
	send(t, c, true)
	if r := srv.WaitFor(t, 1, 5*time.Second)[0]; !r.TLS {
		t.Error("TLS = false after STARTTLS")
	}
}

func TestImplicitTLS(t *testing.T) {
	srv := smtptest.StartMode(t, smtptest.ImplicitTLS)
	if !strings.HasPrefix(srv.URL(), "smtps://") {
		t.Fatalf("URL() = %q", srv.URL())
	}
	conn, err := tls.Dial("tcp", srv.Addr(), srv.ClientTLSConfig())
	if err != nil {
		t.Fatalf("tls dial: %v", err)
	}
	c, err := smtp.NewClient(conn, "127.0.0.1")
	if err != nil {
		t.Fatalf("client: %v", err)
	}
	send(t, c, false)
	r := srv.WaitFor(t, 1, 5*time.Second)[0]
	if !r.TLS || r.Username != "" {
		t.Errorf("TLS=%v Username=%q, want true and empty", r.TLS, r.Username)
	}
}
