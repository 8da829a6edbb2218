package insights

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/llmtest"
	"github.com/percolate/percolate/backend/internal/config"
	"github.com/percolate/percolate/backend/internal/mail"
	"github.com/percolate/percolate/backend/internal/queue"
	"github.com/percolate/percolate/backend/internal/queue/queuetest"
	"github.com/percolate/percolate/backend/internal/store"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
	dbgen "github.com/percolate/percolate/gen/db"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func TestWeekStartIsMondayUTC(t *testing.T) {
	cases := map[string]string{
		"2026-11-23T00:00:00Z": "2026-11-23", // Monday
		"2026-11-22T23:59:59Z": "2026-11-16", // Sunday
		"2026-11-25T12:00:00Z": "2026-11-23",
	}
	for in, want := range cases {
		ts, _ := time.Parse(time.RFC3339, in)
		if got := WeekStart(ts).Format("2006-01-02"); got != want {
			t.Errorf("WeekStart(%s) = %s, want %s", in, got, want)
		}
	}
}

func ptr[T any](v T) *T { return &v }

func TestBuildCountsEmotionsThemesAndSuggests(t *testing.T) {
	r := Build([]dbgen.ListEndedSessionsBetweenRow{
		{Title: "Exam pressure", Summary: ptr("Worried about exams and sleep."), Emotions: []string{"anxiety", "tiredness"}},
		{Title: "Roommate trouble", Summary: ptr("Exams again, and a roommate argument."), Emotions: []string{"anxiety", "frustration"}},
		{Title: "A calmer evening", Emotions: []string{"calm"}},
	})
	if r.SessionCount != 3 || len(r.Emotions) != 4 || r.Emotions[0] != (EmotionCount{"anxiety", 2}) {
		t.Fatalf("emotions: %+v", r)
	}
	if len(r.Themes) == 0 || r.Themes[0] != "exams" {
		t.Errorf("themes: %v (want 'exams' first: it returns in two sessions)", r.Themes)
	}
	for _, th := range r.Themes {
		if th == "calmer" {
			t.Errorf("a word from one session only is not a theme: %v", r.Themes)
		}
	}
	if r.Suggestion != suggestions["anxiety"] {
		t.Errorf("suggestion: %q", r.Suggestion)
	}
	for _, s := range suggestions {
		if strings.Contains(strings.ToLower(s), "therap") {
			t.Errorf("a suggestion mentions therapy: %q", s)
		}
	}
}

func endedSession(t *testing.T, st *store.Store, user uuid.UUID, title string, emotions []string, endedAt time.Time) {
	t.Helper()
	_, err := st.Pool().Exec(context.Background(),
		`INSERT INTO chat_sessions (user_id, title, status, summary, emotions, ended_at) VALUES ($1, $2, 'ENDED', 'A summary.', $3, $4)`,
		user, title, emotions, endedAt)
	if err != nil {
		t.Fatal(err)
	}
}

func TestRunOnceMakesOneReportPerPremiumUserAcrossInstances(t *testing.T) {
	st := pgtest.New(t)
	ctx := context.Background()
	q := st.Queries()
	now := time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC) // Wednesday; last week began Nov 16
	var premium []dbgen.User
	for i, role := range []string{"PREMIUM", "PREMIUM", "BASIC", "USER"} {
		u, err := q.CreateUser(ctx, dbgen.CreateUserParams{Email: string(rune('a'+i)) + "@example.com", Name: "N"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := q.SetUserRoleByEmail(ctx, dbgen.SetUserRoleByEmailParams{Role: role, Email: u.Email}); err != nil {
			t.Fatal(err)
		}
		endedSession(t, st, u.ID, "Last week", []string{"stress"}, time.Date(2026, 11, 18, 10, 0, 0, 0, time.UTC))
		if role == "PREMIUM" {
			premium = append(premium, u)
		}
	}
	// Outside the week: not counted.
	endedSession(t, st, premium[0].ID, "This week", []string{"joy"}, time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC))

	dir := t.TempDir()
	var wg sync.WaitGroup
	made := make([]int, 2)
	queues := make([]*queue.Queue, 2)
	for i := 0; i < 2; i++ {
		sender, err := mail.New(config.Mail{From: "Percolate <no-reply@localhost>"}, dir, quiet)
		if err != nil {
			t.Fatal(err)
		}
		queues[i] = queuetest.NewWith(t, st, queue.Config{ID: fmt.Sprintf("instance-%d", i)})
		svc := New(st, queues[i], sender, "http://app.test", nil, quiet)
		svc.Now = func() time.Time { return now }
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			n, err := svc.RunOnce(ctx)
			if err != nil {
				t.Error(err)
			}
			made[i] = n
		}(i)
	}
	wg.Wait()
	if made[0]+made[1] != 2 {
		t.Fatalf("instances stored %v reports, want 2 in all", made)
	}
	// Each stored report queued its mail; either instance may send it.
	for _, q := range queues {
		queuetest.Start(t, q)
	}
	queuetest.Drain(t, queues[0])
	if jobs := queuetest.Jobs(t, queues[0], ReportMailArgs{}.Kind()); len(jobs) != 2 {
		t.Fatalf("%d report mails queued, want one per report", len(jobs))
	}
	mails, _ := filepath.Glob(filepath.Join(mail.OutboxDir(dir), "*.eml"))
	if len(mails) != 2 {
		t.Fatalf("%d mails, want one per Premium user", len(mails))
	}
	raw, _ := os.ReadFile(mails[0])
	if !strings.Contains(string(raw), "Your week with Percolate") {
		t.Errorf("mail subject missing")
	}

	reports, err := q.ListWeeklyReportsForUser(ctx, premium[0].ID)
	if err != nil || len(reports) != 1 || reports[0].WeekStart.Format("2006-01-02") != "2026-11-16" {
		t.Fatalf("reports: %+v %v", reports, err)
	}
	var got Report
	if err := json.Unmarshal(reports[0].Content, &got); err != nil {
		t.Fatal(err)
	}
	if got.SessionCount != 1 || len(got.Emotions) != 1 || got.Emotions[0].Emotion != "stress" {
		t.Errorf("content counts sessions outside the week: %+v", got)
	}

	// A second run the same week makes nothing new.
	sender, _ := mail.New(config.Mail{From: "Percolate <no-reply@localhost>"}, dir, quiet)
	svc := New(st, queuetest.New(t, st), sender, "http://app.test", nil, quiet)
	svc.Now = func() time.Time { return now.Add(time.Hour) }
	if n, err := svc.RunOnce(ctx); err != nil || n != 0 {
		t.Fatalf("second run: %d %v", n, err)
	}
}

func TestListIsForPremium(t *testing.T) {
	st := pgtest.New(t)
	ctx := context.Background()
	svc := New(st, queuetest.New(t, st), nil, "http://app.test", nil, quiet)
	u, err := st.Queries().CreateUser(ctx, dbgen.CreateUserParams{Email: "free@example.com", Name: "F"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.List(ctx, u.ID); !errors.Is(err, apperr.ErrForbidden) {
		t.Fatalf("USER: %v", err)
	}
	if _, err := st.Queries().SetUserRoleByEmail(ctx, dbgen.SetUserRoleByEmailParams{Role: "PREMIUM", Email: u.Email}); err != nil {
		t.Fatal(err)
	}
	if r, err := svc.List(ctx, u.ID); err != nil || len(r) != 0 {
		t.Fatalf("PREMIUM: %v %v", r, err)
	}
}

func TestSuggestionFromTheModelIsCheckedAndFallsBack(t *testing.T) {
	cases := []struct {
		name   string
		script llmtest.Script
		want   string
	}{
		{"model", llmtest.Script{Chunks: []string{"Try a short walk ", "after class each day."}}, "Try a short walk after class each day."},
		{"clinical words refused", llmtest.Script{Chunks: []string{"You should book therapy."}}, suggestions["stress"]},
		{"model down", llmtest.Script{Fail: 500}, suggestions["stress"]},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := pgtest.New(t)
			ctx := context.Background()
			llm := llmtest.New(t)
			llm.SetDefault(c.script)
			u, err := st.Queries().CreateUser(ctx, dbgen.CreateUserParams{Email: "m@example.com", Name: "M"})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := st.Queries().SetUserRoleByEmail(ctx, dbgen.SetUserRoleByEmailParams{Role: "PREMIUM", Email: u.Email}); err != nil {
				t.Fatal(err)
			}
			endedSession(t, st, u.ID, "Busy week", []string{"stress"}, time.Date(2026, 11, 18, 10, 0, 0, 0, time.UTC))
			sender, _ := mail.New(config.Mail{From: "Percolate <no-reply@localhost>"}, t.TempDir(), quiet)
			svc := New(st, queuetest.New(t, st), sender, "http://app.test", companion.New(config.LLM{BaseURL: llm.URL(), Model: "m"}), quiet)
			svc.Now = func() time.Time { return time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC) }
			if n, err := svc.RunOnce(ctx); err != nil || n != 1 {
				t.Fatalf("run: %d %v", n, err)
			}
			rows, _ := st.Queries().ListWeeklyReportsForUser(ctx, u.ID)
			var r Report
			if err := json.Unmarshal(rows[0].Content, &r); err != nil {
				t.Fatal(err)
			}
			if r.Suggestion != c.want {
				t.Fatalf("suggestion %q, want %q", r.Suggestion, c.want)
			}
			if reqs := llm.Requests(); len(reqs) == 0 || !strings.Contains(reqs[0].Messages[0].Content, "never mention therapy") {
				t.Fatalf("the model was not asked with the non-clinical instruction: %+v", reqs)
			}
		})
	}
}
