package auth

import (
	"context"
	"strings"
	"testing"
)

var cheap = Argon2Params{MemoryKiB: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}

func TestHashAndVerify(t *testing.T) {
	ctx := context.Background()
	h := NewHasher(DefaultArgon2, 0)
	enc, err := h.Hash(ctx, "correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(enc, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("hash %q does not carry the OWASP parameters", enc)
	}
	if strings.Contains(enc, "correct horse") {
		t.Fatal("hash contains the password")
	}
	if ok, err := h.Verify(ctx, enc, "correct horse battery"); err != nil || !ok {
		t.Fatalf("right password: %v %v", ok, err)
	}
	if ok, _ := h.Verify(ctx, enc, "correct horse batterY"); ok {
		t.Fatal("wrong password accepted")
	}
	enc2, _ := h.Hash(ctx, "correct horse battery")
	if enc2 == enc {
		t.Fatal("two hashes of one password are equal: no salt")
	}
	for _, bad := range []string{"", "plain", "$argon2i$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA", "$argon2id$v=19$m=x$a$b"} {
		if _, err := h.Verify(ctx, bad, "x"); err != ErrMalformedHash {
			t.Errorf("Verify(%q) err = %v, want ErrMalformedHash", bad, err)
		}
	}
}

func TestHasherBoundsConcurrency(t *testing.T) {
	h := NewHasher(cheap, 2)
	if cap(h.sem) != 2 {
		t.Fatalf("semaphore size %d", cap(h.sem))
	}
	h.sem <- struct{}{}
	h.sem <- struct{}{}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := h.Hash(ctx, "password!"); err == nil {
		t.Fatal("a hash ran while every slot was taken")
	}
}

func TestOpaqueTokens(t *testing.T) {
	a, ha, err := NewOpaqueToken()
	if err != nil {
		t.Fatal(err)
	}
	b, _, _ := NewOpaqueToken()
	if a == b || len(a) != 43 || len(ha) != 32 || string(HashToken(a)) != string(ha) {
		t.Fatalf("tokens %q %q", a, b)
	}
	k := []byte("0123456789abcdef0123456789abcdef")
	if again := successor(k, a); successor(k, a) != again || successor(k, a) == successor(k, b) || successor(k, a) == successor([]byte("x"), a) {
		t.Fatal("successor is not a keyed function of the token")
	}
}
