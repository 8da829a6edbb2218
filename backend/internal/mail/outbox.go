package mail

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	netmail "net/mail"
	"os"
	"path/filepath"
	"time"
)

// OutboxDir returns the outbox directory inside a data directory.
func OutboxDir(dataDir string) string { return filepath.Join(dataDir, "outbox") }

// Outbox is the development Sender: it writes each message as an RFC 5322
// .eml file, readable only by the owner, and logs where it went.
type Outbox struct {
	dir    string
	from   *netmail.Address
	logger *slog.Logger
	now    func() time.Time
}

var _ Sender = (*Outbox)(nil)

// NewOutbox creates dir (mode 0700) if needed and returns an Outbox writing
// there with the given sender address. A nil logger discards logs.
func NewOutbox(dir string, from *netmail.Address, logger *slog.Logger) (*Outbox, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("mail: create outbox %s: %w", dir, err)
	}
	// MkdirAll leaves an existing directory's mode alone; mail holds
	// sign-in links, so make sure nobody else can list or read it.
	if err := os.Chmod(dir, 0o700); err != nil { // #nosec G302 -- a directory needs its x bit; 0700 is owner-only
		return nil, fmt.Errorf("mail: restrict outbox %s: %w", dir, err)
	}
	return &Outbox{dir: dir, from: from, logger: logger, now: time.Now}, nil
}

// Dir returns the directory messages are written to.
func (o *Outbox) Dir() string { return o.dir }

// Send writes m to <dir>/<UTC timestamp>-<random>.eml. The file appears
// complete or not at all: it is written under a temporary name and renamed.
func (o *Outbox) Send(ctx context.Context, m Message) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("mail: write to outbox: %w", err)
	}
	to, err := checkMessage(m)
	if err != nil {
		return fmt.Errorf("mail: %w", err)
	}
	now := o.now()
	msg, err := buildMsg(o.from, to, m, now)
	if err != nil {
		return err
	}
	suffix, err := randomToken()
	if err != nil {
		return fmt.Errorf("mail: outbox file name: %w", err)
	}
	name := now.UTC().Format("20060102T150405.000000000Z") + "-" + suffix[:8] + ".eml"
	path := filepath.Join(o.dir, name)

	tmp, err := os.CreateTemp(o.dir, ".tmp-*.eml") // created with mode 0600
	if err != nil {
		return fmt.Errorf("mail: create outbox file: %w", err)
	}
	defer os.Remove(tmp.Name()) // no-op once renamed
	var buf bytes.Buffer
	if _, err := msg.WriteTo(&buf); err != nil {
		_ = tmp.Close()
		return fmt.Errorf("mail: render message: %w", err)
	}
	// SMTP ends every message with CRLF before the final "."; do the same so
	// an .eml file is exactly what a relay would have received.
	if !bytes.HasSuffix(buf.Bytes(), []byte("\r\n")) {
		buf.WriteString("\r\n")
	}
	if _, err := buf.WriteTo(tmp); err != nil {
		_ = tmp.Close()
		return fmt.Errorf("mail: write outbox file: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("mail: close outbox file: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("mail: rename outbox file: %w", err)
	}
	// The path is logged, for a developer to open the file; never the body,
	// whose links carry one-time tokens that logs must not hold.
	o.logger.InfoContext(ctx, "mail written to outbox",
		slog.String("path", path),
		slog.String("subject", m.Subject),
	)
	return nil
}

// randomToken returns 32 hex characters from crypto/rand.
func randomToken() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return hex.EncodeToString(b[:]), nil
}
