package reminders

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/percolate/percolate/backend/internal/store/pgtest"
	dbgen "github.com/percolate/percolate/gen/db"
)

// BenchmarkSelectDueReminders: the dispatch's claim among 100,000 users with reminders, 1,000
// of them due (the rest over the coming week): one claim of a batch, rolled back so every
// iteration finds the same rows. Reports p50 and p95 in ms (the target is p50 ≤ 20 ms).
func BenchmarkSelectDueReminders(b *testing.B) {
	st := pgtest.New(b)
	ctx := context.Background()
	if _, err := st.Pool().Exec(ctx, `
		WITH u AS (
			INSERT INTO users (email, name)
			SELECT 'r' || g || '@example.com', 'R ' || g FROM generate_series(1, 100000) g
			RETURNING id, (substr(email, 2, strpos(email, '@') - 2))::int AS n)
		INSERT INTO reminders (user_id, days, local_time, time_zone, email, next_due)
		SELECT id, 127, '19:00', 'Europe/London', true,
		       CASE WHEN n <= 1000 THEN now() - interval '10 seconds'
		            ELSE now() + (n % 10080) * interval '1 minute' + interval '1 minute' END
		FROM u`); err != nil {
		b.Fatal(err)
	}
	if _, err := st.Pool().Exec(ctx, `ANALYZE reminders; ANALYZE users`); err != nil {
		b.Fatal(err)
	}
	rows, err := st.Pool().Query(ctx, `EXPLAIN SELECT user_id FROM reminders WHERE next_due IS NOT NULL AND next_due <= now() ORDER BY next_due LIMIT 500`)
	if err != nil {
		b.Fatal(err)
	}
	var plan []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			b.Fatal(err)
		}
		plan = append(plan, line)
	}
	if !strings.Contains(strings.Join(plan, "\n"), "reminders_next_due") {
		b.Fatalf("the due reminders are not selected with the index:\n%s", strings.Join(plan, "\n"))
	}
	durs := make([]time.Duration, 0, b.N)
	for b.Loop() {
		start := time.Now()
		tx, err := st.Pool().Begin(ctx)
		if err != nil {
			b.Fatal(err)
		}
		rows, err := st.Queries().WithTx(tx).ClaimDueReminders(ctx, dbgen.ClaimDueRemindersParams{Now: time.Now(), Lim: ClaimBatch})
		_ = tx.Rollback(ctx)
		if err != nil || len(rows) != ClaimBatch {
			b.Fatalf("claimed %d (%v)", len(rows), err)
		}
		durs = append(durs, time.Since(start))
	}
	slices.Sort(durs)
	ms := func(q float64) float64 { return float64(durs[int(q*float64(len(durs)-1))].Microseconds()) / 1000 }
	b.ReportMetric(ms(0.5), "p50-ms")
	b.ReportMetric(ms(0.95), "p95-ms")
}
