package httpapi

import (
	"net/http"
	"strings"
	"testing"

	api "github.com/percolate/percolate/gen/api"
	"github.com/percolate/percolate/gen/apiclient"
)

// The profile's country is the caller's own: set in any case and stored upper case, refused
// unless it is an ISO 3166-1 alpha-2 code, cleared with an empty string, and never seen or
// changed by another account.
func TestProfileCountry(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	ctx := t.Context()
	a := e.signUp("Ada", "ada@example.com", "brew-a-fresh-pot")
	b := e.signUp("Bo", "bo@example.com", "steamed-milk-42")
	put := func(tok, body string) *apiclient.UpdateProfileAnswer {
		t.Helper()
		res, err := e.api.UpdateProfileWithBodyWithResponse(ctx, "application/json", strings.NewReader(body), bearer(tok))
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	r := put(a.access, `{"country": "gb"}`)
	wantStatus(t, r, nil, http.StatusOK)
	if r.JSON200.Country == nil || *r.JSON200.Country != "GB" {
		t.Fatalf("country = %v, want GB", r.JSON200.Country)
	}
	got, err := e.api.GetProfileWithResponse(ctx, bearer(a.access))
	wantStatus(t, got, err, http.StatusOK)
	if got.JSON200.Country == nil || *got.JSON200.Country != "GB" {
		t.Fatalf("read back: country = %v, want GB", got.JSON200.Country)
	}
	// Another account neither sees it nor has it.
	other, err := e.api.GetProfileWithResponse(ctx, bearer(b.access))
	wantStatus(t, other, err, http.StatusOK)
	if other.JSON200.Country != nil {
		t.Fatalf("another account's country = %v, want none", *other.JSON200.Country)
	}
	wantStatus(t, put(b.access, `{"country": "fr"}`), nil, http.StatusOK)
	got, err = e.api.GetProfileWithResponse(ctx, bearer(a.access))
	wantStatus(t, got, err, http.StatusOK)
	if *got.JSON200.Country != "GB" {
		t.Fatalf("after another account changed its own: country = %v, want GB", *got.JSON200.Country)
	}
	for _, body := range []string{`{"country": "XX"}`, `{"country": "UK"}`, `{"country": "G1"}`, `{"country": "GBR"}`, `{"country": 44}`} {
		r := put(a.access, body)
		wantStatus(t, r, nil, http.StatusBadRequest)
		if d := accDetails(t, r.JSON400); d["country"] == "" {
			t.Errorf("%s: details[country] is empty: %v", body, d)
		}
	}
	// Clearing it leaves the age alone.
	wantStatus(t, put(a.access, `{"age": 30}`), nil, http.StatusOK)
	r = put(a.access, `{"country": ""}`)
	wantStatus(t, r, nil, http.StatusOK)
	if r.JSON200.Country != nil || r.JSON200.Age == nil || *r.JSON200.Age != 30 {
		t.Fatalf("cleared: country = %v, age = %v", r.JSON200.Country, r.JSON200.Age)
	}
	res, err := e.api.UpdateProfileWithBodyWithResponse(ctx, "application/json", strings.NewReader(`{"country": "GB"}`))
	wantStatus(t, res, err, http.StatusUnauthorized)
}

// The resources of a country are public, so the /safety page works signed out.
func TestSafetyResourcesArePublicAndPerCountry(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	ctx := t.Context()
	get := func(country *string) *api.SafetyResources {
		t.Helper()
		res, err := e.api.GetSafetyResourcesWithResponse(ctx, &api.GetSafetyResourcesParams{Country: country})
		wantStatus(t, res, err, http.StatusOK)
		return res.JSON200
	}
	gb := get(new("gb"))
	if !gb.Covered || gb.Emergency != "999" || gb.Country == nil || *gb.Country != "GB" {
		t.Fatalf("GB = %+v", gb)
	}
	var samaritans *api.HelpLine
	for i, l := range gb.Lines {
		if l.Source == "" || l.Checked == "" {
			t.Errorf("GB line %q has no source or date", l.Name)
		}
		if l.Name == "Samaritans" {
			samaritans = &gb.Lines[i]
		}
	}
	if samaritans == nil || samaritans.CallDial == nil || *samaritans.CallDial != "116123" {
		t.Fatalf("GB Samaritans = %+v", samaritans)
	}
	if zz := get(new("ZZ")); zz.Covered || zz.Emergency != "" || len(zz.Lines) != 0 || zz.FallbackUrl != "https://findahelpline.com" {
		t.Fatalf("ZZ = %+v, want the fallback only", zz)
	}
	if all := get(nil); len(all.Countries) < 20 || all.Country != nil {
		t.Fatalf("no country: %d countries listed, country %v", len(all.Countries), all.Country)
	}
	res, err := e.api.GetSafetyResourcesWithResponse(ctx, &api.GetSafetyResourcesParams{Country: new("G1")})
	wantStatus(t, res, err, http.StatusBadRequest)
}
