package config

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Parsers and validators used by Load. Their errors describe the problem
// without the variable's name, which Load adds.

func or(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// validAddr accepts host:port with a numeric port; the host may be empty
// (all interfaces), an IP address or a host name.
func validAddr(addr string) bool {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	n, err := strconv.Atoi(port)
	if err != nil || n < 0 || n > 65535 {
		return false
	}
	return host == "" || net.ParseIP(host) != nil || validHostname(host)
}

func validHostname(h string) bool {
	if len(h) > 253 {
		return false
	}
	for _, label := range strings.Split(h, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, r := range label {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
				return false
			}
		}
	}
	return true
}

// defaultPublicURL derives a browsable URL from the listen address: a
// wildcard or empty host is replaced by the loopback address.
func defaultPublicURL(addr string) string {
	host, port, _ := net.SplitHostPort(addr)
	switch host {
	case "", "0.0.0.0":
		host = "127.0.0.1"
	case "::":
		host = "::1"
	}
	return "http://" + net.JoinHostPort(host, port)
}

// checkHTTPURL returns why v is not an absolute http(s) URL with a host, or nil.
func checkHTTPURL(v string) error {
	u, err := url.Parse(v)
	if err != nil {
		return errors.New("is not a URL")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return errors.New("is not an absolute http(s) URL")
	}
	if u.Host == "" || u.Hostname() == "" {
		return errors.New("has no host")
	}
	if u.User != nil {
		return errors.New("must not contain credentials")
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return errors.New("must not have a query or fragment")
	}
	return nil
}

// validPostgresDSN accepts the two forms libpq and pgx accept: a
// postgres:// or postgresql:// URL, or key=value pairs.
func validPostgresDSN(v string) bool {
	if strings.HasPrefix(v, "postgres://") || strings.HasPrefix(v, "postgresql://") {
		_, err := url.Parse(v)
		return err == nil
	}
	if strings.Contains(v, "://") {
		return false
	}
	key, _, ok := strings.Cut(strings.Fields(v)[0], "=")
	return ok && key != ""
}

func parseLevel(v string) (slog.Level, error) {
	switch strings.ToLower(v) {
	case "", "info":
		return slog.LevelInfo, nil
	case "debug":
		return slog.LevelDebug, nil
	case "warn", "warning":
		return slog.LevelWarn, nil
	case "error":
		return slog.LevelError, nil
	}
	return slog.LevelInfo, fmt.Errorf("%q is not one of debug, info, warn, error", v)
}

// parseAddress parses one RFC 5322 address and refuses line breaks, which
// net/mail would otherwise tolerate in some positions.
func parseAddress(v string) (*mail.Address, error) {
	if strings.ContainsAny(v, "\r\n") {
		return nil, errors.New("contains a line break")
	}
	return mail.ParseAddress(v)
}

// parseSMTPURL parses smtp://[user[:pass]@]host[:port] or smtps://….
// Errors never include the URL, which may contain a password.
func parseSMTPURL(v string) (SMTP, error) {
	u, err := url.Parse(v)
	if err != nil {
		return SMTP{}, errors.New("is not a URL (expected smtp://user:pass@host:port or smtps://…)")
	}
	var s SMTP
	switch u.Scheme {
	case "smtp":
		s.Port = 587
	case "smtps":
		s.Port, s.ImplicitTLS = 465, true
	default:
		return SMTP{}, fmt.Errorf("scheme %q is not smtp or smtps", u.Scheme)
	}
	s.Host = u.Hostname()
	if s.Host == "" {
		return SMTP{}, errors.New("has no host")
	}
	if net.ParseIP(s.Host) == nil && !validHostname(s.Host) {
		return SMTP{}, fmt.Errorf("host %q is not a host name or IP address", s.Host)
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return SMTP{}, fmt.Errorf("port %q is not a port number", p)
		}
		s.Port = n
	}
	if u.Path != "" && u.Path != "/" || u.RawQuery != "" || u.Fragment != "" {
		return SMTP{}, errors.New("must not have a path, query or fragment")
	}
	if u.User != nil {
		s.Username = u.User.Username()
		s.Password, _ = u.User.Password()
		if s.Username == "" {
			return SMTP{}, errors.New("has a password but no user name")
		}
	}
	return s, nil
}

// parseTimeout reads a Go duration ("15s", "2m") between lo and hi; unset is def.
func parseTimeout(get func(string) string, errs *problems, env string, def, lo, hi time.Duration) time.Duration {
	v := get(env)
	if v == "" {
		return def
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < lo || d > hi {
		errs.add(env, "%q is not a duration from %s to %s (such as %q)", v, lo, hi, def.String())
		return def
	}
	return d
}
