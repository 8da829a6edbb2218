package chat

import (
	"container/list"
	"sync"

	"github.com/google/uuid"

	dbgen "github.com/percolate/percolate/gen/db"
)

// A session's detail (GET /api/chat/sessions/{id}, read again and again while its chat is
// open) is kept per instance, with the session's version (chat_sessions.version, one more at
// every UPDATE of the row, migration 00019). Every read still asks the database, in the same
// one round trip as before: the caller's role, the session row by id and user id (so that
// only its owner ever gets it, whatever is cached), and its messages only when the version is
// not the one held. Instances share nothing but the database, and the version is in it, so a
// write through any instance is seen at once by every other.
//
// That rests on one invariant: every write of a session's messages happens in a transaction
// that also updates the session's row (see 00019_session_version.sql for the list).
// TestDetailCacheSeesEveryWrite fails when a write path breaks it.

// DefaultDetailCacheBytes is how much of session details (their rows and messages, estimated
// from their lengths) an instance keeps by default.
const DefaultDetailCacheBytes = 16 << 20

// Estimated bytes of a cached entry and of each of its messages besides their text (the
// structs, slice and list headers, the map entry).
const (
	entryOverhead   = 512
	messageOverhead = 128
)

// detailEntry is a session's row and messages, read together at one version. It never changes
// once cached: a Detail made from it may share its slices.
type detailEntry struct {
	id      uuid.UUID
	version int64
	row     dbgen.ChatSession
	msgs    []Message
	size    int
	elem    *list.Element // nil once evicted
}

// detailCache is a byte-bounded cache of session details, least recently used out first. Its
// zero value (with max set) is ready and holds nothing: it allocates only as it fills.
type detailCache struct {
	mu   sync.Mutex
	max  int // bytes; 0 keeps nothing
	size int
	byID map[uuid.UUID]*detailEntry
	lru  list.List // of *detailEntry, most recently used first
}

func newDetailEntry(row dbgen.ChatSession, msgs []Message) *detailEntry {
	e := &detailEntry{id: row.ID, version: row.Version, row: row, msgs: msgs}
	n := entryOverhead + len(row.Title) + len(row.Status) + len(row.LastMessage) + len(row.ContextSummary) + len(row.SearchText)
	for _, p := range []*string{row.Summary, row.EndReason, row.ClosingFeeling} {
		if p != nil {
			n += len(*p)
		}
	}
	for _, em := range row.Emotions {
		n += len(em) + 16
	}
	for i := range msgs {
		n += messageOverhead + len(msgs[i].Role) + len(msgs[i].Content) + len(msgs[i].Status)
	}
	e.size = n
	return e
}

// get returns the session's cached entry, or nil.
func (c *detailCache) get(id uuid.UUID) *detailEntry {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.byID[id]
	if e != nil {
		c.lru.MoveToFront(e.elem)
	}
	return e
}

// put caches e in place of the session's entry, unless that one is of a later version, and
// evicts the least recently used entries beyond the budget. It reports whether e is cached.
func (c *detailCache) put(e *detailEntry) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e.size > c.max/4 {
		return false // one session must not push out all the others
	}
	if old := c.byID[e.id]; old != nil {
		if old.version > e.version {
			return false
		}
		c.remove(old)
	}
	if c.byID == nil {
		c.byID = map[uuid.UUID]*detailEntry{}
	}
	c.byID[e.id] = e
	e.elem = c.lru.PushFront(e)
	c.size += e.size
	c.trim()
	return e.elem != nil
}

// evict drops the session's entry (it was deleted, or is not the reader's).
func (c *detailCache) evict(id uuid.UUID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.byID[id]; e != nil {
		c.remove(e)
	}
}

// trim evicts the least recently used entries until the cache is within its budget.
func (c *detailCache) trim() {
	for c.size > c.max {
		back := c.lru.Back()
		if back == nil {
			return
		}
		c.remove(back.Value.(*detailEntry))
	}
}

func (c *detailCache) remove(e *detailEntry) {
	c.lru.Remove(e.elem)
	e.elem = nil
	delete(c.byID, e.id)
	c.size -= e.size
}

// len and bytes report what is cached, for tests.
func (c *detailCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.byID)
}

func (c *detailCache) bytes() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.size
}

// detailSource is where a read's answer comes from.
type detailSource int

const (
	// fromCache: the version is the cached one; the messages were not read.
	fromCache detailSource = iota
	// readAndKeep: the row and the messages were read at the same version; cache them.
	readAndKeep
	// readOnly: the session was written between the batch's two statements (or deleted): the
	// row and the messages may be of different versions. Answer as read, as before the
	// cache, and keep nothing.
	readOnly
)

// decideDetail decides a read's source from the version held in the cache (-1: none), the
// session row's version, and the version the messages statement saw (found false: that
// statement no longer found the session).
func decideDetail(held, rowVersion, msgsVersion int64, found bool) detailSource {
	switch {
	case !found:
		return readOnly
	case msgsVersion == held:
		return fromCache
	case rowVersion == msgsVersion:
		return readAndKeep
	default:
		return readOnly
	}
}
