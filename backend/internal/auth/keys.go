package auth

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/percolate/percolate/backend/internal/store"
	dbgen "github.com/percolate/percolate/gen/db"
)

// KeySize is the length of a signing key's secret, and the least length of a secret it is
// derived from.
const KeySize = 32

// Defaults of KeyringConfig.
const (
	// DefaultKeyRetain covers the longest-lived thing a key signs: an access token (15 min),
	// the sign-in flow cookie (10 min), clock leeway.
	DefaultKeyRetain = DefaultAccessTTL + 5*time.Minute
	// DefaultKeyReload is how often an instance reads the keys again.
	DefaultKeyReload = time.Minute
	// DefaultKeyPropagation is how long a new key waits before it signs, so that every
	// instance (reading the keys every DefaultKeyReload) knows it first.
	DefaultKeyPropagation = 2 * DefaultKeyReload
	// keyLockID is the advisory lock taken to create or rotate keys: "pcl-keys".
	keyLockID int64 = 0x70636c2d_6b657973
	// minReload is the shortest time between two reads caused by an unknown kid, so forged
	// tokens cannot make each request a database read.
	minReload = time.Second
)

// Key is one signing key: its id (the tokens' kid) and the keys derived from its secret for
// each use, so that no two uses share a key.
type Key struct {
	ID        string
	activates time.Time
	access    []byte // HS256 access tokens
	refresh   []byte // refresh-token successors
	cookie    []byte // the sign-in flow cookie
}

// AccessKey is the HS256 key of access tokens (for tests that forge tokens).
func (k Key) AccessKey() []byte { return k.access }

// CookieKey is the key that signs the third-party sign-in flow cookie.
func (k Key) CookieKey() []byte { return k.cookie }

func deriveKey(id string, secret []byte, activates time.Time) Key {
	return Key{ID: id, activates: activates,
		access:  derive(secret, "percolate access token"),
		refresh: derive(secret, "percolate refresh key"),
		cookie:  derive(secret, "percolate oidc cookie"),
	}
}

func derive(secret []byte, label string) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(label))
	return m.Sum(nil)
}

// KeyringConfig configures a Keyring kept in the database.
type KeyringConfig struct {
	// Retain is how long a replaced key is still accepted: the longest life of what it signed.
	Retain time.Duration
	// Reload is how often the keys are read again (a rotation by another instance is seen).
	Reload time.Duration
	// Propagation is how long after a rotation the new key starts signing. Longer than Reload.
	Propagation time.Duration
	Logger      *slog.Logger
}

// Keyring holds the signing keys: either one derived from a configured secret
// (PERCOLATE_SECRET_KEY), or those in the database, shared by every instance on it. The
// newest key whose time has come signs; a key is accepted while it signs, before (a rotation
// another instance already uses) and for Retain after a newer key took over.
type Keyring struct {
	st  *store.Store // nil for a keyring derived from a secret
	cfg KeyringConfig
	// Now is the keyring's clock; replaceable in tests.
	Now func() time.Time

	mu       sync.RWMutex
	keys     []Key // oldest first
	loadedAt time.Time
	loadMu   sync.Mutex
}

// SecretKeyring returns the keyring of one key derived from secret (at least KeySize
// bytes): every instance given the same secret has the same key.
func SecretKeyring(secret []byte) *Keyring {
	master := derive(secret, "percolate signing key")
	id := "s-" + hex.EncodeToString(derive(master, "percolate key id")[:6])
	return &Keyring{keys: []Key{deriveKey(id, master, time.Time{})}, Now: time.Now, cfg: KeyringConfig{Retain: DefaultKeyRetain}}
}

// OpenKeyring returns the keyring kept in the database, creating its first key (under an
// advisory lock, so that instances starting together agree on one) when there is none.
func OpenKeyring(ctx context.Context, st *store.Store, cfg KeyringConfig) (*Keyring, error) {
	if cfg.Retain <= 0 {
		cfg.Retain = DefaultKeyRetain
	}
	if cfg.Reload <= 0 {
		cfg.Reload = DefaultKeyReload
	}
	if cfg.Propagation <= 0 {
		cfg.Propagation = 2 * cfg.Reload
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	k := &Keyring{st: st, cfg: cfg, Now: time.Now}
	if err := st.WithTx(ctx, func(q *dbgen.Queries) error {
		if err := q.LockSigningKeys(ctx, keyLockID); err != nil {
			return err
		}
		rows, err := q.ListSigningKeys(ctx)
		if err != nil || len(rows) > 0 {
			return err
		}
		return createKey(ctx, q, 0)
	}); err != nil {
		return nil, fmt.Errorf("signing keys: %w", err)
	}
	if err := k.Reload(ctx); err != nil {
		return nil, err
	}
	return k, nil
}

func createKey(ctx context.Context, q *dbgen.Queries, after time.Duration) error {
	secret := make([]byte, KeySize)
	id := make([]byte, 8)
	if _, err := rand.Read(secret); err != nil {
		return err
	}
	if _, err := rand.Read(id); err != nil {
		return err
	}
	return q.CreateSigningKey(ctx, dbgen.CreateSigningKeyParams{Kid: hex.EncodeToString(id), Secret: secret, ActivateAfterSeconds: after.Seconds()})
}

// Rotate adds a new key, which signs once Propagation has passed (every instance has read
// it by then), and deletes the keys replaced longer than Retain ago. It returns the new
// key's id. A keyring derived from a secret cannot rotate: change the secret instead.
func (k *Keyring) Rotate(ctx context.Context) (string, error) {
	if k.st == nil {
		return "", errors.New("signing keys come from PERCOLATE_SECRET_KEY: change the secret to replace them")
	}
	err := k.st.WithTx(ctx, func(q *dbgen.Queries) error {
		if err := q.LockSigningKeys(ctx, keyLockID); err != nil {
			return err
		}
		if _, err := q.PruneSigningKeys(ctx, k.cfg.Retain.Seconds()); err != nil {
			return err
		}
		return createKey(ctx, q, k.cfg.Propagation)
	})
	if err != nil {
		return "", fmt.Errorf("rotate signing keys: %w", err)
	}
	if err := k.Reload(ctx); err != nil {
		return "", err
	}
	k.mu.RLock()
	defer k.mu.RUnlock()
	return k.keys[len(k.keys)-1].ID, nil
}

// Reload reads the keys from the database. Which key signs is decided by each instance's
// clock: the propagation time (minutes) leaves room for clocks that differ by seconds.
func (k *Keyring) Reload(ctx context.Context) error {
	return k.reload(ctx, 0)
}

// reload reads the keys unless they were read less than fresh ago.
func (k *Keyring) reload(ctx context.Context, fresh time.Duration) error {
	if k.st == nil {
		return nil
	}
	k.loadMu.Lock()
	defer k.loadMu.Unlock()
	if fresh > 0 {
		k.mu.RLock()
		recent := k.Now().Sub(k.loadedAt) < fresh
		k.mu.RUnlock()
		if recent {
			return nil
		}
	}
	rows, err := k.st.Queries().ListSigningKeys(ctx)
	if err != nil {
		return fmt.Errorf("read signing keys: %w", err)
	}
	if len(rows) == 0 {
		return errors.New("read signing keys: none in the database")
	}
	keys := make([]Key, 0, len(rows))
	for _, r := range rows {
		keys = append(keys, deriveKey(r.Kid, r.Secret, r.ActivatesAt))
	}
	k.mu.Lock()
	k.keys, k.loadedAt = keys, k.Now()
	k.mu.Unlock()
	return nil
}

// Run reads the keys again every Reload until ctx ends, so a rotation made elsewhere is
// known here before its key signs.
func (k *Keyring) Run(ctx context.Context) {
	if k.st == nil {
		return
	}
	t := time.NewTicker(k.cfg.Reload)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := k.Reload(ctx); err != nil && ctx.Err() == nil {
				k.cfg.Logger.Warn("reload signing keys", "error", err.Error())
			}
		}
	}
}

// Signer returns the key that signs now: the newest whose time has come.
func (k *Keyring) Signer() Key {
	k.mu.RLock()
	defer k.mu.RUnlock()
	now := k.Now()
	for i := len(k.keys) - 1; i > 0; i-- {
		if !k.keys[i].activates.After(now) {
			return k.keys[i]
		}
	}
	return k.keys[0]
}

// Accepted returns the keys whose signatures are accepted now, the signer first.
func (k *Keyring) Accepted() []Key {
	s := k.Signer()
	k.mu.RLock()
	defer k.mu.RUnlock()
	out := []Key{s}
	now := k.Now()
	for i, key := range k.keys {
		if key.ID != s.ID && k.acceptable(i, now) {
			out = append(out, key)
		}
	}
	return out
}

// acceptable: the newest key, or one whose successor took over less than Retain ago (or
// has not yet).
func (k *Keyring) acceptable(i int, now time.Time) bool {
	return i == len(k.keys)-1 || k.keys[i+1].activates.Add(k.cfg.Retain).After(now)
}

// Lookup returns the accepted key named kid. An unknown kid makes the keyring read the keys
// again (at most once a second), in case another instance has just rotated them.
func (k *Keyring) Lookup(ctx context.Context, kid string) (Key, bool) {
	key, ok, _ := k.LookupChecked(ctx, kid)
	return key, ok
}

// LookupChecked is Lookup that also says when the keys could not be read again (the database
// did not answer): then err is not nil, and whether kid is accepted is not known. A token
// signed with a key another instance has just made is not refused for that.
func (k *Keyring) LookupChecked(ctx context.Context, kid string) (Key, bool, error) {
	if key, found, ok := k.find(kid); found || k.st == nil {
		return key, ok, nil
	}
	// Unless a read less than a second ago (perhaps by a concurrent request) already had it.
	if err := k.reload(ctx, minReload); err != nil {
		k.cfg.Logger.Warn("reload signing keys", "error", err.Error())
		return Key{}, false, err
	}
	key, _, ok := k.find(kid)
	return key, ok, nil
}

func (k *Keyring) find(kid string) (key Key, found, ok bool) {
	k.mu.RLock()
	defer k.mu.RUnlock()
	for i, key := range k.keys {
		if key.ID == kid {
			return key, true, k.acceptable(i, k.Now())
		}
	}
	return Key{}, false, false
}
