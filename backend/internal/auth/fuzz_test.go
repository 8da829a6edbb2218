package auth

import (
	"context"
	"errors"
	"testing"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/apperr"
)

// FuzzParseAccess feeds the access-token parser any string, and any one-byte change of a
// genuine token: it never panics, refuses with ErrUnauthorized, and a changed token that
// still passes names exactly the original's user, role and login (base64's unused low bits
// aside, nothing of a token can change without its signature failing).
// The seed corpus is in testdata/fuzz/FuzzParseAccess.
func FuzzParseAccess(f *testing.F) {
	toks, err := NewTokens(nil, Config{Key: []byte("0123456789abcdef0123456789abcdef"), Issuer: "percolate-fuzz"})
	if err != nil {
		f.Fatal(err)
	}
	want := Principal{UserID: uuid.MustParse("6f1c1d3e-8a55-4c3b-9d1e-2b7f0e6a9c41"), Role: "USER", Family: uuid.MustParse("0b9e3f2a-1c4d-4e5f-8a6b-7c8d9e0f1a2b")}
	genuine, err := toks.IssueAccess(want)
	if err != nil {
		f.Fatal(err)
	}
	f.Add("", 0, byte(0))
	f.Add(genuine, 10, byte('A'))
	f.Add("eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.", -1, byte(0))
	f.Fuzz(func(t *testing.T, token string, at int, b byte) {
		if at >= 0 {
			// Change one byte of the genuine token (the fuzzer's string is ignored).
			raw := []byte(genuine)
			raw[at%len(raw)] = b
			token = string(raw)
		}
		p, err := toks.ParseAccess(context.Background(), token)
		if err != nil {
			if !errors.Is(err, apperr.ErrUnauthorized) {
				t.Fatalf("ParseAccess(%q): %v, not ErrUnauthorized", token, err)
			}
			return
		}
		if p != want {
			t.Fatalf("ParseAccess(%q) = %+v: a token we never signed passed", token, p)
		}
	})
}
