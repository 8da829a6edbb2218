// Package ratelimit counts events in fixed windows stored in PostgreSQL, so that limits hold
// across any number of app instances. Subjects (e-mail addresses, client addresses, user ids)
// are stored only as hashes.
package ratelimit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/netip"
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
	return l.reserve(ctx, rule, key(rule, subject))
}

// ReservePair is Reserve for a rule counted per owner and client together (failed sign-ins
// per account and client address). The pairings of one owner share the start of their keys,
// so ResetOwner forgets all of them at once.
func (l *Limiter) ReservePair(ctx context.Context, rule Rule, owner, client string) (Reservation, error) {
	return l.reserve(ctx, rule, ownerPrefix(rule, owner)+hashed(clientSubject(client)))
}

// ResetPair forgets the count of one pairing of owner and client under rule.
func (l *Limiter) ResetPair(ctx context.Context, rule Rule, owner, client string) error {
	if err := l.q.DeleteRateLimit(ctx, ownerPrefix(rule, owner)+hashed(clientSubject(client))); err != nil {
		return fmt.Errorf("reset rate limit %s: %w", rule.Name, err)
	}
	return nil
}

// ResetOwner forgets every pairing of owner with a client under rule (see ReservePair).
func (l *Limiter) ResetOwner(ctx context.Context, rule Rule, owner string) error {
	prefix := ownerPrefix(rule, owner)
	// The keys that begin with prefix are those from it up to, not including, the prefix
	// with its last byte (the ':' after the owner's hash) raised by one.
	high := prefix[:len(prefix)-1] + string(prefix[len(prefix)-1]+1)
	if _, err := l.q.DeleteRateLimitRange(ctx, dbgen.DeleteRateLimitRangeParams{Low: prefix, High: high}); err != nil {
		return fmt.Errorf("reset rate limit %s: %w", rule.Name, err)
	}
	return nil
}

// clientSubject is what a client address is counted as in a pairing: an IPv4 address
// itself, an IPv6 address's /64 (one network's, which its owner can fill with addresses
// at will), anything else as it is.
func clientSubject(addr string) string {
	a, err := netip.ParseAddr(strings.TrimSpace(addr))
	if err != nil || !a.Unmap().Is6() {
		return addr
	}
	return netip.PrefixFrom(a, 64).Masked().String()
}

func (l *Limiter) reserve(ctx context.Context, rule Rule, k string) (Reservation, error) {
	start, end := l.window(rule)
	r := Reservation{key: k, start: start}
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
	return rule.Name + ":" + hashed(subject)
}

// ownerPrefix begins the keys of every pairing of owner under rule.
func ownerPrefix(rule Rule, owner string) string {
	return rule.Name + ":" + hashed(owner) + ":"
}

// hashed stands for a subject in a key, so the subject itself is never stored.
func hashed(subject string) string {
	sum := sha256.Sum256([]byte(strings.ToLower(strings.TrimSpace(subject))))
	return hex.EncodeToString(sum[:16])
}
