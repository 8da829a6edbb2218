package auth

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/store"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
)

// clock is a settable clock shared by the instances of a test.
type clock struct{ ns atomic.Int64 }

func newClock() *clock                   { c := &clock{}; c.ns.Store(time.Now().UnixNano()); return c }
func (c *clock) Now() time.Time          { return time.Unix(0, c.ns.Load()) }
func (c *clock) Advance(d time.Duration) { c.ns.Add(int64(d)) }

// TestInstancesStartingTogetherMakeOneKey opens the keyring from several instances at once on
// an empty database: the advisory lock lets one of them make the key, which all then use.
func TestInstancesStartingTogetherMakeOneKey(t *testing.T) {
	st := pgtest.New(t)
	ctx := context.Background()
	const n = 6
	ids := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k, err := OpenKeyring(ctx, st, KeyringConfig{})
			if err != nil {
				t.Error(err)
				return
			}
			ids[i] = k.Signer().ID
		}()
	}
	wg.Wait()
	var rows int
	if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM signing_keys`).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	if rows != 1 {
		t.Fatalf("%d keys made by %d instances starting together, want 1", rows, n)
	}
	for _, id := range ids {
		if id != ids[0] || id == "" {
			t.Fatalf("instances sign with different keys: %v", ids)
		}
	}
}

// instance is the token side of one app instance: its own keyring over the shared database.
// twoInstances opens the keys of st twice, as two app instances on one database do, and
// returns both keyrings with an instance of each on clock c.
func twoInstances(t *testing.T, st *store.Store, c *clock) (ka, kb *Keyring, a, b *Tokens) {
	t.Helper()
	ctx := context.Background()
	var err error
	if ka, err = OpenKeyring(ctx, st, KeyringConfig{}); err != nil {
		t.Fatal(err)
	}
	if kb, err = OpenKeyring(ctx, st, KeyringConfig{}); err != nil {
		t.Fatal(err)
	}
	return ka, kb, instance(t, ka, c), instance(t, kb, c)
}

func instance(t *testing.T, k *Keyring, c *clock) *Tokens {
	t.Helper()
	k.Now = c.Now
	tk, err := NewTokens(nil, Config{Keys: k, Issuer: "https://percolate.test"})
	if err != nil {
		t.Fatal(err)
	}
	tk.Now = c.Now
	return tk
}

// TestKeyRotationAcrossInstances rotates the key on instance A while B runs: tokens name their
// key (kid); the previous key's tokens stay valid on both until they expire; the new key
// signs only once its propagation time has passed, and B, which has not read the keys since,
// accepts its tokens at once; a retired key and an unknown kid are refused.
func TestKeyRotationAcrossInstances(t *testing.T) {
	st := pgtest.New(t)
	ctx := context.Background()
	c := newClock()
	ka, kb, a, b := twoInstances(t, st, c)
	p := Principal{UserID: uuid.New(), Role: "USER", Family: uuid.New()}

	kidOf := func(tok string) string {
		t.Helper()
		parsed, _, err := jwt.NewParser().ParseUnverified(tok, jwt.MapClaims{})
		if err != nil {
			t.Fatal(err)
		}
		kid, _ := parsed.Header["kid"].(string)
		return kid
	}
	accepts := func(tk *Tokens, tok string) bool {
		_, err := tk.ParseAccess(ctx, tok)
		return err == nil
	}

	old, err := a.IssueAccess(p)
	if err != nil {
		t.Fatal(err)
	}
	oldKid := kidOf(old)
	if oldKid == "" || oldKid != ka.Signer().ID {
		t.Fatalf("access token kid %q, want the signing key's %q", oldKid, ka.Signer().ID)
	}
	if !accepts(b, old) {
		t.Fatal("B refuses A's token")
	}

	newKid, err := ka.Rotate(ctx)
	if err != nil || newKid == oldKid {
		t.Fatalf("rotate: %q %v", newKid, err)
	}
	// Until every instance has read the new key, the old one still signs.
	if tok, _ := a.IssueAccess(p); kidOf(tok) != oldKid {
		t.Fatal("the new key signs before its propagation time")
	}

	c.Advance(DefaultKeyPropagation + time.Second)
	fresh, err := a.IssueAccess(p)
	if err != nil {
		t.Fatal(err)
	}
	if kidOf(fresh) != newKid {
		t.Fatalf("after propagation A signs with %q, want the new key %q", kidOf(fresh), newKid)
	}
	// B has not reloaded (its ticker is not running): the unknown kid makes it read the keys.
	if !accepts(b, fresh) {
		t.Fatal("B refuses a token signed with the new key")
	}
	if tok, _ := b.IssueAccess(p); kidOf(tok) != newKid {
		t.Fatal("B does not sign with the new key once it is known")
	}
	// The previous key's token stays valid on both instances until it expires.
	c.Advance(DefaultAccessTTL - DefaultKeyPropagation - 10*time.Second)
	if !accepts(a, old) || !accepts(b, old) {
		t.Fatal("a token of the previous key was refused before it expired")
	}
	c.Advance(20 * time.Second)
	if accepts(a, old) || accepts(b, old) {
		t.Fatal("an expired token was accepted")
	}
	// Once everything the previous key signed has expired, the key itself is refused.
	oldKey, ok := kb.Lookup(ctx, oldKid)
	if !ok {
		t.Fatal("previous key retired before its retention ended")
	}
	c.Advance(DefaultKeyRetain)
	if _, ok := kb.Lookup(ctx, oldKid); ok {
		t.Fatal("the previous key is still accepted after its retention")
	}
	forged := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{
		"iss": "https://percolate.test", "aud": []string{DefaultAudience}, "sub": p.UserID.String(),
		"sid": p.Family.String(), "role": "USER", "iat": c.Now().Unix(), "exp": c.Now().Add(time.Minute).Unix(),
	})
	forged.Header["kid"] = oldKid
	retired, _ := forged.SignedString(oldKey.AccessKey())
	if accepts(a, retired) || accepts(b, retired) {
		t.Fatal("a fresh token signed with the retired key was accepted")
	}
	// An unknown kid is refused, even with a key that is valid under another kid.
	forged.Header["kid"] = "0123456789abcdef"
	unknown, _ := forged.SignedString(kb.Signer().AccessKey())
	if accepts(a, unknown) || accepts(b, unknown) {
		t.Fatal("a token with an unknown kid was accepted")
	}
	forged.Header["kid"] = newKid
	if genuine, _ := forged.SignedString(kb.Signer().AccessKey()); !accepts(a, genuine) {
		t.Fatal("control: a token of the current key was refused")
	}

	// A second rotation, an hour later on the database's clock, prunes the retired key.
	if _, err := st.Pool().Exec(ctx, `UPDATE signing_keys SET activates_at = activates_at - interval '1 hour'`); err != nil {
		t.Fatal(err)
	}
	if _, err := kb.Rotate(ctx); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM signing_keys WHERE kid = $1`, oldKid).Scan(&n); err != nil || n != 0 {
		t.Fatalf("retired key kept: %d %v", n, err)
	}
}

// TestSecretKeyring: every instance given the same PERCOLATE_SECRET_KEY derives the same key,
// and another secret another one.
func TestSecretKeyring(t *testing.T) {
	s := []byte("a long and random secret of forty characters")
	a, b, other := SecretKeyring(s), SecretKeyring(append([]byte(nil), s...)), SecretKeyring([]byte("another long and random secret, forty chars"))
	if a.Signer().ID != b.Signer().ID || string(a.Signer().AccessKey()) != string(b.Signer().AccessKey()) {
		t.Fatal("one secret, two keys")
	}
	if a.Signer().ID == other.Signer().ID || string(a.Signer().AccessKey()) == string(other.Signer().AccessKey()) {
		t.Fatal("two secrets, one key")
	}
	if string(a.Signer().AccessKey()) == string(a.Signer().CookieKey()) || string(a.Signer().AccessKey()) == string(s) {
		t.Fatal("uses share a key")
	}
	if _, err := a.Rotate(context.Background()); err == nil {
		t.Fatal("a keyring from a secret rotated")
	}
}

// TestRefreshGraceAcrossARotation: a refresh token rotated just before the new key began to
// sign is still followed to its successor by a second refresh inside the grace window.
func TestRefreshGraceAcrossARotation(t *testing.T) {
	st := pgtest.New(t)
	ctx := context.Background()
	c := newClock()
	k, err := OpenKeyring(ctx, st, KeyringConfig{})
	if err != nil {
		t.Fatal(err)
	}
	tk := instance(t, k, c)
	tk.st = st
	var user uuid.UUID
	if err := st.Pool().QueryRow(ctx, `INSERT INTO users (email, name) VALUES ('ada@example.com', 'Ada') RETURNING id`).Scan(&user); err != nil {
		t.Fatal(err)
	}
	pair, err := tk.StartSession(ctx, st.Queries(), user, "USER")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := k.Rotate(ctx); err != nil {
		t.Fatal(err)
	}
	first, err := tk.Refresh(ctx, pair.Refresh) // successor derived with the old key
	if err != nil {
		t.Fatal(err)
	}
	c.Advance(DefaultKeyPropagation + time.Second) // the new key signs now
	second, err := tk.Refresh(ctx, pair.Refresh)
	if err != nil {
		t.Fatalf("second refresh inside the grace window after a rotation: %v", err)
	}
	if second.Refresh != first.Refresh {
		t.Fatal("the grace window handed out another refresh token than the first refresh did")
	}
}

// TestAnUnknownKidWhileTheKeysCannotBeReadIsNotAVerdict: instance B meets a token signed with
// the key A has just made, and cannot read the keys because the database refuses it. The
// token is not refused as invalid (that answer signs the user out): the error says the
// database is unavailable, and once it answers again B accepts the token.
func TestAnUnknownKidWhileTheKeysCannotBeReadIsNotAVerdict(t *testing.T) {
	db := pgtest.NewRefusable(t)
	st := db.Open(t)
	ctx := context.Background()
	c := newClock()
	ka, _, a, b := twoInstances(t, st, c)
	if _, err := ka.Rotate(ctx); err != nil {
		t.Fatal(err)
	}
	c.Advance(DefaultKeyPropagation + time.Second)
	tok, err := a.IssueAccess(Principal{UserID: uuid.New(), Role: "USER", Family: uuid.New()})
	if err != nil {
		t.Fatal(err)
	}

	db.Refuse(t, "55000")
	st.Pool().Reset()
	_, err = b.ParseAccess(ctx, tok)
	if err == nil || errors.Is(err, apperr.ErrUnauthorized) || !store.IsUnavailable(err) {
		t.Fatalf("B checking a token of A's new key with the database refusing: %v, want an unavailable error, not ErrUnauthorized", err)
	}

	db.Allow(t, "55000")
	c.Advance(2 * minReload)
	if _, err := b.ParseAccess(ctx, tok); err != nil {
		t.Fatalf("B checking the token once the database answers: %v", err)
	}
}
