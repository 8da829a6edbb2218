// Package entitlement is the one table of what each tier includes. The server's checks read
// it, and GET /api/auth/me shows the caller's row, so the web app reads the same rules.
// Which features a tier has is fixed here; operators may change its numbers (Overrides).
package entitlement

import "maps"

// Roles, as stored and as the API names them. USER is the free tier; ADMIN (an operator's
// role) has everything Premium has.
const (
	RoleFree    = "USER"
	RoleBasic   = "BASIC"
	RolePremium = "PREMIUM"
	RoleAdmin   = "ADMIN"
)

// Roles lists every role.
var Roles = []string{RoleFree, RoleBasic, RolePremium, RoleAdmin}

// Entitlements is what one tier includes.
type Entitlements struct {
	// MessagesPerDay is how many chat messages a user may send per UTC day.
	MessagesPerDay int
	// SessionTokens is the token limit of one chat session.
	SessionTokens int
	// VoicePerDay is how many voice messages a user may send per UTC day; 0 means no voice.
	VoicePerDay int
	// Summaries: session summaries and emotions of ended sessions.
	Summaries bool
	// Insights: the weekly insight reports (weekly coaching).
	Insights bool
	// Community: the invite to the community chat server.
	Community bool
	// Memory: what Percolate remembers across sessions.
	Memory bool
	// MoodPatterns: the year view of check-ins and the tag patterns. Every tier has check-ins
	// and the 30-day view.
	MoodPatterns bool
}

// Voice reports whether the tier includes voice conversations.
func (e Entitlements) Voice() bool { return e.VoicePerDay > 0 }

// Table maps a role to its entitlements.
type Table map[string]Entitlements

// Default is the product's table (spec section 1 and 6).
func Default() Table {
	// A free session holds a real conversation: 40 typical exchanges take about 3,000 tokens
	// (TestFreeSessionFitsFortyExchanges); each paid tier doubles the one below it.
	premium := Entitlements{MessagesPerDay: 500, SessionTokens: 16000, VoicePerDay: 100, Summaries: true, Insights: true, Community: true, Memory: true, MoodPatterns: true}
	return Table{
		RoleFree:    {MessagesPerDay: 50, SessionTokens: 4000, Memory: true},
		RoleBasic:   {MessagesPerDay: 200, SessionTokens: 8000, VoicePerDay: 30, Summaries: true, Memory: true, MoodPatterns: true},
		RolePremium: premium,
		RoleAdmin:   premium,
	}
}

// For returns a role's entitlements; an unknown role gets the free tier's.
func (t Table) For(role string) Entitlements {
	if e, ok := t[role]; ok {
		return e
	}
	return t[RoleFree]
}

// Overrides are operator-configured numbers per role; a role missing from a map keeps its value.
type Overrides struct {
	SessionTokens  map[string]int
	MessagesPerDay map[string]int
	VoicePerDay    map[string]int
}

// With returns a copy of the table with the overrides applied.
func (t Table) With(o Overrides) Table {
	out := maps.Clone(t)
	for role, e := range out {
		if n, ok := o.SessionTokens[role]; ok {
			e.SessionTokens = n
		}
		if n, ok := o.MessagesPerDay[role]; ok {
			e.MessagesPerDay = n
		}
		if n, ok := o.VoicePerDay[role]; ok {
			e.VoicePerDay = n
		}
		out[role] = e
	}
	return out
}

// RolesWhere lists, in the order of Roles, the roles whose entitlements satisfy f.
func (t Table) RolesWhere(f func(Entitlements) bool) []string {
	var out []string
	for _, r := range Roles {
		if e, ok := t[r]; ok && f(e) {
			out = append(out, r)
		}
	}
	return out
}
