package chat

import (
	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/cache"
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
// structs, slice headers, the cache's node). An entry's overhead also covers the row's
// fixed-size and short columns (ids, times, counts, an end reason, a closing feeling): only
// the texts that can grow are counted one by one, so a new short column needs nothing here.
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
}

// detailCache is the service's cache of session details, bounded by their estimated bytes.
type detailCache struct {
	*cache.Cache[uuid.UUID, *detailEntry]
}

func newDetailCache(maxBytes int) detailCache {
	return detailCache{cache.New(cache.Config[uuid.UUID, *detailEntry]{MaxBytes: maxBytes, Bytes: (*detailEntry).bytes})}
}

func newDetailEntry(row dbgen.ChatSession, msgs []Message) *detailEntry {
	e := &detailEntry{id: row.ID, version: row.Version, row: row, msgs: msgs}
	n := entryOverhead + len(row.Title) + len(row.Status) + len(row.LastMessage) + len(row.ContextSummary) + len(row.SearchText)
	if row.Summary != nil {
		n += len(*row.Summary)
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

func (e *detailEntry) bytes() int { return e.size }

// get returns the session's cached entry, or nil.
func (c detailCache) get(id uuid.UUID) *detailEntry {
	e, _ := c.Get(id)
	return e
}

// put caches e in place of the session's entry, unless that one is of a later version. It
// reports whether e is cached.
func (c detailCache) put(e *detailEntry) bool {
	return c.SetUnless(e.id, e, func(held *detailEntry) bool { return held.version > e.version })
}

// evict drops the session's entry (it was deleted, or is not the reader's).
func (c detailCache) evict(id uuid.UUID) { c.Delete(id) }

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
