package httpapi

import (
	"context"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	openapi_types "github.com/oapi-codegen/runtime/types"

	"github.com/percolate/percolate/backend/internal/checkin"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
	"github.com/percolate/percolate/gen/api"
	"github.com/percolate/percolate/gen/apiclient"
)

func checkinClient(t *testing.T) (*apiclient.ClientWithResponses, func(role string) apiclient.RequestEditorFn) {
	st := pgtest.New(t)
	h := newTestHandler(t, Deps{Verifier: userTokens{}, Checkins: checkin.New(st, nil)})
	return apiClient(t, h, "192.0.2.1"), func(role string) apiclient.RequestEditorFn { return bearerFor(t, st, role) }
}

// TestCheckinValidationNamesTheField: every bad value is a 400 whose details name its field.
func TestCheckinValidationNamesTheField(t *testing.T) {
	ctx := context.Background()
	c, user := checkinClient(t)
	ada := user("USER")
	six := `["joy","hope","calm","pride","love","sadness"]`
	nine := `["sleep","study","exams","friends","family","partner","exercise","work","money"]`
	for body, field := range map[string]string{
		`{}`:                                  "mood",
		`{"mood":0}`:                          "mood",
		`{"mood":6}`:                          "mood",
		`{"mood":2.5}`:                        "mood",
		`{"mood":"3"}`:                        "mood",
		`{"mood":3,"energy":0}`:               "energy",
		`{"mood":3,"energy":6}`:               "energy",
		`{"mood":3,"emotions":` + six + `}`:   "emotions",
		`{"mood":3,"emotions":["meh"]}`:       "emotions",
		`{"mood":3,"emotions":["joy","joy"]}`: "emotions",
		`{"mood":3,"tags":` + nine + `}`:      "tags",
		`{"mood":3,"tags":["gaming"]}`:        "tags",
		`{"mood":3,"tags":["sleep","sleep"]}`: "tags",
		`{"mood":3,"note":"` + strings.Repeat("a", 501) + `"}`: "note",
		`{"mood":3,"localDate":"2020-01-01"}`:                  "localDate",
		`{"mood":3,"localDate":"yesterday"}`:                   "localDate",
		`{"mood":3,"clientId":"not-a-uuid"}`:                   "clientId",
		`{"mood":3,"clientId":7}`:                              "clientId",
	} {
		res, err := c.CreateCheckinWithBodyWithResponse(ctx, "application/json", strings.NewReader(body), ada)
		if err != nil {
			t.Fatal(err)
		}
		v := wantValidationError(t, body[:min(len(body), 60)], res.StatusCode(), res.Body)
		named := false
		for k := range v.Details {
			named = named || k == field || strings.HasPrefix(k, field+".")
		}
		if !named {
			t.Errorf("%.60s: details %v do not name %s", body, v.Details, field)
		}
	}
	// 500 characters (not bytes) is fine, and nothing was stored by the refusals.
	res, err := c.CreateCheckinWithResponse(ctx, api.CheckinRequest{Mood: 3, Note: new(strings.Repeat("é", 500))}, ada)
	wantStatus(t, res, err, http.StatusCreated)
	list, err := c.ListCheckinsWithResponse(ctx, &api.ListCheckinsParams{}, ada)
	wantStatus(t, list, err, http.StatusOK)
	if len(*list.JSON200) != 1 || len(*(*list.JSON200)[0].Note) != 1000 {
		t.Fatalf("stored: %+v", *list.JSON200)
	}
	for params, field := range map[*api.ListCheckinsParams]string{
		{Limit: new(0)}:       "limit",
		{Limit: new(201)}:     "limit",
		{Cursor: new("nope")}: "cursor",
		{From: &openapi_types.Date{Time: time.Now()}, To: &openapi_types.Date{Time: time.Now().AddDate(0, 0, -2)}}: "to",
	} {
		res, err := c.ListCheckinsWithResponse(ctx, params, ada)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := wantValidationError(t, field, res.StatusCode(), res.Body).Details[field]; !ok {
			t.Errorf("list %s: %s", field, res.Body)
		}
	}
	sum, err := c.GetCheckinSummaryWithResponse(ctx, &api.GetCheckinSummaryParams{Days: new(api.GetCheckinSummaryParamsDays(7))}, ada)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := wantValidationError(t, "days", sum.StatusCode(), sum.Body).Details["days"]; !ok {
		t.Errorf("days: %s", sum.Body)
	}
	id := res.JSON201.Checkin.Id
	up, err := c.UpdateCheckinWithBodyWithResponse(ctx, id, "application/json", strings.NewReader(`{"mood":9}`), ada)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := wantValidationError(t, "patch mood", up.StatusCode(), up.Body).Details["mood"]; !ok {
		t.Errorf("patch mood: %s", up.Body)
	}
}

// TestCheckinsOverHTTP: create, page, change and delete, each user seeing only their own, the
// note through the crisis screen and the year view and tag patterns for paid tiers.
func TestCheckinsOverHTTP(t *testing.T) {
	ctx := context.Background()
	c, user := checkinClient(t)
	ada, bob := user("USER"), user("BASIC")

	var ids []openapi_types.UUID
	for i := range 5 {
		res, err := c.CreateCheckinWithResponse(ctx, api.CheckinRequest{Mood: i%5 + 1, Energy: new(2), Tags: &[]api.CheckinTag{api.CheckinTagSleep}, Emotions: &[]api.Emotion{api.Tiredness}}, ada)
		wantStatus(t, res, err, http.StatusCreated)
		if res.JSON201.Safety != nil || res.JSON201.LowStreak != nil {
			t.Errorf("a plain check-in: %+v", res.JSON201)
		}
		ids = append(ids, res.JSON201.Checkin.Id)
	}
	// Pages of two, newest first, following Link.
	var seen []openapi_types.UUID
	params := &api.ListCheckinsParams{Limit: new(2)}
	for range 4 {
		res, err := c.ListCheckinsWithResponse(ctx, params, ada)
		wantStatus(t, res, err, http.StatusOK)
		for _, it := range *res.JSON200 {
			seen = append(seen, it.Id)
		}
		link := res.HTTPResponse.Header.Get("Link")
		if link == "" {
			break
		}
		if !strings.HasPrefix(link, "</api/checkins?") || !strings.HasSuffix(link, `>; rel="next"`) || !strings.Contains(link, "limit=2") {
			t.Fatalf("Link = %q", link)
		}
		cursor := strings.TrimSuffix(strings.SplitN(strings.SplitN(link, "cursor=", 2)[1], "&", 2)[0], `>; rel="next"`)
		params = &api.ListCheckinsParams{Limit: new(2), Cursor: new(cursor)}
	}
	if len(seen) != 5 {
		t.Fatalf("paged %d check-ins, want 5", len(seen))
	}
	for i := range seen {
		if seen[i] != ids[4-i] {
			t.Fatalf("order %v, want newest first of %v", seen, ids)
		}
	}
	// Another user sees none of them, cannot change or delete them.
	list, err := c.ListCheckinsWithResponse(ctx, &api.ListCheckinsParams{}, bob)
	wantStatus(t, list, err, http.StatusOK)
	if len(*list.JSON200) != 0 {
		t.Fatalf("bob sees %d check-ins", len(*list.JSON200))
	}
	up, err := c.UpdateCheckinWithResponse(ctx, ids[0], api.CheckinUpdate{Mood: new(5)}, bob)
	wantStatus(t, up, err, http.StatusNotFound)
	del, err := c.DeleteCheckinWithResponse(ctx, ids[0], bob)
	wantStatus(t, del, err, http.StatusNotFound)

	// A change keeps what was not sent; an empty list clears; a risky note answers with safety.
	up, err = c.UpdateCheckinWithResponse(ctx, ids[0], api.CheckinUpdate{Mood: new(4), Tags: &[]api.CheckinTag{}, Note: new("I want to kill myself")}, ada)
	wantStatus(t, up, err, http.StatusOK)
	got := up.JSON200
	if got.Checkin.Mood != 4 || *got.Checkin.Energy != 2 || len(got.Checkin.Tags) != 0 || len(got.Checkin.Emotions) != 1 || got.Safety == nil || got.Safety.Category == "" {
		t.Fatalf("changed: %+v", got)
	}
	del, err = c.DeleteCheckinWithResponse(ctx, ids[0], ada)
	wantStatus(t, del, err, http.StatusNoContent)
	del, err = c.DeleteCheckinWithResponse(ctx, ids[0], ada)
	wantStatus(t, del, err, http.StatusNotFound)

	// The year view is for paid tiers; a free 30-day summary has no tag patterns.
	year := api.GetCheckinSummaryParamsDays(365)
	sum, err := c.GetCheckinSummaryWithResponse(ctx, &api.GetCheckinSummaryParams{Days: &year}, ada)
	wantStatus(t, sum, err, http.StatusForbidden)
	if sum.JSON403.Code != "MOOD_PATTERNS_NOT_INCLUDED" {
		t.Errorf("free year view: %s", sum.Body)
	}
	sum, err = c.GetCheckinSummaryWithResponse(ctx, &api.GetCheckinSummaryParams{}, ada)
	wantStatus(t, sum, err, http.StatusOK)
	if sum.JSON200.Tags != nil || sum.JSON200.Days != 30 || len(sum.JSON200.PerDay) != 1 || sum.JSON200.PerDay[0].Count != 4 {
		t.Errorf("free 30 days: %s", sum.Body)
	}
	sum, err = c.GetCheckinSummaryWithResponse(ctx, &api.GetCheckinSummaryParams{Days: &year}, bob)
	wantStatus(t, sum, err, http.StatusOK)
	if sum.JSON200.Tags == nil || sum.JSON200.Days != 365 || len(sum.JSON200.PerDay) != 0 {
		t.Errorf("paid year view: %s", sum.Body)
	}
}

// TestCheckinClientIDStoresOnce: a check-in sent again with the same clientId (a kept offline
// check-in whose first answer was lost) is stored once, and the repeat answers 200 with the
// same check-in; other content under that clientId is a 409; another user's same clientId is
// their own check-in.
func TestCheckinClientIDStoresOnce(t *testing.T) {
	ctx := context.Background()
	c, user := checkinClient(t)
	ada, bob := user("USER"), user("USER")
	key := openapi_types.UUID(uuid.New())
	body := api.CheckinRequest{Mood: 2, Energy: new(4), Emotions: &[]api.Emotion{api.Tiredness}, Tags: &[]api.CheckinTag{api.CheckinTagExams}, Note: new("  I want to kill myself  "), ClientId: &key}

	first, err := c.CreateCheckinWithResponse(ctx, body, ada)
	wantStatus(t, first, err, http.StatusCreated)
	if first.JSON201.Safety == nil {
		t.Fatalf("a risky note is screened: %+v", first.JSON201)
	}
	again, err := c.CreateCheckinWithResponse(ctx, body, ada)
	wantStatus(t, again, err, http.StatusOK)
	if !reflect.DeepEqual(again.JSON200, first.JSON201) {
		t.Errorf("the repeat answers %+v\nthe first %+v", again.JSON200, first.JSON201)
	}
	list, err := c.ListCheckinsWithResponse(ctx, &api.ListCheckinsParams{}, ada)
	wantStatus(t, list, err, http.StatusOK)
	if len(*list.JSON200) != 1 || (*list.JSON200)[0].Id != first.JSON201.Checkin.Id {
		t.Fatalf("stored: %+v", *list.JSON200)
	}

	// The same clientId with other content: a conflict, nothing stored.
	other := body
	other.Mood = 5
	conflict, err := c.CreateCheckinWithResponse(ctx, other, ada)
	wantStatus(t, conflict, err, http.StatusConflict)
	// Another user's same clientId is theirs.
	theirs, err := c.CreateCheckinWithResponse(ctx, other, bob)
	wantStatus(t, theirs, err, http.StatusCreated)
	if theirs.JSON201.Checkin.Id == first.JSON201.Checkin.Id || theirs.JSON201.Checkin.Mood != 5 {
		t.Errorf("bob's check-in: %+v", theirs.JSON201.Checkin)
	}
	// Without a clientId, two sends are two check-ins.
	for range 2 {
		res, err := c.CreateCheckinWithResponse(ctx, api.CheckinRequest{Mood: 3}, ada)
		wantStatus(t, res, err, http.StatusCreated)
	}
	list, err = c.ListCheckinsWithResponse(ctx, &api.ListCheckinsParams{}, ada)
	wantStatus(t, list, err, http.StatusOK)
	if len(*list.JSON200) != 3 {
		t.Fatalf("ada has %d check-ins, want 3", len(*list.JSON200))
	}
}

// TestKeptCheckinSentDaysLater: a check-in kept offline over a weekend (its clientId set, its
// localDate two days back) is stored on its own day; without a clientId that date is refused,
// and so is a kept one dated beyond the contract's days back.
func TestKeptCheckinSentDaysLater(t *testing.T) {
	ctx := context.Background()
	c, user := checkinClient(t)
	ada := user("USER")
	dated := func(days int) *openapi_types.Date {
		return &openapi_types.Date{Time: time.Now().UTC().AddDate(0, 0, -days)}
	}
	key := openapi_types.UUID(uuid.New())
	kept, err := c.CreateCheckinWithResponse(ctx, api.CheckinRequest{Mood: 2, LocalDate: dated(2), ClientId: &key}, ada)
	wantStatus(t, kept, err, http.StatusCreated)
	if got := kept.JSON201.Checkin.LocalDate.String(); got != dated(2).String() {
		t.Errorf("stored on %s, want %s", got, dated(2))
	}
	plain, err := c.CreateCheckinWithResponse(ctx, api.CheckinRequest{Mood: 2, LocalDate: dated(2)}, ada)
	if err != nil {
		t.Fatal(err)
	}
	if v := wantValidationError(t, "without a clientId", plain.StatusCode(), plain.Body); v.Details["localDate"] != "Must be today's date on your device." {
		t.Errorf("without a clientId: %v", v.Details)
	}
	old, err := c.CreateCheckinWithResponse(ctx, api.CheckinRequest{Mood: 2, LocalDate: dated(checkin.KeptDaysBack + 1), ClientId: new(openapi_types.UUID(uuid.New()))}, ada)
	if err != nil {
		t.Fatal(err)
	}
	if v := wantValidationError(t, "too old", old.StatusCode(), old.Body); v.Details["localDate"] != "Must be a date in the last 7 days on your device." {
		t.Errorf("too old: %v", v.Details)
	}
	list, err := c.ListCheckinsWithResponse(ctx, &api.ListCheckinsParams{}, ada)
	wantStatus(t, list, err, http.StatusOK)
	if len(*list.JSON200) != 1 || (*list.JSON200)[0].Id != kept.JSON201.Checkin.Id {
		t.Fatalf("stored: %+v", *list.JSON200)
	}
}
