// Package config turns the process environment into a typed, validated
// Config.
//
// Every variable is optional: with none set, Percolate runs on its embedded
// defaults (built-in PostgreSQL, offline companion, mail written to an outbox,
// payments and third-party sign-in switched off). A bad value is reported with
// the variable's name, and all bad variables are reported together so an
// operator can fix them in one pass. Secrets (passwords, API keys, signing
// secrets) are never echoed back in an error message.
package config

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Names of the environment variables read by Load.
const (
	EnvAddr                  = "PERCOLATE_ADDR"
	EnvPprofAddr             = "PERCOLATE_PPROF_ADDR"
	EnvPublicURL             = "PERCOLATE_PUBLIC_URL"
	EnvDataDir               = "PERCOLATE_DATA_DIR"
	EnvDatabaseURL           = "DATABASE_URL"
	EnvLLMBaseURL            = "PERCOLATE_LLM_BASE_URL"
	EnvLLMAPIKey             = "PERCOLATE_LLM_API_KEY" // #nosec G101 -- the name of an environment variable, not a credential
	EnvLLMModel              = "PERCOLATE_LLM_MODEL"
	EnvLLMSpeechModel        = "PERCOLATE_LLM_SPEECH_MODEL"
	EnvLLMTranscriptionModel = "PERCOLATE_LLM_TRANSCRIPTION_MODEL"
	EnvLLMConnectTimeout     = "PERCOLATE_LLM_CONNECT_TIMEOUT"
	EnvLLMStallTimeout       = "PERCOLATE_LLM_STALL_TIMEOUT"
	EnvLLMSignalTimeout      = "PERCOLATE_LLM_SIGNAL_TIMEOUT"
	EnvReplyTimeout          = "PERCOLATE_REPLY_TIMEOUT"
	EnvSMTPURL               = "PERCOLATE_SMTP_URL"
	EnvMailFrom              = "PERCOLATE_MAIL_FROM"
	EnvSupportEmail          = "PERCOLATE_SUPPORT_EMAIL"
	EnvStripeSecretKey       = "PERCOLATE_STRIPE_SECRET_KEY"     // #nosec G101 -- the name of an environment variable, not a credential
	EnvStripeWebhookSecret   = "PERCOLATE_STRIPE_WEBHOOK_SECRET" // #nosec G101 -- the name of an environment variable, not a credential
	EnvStripePriceBasic      = "PERCOLATE_STRIPE_PRICE_BASIC"
	EnvStripePricePremium    = "PERCOLATE_STRIPE_PRICE_PREMIUM"
	EnvStripeAPIURL          = "PERCOLATE_STRIPE_API_URL"
	EnvOIDCIssuer            = "PERCOLATE_OIDC_ISSUER"
	EnvOIDCClientID          = "PERCOLATE_OIDC_CLIENT_ID"
	EnvOIDCClientSecret      = "PERCOLATE_OIDC_CLIENT_SECRET" // #nosec G101 -- the name of an environment variable, not a credential
	EnvCommunityURL          = "PERCOLATE_COMMUNITY_URL"
	// The VAPID key pair of Web Push reminders (base64url, as webpush-go makes them); both or
	// neither. Unset, a pair is made once and kept in the database.
	EnvVAPIDPublicKey  = "PERCOLATE_VAPID_PUBLIC_KEY"
	EnvVAPIDPrivateKey = "PERCOLATE_VAPID_PRIVATE_KEY" // #nosec G101 -- the name of an environment variable, not a credential
	EnvSecretKey       = "PERCOLATE_SECRET_KEY"
	EnvTrustedProxies  = "PERCOLATE_TRUSTED_PROXIES"
	EnvLogLevel        = "PERCOLATE_LOG_LEVEL"
)

// Defaults applied when a variable is unset or empty.
const (
	DefaultAddr               = "127.0.0.1:8080"
	DefaultDataDir            = "./.data"
	minSecretKeyLen           = 32
	DefaultLLMModel           = "gpt-4o-mini"
	DefaultSpeechModel        = "gpt-4o-mini-tts"
	DefaultTranscriptionModel = "whisper-1"
	DefaultLLMBaseURL         = "https://api.openai.com/v1"
	DefaultMailFrom           = "Percolate <no-reply@localhost>"
	DefaultSupportEmail       = "support@localhost"
	DefaultOIDCIssuer         = "https://accounts.google.com"
)

// Default timeouts of a reply. A stalled model fails after DefaultLLMStallTimeout (well
// within 20 s); a reply as a whole, model or not, gets DefaultReplyTimeout.
const (
	DefaultLLMConnectTimeout = 5 * time.Second
	DefaultLLMStallTimeout   = 15 * time.Second
	DefaultLLMSignalTimeout  = 1500 * time.Millisecond
	DefaultReplyTimeout      = 2 * time.Minute
)

// Config is the whole validated configuration of one Percolate process.
type Config struct {
	// Addr is the host:port the HTTP server listens on.
	Addr string
	// PprofAddr, when set, is a loopback host:port serving net/http/pprof, for finding where
	// time and memory go. Off by default.
	PprofAddr string
	// PublicURL is the absolute http(s) base URL users reach the app at,
	// without a trailing slash. Links in e-mail are built from it.
	PublicURL string
	// DataDir holds the built-in database and the mail outbox.
	DataDir string
	// SecretKey, when set, is what the signing keys (access tokens, the sign-in flow cookie)
	// are derived from; otherwise they are kept in the database. Secret.
	SecretKey string
	// DatabaseURL is an external PostgreSQL connection string; empty means
	// the built-in cluster under DataDir.
	DatabaseURL string
	// LogLevel is the minimum level of the process logger.
	LogLevel slog.Level
	// CommunityURL is an optional http(s) link to a community space.
	CommunityURL string
	// VAPIDPublicKey and VAPIDPrivateKey replace the stored Web Push keys (both set, or neither).
	VAPIDPublicKey, VAPIDPrivateKey string
	// TrustedProxies are the addresses (CIDR prefixes) of reverse proxies whose
	// X-Forwarded-For header names the client; empty means the connection's
	// own address is the client's.
	TrustedProxies []netip.Prefix

	// LLM configures the OpenAI-compatible model provider.
	LLM LLM
	// Mail configures outgoing mail.
	Mail Mail
	// Stripe configures payments.
	Stripe Stripe
	// OIDC configures third-party sign-in.
	OIDC OIDC
	// Limits overrides the per-tier and rate limits.
	Limits Limits
}

// LogValue reports the configuration without any secret, so that it can be
// logged at startup: slog.Info("config", "config", cfg).
func (c Config) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("addr", c.Addr),
		slog.String("pprof_addr", c.PprofAddr),
		slog.String("public_url", c.PublicURL),
		slog.String("data_dir", c.DataDir),
		slog.Bool("external_database", c.DatabaseURL != ""),
		slog.Bool("secret_key", c.SecretKey != ""),
		slog.String("log_level", c.LogLevel.String()),
		slog.Bool("llm", c.LLM.Configured()),
		slog.String("llm_model", c.LLM.Model),
		slog.String("smtp", c.Mail.SMTP.String()),
		slog.Bool("stripe", c.Stripe.Configured()),
		slog.Bool("oidc", c.OIDC.Configured()),
	)
}

// VarError is one problem with one environment variable. Load joins all of
// them with errors.Join; use errors.As or the message to inspect them.
type VarError struct {
	// Var is the environment variable's name.
	Var string
	// Problem says what is wrong. It never contains a secret value.
	Problem string
}

// Error implements error as "NAME: problem".
func (e *VarError) Error() string { return e.Var + ": " + e.Problem }

// problems collects VarErrors in the order variables are checked.
type problems []error

func (p *problems) add(name, format string, args ...any) {
	*p = append(*p, &VarError{Var: name, Problem: fmt.Sprintf(format, args...)})
}

// Load reads the configuration through getenv (os.Getenv in production, a
// map lookup in tests), applies defaults and validates every value. The error,
// when not nil, joins one *VarError per bad variable (one per line); the
// Config returned with it must not be used.
func Load(getenv func(string) string) (Config, error) {
	get := func(name string) string { return strings.TrimSpace(getenv(name)) }
	var errs problems
	var c Config

	c.Addr = or(get(EnvAddr), DefaultAddr)
	addrOK := validAddr(c.Addr)
	if !addrOK {
		errs.add(EnvAddr, "%q is not host:port", c.Addr)
	}

	if v := get(EnvPprofAddr); v != "" {
		if !loopbackAddr(v) {
			errs.add(EnvPprofAddr, "%q is not a loopback host:port (such as 127.0.0.1:6060): profiles are never served to the network", v)
		} else {
			c.PprofAddr = v
		}
	}

	if v := get(EnvPublicURL); v != "" {
		if err := checkHTTPURL(v); err != nil {
			errs.add(EnvPublicURL, "%q %v", v, err)
		} else {
			c.PublicURL = strings.TrimRight(v, "/")
		}
	} else if addrOK {
		c.PublicURL = defaultPublicURL(c.Addr)
	}

	c.DataDir = filepath.Clean(or(get(EnvDataDir), DefaultDataDir))

	if v := get(EnvDatabaseURL); v != "" {
		if !validPostgresDSN(v) {
			// The value may hold a password, so it is not repeated.
			errs.add(EnvDatabaseURL, "is neither a postgres:// (or postgresql://) URL nor a key=value connection string")
		} else {
			c.DatabaseURL = v
		}
	}

	if v := get(EnvSecretKey); v != "" {
		if len(v) < minSecretKeyLen {
			errs.add(EnvSecretKey, "is too short: give at least %d random characters (for example: openssl rand -base64 48)", minSecretKeyLen)
		} else {
			c.SecretKey = v
		}
	}

	level, err := parseLevel(get(EnvLogLevel))
	if err != nil {
		errs.add(EnvLogLevel, "%v", err)
	}
	c.LogLevel = level

	c.VAPIDPublicKey, c.VAPIDPrivateKey = get(EnvVAPIDPublicKey), get(EnvVAPIDPrivateKey)
	if (c.VAPIDPublicKey == "") != (c.VAPIDPrivateKey == "") {
		errs.add(EnvVAPIDPublicKey, "set both %s and %s, or neither", EnvVAPIDPublicKey, EnvVAPIDPrivateKey)
	}
	if v := get(EnvCommunityURL); v != "" {
		if err := checkHTTPURL(v); err != nil {
			errs.add(EnvCommunityURL, "%q %v", v, err)
		} else {
			c.CommunityURL = v
		}
	}

	for _, v := range strings.Split(get(EnvTrustedProxies), ",") {
		if v = strings.TrimSpace(v); v == "" {
			continue
		}
		p, err := parsePrefix(v)
		if err != nil {
			errs.add(EnvTrustedProxies, "%q is not an IP address or CIDR prefix", v)
			continue
		}
		c.TrustedProxies = append(c.TrustedProxies, p)
	}

	c.Limits = loadLimits(get, &errs)
	c.LLM = loadLLM(get, &errs)
	c.Mail = loadMail(get, &errs)
	c.Stripe = loadStripe(get, &errs)
	c.OIDC = loadOIDC(get, &errs)

	if len(errs) > 0 {
		return c, fmt.Errorf("invalid configuration: %w", errors.Join(errs...))
	}
	return c, nil
}

// loopbackAddr reports whether v is host:port with a loopback IP address or localhost as host.
func loopbackAddr(v string) bool {
	host, port, err := net.SplitHostPort(v)
	if err != nil || port == "" {
		return false
	}
	if p, err := strconv.Atoi(port); err != nil || p < 0 || p > 65535 {
		return false
	}
	if host == "localhost" {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.IsLoopback()
}

// parsePrefix accepts a CIDR prefix or a single address.
func parsePrefix(v string) (netip.Prefix, error) {
	if strings.Contains(v, "/") {
		p, err := netip.ParsePrefix(v)
		return p.Masked(), err
	}
	a, err := netip.ParseAddr(v)
	if err != nil {
		return netip.Prefix{}, err
	}
	return netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()), nil
}
