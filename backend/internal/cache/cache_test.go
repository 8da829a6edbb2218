package cache

import (
	"testing"
	"time"
)

// A lookup begun before a Clear stores nothing: what it read may be what the Clear was for.
func TestSetSinceRefusesWhatWasReadBeforeAClear(t *testing.T) {
	c := New(Config[string, int]{MaxEntries: 8})
	gen := c.Gen()
	c.Clear()
	if c.SetSince(gen, "a", 1) || c.Has("a") {
		t.Fatal("a value read before a Clear was kept")
	}
	if !c.SetSince(c.Gen(), "a", 2) {
		t.Fatal("a value read after the Clear was refused")
	}
	if v, ok := c.Get("a"); !ok || v != 2 {
		t.Fatalf("got %v %v, want 2", v, ok)
	}
}

func TestSetUnlessKeepsTheNewer(t *testing.T) {
	c := New(Config[string, int]{MaxEntries: 8})
	newer := func(v int) func(int) bool { return func(held int) bool { return held > v } }
	c.SetUnless("a", 5, newer(5))
	if c.SetUnless("a", 3, newer(3)) {
		t.Fatal("an older value replaced a newer one")
	}
	if !c.SetUnless("a", 7, newer(7)) {
		t.Fatal("a newer value was refused")
	}
	if v, _ := c.Take("a"); v != 7 {
		t.Fatalf("took %d, want 7", v)
	}
	if c.Has("a") {
		t.Fatal("a taken entry is still there")
	}
}

// A cache bounded by bytes stays within them, keeps no entry of more than a quarter of them,
// and one of no budget keeps nothing.
func TestBytesBound(t *testing.T) {
	c := New(Config[int, []byte]{MaxBytes: 1000, Bytes: func(b []byte) int { return len(b) }})
	for i := range 20 {
		c.Set(i, make([]byte, 100))
	}
	if n, b := c.Len(), c.Bytes(); n > 10 || b > 1000 {
		t.Fatalf("%d entries of %d bytes, budget 1000", n, b)
	}
	if c.Set(99, make([]byte, 251)) {
		t.Fatal("an entry of more than a quarter of the budget was kept")
	}
	for _, max := range []int{0, -1} {
		off := New(Config[int, []byte]{MaxBytes: max, Bytes: func(b []byte) int { return len(b) }})
		if off.Set(1, nil) || off.Has(1) || off.Keeps() {
			t.Fatalf("a cache of %d bytes kept an entry", max)
		}
	}
}

func TestTTL(t *testing.T) {
	c := New(Config[string, int]{MaxEntries: 8, TTL: 20 * time.Millisecond})
	c.Set("a", 1)
	if !c.Has("a") {
		t.Fatal("not kept")
	}
	deadline := time.Now().Add(5 * time.Second)
	for c.Has("a") {
		if time.Now().After(deadline) {
			t.Fatal("an entry outlived its TTL")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// A followed cache keeps nothing before its listener listens.
func TestFollowedIsOffUntilListening(t *testing.T) {
	c := New(Config[string, int]{MaxEntries: 8, Followed: true})
	if c.Set("a", 1) || c.Has("a") || c.Keeps() {
		t.Fatal("a followed cache kept an entry before its listener listened")
	}
}

func TestDeleteWhere(t *testing.T) {
	c := New(Config[int, int]{MaxEntries: 64})
	for i := range 10 {
		c.Set(i, i%2)
	}
	c.DeleteWhere(func(v int) bool { return v == 1 })
	c.DeleteIf(0, func(v int) bool { return v == 1 }) // even: stays
	for i := range 10 {
		if c.Has(i) != (i%2 == 0) {
			t.Fatalf("entry %d: kept %v", i, c.Has(i))
		}
	}
}

// BenchmarkGet is the cost of a hit, the path of every cached read (a detail, a checked login,
// a verified token), from parallel readers.
func BenchmarkGet(b *testing.B) {
	c := New(Config[int, []byte]{MaxBytes: 16 << 20, Bytes: func(v []byte) int { return len(v) }})
	for i := range 1024 {
		c.Set(i, make([]byte, 1024))
	}
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			if _, ok := c.Get(i & 1023); !ok {
				b.Fatal("miss")
			}
			i++
		}
	})
}
