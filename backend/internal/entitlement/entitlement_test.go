package entitlement

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"
)

func TestUnknownRoleGetsTheFreeTier(t *testing.T) {
	d := Default()
	if got := d.For("GOLD"); got != d[RoleFree] {
		t.Fatalf("unknown role: %+v", got)
	}
	if d.For(RoleFree).Voice() || d.For(RoleFree).Summaries || !d.For(RoleBasic).Voice() || !d.For(RoleBasic).Summaries {
		t.Fatalf("spec §6: USER has no voice and no summaries, every other role has both: %+v", d)
	}
	if got := d.RolesWhere(func(e Entitlements) bool { return e.Insights }); !reflect.DeepEqual(got, []string{RolePremium, RoleAdmin}) {
		t.Fatalf("weekly reports go to %v", got)
	}
}

func TestOverridesChangeNumbersOnlyAndLeaveTheDefaultAlone(t *testing.T) {
	d := Default()
	o := d.With(Overrides{MessagesPerDay: map[string]int{RoleFree: 5}, VoicePerDay: map[string]int{RoleBasic: 0}})
	if o.For(RoleFree).MessagesPerDay != 5 || o.For(RoleFree).SessionTokens != 4000 || o.For(RoleBasic).Voice() || !o.For(RoleBasic).Summaries {
		t.Fatalf("overridden: %+v", o)
	}
	if d.For(RoleFree).MessagesPerDay != 50 || !d.For(RoleBasic).Voice() {
		t.Fatalf("the default table changed: %+v", d)
	}
}

// TestWebFixturesMatchTheTable: the web app's tests build /api/auth/me answers from a fixture;
// it must say what this table says, so a change here fails until the fixture follows.
func TestWebFixturesMatchTheTable(t *testing.T) {
	raw, err := os.ReadFile("../../../frontend/src/test-utils/entitlements.json")
	if err != nil {
		t.Fatal(err)
	}
	var fixture map[string]map[string]any
	if err := json.Unmarshal(raw, &fixture); err != nil {
		t.Fatal(err)
	}
	for _, role := range Roles {
		e := Default().For(role)
		want := map[string]any{
			"messagesPerDay": float64(e.MessagesPerDay), "sessionTokens": float64(e.SessionTokens), "voice": e.Voice(),
			"voicePerDay": float64(e.VoicePerDay), "summaries": e.Summaries, "insights": e.Insights, "community": e.Community, "memory": e.Memory,
			"moodPatterns": e.MoodPatterns,
		}
		if !reflect.DeepEqual(fixture[role], want) {
			t.Errorf("%s: fixture %v, table %v", role, fixture[role], want)
		}
	}
	if len(fixture) != len(Roles) {
		t.Errorf("fixture has %d roles, want %d", len(fixture), len(Roles))
	}
}
