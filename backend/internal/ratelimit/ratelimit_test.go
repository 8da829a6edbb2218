package ratelimit

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
)

func TestHitAdmitsTheLimitThenRefusesWithRetryAfter(t *testing.T) {
	st := pgtest.New(t)
	l := New(st.Queries())
	now := time.Date(2026, 11, 21, 10, 7, 0, 0, time.UTC)
	l.Now = func() time.Time { return now }
	rule := Rule{Name: "test", Limit: 3, Window: 15 * time.Minute, Message: "Slow down."}
	ctx := context.Background()

	for i := 0; i < 3; i++ {
		if err := l.Hit(ctx, rule, "Ada@Example.com"); err != nil {
			t.Fatalf("hit %d: %v", i+1, err)
		}
	}
	err := l.Hit(ctx, rule, "ada@example.com") // same subject, other case
	var le *apperr.LimitError
	if !errors.As(err, &le) {
		t.Fatalf("4th hit: %v, want a LimitError", err)
	}
	if le.Message != "Slow down." || le.RetryAfter != 8*time.Minute {
		t.Errorf("got %q after %v, want 'Slow down.' after 8m (end of the 10:00–10:15 window)", le.Message, le.RetryAfter)
	}
	if err := l.Hit(ctx, rule, "someone-else@example.com"); err != nil {
		t.Errorf("another subject is limited too: %v", err)
	}

	now = now.Add(8 * time.Minute) // the next window
	if err := l.Hit(ctx, rule, "ada@example.com"); err != nil {
		t.Errorf("next window still limited: %v", err)
	}
}

func TestCheckDoesNotCountAndResetForgets(t *testing.T) {
	st := pgtest.New(t)
	l := New(st.Queries())
	rule := Rule{Name: "failures", Limit: 2, Window: time.Hour}
	ctx := context.Background()
	for i := 0; i < 5; i++ {
		if err := l.Check(ctx, rule, "1.2.3.4"); err != nil {
			t.Fatalf("check %d counted: %v", i, err)
		}
	}
	_ = l.Hit(ctx, rule, "1.2.3.4")
	_ = l.Hit(ctx, rule, "1.2.3.4")
	if err := l.Check(ctx, rule, "1.2.3.4"); err == nil {
		t.Fatal("check after two failures should refuse")
	}
	if err := l.Reset(ctx, rule, "1.2.3.4"); err != nil {
		t.Fatal(err)
	}
	if err := l.Check(ctx, rule, "1.2.3.4"); err != nil {
		t.Fatalf("after reset: %v", err)
	}
}

func TestParallelHitsAdmitExactlyTheLimit(t *testing.T) {
	st := pgtest.New(t)
	l := New(st.Queries())
	rule := Rule{Name: "race", Limit: 10, Window: time.Hour}
	var wg sync.WaitGroup
	var mu sync.Mutex
	admitted := 0
	for i := 0; i < 40; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if l.Hit(context.Background(), rule, "subject") == nil {
				mu.Lock()
				admitted++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if admitted != 10 {
		t.Fatalf("admitted %d of 40, want exactly 10", admitted)
	}
}

func TestSubjectsAreStoredHashed(t *testing.T) {
	st := pgtest.New(t)
	l := New(st.Queries())
	if err := l.Hit(context.Background(), Rule{Name: "privacy", Limit: 1, Window: time.Hour}, "ada@example.com"); err != nil {
		t.Fatal(err)
	}
	var n int
	err := st.Pool().QueryRow(context.Background(), `SELECT count(*) FROM rate_limits WHERE key LIKE '%ada%' OR key LIKE '%example%'`).Scan(&n)
	if err != nil || n != 0 {
		t.Fatalf("raw subject stored (%d rows, %v)", n, err)
	}
}

func TestReserveAdmitsNoMoreThanTheLimitConcurrentlyAndReleaseGivesBack(t *testing.T) {
	st := pgtest.New(t)
	l := New(st.Queries())
	rule := Rule{Name: "reserve", Limit: 5, Window: time.Hour}
	ctx := context.Background()
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		admitted []Reservation
	)
	for i := 0; i < 30; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := l.Reserve(ctx, rule, "ada@example.com")
			if err == nil {
				mu.Lock()
				admitted = append(admitted, r)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(admitted) != 5 {
		t.Fatalf("%d of 30 concurrent attempts admitted, want 5", len(admitted))
	}
	// A released attempt makes room for another one in the same window.
	if err := l.Reset(ctx, rule, "ada@example.com"); err != nil {
		t.Fatal(err)
	}
	var held []Reservation
	for i := 0; i < 5; i++ {
		r, err := l.Reserve(ctx, rule, "ada@example.com")
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, r)
	}
	if _, err := l.Reserve(ctx, rule, "ada@example.com"); err == nil {
		t.Fatal("6th admitted")
	}
	if err := l.Release(ctx, held[0]); err != nil {
		t.Fatal(err)
	}
	if err := l.Release(ctx, held[1]); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Reserve(ctx, rule, "ada@example.com"); err != nil {
		t.Fatalf("after two were given back: %v", err)
	}
}

// A rule counted per owner and client keeps each pairing apart; ResetPair forgets one,
// ResetOwner every pairing of one owner and none of another's.
func TestPairsAreCountedApartAndResetOwnerForgetsAllOfOne(t *testing.T) {
	st := pgtest.New(t)
	l := New(st.Queries())
	rule := Rule{Name: "pair", Limit: 2, Window: time.Hour}
	ctx := context.Background()
	fill := func(owner, client string) {
		t.Helper()
		for i := 0; i < 2; i++ {
			if _, err := l.ReservePair(ctx, rule, owner, client); err != nil {
				t.Fatalf("%s from %s, attempt %d: %v", owner, client, i+1, err)
			}
		}
	}
	full := func(owner, client string) bool {
		_, err := l.ReservePair(ctx, rule, owner, client)
		var le *apperr.LimitError
		return errors.As(err, &le)
	}
	fill("ada@example.com", "192.0.2.1")
	if !full("ada@example.com", "192.0.2.1") {
		t.Fatal("a third attempt of one pairing was admitted")
	}
	// Another client of the same owner, and the same client for another owner, start afresh.
	fill("ada@example.com", "198.51.100.7")
	fill("bob@example.com", "192.0.2.1")

	if err := l.ResetPair(ctx, rule, "ada@example.com", "198.51.100.7"); err != nil {
		t.Fatal(err)
	}
	if full("ada@example.com", "198.51.100.7") {
		t.Error("ResetPair did not forget its pairing")
	}
	if !full("ada@example.com", "192.0.2.1") {
		t.Error("ResetPair forgot another pairing of the owner")
	}

	if err := l.ResetOwner(ctx, rule, "Ada@Example.com"); err != nil {
		t.Fatal(err)
	}
	if full("ada@example.com", "192.0.2.1") {
		t.Error("ResetOwner did not forget the owner's pairings")
	}
	if !full("bob@example.com", "192.0.2.1") {
		t.Error("ResetOwner forgot another owner's pairing")
	}
}

// The addresses of one IPv6 /64 are one client: its holder can use any of them.
func TestClientIsAnIPv6AddressesSlash64(t *testing.T) {
	for in, want := range map[string]string{
		"2001:db8:1:2:aaaa::1":   "2001:db8:1:2::/64",
		"2001:db8:1:2:ffff::abc": "2001:db8:1:2::/64",
		"192.0.2.7":              "192.0.2.7",
		"not an address":         "not an address",
	} {
		if got := clientSubject(in); got != want {
			t.Errorf("clientSubject(%q) = %q, want %q", in, got, want)
		}
	}
}
