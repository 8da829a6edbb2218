package httpapi

import (
	"net/http"
	"testing"
)

// TestMeShowsWhatTheTierIncludes: /api/auth/me carries the caller's row of the entitlement
// table, read from the role in the database, so the web app checks the same rules as the server.
func TestMeShowsWhatTheTierIncludes(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	s := e.signUp("Ada", "ada@example.com", "brew-a-fresh-pot")
	want := map[string]map[string]any{
		"USER":    {"messagesPerDay": 30.0, "sessionTokens": 1000.0, "voice": false, "voicePerDay": 0.0, "summaries": false, "insights": false, "community": false, "memory": true},
		"BASIC":   {"messagesPerDay": 200.0, "sessionTokens": 4000.0, "voice": true, "voicePerDay": 30.0, "summaries": true, "insights": false, "community": false, "memory": true},
		"PREMIUM": {"messagesPerDay": 500.0, "sessionTokens": 8000.0, "voice": true, "voicePerDay": 100.0, "summaries": true, "insights": true, "community": true, "memory": true},
		"ADMIN":   {"messagesPerDay": 500.0, "sessionTokens": 8000.0, "voice": true, "voicePerDay": 100.0, "summaries": true, "insights": true, "community": true, "memory": true},
	}
	for _, role := range []string{"USER", "BASIC", "PREMIUM", "ADMIN"} {
		e.exec(`UPDATE users SET role = $1 WHERE email = $2`, role, "ada@example.com")
		r := e.call("GET", "/api/auth/me", s.access, nil)
		m := r.json(t)
		if r.code != http.StatusOK || m["role"] != role {
			t.Fatalf("%s: me answered %d %s", role, r.code, r.body)
		}
		got, _ := m["entitlements"].(map[string]any)
		for field, v := range want[role] {
			if got[field] != v {
				t.Errorf("%s: entitlements.%s = %v, want %v", role, field, got[field], v)
			}
		}
		if len(got) != len(want[role]) {
			t.Errorf("%s: entitlements has %d fields, want %d: %v", role, len(got), len(want[role]), got)
		}
	}
}
