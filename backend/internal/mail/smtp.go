package mail

import (
	"context"
	"crypto/tls"
	"fmt"
	"log/slog"
	netmail "net/mail"
	"time"

	gomail "github.com/wneessen/go-mail"

	"github.com/percolate/percolate/backend/internal/config"
)

// SMTPSender delivers messages through an SMTP relay, one connection per
// message. It is safe for concurrent use.
type SMTPSender struct {
	client *gomail.Client
	from   *netmail.Address
	relay  string // redacted relay URL, for errors and logs
	logger *slog.Logger
	now    func() time.Time
}

var _ Sender = (*SMTPSender)(nil)

// newSMTP configures a go-mail client for relay:
//   - smtps:// uses TLS from the first byte;
//   - smtp:// upgrades with STARTTLS when the relay offers it and otherwise
//     stays in cleartext (local relays, test servers);
//   - with a user name it authenticates, preferring SCRAM and falling back to
//     PLAIN or LOGIN, which go-mail only allows over TLS or to localhost, so a
//     password is never sent in cleartext across a network.
func newSMTP(relay config.SMTP, from *netmail.Address, o options, logger *slog.Logger) (*SMTPSender, error) {
	tlsCfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if o.tlsConfig != nil {
		tlsCfg = o.tlsConfig.Clone()
	}
	if tlsCfg.ServerName == "" {
		tlsCfg.ServerName = relay.Host
	}
	opts := []gomail.Option{
		gomail.WithPort(relay.Port),
		gomail.WithTimeout(o.timeout),
		gomail.WithTLSConfig(tlsCfg),
	}
	if relay.ImplicitTLS {
		opts = append(opts, gomail.WithSSL())
	} else {
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSOpportunistic))
	}
	if relay.Username != "" {
		opts = append(opts,
			gomail.WithUsername(relay.Username),
			gomail.WithPassword(relay.Password),
			gomail.WithOpportunisticSMTPAuth(
				gomail.SMTPAuthSCRAMSHA256, gomail.SMTPAuthSCRAMSHA1,
				gomail.SMTPAuthPlain, gomail.SMTPAuthLogin,
			),
		)
	}
	client, err := gomail.NewClient(relay.Host, opts...)
	if err != nil {
		return nil, fmt.Errorf("mail: configure smtp client for %s: %w", relay, err)
	}
	return &SMTPSender{client: client, from: from, relay: relay.String(), logger: logger, now: time.Now}, nil
}

// Send delivers m through the relay. ctx bounds connecting; the whole
// conversation is also bounded by the configured timeout.
func (s *SMTPSender) Send(ctx context.Context, m Message) error {
	to, err := checkMessage(m)
	if err != nil {
		return fmt.Errorf("mail: %w", err)
	}
	msg, err := buildMsg(s.from, to, m, s.now())
	if err != nil {
		return err
	}
	if err := s.client.DialAndSendWithContext(ctx, msg); err != nil {
		return fmt.Errorf("mail: send via %s: %w", s.relay, err)
	}
	s.logger.DebugContext(ctx, "mail sent", slog.String("relay", s.relay), slog.String("to", to.Address))
	return nil
}
