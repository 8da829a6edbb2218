package bench

// Issue 31's figures: posting check-ins at 16 connections against the plain-handler ceiling,
// and the reminder job's claim of due reminders among 100,000 users with reminders.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/percolate/percolate/backend/internal/auth"
	dbgen "github.com/percolate/percolate/gen/db"
)

// Due is what the claim of due reminders measured.
type Due struct {
	Users     int     `json:"usersWithReminders"`
	Due       int     `json:"due"`
	Batch     int     `json:"batch"`
	Claimed   int     `json:"claimed"`
	Runs      int     `json:"runs"`
	P50ms     float64 `json:"p50Ms"`
	P95ms     float64 `json:"p95Ms"`
	UsesIndex bool    `json:"usesIndex"`
	Plan      string  `json:"plan"`
}

// checkinsPerUser is how many check-ins one seeded user posts: under the 120 writes an hour a
// user may make (checkin.WritesPerHour), so the phase measures check-ins, not refusals.
const checkinsPerUser = 100

// checkinBody is a whole card: a mood, energy, emotions, tags and a note (which goes through
// the crisis screen).
var checkinBody, _ = json.Marshal(map[string]any{
	"mood": 3, "energy": 2, "emotions": []string{"tiredness", "calm"}, "tags": []string{"sleep", "study"},
	"note": "Slept badly, but the library was quiet and I got through the reading.",
})

// postCheckins posts check-ins from conns connections for d, each seeded user posting at most
// checkinsPerUser of them. The users get enough of them for want requests a second, and a
// password hash that costs little, so signing them all in takes a moment (the login phases
// measure argon2id).
func postCheckins(ctx context.Context, db *pgx.Conn, client *http.Client, base string, conns int, d time.Duration, want float64, pid int) (Load, error) {
	users := int(want*d.Seconds())/checkinsPerUser + conns
	cheap, err := auth.NewHasher(auth.Argon2Params{MemoryKiB: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}, 1).Hash(ctx, password)
	if err != nil {
		return Load{}, err
	}
	if _, err := db.Exec(ctx, `INSERT INTO users (email, name, password_hash, role, email_verified_at)
		SELECT 'checkin-' || g || '@bench.test', 'Bench', $1, 'PREMIUM', now() FROM generate_series(1, $2::int) g`, cheap, users); err != nil {
		return Load{}, fmt.Errorf("seed: %w", err)
	}
	toks := make([]string, users)
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < users; i = int(next.Add(1) - 1) {
				t, err := login(ctx, client, base, fmt.Sprintf("checkin-%d@bench.test", i+1))
				if err != nil {
					errs <- fmt.Errorf("login: %w", err)
					return
				}
				toks[i] = t
			}
		})
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return Load{}, err
	}
	// The check-ins go to the users in turn, so that the connections post for different users
	// at once, as students do: one user's 16 check-ins at the same moment would all wait on
	// that user's one count of writes (a row lock held until each commit is on disk), and the
	// phase would time the disk's flushes one after the other, not the check-ins.
	var posted atomic.Int64
	return phase(ctx, "POST /api/checkins (a whole card, with a note)", conns, d, func(ctx context.Context) (int, error) {
		n := int(posted.Add(1) - 1)
		if n >= users*checkinsPerUser {
			return 0, fmt.Errorf("more check-ins than %d users may post", users)
		}
		return do(ctx, client, "POST", base+"/api/checkins", toks[n%users], checkinBody)
	}, pid), nil
}

// claimDue seeds users with reminders, due of them due now and the rest over the coming week,
// and times the reminder job's claim of one batch (rolled back, so that every run finds the
// same rows) for at least d and 20 runs.
func claimDue(ctx context.Context, db *pgx.Conn, users, due, batch int, d time.Duration) (*Due, error) {
	if _, err := db.Exec(ctx, `
		WITH u AS (
			INSERT INTO users (email, name)
			SELECT 'reminder-' || g || '@bench.test', 'Bench' FROM generate_series(1, $1::int) g
			RETURNING id, (substr(email, 10, strpos(email, '@') - 10))::int AS n)
		INSERT INTO reminders (user_id, days, local_time, time_zone, email, next_due)
		SELECT id, 127, '19:00', 'Europe/London', true,
		       CASE WHEN n <= $2 THEN now() - interval '10 seconds'
		            ELSE now() + (n % 10080) * interval '1 minute' + interval '1 minute' END
		FROM u`, users, due); err != nil {
		return nil, fmt.Errorf("seed: %w", err)
	}
	if _, err := db.Exec(ctx, `ANALYZE users; ANALYZE reminders`); err != nil {
		return nil, err
	}
	out := &Due{Users: users, Due: due, Batch: batch}
	q := dbgen.New(db)
	rows, err := db.Query(ctx, `EXPLAIN SELECT r.user_id FROM reminders r JOIN users u ON u.id = r.user_id
		WHERE r.next_due IS NOT NULL AND r.next_due <= now() ORDER BY r.next_due LIMIT 500 FOR UPDATE OF r SKIP LOCKED`)
	if err != nil {
		return nil, err
	}
	plan, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, err
	}
	out.Plan = strings.Join(plan, "\n")
	out.UsesIndex = strings.Contains(out.Plan, "reminders_next_due")
	var durs []time.Duration
	for start := time.Now(); time.Since(start) < d || len(durs) < 20; {
		t := time.Now()
		tx, err := db.Begin(ctx)
		if err != nil {
			return nil, err
		}
		claimed, err := q.WithTx(tx).ClaimDueReminders(ctx, dbgen.ClaimDueRemindersParams{Now: time.Now(), Lim: int32(batch)}) // #nosec G115 -- a batch of 500
		_ = tx.Rollback(ctx)
		if err != nil {
			return nil, err
		}
		durs = append(durs, time.Since(t))
		out.Claimed = len(claimed)
	}
	slices.Sort(durs)
	out.Runs, out.P50ms, out.P95ms = len(durs), ms(pct(durs, 0.5)), ms(pct(durs, 0.95))
	return out, nil
}
