package httpapi

import (
	"context"
	"net/http"
	"testing"

	"github.com/percolate/percolate/gen/api"
)

// TestMeShowsWhatTheTierIncludes: /api/auth/me carries the caller's row of the entitlement
// table, read from the role in the database, so the web app checks the same rules as the server.
func TestMeShowsWhatTheTierIncludes(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	s := e.signUp("Ada", "ada@example.com", "brew-a-fresh-pot")
	paid := api.Entitlements{MessagesPerDay: 500, SessionTokens: 16000, Voice: true, VoicePerDay: 100, Summaries: true, Insights: true, Community: true, Memory: true, MoodPatterns: true}
	want := map[api.Role]api.Entitlements{
		api.RoleUSER:    {MessagesPerDay: 50, SessionTokens: 4000, Memory: true},
		api.RoleBASIC:   {MessagesPerDay: 200, SessionTokens: 8000, Voice: true, VoicePerDay: 30, Summaries: true, Memory: true, MoodPatterns: true},
		api.RolePREMIUM: paid,
		api.RoleADMIN:   paid,
	}
	for _, role := range []api.Role{api.RoleUSER, api.RoleBASIC, api.RolePREMIUM, api.RoleADMIN} {
		e.exec(`UPDATE users SET role = $1 WHERE email = $2`, string(role), "ada@example.com")
		res, err := e.api.GetCurrentUserWithResponse(context.Background(), bearer(s.access))
		wantStatus(t, res, err, http.StatusOK)
		if res.JSON200.Role != role {
			t.Errorf("role = %s, want %s", res.JSON200.Role, role)
		}
		if got := res.JSON200.Entitlements; got != want[role] {
			t.Errorf("%s: entitlements = %+v, want %+v", role, got, want[role])
		}
	}
}
