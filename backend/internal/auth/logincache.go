package auth

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// LoginCacheTTL is how long an instance trusts a login it has checked. It is under a second,
// so even a change whose notification was lost ends the login on every instance within one.
const LoginCacheTTL = 500 * time.Millisecond

// authChannel is the channel the triggers of migration 00013 notify on every commit that
// revokes or deletes a login, deletes an account or changes its role.
const authChannel = "percolate_auth"

// loginCache remembers, per login (refresh family), the owner and role GetLiveRefreshFamily
// answered, for LoginCacheTTL. It is used only while its listener is subscribed to
// authChannel; each notification, and each revocation by this instance, empties it.
type loginCache struct {
	on  atomic.Bool
	gen atomic.Uint64 // bumped by every clear: a lookup begun before one is not stored
	mu  sync.Mutex
	m   map[uuid.UUID]cachedLogin
}

type cachedLogin struct {
	user  uuid.UUID
	role  string
	until time.Time
}

func (c *loginCache) get(family, user uuid.UUID, now time.Time) (string, bool) {
	if !c.on.Load() {
		return "", false
	}
	c.mu.Lock()
	e, ok := c.m[family]
	c.mu.Unlock()
	if !ok || e.user != user || !now.Before(e.until) {
		return "", false
	}
	return e.role, true
}

func (c *loginCache) put(gen uint64, family, user uuid.UUID, role string, now time.Time) {
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
	c.m[family] = cachedLogin{user: user, role: role, until: now.Add(LoginCacheTTL)}
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

// ListenForLoginChanges keeps a connection LISTENing on authChannel until ctx ends, emptying
// the cache of checked logins on every notification. The cache is on only while it listens:
// before the first subscription, and from a lost connection until the next, every access
// token is checked against the database.
func (t *Tokens) ListenForLoginChanges(ctx context.Context, logger *slog.Logger) {
	backoff := 100 * time.Millisecond
	for ctx.Err() == nil {
		err := t.listen(ctx)
		t.cache.on.Store(false)
		t.cache.clear()
		if ctx.Err() != nil {
			return
		}
		logger.Warn("login cache off: listening for login changes failed", "error", err.Error())
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, 5*time.Second)
	}
}

func (t *Tokens) listen(ctx context.Context) error {
	conn, err := pgx.ConnectConfig(ctx, t.st.ListenConfig())
	if err != nil {
		return err
	}
	defer func() { _ = conn.Close(context.WithoutCancel(ctx)) }()
	if _, err := conn.Exec(ctx, "LISTEN "+authChannel); err != nil {
		return err
	}
	t.cache.clear()
	t.cache.on.Store(true)
	for {
		if _, err := conn.WaitForNotification(ctx); err != nil {
			return err
		}
		t.cache.clear()
	}
}
