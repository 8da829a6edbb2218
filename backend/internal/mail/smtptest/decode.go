package smtptest

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"net/textproto"
	"strings"
)

// ErrNoPart is returned by Body when a message has no part of the wanted
// media type.
var ErrNoPart = errors.New("smtptest: message has no part of that type")

// Message parses the received data as an RFC 5322 message.
func (r Received) Message() (*mail.Message, error) {
	m, err := mail.ReadMessage(bytes.NewReader(r.Data))
	if err != nil {
		return nil, fmt.Errorf("smtptest: parse message: %w", err)
	}
	return m, nil
}

// TextBody returns the decoded text/plain body of the message.
func (r Received) TextBody() (string, error) { return Body(r.Data, "text/plain") }

// HTMLBody returns the decoded text/html body of the message.
func (r Received) HTMLBody() (string, error) { return Body(r.Data, "text/html") }

// Body parses a raw RFC 5322 message (as received, or read from an .eml
// file) and returns the first part of the given media type (e.g.
// "text/plain"), looking inside multipart containers and undoing
// quoted-printable or base64 transfer encoding. Line endings are normalised
// to "\n". It returns ErrNoPart when no such part exists.
func Body(raw []byte, mediaType string) (string, error) {
	m, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return "", fmt.Errorf("smtptest: parse message: %w", err)
	}
	b, err := findPart(textproto.MIMEHeader(m.Header), m.Body, mediaType)
	if err != nil {
		return "", err
	}
	return strings.ReplaceAll(string(b), "\r\n", "\n"), nil
}

func findPart(h textproto.MIMEHeader, body io.Reader, want string) ([]byte, error) {
	ct := h.Get("Content-Type")
	if ct == "" {
		ct = "text/plain"
	}
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil {
		return nil, fmt.Errorf("smtptest: content type %q: %w", ct, err)
	}
	if strings.HasPrefix(mt, "multipart/") {
		mr := multipart.NewReader(body, params["boundary"])
		for {
			p, err := mr.NextRawPart()
			if errors.Is(err, io.EOF) {
				return nil, ErrNoPart
			}
			if err != nil {
				return nil, fmt.Errorf("smtptest: read %s part: %w", mt, err)
			}
			b, err := findPart(p.Header, p, want)
			if errors.Is(err, ErrNoPart) {
				continue
			}
			return b, err
		}
	}
	if mt != want {
		return nil, ErrNoPart
	}
	switch enc := strings.ToLower(h.Get("Content-Transfer-Encoding")); enc {
	case "quoted-printable":
		body = quotedprintable.NewReader(body)
	case "base64":
		body = base64.NewDecoder(base64.StdEncoding, body) // line breaks are ignored
	case "", "7bit", "8bit", "binary":
	default:
		return nil, fmt.Errorf("smtptest: unknown transfer encoding %q", enc)
	}
	b, err := io.ReadAll(body)
	if err != nil {
		return nil, fmt.Errorf("smtptest: decode %s body: %w", mt, err)
	}
	return b, nil
}
