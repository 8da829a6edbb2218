package account

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/auth"
	"github.com/percolate/percolate/backend/internal/mail"
	"github.com/percolate/percolate/backend/internal/queue/queuetest"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
	dbgen "github.com/percolate/percolate/gen/db"
)

func TestEmailRules(t *testing.T) {
	for _, ok := range []string{"a@b.co", "first.last+tag@example.com", "user@localhost"} {
		if m := checkEmail(ok); m != "" {
			t.Errorf("%q refused: %s", ok, m)
		}
	}
	for _, bad := range []string{"", "plain", "@example.com", "a@", "a b@example.com", "A <a@example.com>", "a@b@c", "a@.com", "a\n@b.com", strings.Repeat("a", 250) + "@b.com"} {
		if checkEmail(bad) == "" {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestPasswordRules(t *testing.T) {
	cases := map[string]string{
		"1234567":                 msgPasswordShort,
		strings.Repeat("x", 129):  msgPasswordLong,
		"Me@Example.com":          msgPasswordIsEmail,
		"iloveyou":                msgPasswordCommon,
		"PASSWORD123":             msgPasswordCommon,
		"a perfectly fine phrase": "",
		strings.Repeat("é", 8):    "",
	}
	for pw, want := range cases {
		if got := checkPassword(pw, "me@example.com"); got != want {
			t.Errorf("checkPassword(%.20q) = %q, want %q", pw, got, want)
		}
	}
	if len(commonPasswords) < 90 {
		t.Fatalf("only %d common passwords", len(commonPasswords))
	}
}

type discard struct{}

func (discard) Send(context.Context, mail.Message) error { return nil }

func TestDeleteHookCanStopDeletion(t *testing.T) {
	st := pgtest.New(t)
	tokens, err := auth.NewTokens(st, auth.Config{Key: make([]byte, 32), Issuer: "https://percolate.test"})
	if err != nil {
		t.Fatal(err)
	}
	refuse := errors.New("subscription could not be cancelled")
	var seen string
	svc := NewService(st, auth.NewHasher(auth.Argon2Params{MemoryKiB: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}, 0), tokens, discard{}, queuetest.New(t, st), Config{
		PublicURL: "https://percolate.test",
		BeforeDelete: func(_ context.Context, u dbgen.User) error {
			seen = u.Email
			return refuse
		},
	})
	ctx := context.Background()
	u, err := st.Queries().CreateUser(ctx, dbgen.CreateUserParams{Email: "a@example.com", Name: "A"})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.DeleteAccount(ctx, u.ID); !errors.Is(err, refuse) || seen != "a@example.com" {
		t.Fatalf("delete: %v (hook saw %q)", err, seen)
	}
	if _, err := svc.Me(ctx, u.ID); err != nil {
		t.Fatal("the account was deleted although the hook refused")
	}
	svc.cfg.BeforeDelete = nil
	if err := svc.DeleteAccount(ctx, u.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Me(ctx, u.ID); !errors.Is(err, apperr.ErrUnauthorized) {
		t.Fatalf("after deletion: %v", err)
	}
}

func TestMailsCarryTheirLinks(t *testing.T) {
	for _, c := range []struct {
		m    mail.Message
		link string
	}{
		{verifyMail("a@b.c", "https://x/email-verified?t=T"), "https://x/email-verified?t=T"},
		{resetMail("a@b.c", "A", "https://x/reset?token=T"), "https://x/reset?token=T"},
		{alreadyRegisteredMail("a@b.c", "A", "https://x/login"), "https://x/login"},
		{claimedMail("a@b.c", "A", "https://x/login"), "https://x/login"},
	} {
		if !strings.Contains(c.m.Text, c.link) {
			t.Errorf("%q lacks its link %s", c.m.Subject, c.link)
		}
	}
}
