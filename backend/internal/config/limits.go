package config

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/percolate/percolate/backend/internal/entitlement"
	"github.com/percolate/percolate/gen/limits"
)

// Names of the limit variables. Each tier map is "ROLE=N,ROLE=N"; a role left out keeps its
// default.
const (
	EnvSessionTokenLimits  = "PERCOLATE_SESSION_TOKEN_LIMITS" // #nosec G101 -- the names of environment variables, not credentials
	EnvMessagesPerDay      = "PERCOLATE_MESSAGES_PER_DAY"
	EnvVoiceMessagesPerDay = "PERCOLATE_VOICE_MESSAGES_PER_DAY"
	EnvMaxMessageChars     = "PERCOLATE_MAX_MESSAGE_CHARS"
	EnvAuthLimits          = "PERCOLATE_AUTH_LIMITS"
)

// maxMessageCharsCeiling is the contract's cap on a message: an operator may lower it, never
// raise it (the request validator refuses longer messages whatever is configured).
const maxMessageCharsCeiling = limits.SendMessageRequestMessageMaxLength

// AuthLimitNames are the keys PERCOLATE_AUTH_LIMITS accepts.
var AuthLimitNames = []string{"login_per_account", "login_per_account_total", "login_per_address", "mail_per_email", "mail_per_address", "register_per_address", "bad_tokens_per_address"}

// Limits overrides the built-in limits; empty maps and zero values keep the defaults.
type Limits struct {
	// SessionTokens is a session's token limit per role.
	SessionTokens map[string]int
	// MessagesPerDay is the daily message limit per role.
	MessagesPerDay map[string]int
	// VoicePerDay is the daily voice-message limit per role (USER has no voice).
	VoicePerDay map[string]int
	// MaxMessageChars is the longest message accepted (0: the default).
	MaxMessageChars int
	// Auth holds the account rate limits by name (see AuthLimitNames).
	Auth map[string]int
}

func loadLimits(get func(string) string, errs *problems) Limits {
	var l Limits
	l.SessionTokens = parseCounts(get, errs, EnvSessionTokenLimits, entitlement.Roles)
	l.MessagesPerDay = parseCounts(get, errs, EnvMessagesPerDay, entitlement.Roles)
	l.VoicePerDay = parseCounts(get, errs, EnvVoiceMessagesPerDay, entitlement.Roles)
	l.Auth = parseCounts(get, errs, EnvAuthLimits, AuthLimitNames)
	if v := get(EnvMaxMessageChars); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxMessageCharsCeiling {
			errs.add(EnvMaxMessageChars, "%q is not a number from 1 to %d", v, maxMessageCharsCeiling)
		} else {
			l.MaxMessageChars = n
		}
	}
	return l
}

// parseCounts reads "NAME=N,NAME=N" with names from allowed and N ≥ 0.
func parseCounts(get func(string) string, errs *problems, env string, allowed []string) map[string]int {
	v := get(env)
	if v == "" {
		return nil
	}
	out := map[string]int{}
	for _, pair := range strings.Split(v, ",") {
		name, num, ok := strings.Cut(strings.TrimSpace(pair), "=")
		name = strings.TrimSpace(name)
		if env != EnvAuthLimits {
			name = strings.ToUpper(name)
		}
		n, err := strconv.Atoi(strings.TrimSpace(num))
		if !ok || err != nil || n < 0 || !slices.Contains(allowed, name) {
			errs.add(env, "%q is not NAME=NUMBER with NAME one of %s", strings.TrimSpace(pair), strings.Join(allowed, ", "))
			continue
		}
		out[name] = n
	}
	return out
}

// String describes the overrides for logs.
func (l Limits) String() string {
	return fmt.Sprintf("session_tokens=%v messages_per_day=%v voice_per_day=%v max_message_chars=%d auth=%v",
		l.SessionTokens, l.MessagesPerDay, l.VoicePerDay, l.MaxMessageChars, l.Auth)
}
