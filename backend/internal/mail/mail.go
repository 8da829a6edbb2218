// Package mail sends Percolate's e-mail: through an SMTP relay when one is
// configured, otherwise into the development outbox, a directory of .eml
// files under the data directory (each file's path is logged; its content,
// links and tokens included, never is).
//
// Both paths build the message the same way (buildMsg), so what a developer
// opens from the outbox is byte-for-byte what a relay would have received.
//
// Every mail is sent by a job of the queue (see JobOpts and NewWorker), so a
// mail that fails to go is retried, never lost with a goroutine.
//
// A Message's HTML is written without html/template (README, "Writing HTML in Go: no
// templates"): escape each value with html.EscapeString where it goes, as reminders does.
package mail

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	netmail "net/mail"
	"strings"
	"time"
	"unicode"

	gomail "github.com/wneessen/go-mail"

	"github.com/percolate/percolate/backend/internal/config"
)

// Message is one e-mail to one recipient.
type Message struct {
	// To is the recipient, a bare address or `Name <address>`.
	To string
	// Subject is the subject line; non-ASCII text is RFC 2047 encoded.
	Subject string
	// Text is the plain-text body. Required.
	Text string
	// HTML is an optional HTML alternative to Text.
	HTML string
	// Headers are extra header fields, such as List-Unsubscribe (RFC 8058).
	Headers map[string]string
}

// Sender delivers messages.
type Sender interface {
	// Send delivers m or returns why it could not.
	Send(ctx context.Context, m Message) error
}

// ErrInvalidMessage is wrapped by the errors Send returns for a message that
// could never be sent (bad recipient, line break in a header, empty body).
var ErrInvalidMessage = errors.New("invalid message")

// DefaultTimeout bounds one SMTP conversation (connect, TLS, auth, send).
const DefaultTimeout = 30 * time.Second

// Option adjusts New.
type Option func(*options)

type options struct {
	tlsConfig *tls.Config
	timeout   time.Duration
}

// WithTLSConfig sets the TLS client configuration used for smtps:// and
// STARTTLS, e.g. to trust a test server's certificate. Its ServerName is set
// to the relay's host when empty.
func WithTLSConfig(c *tls.Config) Option {
	return func(o *options) { o.tlsConfig = c }
}

// WithTimeout overrides DefaultTimeout for SMTP conversations.
func WithTimeout(d time.Duration) Option {
	return func(o *options) { o.timeout = d }
}

// New returns the Sender for cfg: an SMTP sender when cfg.Configured(),
// otherwise an Outbox in dataDir/outbox. A nil logger discards logs.
func New(cfg config.Mail, dataDir string, logger *slog.Logger, opts ...Option) (Sender, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	o := options{timeout: DefaultTimeout}
	for _, opt := range opts {
		opt(&o)
	}
	from, err := netmail.ParseAddress(cfg.From)
	if err != nil {
		return nil, fmt.Errorf("mail: parse from address: %w", err)
	}
	if cfg.Configured() {
		return newSMTP(cfg.SMTP, from, o, logger)
	}
	return NewOutbox(OutboxDir(dataDir), from, logger)
}

// checkMessage rejects messages that cannot be sent safely. Line breaks in
// To or Subject would let a caller inject headers, so they are refused
// outright rather than encoded away.
func checkMessage(m Message) (*netmail.Address, error) {
	if hasControl(m.To) {
		return nil, fmt.Errorf("%w: recipient contains a control character", ErrInvalidMessage)
	}
	if hasControl(m.Subject) {
		return nil, fmt.Errorf("%w: subject contains a control character", ErrInvalidMessage)
	}
	to, err := netmail.ParseAddress(m.To)
	if err != nil {
		return nil, fmt.Errorf("%w: recipient: %w", ErrInvalidMessage, err)
	}
	for k, v := range m.Headers {
		if hasControl(k) || hasControl(v) || strings.ContainsAny(k, ": ") {
			return nil, fmt.Errorf("%w: header %q contains a control character", ErrInvalidMessage, k)
		}
	}
	if strings.TrimSpace(m.Text) == "" {
		return nil, fmt.Errorf("%w: empty text body", ErrInvalidMessage)
	}
	return to, nil
}

func hasControl(s string) bool {
	return strings.ContainsFunc(s, unicode.IsControl)
}

// buildMsg turns m into a go-mail message with every header set, so that
// writing it out (outbox) and sending it (SMTP) produce the same bytes.
func buildMsg(from, to *netmail.Address, m Message, now time.Time) (*gomail.Msg, error) {
	msg := gomail.NewMsg(gomail.WithNoDefaultUserAgent())
	msg.FromMailAddress(from)
	msg.ToMailAddress(to)
	msg.Subject(m.Subject)
	msg.SetDateWithValue(now)
	id, err := messageID(from.Address)
	if err != nil {
		return nil, err
	}
	msg.SetMessageIDWithValue(id)
	for k, v := range m.Headers {
		msg.SetGenHeader(gomail.Header(k), v)
	}
	msg.SetBodyString(gomail.TypeTextPlain, m.Text)
	if m.HTML != "" {
		msg.AddAlternativeString(gomail.TypeTextHTML, m.HTML)
	}
	return msg, nil
}

// messageID is random@domain-of-sender, so replies and bounces thread
// against the sending domain rather than this machine's host name.
func messageID(fromAddr string) (string, error) {
	domain := "localhost"
	if i := strings.LastIndexByte(fromAddr, '@'); i >= 0 && i < len(fromAddr)-1 {
		domain = fromAddr[i+1:]
	}
	r, err := randomToken()
	if err != nil {
		return "", fmt.Errorf("mail: message id: %w", err)
	}
	return r + "@" + domain, nil
}
