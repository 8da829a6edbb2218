package httpapi

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/percolate/percolate/backend/internal/insights"
	"github.com/percolate/percolate/backend/internal/queue/queuetest"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
	"github.com/percolate/percolate/gen/api"
	dbgen "github.com/percolate/percolate/gen/db"
)

func TestWeeklyReportsOverHTTP(t *testing.T) {
	st := pgtest.New(t)
	ctx := context.Background()
	svc := insights.New(st, queuetest.New(t, st), nil, "http://app.test", nil, discardLogger())
	h := newTestHandler(t, Deps{Verifier: userTokens{}, Insights: svc})
	u := pgtest.User(t, st, "USER")
	c, auth := apiClient(t, h, "192.0.2.1"), bearer("token-"+u.ID.String())
	res, err := c.ListWeeklyReportsWithResponse(ctx, auth)
	wantStatus(t, res, err, http.StatusForbidden)
	if _, err := st.Queries().SetUserRoleByEmail(ctx, dbgen.SetUserRoleByEmailParams{Role: "PREMIUM", Email: u.Email}); err != nil {
		t.Fatal(err)
	}
	week := time.Date(2026, 11, 16, 0, 0, 0, 0, time.UTC)
	if _, err := st.Queries().InsertWeeklyReport(ctx, dbgen.InsertWeeklyReportParams{UserID: u.ID, WeekStart: week,
		Content: []byte(`{"sessionCount":2,"emotions":[{"emotion":"stress","count":2}],"themes":["exams"],"suggestion":"Rest.",` +
			`"checkins":{"count":3,"lowestMood":2,"highestMood":4,"tags":[{"tag":"alone time","count":2}]}}`)}); err != nil {
		t.Fatal(err)
	}
	res, err = c.ListWeeklyReportsWithResponse(ctx, auth)
	wantStatus(t, res, err, http.StatusOK)
	if n := len(*res.JSON200); n != 2 {
		t.Fatalf("%d reports, want this week so far and 1 stored: %s", n, res.Body)
	}
	if so := (*res.JSON200)[0]; so.SoFar == nil || !*so.SoFar {
		t.Errorf("the first report is not this week so far: %+v", so)
	}
	if c := (*res.JSON200)[0].Checkins; c == nil || c.Count != 0 || c.LowestMood != nil || c.HighestMood != nil || c.Tags == nil {
		t.Errorf("this week's check-ins, none: %+v", c)
	}
	if c := (*res.JSON200)[1].Checkins; c == nil || c.Count != 3 || *c.LowestMood != 2 || *c.HighestMood != 4 || len(c.Tags) != 1 || c.Tags[0] != (api.TagCount{Tag: api.CheckinTagAloneTime, Count: 2}) {
		t.Errorf("the stored report's check-ins: %+v", c)
	}
	r := (*res.JSON200)[1]
	if r.SoFar == nil || *r.SoFar {
		t.Errorf("the stored report says soFar: %+v", r)
	}
	if got := r.WeekStart.String(); got != "2026-11-16" {
		t.Errorf("weekStart = %s, want 2026-11-16", got)
	}
	if r.Suggestion != "Rest." {
		t.Errorf("suggestion = %q, want Rest.", r.Suggestion)
	}
	if r.SessionCount != 2 {
		t.Errorf("sessionCount = %d, want 2", r.SessionCount)
	}
	if len(r.Emotions) != 1 || r.Emotions[0] != (api.EmotionCount{Emotion: api.Stress, Count: 2}) {
		t.Errorf("emotions = %+v, want stress twice", r.Emotions)
	}
	if strings.Join(r.Themes, "|") != "exams" {
		t.Errorf("themes = %q, want exams", r.Themes)
	}
}

// A token of an account that is gone (deleted between the token check and the handler) is a
// 401, as on every other operation, never a 404 the contract does not list. Found by the
// contract fuzzer.
func TestWeeklyReportsOfAGoneAccountAre401(t *testing.T) {
	st := pgtest.New(t)
	svc := insights.New(st, queuetest.New(t, st), nil, "http://app.test", nil, discardLogger())
	h := newTestHandler(t, Deps{Verifier: userTokens{}, Insights: svc})
	res, err := apiClient(t, h, "192.0.2.1").ListWeeklyReportsWithResponse(context.Background(), bearer("token-3f2b8c1e-7a4d-4e8b-9c1a-2b3c4d5e6f70"))
	wantStatus(t, res, err, http.StatusUnauthorized)
}
