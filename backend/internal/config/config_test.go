package config_test

import (
	"errors"
	"log/slog"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/percolate/percolate/backend/internal/config"
	"github.com/percolate/percolate/gen/limits"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// fields are a loaded config's values by name, as the tests compare them.
func fields(c config.Config) map[string]string {
	return map[string]string{
		"Addr": c.Addr, "PprofAddr": c.PprofAddr, "PublicURL": c.PublicURL, "DataDir": c.DataDir,
		"DatabaseURL": c.DatabaseURL, "LogLevel": c.LogLevel.String(), "CommunityURL": c.CommunityURL,
		"LLM.BaseURL": c.LLM.BaseURL, "LLM.Model": c.LLM.Model,
		"Mail.From": c.Mail.From, "Mail.SupportEmail": c.Mail.SupportEmail, "SMTP.Port": strconv.Itoa(c.Mail.SMTP.Port),
		"OIDC.Issuer": c.OIDC.Issuer, "Stripe.APIURL": c.Stripe.APIURL,
		"LLM configured": strconv.FormatBool(c.LLM.Configured()), "Mail configured": strconv.FormatBool(c.Mail.Configured()),
		"Stripe configured": strconv.FormatBool(c.Stripe.Configured()), "OIDC configured": strconv.FormatBool(c.OIDC.Configured()),
	}
}

// loadAs loads the config of env and checks the fields it names.
func loadAs(t *testing.T, vars map[string]string, want map[string]string) config.Config {
	t.Helper()
	c, err := config.Load(env(vars))
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	got := fields(c)
	for name, w := range want {
		if g, ok := got[name]; !ok || g != w {
			t.Errorf("%s = %q, want %q", name, g, w)
		}
	}
	return c
}

func TestLoadDefaults(t *testing.T) {
	loadAs(t, nil, map[string]string{
		"Addr": "127.0.0.1:8080", "PprofAddr": "", "PublicURL": "http://127.0.0.1:8080", "DataDir": ".data",
		"DatabaseURL": "", "LogLevel": "INFO", "LLM.BaseURL": "", "LLM.Model": "gpt-4o-mini",
		"Mail.From": `"Percolate" <no-reply@localhost>`, "Mail.SupportEmail": "support@localhost",
		"OIDC.Issuer": "https://accounts.google.com", "CommunityURL": "", "Stripe.APIURL": "",
		// Nothing is configured by default.
		"LLM configured": "false", "Mail configured": "false", "Stripe configured": "false", "OIDC configured": "false",
	})
}

func TestLoadValidValues(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want map[string]string
	}{
		{"pprof on loopback", map[string]string{config.EnvPprofAddr: "127.0.0.1:6060"}, map[string]string{"PprofAddr": "127.0.0.1:6060"}},
		{"pprof on localhost", map[string]string{config.EnvPprofAddr: "localhost:6060"}, map[string]string{"PprofAddr": "localhost:6060"}},
		{"wildcard addr gives loopback public URL", map[string]string{config.EnvAddr: "0.0.0.0:9000"}, map[string]string{"PublicURL": "http://127.0.0.1:9000"}},
		{"empty host gives loopback public URL", map[string]string{config.EnvAddr: ":9001"}, map[string]string{"PublicURL": "http://127.0.0.1:9001"}},
		{"IPv6 wildcard", map[string]string{config.EnvAddr: "[::]:9002"}, map[string]string{"PublicURL": "http://[::1]:9002"}},
		{
			"named host and explicit public URL with trailing slash",
			map[string]string{config.EnvAddr: "localhost:8080", config.EnvPublicURL: "https://percolate.example.com/app/"},
			map[string]string{"Addr": "localhost:8080", "PublicURL": "https://percolate.example.com/app"},
		},
		{
			"values are trimmed",
			map[string]string{config.EnvLogLevel: "  DEBUG \n", config.EnvDataDir: " /var/lib/percolate/ "},
			map[string]string{"LogLevel": "DEBUG", "DataDir": "/var/lib/percolate"},
		},
		{
			"database URL and DSN forms",
			map[string]string{config.EnvDatabaseURL: "postgresql://u:p@db:5432/percolate?sslmode=disable"},
			map[string]string{"DatabaseURL": "postgresql://u:p@db:5432/percolate?sslmode=disable"},
		},
		{"key=value DSN", map[string]string{config.EnvDatabaseURL: "host=/tmp dbname=percolate"}, map[string]string{"DatabaseURL": "host=/tmp dbname=percolate"}},
		{
			"LLM with base URL",
			map[string]string{config.EnvLLMBaseURL: "http://127.0.0.1:11434/v1/", config.EnvLLMModel: "llama3"},
			map[string]string{"LLM.BaseURL": "http://127.0.0.1:11434/v1", "LLM.Model": "llama3", "LLM configured": "true"},
		},
		{
			"LLM with key only uses OpenAI",
			map[string]string{config.EnvLLMAPIKey: "sk-test"},
			map[string]string{"LLM.BaseURL": config.DefaultLLMBaseURL, "LLM configured": "true"},
		},
		{"smtp URL default port", map[string]string{config.EnvSMTPURL: "smtp://127.0.0.1"}, map[string]string{"SMTP.Port": "587"}},
		{
			"mail from and support",
			map[string]string{config.EnvMailFrom: "hello@percolate.example", config.EnvSupportEmail: "Help Desk <help@percolate.example>"},
			map[string]string{"Mail.From": "<hello@percolate.example>", "Mail.SupportEmail": "help@percolate.example"},
		},
		{
			"stripe fully configured",
			map[string]string{
				config.EnvStripeSecretKey:     "sk_test_123",
				config.EnvStripeWebhookSecret: "whsec_abc",
				config.EnvStripePriceBasic:    "price_basic",
				config.EnvStripePricePremium:  "price_premium",
				config.EnvStripeAPIURL:        "http://127.0.0.1:12111/",
			},
			map[string]string{"Stripe configured": "true", "Stripe.APIURL": "http://127.0.0.1:12111"},
		},
		{
			"oidc configured with custom issuer",
			map[string]string{config.EnvOIDCIssuer: "http://127.0.0.1:5556/dex", config.EnvOIDCClientID: "id", config.EnvOIDCClientSecret: "secret"},
			map[string]string{"OIDC configured": "true", "OIDC.Issuer": "http://127.0.0.1:5556/dex"},
		},
		{
			"community URL",
			map[string]string{config.EnvCommunityURL: "https://community.example.com/percolate"},
			map[string]string{"CommunityURL": "https://community.example.com/percolate"},
		},
		{"log levels", map[string]string{config.EnvLogLevel: "warn"}, map[string]string{"LogLevel": "WARN"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { loadAs(t, tt.env, tt.want) })
	}
}

// TestLoadSMTPURL: an SMTP URL gives the host, the port (the scheme's default when it has
// none), the credentials decoded, and implicit TLS for smtps; the password never shows.
func TestLoadSMTPURL(t *testing.T) {
	c := loadAs(t, map[string]string{config.EnvSMTPURL: "smtp://user%40example.com:p%40ss@mail.example.com:2525"},
		map[string]string{"Mail configured": "true"})
	if want := (config.SMTP{Host: "mail.example.com", Port: 2525, Username: "user@example.com", Password: "p@ss"}); c.Mail.SMTP != want {
		t.Errorf("SMTP = %+v, want %+v", c.Mail.SMTP, want)
	}
	if s := c.Mail.SMTP.String(); strings.Contains(s, "p@ss") || strings.Contains(s, "p%40ss") {
		t.Errorf("SMTP.String() leaks the password: %s", s)
	}
	c = loadAs(t, map[string]string{config.EnvSMTPURL: "smtps://relay.example.com"}, nil)
	if want := (config.SMTP{Host: "relay.example.com", Port: 465, ImplicitTLS: true}); c.Mail.SMTP != want {
		t.Errorf("SMTP = %+v, want %+v", c.Mail.SMTP, want)
	}
}

func TestLoadBadValues(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		// want are substrings of the error; the first names the variable.
		want []string
		// secret must not appear in the error.
		secret string
	}{
		{name: "pprof on every interface", env: map[string]string{config.EnvPprofAddr: "0.0.0.0:6060"},
			want: []string{`PERCOLATE_PPROF_ADDR: "0.0.0.0:6060" is not a loopback host:port`}},
		{name: "pprof on a public address", env: map[string]string{config.EnvPprofAddr: "192.0.2.1:6060"},
			want: []string{"PERCOLATE_PPROF_ADDR:"}},
		{name: "pprof without port", env: map[string]string{config.EnvPprofAddr: "127.0.0.1"},
			want: []string{"PERCOLATE_PPROF_ADDR:"}},
		{name: "addr without port", env: map[string]string{config.EnvAddr: "abc"},
			want: []string{`PERCOLATE_ADDR: "abc" is not host:port`}},
		{name: "addr bad port", env: map[string]string{config.EnvAddr: "127.0.0.1:http"},
			want: []string{"PERCOLATE_ADDR:"}},
		{name: "addr port out of range", env: map[string]string{config.EnvAddr: "127.0.0.1:70000"},
			want: []string{"PERCOLATE_ADDR:"}},
		{name: "addr bad host", env: map[string]string{config.EnvAddr: "bad host:80"},
			want: []string{"PERCOLATE_ADDR:"}},
		{name: "public URL relative", env: map[string]string{config.EnvPublicURL: "/app"},
			want: []string{`PERCOLATE_PUBLIC_URL: "/app" is not an absolute http(s) URL`}},
		{name: "public URL ftp", env: map[string]string{config.EnvPublicURL: "ftp://example.com"},
			want: []string{"PERCOLATE_PUBLIC_URL:"}},
		{name: "public URL no host", env: map[string]string{config.EnvPublicURL: "https://"},
			want: []string{"PERCOLATE_PUBLIC_URL:", "has no host"}},
		{name: "public URL with query", env: map[string]string{config.EnvPublicURL: "https://example.com/?a=b"},
			want: []string{"PERCOLATE_PUBLIC_URL:", "query"}},
		{name: "database URL mysql", env: map[string]string{config.EnvDatabaseURL: "mysql://root:hunter2@db/x"},
			want: []string{"DATABASE_URL:"}, secret: "hunter2"},
		{name: "database URL garbage", env: map[string]string{config.EnvDatabaseURL: "hunter2"},
			want: []string{"DATABASE_URL:"}, secret: "hunter2"},
		{name: "database URL unparsable", env: map[string]string{config.EnvDatabaseURL: "postgres://u:hunter2@db:port/x"},
			want: []string{"DATABASE_URL:"}, secret: "hunter2"},
		{name: "secret key too short", env: map[string]string{config.EnvSecretKey: "hunter2-short"},
			want: []string{"PERCOLATE_SECRET_KEY:", "at least 32"}, secret: "hunter2"},
		{name: "llm base URL", env: map[string]string{config.EnvLLMBaseURL: "127.0.0.1:11434"},
			want: []string{"PERCOLATE_LLM_BASE_URL:"}},
		{name: "smtp bad scheme", env: map[string]string{config.EnvSMTPURL: "http://u:hunter2@mail.example.com"},
			want: []string{"PERCOLATE_SMTP_URL:", "not smtp or smtps"}, secret: "hunter2"},
		{name: "smtp bad port", env: map[string]string{config.EnvSMTPURL: "smtp://u:hunter2@mail.example.com:99999"},
			want: []string{"PERCOLATE_SMTP_URL:", "port"}, secret: "hunter2"},
		{name: "smtp unparsable", env: map[string]string{config.EnvSMTPURL: "smtp://u:hunter2@mail example.com:x"},
			want: []string{"PERCOLATE_SMTP_URL:"}, secret: "hunter2"},
		{name: "smtp no host", env: map[string]string{config.EnvSMTPURL: "smtp://u:hunter2@:25"},
			want: []string{"PERCOLATE_SMTP_URL:", "no host"}, secret: "hunter2"},
		{name: "smtp path", env: map[string]string{config.EnvSMTPURL: "smtp://mail.example.com/x"},
			want: []string{"PERCOLATE_SMTP_URL:", "path"}},
		{name: "smtp password without user", env: map[string]string{config.EnvSMTPURL: "smtp://:hunter2@mail.example.com"},
			want: []string{"PERCOLATE_SMTP_URL:", "no user name"}, secret: "hunter2"},
		{name: "mail from", env: map[string]string{config.EnvMailFrom: "not an address"},
			want: []string{`PERCOLATE_MAIL_FROM: "not an address" is not an e-mail address`}},
		{name: "support email", env: map[string]string{config.EnvSupportEmail: "support"},
			want: []string{"PERCOLATE_SUPPORT_EMAIL:"}},
		{name: "stripe partial", env: map[string]string{config.EnvStripeSecretKey: "sk_test_hunter2"},
			want: []string{
				"PERCOLATE_STRIPE_WEBHOOK_SECRET: is required when PERCOLATE_STRIPE_SECRET_KEY is set",
				"PERCOLATE_STRIPE_PRICE_BASIC:", "PERCOLATE_STRIPE_PRICE_PREMIUM:",
			}, secret: "hunter2"},
		{name: "stripe swapped secrets", env: map[string]string{
			config.EnvStripeSecretKey:     "whsec_hunter2",
			config.EnvStripeWebhookSecret: "sk_test_hunter2",
			config.EnvStripePriceBasic:    "price_1",
			config.EnvStripePricePremium:  "price_2",
		}, want: []string{"PERCOLATE_STRIPE_SECRET_KEY:", "PERCOLATE_STRIPE_WEBHOOK_SECRET:"}, secret: "hunter2"},
		{name: "stripe API URL", env: map[string]string{config.EnvStripeAPIURL: "localhost:12111"},
			want: []string{"PERCOLATE_STRIPE_API_URL:"}},
		{name: "oidc issuer", env: map[string]string{config.EnvOIDCIssuer: "accounts.example.com"},
			want: []string{"PERCOLATE_OIDC_ISSUER:"}},
		{name: "oidc id without secret", env: map[string]string{config.EnvOIDCClientID: "id"},
			want: []string{"PERCOLATE_OIDC_CLIENT_SECRET: is required when PERCOLATE_OIDC_CLIENT_ID is set"}},
		{name: "oidc secret without id", env: map[string]string{config.EnvOIDCClientSecret: "hunter2"},
			want: []string{"PERCOLATE_OIDC_CLIENT_ID: is required"}, secret: "hunter2"},
		{name: "community URL", env: map[string]string{config.EnvCommunityURL: "javascript:alert(1)"},
			want: []string{"PERCOLATE_COMMUNITY_URL:"}},
		{name: "log level", env: map[string]string{config.EnvLogLevel: "verbose"},
			want: []string{`PERCOLATE_LOG_LEVEL: "verbose" is not one of debug, info, warn, error`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := config.Load(env(tt.env))
			if err == nil {
				t.Fatal("Load succeeded, want an error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			if tt.secret != "" && strings.Contains(err.Error(), tt.secret) {
				t.Errorf("error leaks a secret: %q", err)
			}
			var ve *config.VarError
			if !errors.As(err, &ve) {
				t.Errorf("error %v does not wrap a *config.VarError", err)
			}
		})
	}
}

func TestLoadReportsEveryBadVariable(t *testing.T) {
	_, err := config.Load(env(map[string]string{
		config.EnvAddr:       "abc",
		config.EnvLogLevel:   "loud",
		config.EnvMailFrom:   "nobody",
		config.EnvLLMBaseURL: "nowhere",
	}))
	if err == nil {
		t.Fatal("Load succeeded, want an error")
	}
	for _, name := range []string{config.EnvAddr, config.EnvLogLevel, config.EnvMailFrom, config.EnvLLMBaseURL} {
		if !strings.Contains(err.Error(), name+":") {
			t.Errorf("error does not mention %s: %v", name, err)
		}
	}
	// One line per variable, so a terminal shows them as a list.
	if got := strings.Count(err.Error(), "\n"); got != 3 {
		t.Errorf("error has %d line breaks, want 3: %q", got, err)
	}
}

func TestLogValueHasNoSecrets(t *testing.T) {
	c, err := config.Load(env(map[string]string{
		config.EnvDatabaseURL:         "postgres://u:hunter2-db@db/x",
		config.EnvLLMAPIKey:           "hunter2-llm",
		config.EnvSMTPURL:             "smtp://u:hunter2-smtp@mail.example.com",
		config.EnvStripeSecretKey:     "sk_hunter2",
		config.EnvStripeWebhookSecret: "whsec_hunter2",
		config.EnvStripePriceBasic:    "price_1",
		config.EnvStripePricePremium:  "price_2",
		config.EnvOIDCClientID:        "id",
		config.EnvOIDCClientSecret:    "hunter2-oidc",
		config.EnvSecretKey:           "hunter2-signing-keys-are-derived-from-this",
	}))
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	var b strings.Builder
	slog.New(slog.NewTextHandler(&b, nil)).Info("config", "config", c)
	if strings.Contains(b.String(), "hunter2") {
		t.Errorf("logged config leaks a secret: %s", b.String())
	}
	if !strings.Contains(b.String(), "config.stripe=true") || !strings.Contains(b.String(), "config.secret_key=true") {
		t.Errorf("logged config lacks feature flags: %s", b.String())
	}
}

func eq(t *testing.T, name, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %q, want %q", name, got, want)
	}
}

func TestTrustedProxies(t *testing.T) {
	c, err := config.Load(func(k string) string {
		if k == config.EnvTrustedProxies {
			return "10.0.0.0/8, 127.0.0.1"
		}
		return ""
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.TrustedProxies) != 2 || c.TrustedProxies[0].String() != "10.0.0.0/8" || c.TrustedProxies[1].String() != "127.0.0.1/32" {
		t.Fatalf("got %v", c.TrustedProxies)
	}
	_, err = config.Load(func(k string) string {
		if k == config.EnvTrustedProxies {
			return "10.0.0.0/8,proxy.local"
		}
		return ""
	})
	if err == nil || !strings.Contains(err.Error(), config.EnvTrustedProxies) {
		t.Fatalf("bad value: %v", err)
	}
}

func TestLimits(t *testing.T) {
	env := map[string]string{
		config.EnvMessagesPerDay:      "user=10, PREMIUM=900",
		config.EnvVoiceMessagesPerDay: "BASIC=5",
		config.EnvMaxMessageChars:     "2000",
		config.EnvAuthLimits:          "login_per_account=5,register_per_address=50",
	}
	c, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	l := c.Limits
	if l.MessagesPerDay["USER"] != 10 || l.MessagesPerDay["PREMIUM"] != 900 || len(l.MessagesPerDay) != 2 ||
		l.VoicePerDay["BASIC"] != 5 || l.MaxMessageChars != 2000 || l.Auth["login_per_account"] != 5 || l.SessionTokens != nil {
		t.Fatalf("limits: %+v", l)
	}
	for k, v := range map[string]string{
		config.EnvMessagesPerDay:     "GOLD=5",
		config.EnvMaxMessageChars:    "50000",
		config.EnvAuthLimits:         "login_per_account=-1",
		config.EnvSessionTokenLimits: "USER",
	} {
		_, err := config.Load(func(name string) string {
			if name == k {
				return v
			}
			return ""
		})
		if err == nil || !strings.Contains(err.Error(), k) {
			t.Errorf("%s=%q: %v", k, v, err)
		}
	}
}

func TestReplyTimeouts(t *testing.T) {
	c, err := config.Load(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.LLM.ConnectTimeout != 5*time.Second || c.LLM.StallTimeout != 15*time.Second || c.LLM.ReplyTimeout != 2*time.Minute {
		t.Fatalf("defaults = %v %v %v", c.LLM.ConnectTimeout, c.LLM.StallTimeout, c.LLM.ReplyTimeout)
	}
	c, err = config.Load(env(map[string]string{
		config.EnvLLMConnectTimeout: "2s", config.EnvLLMStallTimeout: "8s", config.EnvReplyTimeout: "90s",
	}))
	if err != nil || c.LLM.ConnectTimeout != 2*time.Second || c.LLM.StallTimeout != 8*time.Second || c.LLM.ReplyTimeout != 90*time.Second {
		t.Fatalf("set = %v %v %v, %v", c.LLM.ConnectTimeout, c.LLM.StallTimeout, c.LLM.ReplyTimeout, err)
	}
	for _, bad := range []map[string]string{
		{config.EnvLLMStallTimeout: "15"},
		{config.EnvLLMStallTimeout: "0s"},
		{config.EnvLLMConnectTimeout: "1h"},
		{config.EnvReplyTimeout: "10s", config.EnvLLMStallTimeout: "20s"},
	} {
		_, err := config.Load(env(bad))
		var verr *config.VarError
		if !errors.As(err, &verr) {
			t.Errorf("%v: err = %v, want a VarError", bad, err)
		}
	}
}

// PERCOLATE_MAX_MESSAGE_CHARS may lower the contract's message limit, never raise it: the
// request validator would refuse the longer messages anyway.
func TestMaxMessageCharsStaysWithinTheContract(t *testing.T) {
	load := func(v string) (config.Config, error) {
		return config.Load(func(k string) string { return map[string]string{config.EnvMaxMessageChars: v}[k] })
	}
	top := strconv.Itoa(limits.SendMessageRequestMessageMaxLength)
	if c, err := load(top); err != nil || c.Limits.MaxMessageChars != limits.SendMessageRequestMessageMaxLength {
		t.Fatalf("%s: %v %d", top, err, c.Limits.MaxMessageChars)
	}
	over := strconv.Itoa(limits.SendMessageRequestMessageMaxLength + 1)
	if _, err := load(over); err == nil || !strings.Contains(err.Error(), config.EnvMaxMessageChars) {
		t.Fatalf("%s accepted: %v", over, err)
	}
}

func TestSecretKey(t *testing.T) {
	c, err := config.Load(env(map[string]string{config.EnvSecretKey: "  0123456789abcdef0123456789abcdef  "}))
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "SecretKey", c.SecretKey, "0123456789abcdef0123456789abcdef")
	if c, _ := config.Load(env(nil)); c.SecretKey != "" {
		t.Error("a secret key without PERCOLATE_SECRET_KEY")
	}
}
