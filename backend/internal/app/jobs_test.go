package app

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/percolate/percolate/backend/internal/config"
	"github.com/percolate/percolate/backend/internal/insights"
	"github.com/percolate/percolate/backend/internal/mail"
	"github.com/percolate/percolate/backend/internal/queue/queuetest"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
)

// TestScheduledJobsRunTheirWork starts a queue with the schedule of Serve and expects the
// periodic jobs to run at start: housekeeping deletes a spent rate-limit window, and the
// weekly reports job stores a Premium user's report of last week and mails it.
func TestScheduledJobsRunTheirWork(t *testing.T) {
	ctx := context.Background()
	st := pgtest.New(t)
	pgtest.Exec(t, st, `INSERT INTO rate_limits (key, window_start, count) VALUES ('spent', now() - interval '2 days', 3), ('live', now(), 1)`)
	user := pgtest.User(t, st, "PREMIUM").ID
	lastWeek := insights.WeekStart(time.Now()).AddDate(0, 0, -4)
	pgtest.Exec(t, st, `INSERT INTO chat_sessions (user_id, title, status, summary, emotions, ended_at) VALUES ($1, 'Exams', 'ENDED', 'A summary.', '{stress}', $2)`, user, lastWeek)

	logger := slog.New(slog.DiscardHandler)
	dataDir := t.TempDir()
	sender, err := mail.New(config.Mail{From: "Percolate <no-reply@localhost>"}, dataDir, logger)
	if err != nil {
		t.Fatal(err)
	}
	q := queuetest.New(t, st)
	insights.New(st, q, sender, "http://app.test", nil, logger)
	schedule(q, st, logger)
	queuetest.Start(t, q)

	queuetest.WaitCompleted(t, q, HousekeepingArgs{}.Kind())
	var keys []string
	rows, err := st.Pool().Query(ctx, `SELECT key FROM rate_limits ORDER BY key`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var k string
		_ = rows.Scan(&k)
		keys = append(keys, k)
	}
	if strings.Join(keys, ",") != "live" {
		t.Errorf("rate-limit windows left: %v, want only the live one", keys)
	}

	queuetest.WaitCompleted(t, q, insights.ReportsArgs{}.Kind())
	queuetest.Drain(t, q) // the report's mail
	var reports int
	if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM weekly_reports WHERE user_id = $1`, user).Scan(&reports); err != nil || reports != 1 {
		t.Fatalf("%d weekly reports for the Premium user (%v), want 1", reports, err)
	}
	mails, _ := filepath.Glob(filepath.Join(mail.OutboxDir(dataDir), "*.eml"))
	if len(mails) != 1 {
		t.Fatalf("%d mails in the outbox, want the report's", len(mails))
	}
	if raw, _ := os.ReadFile(mails[0]); !strings.Contains(string(raw), "Your week with Percolate") {
		t.Errorf("the mail is not the weekly report:\n%s", raw)
	}
}
