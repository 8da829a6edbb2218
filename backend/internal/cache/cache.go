// Package cache is the one kind of per-instance cache the services keep: bounded by a number
// of entries or by estimated bytes, optionally with a time to live, and, when what it holds
// can change behind the instance's back, tied to the instance's LISTEN/NOTIFY listener by one
// hook (Follow). Eviction is the library's (otter: W-TinyLFU), so no service keeps a list of
// its own.
//
// Instances share nothing but the database, so a cache is only ever a shortcut: what must be
// refused at once on every instance (a closed login, a changed row) is either checked against
// the database on every use (a version, a fingerprint) or announced by a notification that
// empties the caches that hold it.
package cache

import (
	"iter"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/maypok86/otter/v2"

	"github.com/percolate/percolate/backend/internal/store"
)

// Config bounds a cache. With neither MaxEntries nor MaxBytes above zero it keeps nothing.
type Config[K comparable, V any] struct {
	// MaxEntries bounds the number of entries.
	MaxEntries int
	// MaxBytes bounds the sum of the entries' Bytes (an estimate of what each holds in
	// memory); an entry of more than a quarter of it is not kept, so that one entry never
	// pushes out all the others.
	MaxBytes int
	Bytes    func(V) int
	// TTL, when above zero, is how long an entry lives after it was written.
	TTL time.Duration
	// Followed makes the cache keep nothing until Follow ties it to a listener that listens:
	// for entries that only a notification can show to be stale.
	Followed bool
}

// Cache is a bounded cache of V by K, safe for concurrent use. A nil *Cache, or one of no
// budget, keeps nothing.
type Cache[K comparable, V any] struct {
	c        *otter.Cache[K, V]
	maxBytes int
	bytes    func(V) int
	// on is false while a followed listener does not listen: changes may be missed, so
	// nothing is read or kept.
	on atomic.Bool
	// gen is one more at every Clear; mu makes a Clear wait for the writes under way, so that
	// SetSince never stores what was read before a Clear.
	gen atomic.Uint64
	mu  sync.RWMutex
}

// New returns a cache bounded by cfg.
func New[K comparable, V any](cfg Config[K, V]) *Cache[K, V] {
	c := &Cache[K, V]{}
	c.on.Store(!cfg.Followed)
	o := &otter.Options[K, V]{}
	switch {
	case cfg.MaxBytes > 0 && cfg.Bytes != nil:
		c.maxBytes, c.bytes = cfg.MaxBytes, cfg.Bytes
		o.MaximumWeight = uint64(cfg.MaxBytes) // #nosec G115 -- positive, checked above
		o.Weigher = func(_ K, v V) uint32 { return weight(cfg.Bytes(v)) }
	case cfg.MaxEntries > 0:
		o.MaximumSize = cfg.MaxEntries
	default:
		return c
	}
	if cfg.TTL > 0 {
		o.ExpiryCalculator = otter.ExpiryWriting[K, V](cfg.TTL)
	}
	c.c = otter.Must(o)
	return c
}

func weight(n int) uint32 {
	return uint32(min(max(n, 1), math.MaxUint32)) // #nosec G115 -- clamped to uint32's range
}

// MaxBytes is the cache's budget of bytes (0 for a cache bounded by count).
func (c *Cache[K, V]) MaxBytes() int { return c.maxBytes }

// Keeps reports whether the cache would keep an entry now.
func (c *Cache[K, V]) Keeps() bool { return c != nil && c.c != nil && c.on.Load() }

// Get returns the key's entry.
func (c *Cache[K, V]) Get(k K) (V, bool) {
	if !c.Keeps() {
		var zero V
		return zero, false
	}
	return c.c.GetIfPresent(k)
}

// Has reports whether the key has an entry.
func (c *Cache[K, V]) Has(k K) bool {
	_, ok := c.Get(k)
	return ok
}

// Gen returns the count of Clears so far, for SetSince.
func (c *Cache[K, V]) Gen() uint64 { return c.gen.Load() }

// Set keeps v as the key's entry.
func (c *Cache[K, V]) Set(k K, v V) bool { return c.SetUnless(k, v, nil) }

// SetSince keeps v as the key's entry unless the cache was cleared since Gen returned gen:
// v was read before a change that emptied the cache, and may be stale.
func (c *Cache[K, V]) SetSince(gen uint64, k K, v V) bool {
	if c.Gen() != gen {
		return false
	}
	return c.set(&gen, k, v, nil)
}

// SetUnless keeps v as the key's entry unless the entry held is newer (newer(held) is true).
// It reports whether v was kept (it may still be evicted at any time).
func (c *Cache[K, V]) SetUnless(k K, v V, newer func(held V) bool) bool {
	return c.set(nil, k, v, newer)
}

func (c *Cache[K, V]) set(gen *uint64, k K, v V, newer func(V) bool) bool {
	if !c.Keeps() || (c.bytes != nil && c.bytes(v) > c.maxBytes/4) {
		return false
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	if !c.on.Load() || (gen != nil && c.gen.Load() != *gen) {
		return false
	}
	kept := true
	c.c.Compute(k, func(held V, found bool) (V, otter.ComputeOp) {
		if found && newer != nil && newer(held) {
			kept = false
			return held, otter.CancelOp
		}
		return v, otter.WriteOp
	})
	return kept
}

// Update calls change with the key's entry, if there is one, and weighs the entry again when
// change reports that it changed it. change runs while the entry's bucket is locked: it must
// not call the cache.
func (c *Cache[K, V]) Update(k K, change func(held V) bool) {
	if c == nil || c.c == nil {
		return
	}
	c.c.ComputeIfPresent(k, func(held V) (V, otter.ComputeOp) {
		if change(held) {
			return held, otter.WriteOp
		}
		return held, otter.CancelOp
	})
}

// Take returns the key's entry and drops it.
func (c *Cache[K, V]) Take(k K) (V, bool) {
	if c == nil || c.c == nil {
		var zero V
		return zero, false
	}
	return c.c.Invalidate(k)
}

// Delete drops the key's entry.
func (c *Cache[K, V]) Delete(k K) { c.Take(k) }

// DeleteIf drops the key's entry if drop(entry).
func (c *Cache[K, V]) DeleteIf(k K, drop func(V) bool) {
	if c == nil || c.c == nil {
		return
	}
	c.c.ComputeIfPresent(k, func(held V) (V, otter.ComputeOp) {
		if drop(held) {
			return held, otter.InvalidateOp
		}
		return held, otter.CancelOp
	})
}

// DeleteWhere drops every entry for which drop is true.
func (c *Cache[K, V]) DeleteWhere(drop func(V) bool) {
	if c == nil || c.c == nil {
		return
	}
	for k, v := range c.c.All() {
		if drop(v) {
			c.DeleteIf(k, drop)
		}
	}
}

// Values returns the entries, in no order.
func (c *Cache[K, V]) Values() iter.Seq[V] {
	if c == nil || c.c == nil {
		return func(func(V) bool) {}
	}
	return c.c.Values()
}

// Clear drops every entry, and makes SetSince refuse what was read before.
func (c *Cache[K, V]) Clear() {
	if c == nil || c.c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen.Add(1)
	c.c.InvalidateAll()
}

// Len is the number of entries, and Bytes their estimated size, once pending evictions are done.
func (c *Cache[K, V]) Len() int {
	if c == nil || c.c == nil {
		return 0
	}
	c.c.CleanUp()
	return c.c.EstimatedSize()
}

// Bytes is the entries' estimated size in bytes (0 for a cache bounded by count).
func (c *Cache[K, V]) Bytes() int {
	if c == nil || c.c == nil || c.bytes == nil {
		return 0
	}
	c.c.CleanUp()
	return int(min(c.c.WeightedSize(), math.MaxInt)) // #nosec G115 -- clamped to int's range
}

// Follow is the invalidation hook: it ties the cache to l, a listener that includes channel.
// The cache is emptied and off (keeps and answers nothing) while l does not listen, and
// emptied each time it starts listening again; every notification on channel empties it, or,
// with note set, is handed to note (a service that knows which entries a payload concerns),
// except the empty payload of a reconnection, which empties it. stop undoes Follow and leaves
// the cache off.
func (c *Cache[K, V]) Follow(l *store.Listener, channel string, note func(payload string)) (stop func()) {
	c.on.Store(false)
	unwatch := l.Watch(func(listening bool) {
		if listening {
			c.Clear()
			c.on.Store(true)
			return
		}
		c.on.Store(false)
		c.Clear()
	})
	unsubscribe := l.Subscribe(channel, func(payload string) {
		if payload == "" || note == nil {
			c.Clear()
			return
		}
		note(payload)
	})
	return func() {
		unsubscribe()
		unwatch()
		c.on.Store(false)
		c.Clear()
	}
}
