package auth

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/store"
)

// LoginCacheTTL is how long an instance trusts a login it has checked. It is under a second,
// so even a change whose notification was lost ends the login on every instance within one.
const LoginCacheTTL = 500 * time.Millisecond

// LoginChannel is the channel the triggers of migrations 00013 and 00021 notify on every
// commit that revokes or deletes a login, deletes an account or changes its role, e-mail,
// name or student status.
const LoginChannel = "percolate_auth"

// loginCache remembers, per login (refresh family), the owner, role and identity
// GetLiveRefreshFamily answered, for LoginCacheTTL. It is used only while its listener is
// subscribed to LoginChannel; each notification, and each revocation by this instance,
// empties it.
type loginCache struct {
	on  atomic.Bool
	gen atomic.Uint64 // bumped by every clear: a lookup begun before one is not stored
	mu  sync.Mutex
	m   map[uuid.UUID]cachedLogin
}

type cachedLogin struct {
	user  uuid.UUID
	role  string
	id    *Identity
	until time.Time
}

func (c *loginCache) get(family, user uuid.UUID, now time.Time) (string, *Identity, bool) {
	if !c.on.Load() {
		return "", nil, false
	}
	c.mu.Lock()
	e, ok := c.m[family]
	c.mu.Unlock()
	if !ok || e.user != user || !now.Before(e.until) {
		return "", nil, false
	}
	return e.role, e.id, true
}

func (c *loginCache) put(gen uint64, family, user uuid.UUID, role string, id *Identity, now time.Time) {
	if !c.on.Load() {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen.Load() != gen {
		return
	}
	if c.m == nil || len(c.m) > 100_000 {
		c.m = map[uuid.UUID]cachedLogin{}
	}
	c.m[family] = cachedLogin{user: user, role: role, id: id, until: now.Add(LoginCacheTTL)}
}

func (c *loginCache) clear() {
	c.mu.Lock()
	c.gen.Add(1)
	c.m = nil
	c.mu.Unlock()
}

// ForgetLogins empties this instance's cache of checked logins; the account service calls it
// after a change the triggers also announce, so that this instance need not wait for its own
// notification.
func (t *Tokens) ForgetLogins() { t.cache.clear() }

// FollowLoginChanges makes the cache of checked logins follow l, a listener that includes
// LoginChannel: the cache is on only while l listens, and every notification empties it.
// Before l first listens, and from a lost connection until it listens again, every access
// token is checked against the database.
func (t *Tokens) FollowLoginChanges(l *store.Listener) {
	l.Watch(func(listening bool) {
		if listening {
			t.cache.clear()
			t.cache.on.Store(true)
			return
		}
		t.cache.on.Store(false)
		t.cache.clear()
	})
	l.Subscribe(LoginChannel, func(string) { t.cache.clear() })
}
