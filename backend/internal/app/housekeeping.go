package app

import (
	"context"
	"log/slog"
	"time"

	dbgen "github.com/percolate/percolate/gen/db"
)

// keepSpentRows is how long housekeeping keeps rows that can no longer be used. The longest
// rate-limit window is an hour, e-mail links live for a day at most and login codes 60 s,
// so a day leaves every live row alone.
const keepSpentRows = 24 * time.Hour

// housekeep deletes what can no longer be used, older than keepSpentRows: rate-limit
// windows, ended logins (refresh-token families, their tokens with them), spent or expired
// e-mail links and one-time login codes. It returns how many rows each kind lost.
func housekeep(ctx context.Context, q *dbgen.Queries, now time.Time) (map[string]int64, error) {
	before := now.Add(-keepSpentRows)
	steps := []struct {
		name  string
		prune func(context.Context, time.Time) (int64, error)
	}{
		{"rate_limit_windows", q.PruneRateLimits},
		{"refresh_families", q.PruneRefreshFamilies},
		{"email_tokens", q.PruneEmailTokens},
		{"login_codes", q.PruneLoginCodes},
	}
	deleted := map[string]int64{}
	for _, s := range steps {
		n, err := s.prune(ctx, before)
		if err != nil {
			return deleted, err
		}
		deleted[s.name] = n
	}
	return deleted, nil
}

// runHousekeeping runs housekeep at once and then every interval until ctx ends. Several
// instances may run it together: deleting a row twice is harmless.
func runHousekeeping(ctx context.Context, q *dbgen.Queries, interval time.Duration, logger *slog.Logger) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		deleted, err := housekeep(ctx, q, time.Now())
		switch {
		case err != nil && ctx.Err() == nil:
			logger.Error("housekeeping", "error", err.Error())
		case err == nil:
			logger.Debug("housekeeping", "deleted", deleted)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
