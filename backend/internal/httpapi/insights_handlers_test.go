package httpapi

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/percolate/percolate/backend/internal/insights"
	"github.com/percolate/percolate/backend/internal/queue/queuetest"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
	dbgen "github.com/percolate/percolate/gen/db"
)

func TestWeeklyReportsOverHTTP(t *testing.T) {
	st := pgtest.New(t)
	ctx := context.Background()
	svc := insights.New(st, queuetest.New(t, st), nil, "http://app.test", nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
	h := newTestHandler(t, Deps{Verifier: userTokens{}, Insights: svc})
	u, err := st.Queries().CreateUser(ctx, dbgen.CreateUserParams{Email: "p@example.com", Name: "P"})
	if err != nil {
		t.Fatal(err)
	}
	auth := []string{"Authorization", "Bearer token-" + u.ID.String()}
	if res := do(h, "GET", "/api/insights/weekly", "", auth...); res.Code != http.StatusForbidden {
		t.Fatalf("USER: %d %s", res.Code, res.Body)
	}
	if _, err := st.Queries().SetUserRoleByEmail(ctx, dbgen.SetUserRoleByEmailParams{Role: "PREMIUM", Email: u.Email}); err != nil {
		t.Fatal(err)
	}
	week := time.Date(2026, 11, 16, 0, 0, 0, 0, time.UTC)
	if _, err := st.Queries().InsertWeeklyReport(ctx, dbgen.InsertWeeklyReportParams{UserID: u.ID, WeekStart: week,
		Content: []byte(`{"sessionCount":2,"emotions":[{"emotion":"stress","count":2}],"themes":["exams"],"suggestion":"Rest."}`)}); err != nil {
		t.Fatal(err)
	}
	res := do(h, "GET", "/api/insights/weekly", "", auth...)
	if res.Code != http.StatusOK {
		t.Fatalf("PREMIUM: %d %s", res.Code, res.Body)
	}
	var list []map[string]any
	if err := json.Unmarshal(res.Body.Bytes(), &list); err != nil || len(list) != 1 || list[0]["weekStart"] != "2026-11-16" || list[0]["suggestion"] != "Rest." {
		t.Fatalf("reports: %v %v", list, err)
	}
}

// A token of an account that is gone (deleted between the token check and the handler) is a
// 401, as on every other operation, never a 404 the contract does not list. Found by the
// contract fuzzer.
func TestWeeklyReportsOfAGoneAccountAre401(t *testing.T) {
	st := pgtest.New(t)
	svc := insights.New(st, queuetest.New(t, st), nil, "http://app.test", nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
	h := newTestHandler(t, Deps{Verifier: userTokens{}, Insights: svc})
	if res := do(h, "GET", "/api/insights/weekly", "", "Authorization", "Bearer token-3f2b8c1e-7a4d-4e8b-9c1a-2b3c4d5e6f70"); res.Code != http.StatusUnauthorized {
		t.Fatalf("gone account: %d %s", res.Code, res.Body)
	}
}
