package auth

import (
	"time"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/cache"
	"github.com/percolate/percolate/backend/internal/store"
)

// LoginCacheTTL is how long an instance trusts a login it has checked. It is under a second,
// so even a change whose notification was lost ends the login on every instance within one.
const LoginCacheTTL = 500 * time.Millisecond

// LoginChannel is the channel the triggers of migrations 00013 and 00021 notify on every
// commit that revokes or deletes a login, deletes an account or changes its role, e-mail,
// name or student status.
const LoginChannel = "percolate_auth"

// maxCachedLogins bounds the logins an instance remembers as checked.
const maxCachedLogins = 100_000

// cachedLogin is, per login (refresh family), the owner, role and identity
// GetLiveRefreshFamily answered. The cache keeps them for LoginCacheTTL, only while its
// listener is subscribed to LoginChannel; each notification, and each revocation by this
// instance, empties it.
type cachedLogin struct {
	user uuid.UUID
	role string
	id   *Identity
}

func newLoginCache() *cache.Cache[uuid.UUID, cachedLogin] {
	return cache.New(cache.Config[uuid.UUID, cachedLogin]{MaxEntries: maxCachedLogins, TTL: LoginCacheTTL, Followed: true})
}

// ForgetLogins empties this instance's cache of checked logins; the account service calls it
// after a change the triggers also announce, so that this instance need not wait for its own
// notification.
func (t *Tokens) ForgetLogins() { t.logins.Clear() }

// FollowLoginChanges makes the cache of checked logins follow l, a listener that includes
// LoginChannel: the cache is on only while l listens, and every notification empties it.
// Before l first listens, and from a lost connection until it listens again, every access
// token is checked against the database.
func (t *Tokens) FollowLoginChanges(l *store.Listener) {
	t.logins.Follow(l, LoginChannel, nil)
}
