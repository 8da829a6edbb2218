package auth

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// KeySize is the length of the HS256 signing key.
const KeySize = 32

// LoadOrCreateKey reads the signing key from dir/jwt.key, creating dir (0700) and a fresh
// random key (0600) the first time. A key file of the wrong size is an error, never replaced.
func LoadOrCreateKey(dir string) ([]byte, error) {
	path := filepath.Join(dir, "jwt.key")
	key, err := os.ReadFile(path) // #nosec G304 -- the signing key in the app's data directory
	if err == nil {
		if len(key) != KeySize {
			return nil, fmt.Errorf("signing key %s: want %d bytes, found %d", path, KeySize, len(key))
		}
		return key, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read signing key: %w", err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create key dir: %w", err)
	}
	key = make([]byte, KeySize)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("generate signing key: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600) // #nosec G304 -- the signing key in the app's data directory
	if errors.Is(err, fs.ErrExist) {
		// Another process made it first: use theirs.
		return LoadOrCreateKey(dir)
	}
	if err != nil {
		return nil, fmt.Errorf("create signing key: %w", err)
	}
	if _, err := f.Write(key); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("write signing key: %w", err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("write signing key: %w", err)
	}
	return key, nil
}
