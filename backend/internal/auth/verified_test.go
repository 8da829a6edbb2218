package auth

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/apperr"
)

// TestRememberedTokenStillChecked uses one access token again and again: each use after the
// first skips its decoding and signature, yet it still expires on time, the same text with
// one character changed is refused, and a token of another issuer's keyring is refused.
func TestRememberedTokenStillChecked(t *testing.T) {
	ctx := context.Background()
	c := newClock()
	key := make([]byte, KeySize)
	for i := range key {
		key[i] = byte(i)
	}
	tk, err := NewTokens(nil, Config{Key: key, Issuer: "https://percolate.test"})
	if err != nil {
		t.Fatal(err)
	}
	tk.Now = c.Now
	p := Principal{UserID: uuid.New(), Role: "USER", Family: uuid.New()}
	tok, err := tk.IssueAccess(p)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		got, err := tk.ParseAccess(ctx, tok)
		if err != nil || got != p {
			t.Fatalf("use %d: %+v, %v; want %+v", i, got, err, p)
		}
	}
	if _, ok := tk.verified.Get(tok); !ok {
		t.Fatal("a verified token is not remembered")
	}
	forged := tok[:len(tok)-2] + string("AB"[len(tok)%2]) + tok[len(tok)-1:]
	if forged == tok {
		forged = tok[:len(tok)-2] + "C" + tok[len(tok)-1:]
	}
	if _, err := tk.ParseAccess(ctx, forged); !errors.Is(err, apperr.ErrUnauthorized) {
		t.Fatalf("a changed signature: %v, want ErrUnauthorized", err)
	}

	other := make([]byte, KeySize)
	copy(other, key)
	other[0] ^= 1
	tk2, err := NewTokens(nil, Config{Key: other, Issuer: "https://percolate.test"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tk2.ParseAccess(ctx, tok); !errors.Is(err, apperr.ErrUnauthorized) {
		t.Fatalf("another key's instance: %v, want ErrUnauthorized", err)
	}

	c.Advance(DefaultAccessTTL + 10*time.Second)
	if _, err := tk.ParseAccess(ctx, tok); !errors.Is(err, apperr.ErrUnauthorized) {
		t.Fatalf("an expired remembered token: %v, want ErrUnauthorized", err)
	}
	if _, ok := tk.verified.Get(tok); ok {
		t.Fatal("an expired token is still remembered")
	}
}
