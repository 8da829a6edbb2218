package app

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/riverqueue/river"

	"github.com/percolate/percolate/backend/internal/contact"
	dbgen "github.com/percolate/percolate/gen/db"
)

// keepSpentRows is how long housekeeping keeps rows that can no longer be used. The longest
// rate-limit window is an hour, e-mail links live for a day at most and login codes 60 s,
// so a day leaves every live row alone.
const keepSpentRows = 24 * time.Hour

// housekeep deletes what can no longer be used, older than keepSpentRows: rate-limit
// windows, ended logins (refresh-token families, their tokens with them), spent or expired
// e-mail links and one-time login codes; and contact messages older than contact.Retention,
// which the privacy page promises. It returns how many rows each kind lost.
func housekeep(ctx context.Context, q *dbgen.Queries, now time.Time) (map[string]int64, error) {
	steps := []struct {
		name  string
		keep  time.Duration
		prune func(context.Context, time.Time) (int64, error)
	}{
		{"rate_limit_windows", keepSpentRows, q.PruneRateLimits},
		{"refresh_families", keepSpentRows, q.PruneRefreshFamilies},
		{"email_tokens", keepSpentRows, q.PruneEmailTokens},
		{"login_codes", keepSpentRows, q.PruneLoginCodes},
		{"contact_messages", contact.Retention, q.PruneContactMessages},
	}
	deleted := map[string]int64{}
	for _, s := range steps {
		n, err := s.prune(ctx, now.Add(-s.keep))
		if err != nil {
			return deleted, err
		}
		deleted[s.name] = n
	}
	return deleted, nil
}

// HousekeepingArgs asks for a housekeeping run. It runs on a schedule (see schedule).
type HousekeepingArgs struct{}

// Kind implements river.JobArgs.
func (HousekeepingArgs) Kind() string { return "housekeeping" }

// InsertOpts: a failed run is tried again a few times; the next scheduled one would
// delete the same rows anyway.
func (HousekeepingArgs) InsertOpts() river.InsertOpts { return river.InsertOpts{MaxAttempts: 3} }

type housekeepingWorker struct {
	river.WorkerDefaults[HousekeepingArgs]
	q      *dbgen.Queries
	logger *slog.Logger
}

func (w *housekeepingWorker) Work(ctx context.Context, _ *river.Job[HousekeepingArgs]) error {
	deleted, err := housekeep(ctx, w.q, time.Now())
	if err != nil {
		return fmt.Errorf("housekeeping: %w", err)
	}
	w.logger.Debug("housekeeping", "deleted", deleted)
	return nil
}
