package config

// The outside services Percolate can use (a model, an SMTP relay, Stripe, an OpenID provider):
// each one's settings and how they are read from the environment. Load calls the loaders.

import (
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// LLM configures an OpenAI-compatible chat model endpoint.
type LLM struct {
	// BaseURL is the API base, e.g. ending in /v1, without a trailing slash.
	BaseURL string
	// APIKey is sent as a bearer token. Secret.
	APIKey string
	// Model is the chat model name.
	Model string
	// SpeechModel is the text-to-speech model for voice replies.
	SpeechModel string
	// TranscriptionModel turns recorded audio into text.
	TranscriptionModel string
	// ConnectTimeout bounds connecting to the endpoint.
	ConnectTimeout time.Duration
	// StallTimeout bounds the wait for the model's first data (a retry included) and then
	// between two pieces of its answer; a stalled model fails and is not asked again.
	StallTimeout time.Duration
	// ReplyTimeout is a reply's own deadline, model or offline engine, whatever happens to the
	// request that asked for it.
	ReplyTimeout time.Duration
	// SignalBudget bounds the model-side safety signal (the moderation endpoint, or a short
	// classification prompt), asked while the reply is written.
	SignalBudget time.Duration
}

// Configured reports whether a remote model should be used instead of the
// offline engine. Load sets BaseURL when either a base URL or an API key was
// given (a key alone means OpenAI itself).
func (l LLM) Configured() bool { return l.BaseURL != "" }

// Mail configures outgoing mail.
type Mail struct {
	// SMTP is the relay to send through; its zero value means "write mail to
	// the outbox in the data directory instead".
	SMTP SMTP
	// From is the RFC 5322 From address, e.g. `Percolate <no-reply@example.com>`.
	From string
	// SupportEmail is the bare address users are told to write to.
	SupportEmail string
}

// Configured reports whether mail goes to a real SMTP relay.
func (m Mail) Configured() bool { return m.SMTP.Host != "" }

// SMTP is a parsed PERCOLATE_SMTP_URL.
type SMTP struct {
	// Host is the relay's host name or IP address.
	Host string
	// Port is the relay's TCP port (default 587 for smtp://, 465 for smtps://).
	Port int
	// Username and Password authenticate to the relay when Username is set.
	// Password is secret.
	Username string
	Password string
	// ImplicitTLS is true for smtps:// (TLS from the first byte). Otherwise the
	// connection upgrades with STARTTLS when the relay offers it.
	ImplicitTLS bool
}

// String returns the relay as a URL with the password redacted, safe to log.
func (s SMTP) String() string {
	if s.Host == "" {
		return ""
	}
	u := url.URL{Scheme: "smtp", Host: net.JoinHostPort(s.Host, strconv.Itoa(s.Port))}
	if s.ImplicitTLS {
		u.Scheme = "smtps"
	}
	if s.Username != "" {
		u.User = url.User(s.Username)
	}
	return u.String()
}

// Stripe configures payments.
type Stripe struct {
	// SecretKey is the API secret key (sk_… or rk_…). Secret.
	SecretKey string
	// WebhookSecret verifies webhook signatures (whsec_…). Secret.
	WebhookSecret string
	// PriceBasic and PricePremium are the price ids of the two paid tiers.
	PriceBasic   string
	PricePremium string
	// APIURL overrides the Stripe API base (for stripe-mock); empty means the
	// library default.
	APIURL string
}

// Configured reports whether checkout and the portal can be offered: the
// secret key, the webhook secret and both prices are set.
func (s Stripe) Configured() bool {
	return s.SecretKey != "" && s.WebhookSecret != "" && s.PriceBasic != "" && s.PricePremium != ""
}

// OIDC configures third-party sign-in through an OpenID Connect provider.
type OIDC struct {
	// Issuer is the provider's issuer URL, used for discovery.
	Issuer string
	// ClientID and ClientSecret identify Percolate to the provider.
	// ClientSecret is secret.
	ClientID     string
	ClientSecret string
}

// Configured reports whether sign-in with the provider can be offered.
func (o OIDC) Configured() bool { return o.ClientID != "" && o.ClientSecret != "" }

func loadLLM(get func(string) string, errs *problems) LLM {
	l := LLM{
		BaseURL: get(EnvLLMBaseURL),
		APIKey:  get(EnvLLMAPIKey),
		Model:   or(get(EnvLLMModel), DefaultLLMModel),

		SpeechModel:        or(get(EnvLLMSpeechModel), DefaultSpeechModel),
		TranscriptionModel: or(get(EnvLLMTranscriptionModel), DefaultTranscriptionModel),

		ConnectTimeout: parseTimeout(get, errs, EnvLLMConnectTimeout, DefaultLLMConnectTimeout, time.Second, time.Minute),
		StallTimeout:   parseTimeout(get, errs, EnvLLMStallTimeout, DefaultLLMStallTimeout, time.Second, 5*time.Minute),
		ReplyTimeout:   parseTimeout(get, errs, EnvReplyTimeout, DefaultReplyTimeout, 5*time.Second, 30*time.Minute),
		SignalBudget:   parseTimeout(get, errs, EnvLLMSignalTimeout, DefaultLLMSignalTimeout, 100*time.Millisecond, 10*time.Second),
	}
	if l.ReplyTimeout < l.StallTimeout {
		errs.add(EnvReplyTimeout, "%s is shorter than %s (%s)", l.ReplyTimeout, EnvLLMStallTimeout, l.StallTimeout)
	}
	switch {
	case l.BaseURL != "":
		if err := checkHTTPURL(l.BaseURL); err != nil {
			errs.add(EnvLLMBaseURL, "%q %v", l.BaseURL, err)
			l.BaseURL = ""
		}
		l.BaseURL = strings.TrimRight(l.BaseURL, "/")
	case l.APIKey != "":
		// A key alone means OpenAI itself, as the OpenAI SDKs assume.
		l.BaseURL = DefaultLLMBaseURL
	}
	return l
}

func loadMail(get func(string) string, errs *problems) Mail {
	var m Mail
	if v := get(EnvSMTPURL); v != "" {
		s, err := parseSMTPURL(v)
		if err != nil {
			// Not repeating the value: it may carry a password.
			errs.add(EnvSMTPURL, "%v", err)
		} else {
			m.SMTP = s
		}
	}

	from := or(get(EnvMailFrom), DefaultMailFrom)
	if a, err := parseAddress(from); err != nil {
		errs.add(EnvMailFrom, "%q is not an e-mail address (%v)", from, err)
	} else {
		m.From = a.String()
	}

	support := or(get(EnvSupportEmail), DefaultSupportEmail)
	if a, err := parseAddress(support); err != nil {
		errs.add(EnvSupportEmail, "%q is not an e-mail address (%v)", support, err)
	} else {
		m.SupportEmail = a.Address
	}
	return m
}

func loadStripe(get func(string) string, errs *problems) Stripe {
	s := Stripe{
		SecretKey:     get(EnvStripeSecretKey),
		WebhookSecret: get(EnvStripeWebhookSecret),
		PriceBasic:    get(EnvStripePriceBasic),
		PricePremium:  get(EnvStripePricePremium),
	}
	// Prefix checks catch swapped or mistyped variables without echoing the
	// secret itself.
	if s.SecretKey != "" && !strings.HasPrefix(s.SecretKey, "sk_") && !strings.HasPrefix(s.SecretKey, "rk_") {
		errs.add(EnvStripeSecretKey, "does not look like a Stripe secret key (expected sk_… or rk_…)")
		s.SecretKey = ""
	}
	if s.WebhookSecret != "" && !strings.HasPrefix(s.WebhookSecret, "whsec_") {
		errs.add(EnvStripeWebhookSecret, "does not look like a Stripe webhook signing secret (expected whsec_…)")
		s.WebhookSecret = ""
	}
	// Half a payment setup is almost certainly a mistake, and silently
	// running without payments would hide it: name what is missing.
	required := []struct{ name, value string }{
		{EnvStripeSecretKey, get(EnvStripeSecretKey)},
		{EnvStripeWebhookSecret, get(EnvStripeWebhookSecret)},
		{EnvStripePriceBasic, s.PriceBasic},
		{EnvStripePricePremium, s.PricePremium},
	}
	var set []string
	for _, r := range required {
		if r.value != "" {
			set = append(set, r.name)
		}
	}
	if len(set) > 0 && len(set) < len(required) {
		for _, r := range required {
			if r.value == "" {
				errs.add(r.name, "is required when %s is set", strings.Join(set, ", "))
			}
		}
	}
	if v := get(EnvStripeAPIURL); v != "" {
		if err := checkHTTPURL(v); err != nil {
			errs.add(EnvStripeAPIURL, "%q %v", v, err)
		} else {
			s.APIURL = strings.TrimRight(v, "/")
		}
	}
	return s
}

func loadOIDC(get func(string) string, errs *problems) OIDC {
	o := OIDC{
		Issuer:       or(get(EnvOIDCIssuer), DefaultOIDCIssuer),
		ClientID:     get(EnvOIDCClientID),
		ClientSecret: get(EnvOIDCClientSecret),
	}
	// The issuer must match the provider's discovery document byte for byte,
	// so it is validated but not normalised.
	if err := checkHTTPURL(o.Issuer); err != nil {
		errs.add(EnvOIDCIssuer, "%q %v", o.Issuer, err)
	}
	switch {
	case o.ClientID != "" && o.ClientSecret == "":
		errs.add(EnvOIDCClientSecret, "is required when %s is set", EnvOIDCClientID)
	case o.ClientID == "" && o.ClientSecret != "":
		errs.add(EnvOIDCClientID, "is required when %s is set", EnvOIDCClientSecret)
	}
	return o
}
