// Package auth holds Percolate's credentials: argon2id password hashes, signed access tokens
// (JWT), opaque rotating refresh tokens and single-use e-mail tokens. It knows nothing of HTTP.
package auth

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"

	"golang.org/x/crypto/argon2"
)

// Argon2Params are the argon2id cost parameters. The defaults are OWASP's minimum
// recommendation: 19 MiB of memory, 2 passes, 1 lane.
type Argon2Params struct {
	MemoryKiB uint32
	Time      uint32
	Threads   uint8
	SaltLen   int
	KeyLen    uint32
}

// DefaultArgon2 is OWASP's recommended argon2id configuration.
var DefaultArgon2 = Argon2Params{MemoryKiB: 19 * 1024, Time: 2, Threads: 1, SaltLen: 16, KeyLen: 32}

// ErrMalformedHash is returned for a stored hash that is not an argon2id PHC string.
var ErrMalformedHash = errors.New("auth: malformed password hash")

// Hasher hashes and checks passwords. At most a fixed number of hashes run at once (each
// takes 19 MiB), so a burst of logins cannot exhaust memory; the rest wait their turn.
type Hasher struct {
	params Argon2Params
	sem    chan struct{}
	dummy  func() string // made on first use: a start-up need not spend 19 MiB on it
}

// NewHasher returns a Hasher with p, running at most concurrency hashes at a time
// (GOMAXPROCS when concurrency < 1).
func NewHasher(p Argon2Params, concurrency int) *Hasher {
	if concurrency < 1 {
		concurrency = runtime.GOMAXPROCS(0)
	}
	h := &Hasher{params: p, sem: make(chan struct{}, concurrency)}
	h.dummy = sync.OnceValue(func() string {
		salt := make([]byte, p.SaltLen)
		_, _ = rand.Read(salt)
		// A random password: nobody knows it, so the dummy hash never matches.
		secret := make([]byte, 32)
		_, _ = rand.Read(secret)
		return encode(p, salt, argon2.IDKey(secret, salt, p.Time, p.MemoryKiB, p.Threads, p.KeyLen))
	})
	return h
}

func (h *Hasher) acquire(ctx context.Context) error {
	select {
	case h.sem <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (h *Hasher) release() { <-h.sem }

// Hash returns the PHC string of password with a fresh random salt.
func (h *Hasher) Hash(ctx context.Context, password string) (string, error) {
	salt := make([]byte, h.params.SaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("auth: salt: %w", err)
	}
	if err := h.acquire(ctx); err != nil {
		return "", err
	}
	defer h.release()
	key := argon2.IDKey([]byte(password), salt, h.params.Time, h.params.MemoryKiB, h.params.Threads, h.params.KeyLen)
	return encode(h.params, salt, key), nil
}

// Verify reports whether password matches the PHC string encoded, comparing in constant time.
func (h *Hasher) Verify(ctx context.Context, encoded, password string) (bool, error) {
	p, salt, want, err := decode(encoded)
	if err != nil {
		return false, err
	}
	if err := h.acquire(ctx); err != nil {
		return false, err
	}
	defer h.release()
	got := argon2.IDKey([]byte(password), salt, p.Time, p.MemoryKiB, p.Threads, uint32(len(want))) // #nosec G115 -- len(want) is the stored key length, 32 bytes
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}

// VerifyDummy spends the time of one Verify against a hash nobody knows the password of, so
// that "no such account" takes as long as "wrong password". It always reports false.
func (h *Hasher) VerifyDummy(ctx context.Context, password string) {
	_, _ = h.Verify(ctx, h.dummy(), password)
}

func encode(p Argon2Params, salt, key []byte) string {
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, p.MemoryKiB, p.Time, p.Threads,
		b64.EncodeToString(salt), b64.EncodeToString(key))
}

func decode(s string) (Argon2Params, []byte, []byte, error) {
	var p Argon2Params
	parts := strings.Split(s, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return p, nil, nil, ErrMalformedHash
	}
	var v int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &v); err != nil || v != argon2.Version {
		return p, nil, nil, ErrMalformedHash
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.MemoryKiB, &p.Time, &p.Threads); err != nil {
		return p, nil, nil, ErrMalformedHash
	}
	if p.MemoryKiB < 8 || p.MemoryKiB > 1<<21 || p.Time < 1 || p.Time > 16 || p.Threads < 1 {
		return p, nil, nil, ErrMalformedHash
	}
	salt, err := base64.RawStdEncoding.DecodeString(parts[4])
	if err != nil {
		return p, nil, nil, ErrMalformedHash
	}
	key, err := base64.RawStdEncoding.DecodeString(parts[5])
	if err != nil || len(key) < 16 {
		return p, nil, nil, ErrMalformedHash
	}
	return p, salt, key, nil
}
