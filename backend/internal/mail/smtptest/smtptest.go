// Package smtptest runs a real SMTP server inside a test process, so that
// code sending mail can be tested over the wire with its real client.
//
// The server listens on 127.0.0.1 on a free port, accepts any AUTH PLAIN
// credentials (recording them), accepts every sender and recipient, and keeps
// every message it receives. It is shut down when the test ends.
//
//	srv := smtptest.Start(t)
//	// configure the code under test with srv.URL()
//	got := srv.WaitFor(t, 1, 5*time.Second)
//	body, _ := got[0].TextBody()
package smtptest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Mode selects how the server uses TLS.
type Mode int

const (
	// Plain is a cleartext server that does not offer STARTTLS.
	Plain Mode = iota
	// STARTTLS is a cleartext server that offers the STARTTLS upgrade.
	STARTTLS
	// ImplicitTLS speaks TLS from the first byte (smtps://).
	ImplicitTLS
)

// Received is one message accepted by the server.
type Received struct {
	// From is the envelope sender (MAIL FROM).
	From string
	// To are the envelope recipients (RCPT TO).
	To []string
	// Data is the raw message as sent after DATA, headers and body.
	Data []byte
	// Username and Password are the AUTH PLAIN credentials of the session,
	// empty when the client did not authenticate.
	Username string
	Password string
	// TLS reports whether the session was encrypted when DATA was sent.
	TLS bool
}

// Server is a running in-process SMTP server.
type Server struct {
	mode   Mode
	addr   string
	smtp   *smtp.Server
	client *tls.Config

	mu       sync.Mutex
	messages []Received
	failNext int
	changed  chan struct{} // closed and replaced whenever messages changes
	closed   bool
}

// Start runs a cleartext server (smtp://, no STARTTLS) for the rest of the
// test.
func Start(t testing.TB) *Server {
	t.Helper()
	return StartMode(t, Plain)
}

// StartMode runs a server with the given TLS mode for the rest of the test.
// With STARTTLS or ImplicitTLS the server uses a fresh self-signed
// certificate for 127.0.0.1; ClientTLSConfig returns a client configuration
// that trusts it.
func StartMode(t testing.TB, mode Mode) *Server {
	t.Helper()
	s := &Server{mode: mode, changed: make(chan struct{})}

	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		return &session{srv: s, conn: c}, nil
	}))
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	srv.MaxMessageBytes = 10 << 20
	srv.MaxRecipients = 100
	srv.ReadTimeout = 30 * time.Second
	srv.WriteTimeout = 30 * time.Second
	srv.EnableSMTPUTF8 = true
	srv.ErrorLog = &testLogger{t: t, srv: s}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("smtptest: listen: %v", err)
	}
	if mode != Plain {
		serverCfg, clientCfg, err := selfSigned()
		if err != nil {
			_ = ln.Close()
			t.Fatalf("smtptest: %v", err)
		}
		s.client = clientCfg
		srv.TLSConfig = serverCfg
		if mode == ImplicitTLS {
			ln = tls.NewListener(ln, serverCfg)
		}
	}
	s.addr = ln.Addr().String()
	s.smtp = srv

	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, smtp.ErrServerClosed) && !errors.Is(err, net.ErrClosed) {
			t.Errorf("smtptest: serve: %v", err)
		}
	}()
	t.Cleanup(func() {
		s.mu.Lock()
		s.closed = true
		s.mu.Unlock()
		_ = srv.Close()
		// Close only closes listeners Serve has registered; if the test ended
		// before Serve got that far, close ours so Serve cannot block.
		_ = ln.Close()
		<-done
	})
	return s
}

// URL returns the address to configure a client with: smtp://127.0.0.1:PORT,
// or smtps://… for an ImplicitTLS server. It carries no credentials; add any
// user name and password, the server accepts them all.
func (s *Server) URL() string {
	if s.mode == ImplicitTLS {
		return "smtps://" + s.addr
	}
	return "smtp://" + s.addr
}

// Addr returns the host:port the server listens on.
func (s *Server) Addr() string { return s.addr }

// ClientTLSConfig returns a TLS client configuration that trusts the
// server's certificate (with ServerName 127.0.0.1), or nil for a Plain
// server.
func (s *Server) ClientTLSConfig() *tls.Config {
	if s.client == nil {
		return nil
	}
	return s.client.Clone()
}

// Messages returns a copy of the messages received so far, oldest first.
func (s *Server) Messages() []Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Received, len(s.messages))
	for i, m := range s.messages {
		m.To = append([]string(nil), m.To...)
		m.Data = append([]byte(nil), m.Data...)
		out[i] = m
	}
	return out
}

// Reset forgets the messages received so far.
func (s *Server) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.messages = nil
	s.notifyLocked()
}

// FailNext makes the server reject the next n messages at DATA with a
// temporary failure (451), for testing retries.
func (s *Server) FailNext(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failNext = n
}

// WaitFor waits until at least n messages have been received and returns
// them all; it fails the test if that takes longer than timeout.
func (s *Server) WaitFor(t testing.TB, n int, timeout time.Duration) []Received {
	t.Helper()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		s.mu.Lock()
		got, changed := len(s.messages), s.changed
		s.mu.Unlock()
		if got >= n {
			return s.Messages()
		}
		select {
		case <-changed:
		case <-deadline.C:
			t.Fatalf("smtptest: got %d messages after %v, want %d", got, timeout, n)
			return nil
		}
	}
}

func (s *Server) notifyLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// session is one SMTP conversation; it implements smtp.AuthSession.
type session struct {
	srv  *Server
	conn *smtp.Conn

	username, password string
	from               string
	to                 []string
}

var _ smtp.AuthSession = (*session)(nil)

func (ss *session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (ss *session) Auth(mech string) (sasl.Server, error) {
	if mech != sasl.Plain {
		return nil, smtp.ErrAuthUnknownMechanism
	}
	return sasl.NewPlainServer(func(_, username, password string) error {
		ss.username, ss.password = username, password
		return nil
	}), nil
}

func (ss *session) Mail(from string, _ *smtp.MailOptions) error {
	ss.from = from
	return nil
}

func (ss *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	ss.to = append(ss.to, to)
	return nil
}

func (ss *session) Data(r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return fmt.Errorf("read data: %w", err)
	}
	_, isTLS := ss.conn.TLSConnectionState()
	s := ss.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failNext > 0 {
		s.failNext--
		return &smtp.SMTPError{
			Code:         451,
			EnhancedCode: smtp.EnhancedCode{4, 3, 0},
			Message:      "smtptest: scripted temporary failure",
		}
	}
	s.messages = append(s.messages, Received{
		From:     ss.from,
		To:       append([]string(nil), ss.to...),
		Data:     data,
		Username: ss.username,
		Password: ss.password,
		TLS:      isTLS,
	})
	s.notifyLocked()
	return nil
}

func (ss *session) Reset() {
	ss.from, ss.to = "", nil
}

func (ss *session) Logout() error { return nil }

// testLogger forwards server errors to the test log while the test runs and
// drops them once shutdown has begun (testing.T must not be used after the
// test has finished).
var _ smtp.Logger = (*testLogger)(nil)

type testLogger struct {
	t   testing.TB
	srv *Server
}

func (l *testLogger) Printf(format string, v ...any) {
	l.srv.mu.Lock()
	defer l.srv.mu.Unlock()
	if !l.srv.closed {
		l.t.Logf("smtptest: "+format, v...)
	}
}

func (l *testLogger) Println(v ...any) { l.Printf("%s", fmt.Sprintln(v...)) }

// selfSigned makes a short-lived certificate for 127.0.0.1 and localhost and
// returns a server configuration using it and a client configuration trusting
// it.
func selfSigned() (server, client *tls.Config, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, fmt.Errorf("generate key: %w", err)
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		return nil, nil, fmt.Errorf("generate serial: %w", err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "smtptest"},
		NotBefore:             time.Now().Add(-time.Minute),
		NotAfter:              time.Now().Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
		DNSNames:              []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, nil, fmt.Errorf("create certificate: %w", err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, nil, fmt.Errorf("parse certificate: %w", err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	server = &tls.Config{
		Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}},
		MinVersion:   tls.VersionTLS12,
	}
	client = &tls.Config{RootCAs: pool, ServerName: "127.0.0.1", MinVersion: tls.VersionTLS12}
	return server, client, nil
}
