package auth

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
)

// NewOpaqueToken returns a random 32-byte token (base64url, no padding) and the SHA-256 hash
// that is stored instead of it.
func NewOpaqueToken() (token string, hash []byte, err error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", nil, fmt.Errorf("auth: random token: %w", err)
	}
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, HashToken(token), nil
}

// HashToken is the stored form of an opaque token.
func HashToken(token string) []byte {
	sum := sha256.Sum256([]byte(token))
	return sum[:]
}

// successor derives the refresh token that replaces token on rotation. Deriving it (rather
// than drawing it at random) lets a second refresh with the same token inside the grace
// window be handed the very same successor without the server keeping any token in clear:
// only someone holding both token and the server's key can compute it.
func successor(key []byte, token string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("percolate refresh successor\x00"))
	m.Write([]byte(token))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}
