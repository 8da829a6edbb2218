// Package ratelimit counts events in fixed windows stored in PostgreSQL, so that limits hold
// across any number of app instances. Subjects (e-mail addresses, client addresses, user ids)
// are stored only as hashes.
package ratelimit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/store"
	dbgen "github.com/percolate/percolate/gen/db"
)

// Rule is one limit: at most Limit events per Window for each subject. Message is what the
// user reads when the limit is reached.
type Rule struct {
	Name    string
	Limit   int
	Window  time.Duration
	Message string
}

// Limiter applies rules. Now is replaceable for tests.
type Limiter struct {
	q   dbgen.Querier
	Now func() time.Time
}

// New returns a Limiter on the given queries (a pool's or a transaction's).
func New(q dbgen.Querier) *Limiter {
	return &Limiter{q: q, Now: time.Now}
}

// Hit counts one event for subject and returns an *apperr.LimitError (429 with Retry-After)
// when the event is over the rule's limit. Events over the limit are counted too, so hammering
// does not shorten the wait.
func (l *Limiter) Hit(ctx context.Context, rule Rule, subject string) error {
	_, err := l.Reserve(ctx, rule, subject)
	return err
}

// HitWithin counts one event in a transaction that must not go on over the limit: over it,
// the statement fails with an expectation (store.IsExpectationFailed) and its transaction is
// rolled back, the count with it. It is for a statement queued in a batch whose commit cannot
// wait for Go to look at the count (a send in one round trip); the caller then counts again
// with Hit, which says how long to wait.
func (l *Limiter) HitWithin(ctx context.Context, rule Rule, subject string) error {
	start, _ := l.window(rule)
	_, err := l.q.HitRateLimitWithin(ctx, dbgen.HitRateLimitWithinParams{Key: key(rule, subject), WindowStart: start, MaxCount: int32(rule.Limit)}) // #nosec G115 -- a configured limit
	if err != nil {
		return fmt.Errorf("rate limit %s: %w", rule.Name, err)
	}
	return nil
}

// Reservation is one attempt counted before the work it limits (see Reserve).
type Reservation struct {
	key   string
	start time.Time
}

// Reserve counts one attempt for subject before the work it limits is done (a password hash)
// and refuses it, with the same *apperr.LimitError as Hit, when it is over the limit. The
// count is one statement that increments and returns, so concurrent attempts cannot all pass
// a check made before any of them was counted: at most Limit of them go on. An attempt that
// turns out not to count (the right password) is given back with Release.
func (l *Limiter) Reserve(ctx context.Context, rule Rule, subject string) (Reservation, error) {
	start, end := l.window(rule)
	r := Reservation{key: key(rule, subject), start: start}
	n, err := l.q.HitRateLimit(ctx, dbgen.HitRateLimitParams{Key: r.key, WindowStart: start})
	if err != nil {
		return r, fmt.Errorf("rate limit %s: %w", rule.Name, err)
	}
	if int(n) > rule.Limit {
		return r, l.limitError(rule, end)
	}
	return r, nil
}

// Release gives back a reserved attempt: its window counts one event less.
func (l *Limiter) Release(ctx context.Context, r Reservation) error {
	if err := l.q.ReleaseRateLimit(ctx, dbgen.ReleaseRateLimitParams{Key: r.key, WindowStart: r.start}); err != nil {
		return fmt.Errorf("release rate limit: %w", err)
	}
	return nil
}

// Check reports, without counting, whether subject has already used up the rule's window.
// Use it with Hit for limits that only count failures (failed logins).
func (l *Limiter) Check(ctx context.Context, rule Rule, subject string) error {
	start, end := l.window(rule)
	n, err := l.q.GetRateLimit(ctx, dbgen.GetRateLimitParams{Key: key(rule, subject), WindowStart: start})
	if store.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("rate limit %s: %w", rule.Name, err)
	}
	if int(n) >= rule.Limit {
		return l.limitError(rule, end)
	}
	return nil
}

// Reset forgets subject's count under rule.
func (l *Limiter) Reset(ctx context.Context, rule Rule, subject string) error {
	if err := l.q.DeleteRateLimit(ctx, key(rule, subject)); err != nil {
		return fmt.Errorf("reset rate limit %s: %w", rule.Name, err)
	}
	return nil
}

func (l *Limiter) window(rule Rule) (time.Time, time.Time) {
	start := l.Now().UTC().Truncate(rule.Window)
	return start, start.Add(rule.Window)
}

func (l *Limiter) limitError(rule Rule, end time.Time) error {
	wait := end.Sub(l.Now())
	if wait < time.Second {
		wait = time.Second
	}
	msg := rule.Message
	if msg == "" {
		msg = "Too many attempts. Please wait a little and try again."
	}
	return &apperr.LimitError{Message: msg, RetryAfter: wait}
}

// key names a rule's counter for one subject without storing the subject itself.
func key(rule Rule, subject string) string {
	sum := sha256.Sum256([]byte(strings.ToLower(strings.TrimSpace(subject))))
	return rule.Name + ":" + hex.EncodeToString(sum[:16])
}
