package pgtest_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/store"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
	dbgen "github.com/percolate/percolate/gen/db"
)

func createUser(t *testing.T, q *dbgen.Queries, email string) dbgen.User {
	t.Helper()
	u, err := q.CreateUser(context.Background(), dbgen.CreateUserParams{Email: email, Name: "Ada Lovelace"})
	if err != nil {
		t.Fatalf("CreateUser(%s): %v", email, err)
	}
	return u
}

func TestMigrationsApplied(t *testing.T) {
	s := pgtest.New(t)
	var users *string
	if err := s.Pool().QueryRow(context.Background(), "SELECT to_regclass('public.users')::text").Scan(&users); err != nil {
		t.Fatal(err)
	}
	if users == nil {
		t.Fatal("table users does not exist")
	}
	// River's tables are in the template, so a test can queue a job in its transaction.
	var riverJob *string
	if err := s.Pool().QueryRow(context.Background(), "SELECT to_regclass('public.river_job')::text").Scan(&riverJob); err != nil {
		t.Fatal(err)
	}
	if riverJob == nil {
		t.Fatal("table river_job does not exist: River's migrations were not applied")
	}
	v, err := store.MigrationVersion(context.Background(), s.Pool())
	if err != nil {
		t.Fatal(err)
	}
	if v < 1 {
		t.Errorf("migration version = %d, want ≥ 1", v)
	}
}

func TestEachTestGetsItsOwnDatabase(t *testing.T) {
	a, b := pgtest.New(t), pgtest.New(t)
	ctx := context.Background()
	createUser(t, a.Queries(), "only-in-a@example.com")
	if _, err := b.Queries().GetUserByEmail(ctx, "only-in-a@example.com"); !store.IsNotFound(err) {
		t.Errorf("user created in one database visible in another (err=%v)", err)
	}
}

func TestEmailIsUniqueIgnoringCase(t *testing.T) {
	s := pgtest.New(t)
	ctx := context.Background()
	created := createUser(t, s.Queries(), "Ada@Example.com")

	_, err := s.Queries().CreateUser(ctx, dbgen.CreateUserParams{Email: "ada@example.COM", Name: "Impostor"})
	if !store.IsUniqueViolation(err, "users_email_lower_key") {
		t.Fatalf("case-variant duplicate e-mail: err = %v, want a unique violation on users_email_lower_key", err)
	}
	got, err := s.Queries().GetUserByEmail(ctx, "ADA@EXAMPLE.COM")
	if err != nil || got.ID != created.ID {
		t.Errorf("GetUserByEmail ignoring case = %v, %v; want user %s", got.ID, err, created.ID)
	}
	if created.Role != "USER" {
		t.Errorf("default role = %q, want USER", created.Role)
	}
}

func TestRoleCheckRejectsUnknownRole(t *testing.T) {
	s := pgtest.New(t)
	ctx := context.Background()
	createUser(t, s.Queries(), "ada@example.com")

	_, err := s.Queries().SetUserRoleByEmail(ctx, dbgen.SetUserRoleByEmailParams{Role: "GOD", Email: "ada@example.com"})
	if !store.IsCheckViolation(err, "users_role_check") {
		t.Fatalf("role GOD: err = %v, want a check violation on users_role_check", err)
	}
	u, err := s.Queries().SetUserRoleByEmail(ctx, dbgen.SetUserRoleByEmailParams{Role: "PREMIUM", Email: "ADA@example.com"})
	if err != nil || u.Role != "PREMIUM" {
		t.Fatalf("SetUserRoleByEmail PREMIUM = %q, %v", u.Role, err)
	}
	if _, err := s.Queries().SetUserRoleByEmail(ctx, dbgen.SetUserRoleByEmailParams{Role: "BASIC", Email: "nobody@example.com"}); !store.IsNotFound(err) {
		t.Errorf("unknown e-mail: err = %v, want not found", err)
	}
}

func TestDeletingUserCascades(t *testing.T) {
	s := pgtest.New(t)
	ctx := context.Background()
	q := s.Queries()
	u := createUser(t, q, "ada@example.com")
	keep := createUser(t, q, "grace@example.com")

	for _, owner := range []dbgen.User{u, keep} {
		sess, err := q.CreateSession(ctx, dbgen.CreateSessionParams{UserID: owner.ID, Title: "Monday", TokenLimit: 1000})
		if err != nil {
			t.Fatal(err)
		}
		for _, role := range []string{"user", "assistant"} {
			if _, err := q.CreateMessage(ctx, dbgen.CreateMessageParams{SessionID: sess.ID, UserID: owner.ID, Role: role, Content: "hello", TokenCount: 3}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := s.Pool().Exec(ctx, `
		WITH f AS (INSERT INTO refresh_token_families (user_id, expires_at) VALUES ($1, now() + interval '30 days') RETURNING id)
		INSERT INTO refresh_tokens (family_id, user_id, token_hash, expires_at)
		SELECT id, $1, '\x01'::bytea, now() + interval '30 days' FROM f`, u.ID); err != nil {
		t.Fatal(err)
	}

	if n, err := q.DeleteUser(ctx, u.ID); err != nil || n != 1 {
		t.Fatalf("DeleteUser = %d, %v", n, err)
	}
	for _, table := range []string{"chat_sessions", "messages", "refresh_token_families", "refresh_tokens"} {
		var left int
		if err := s.Pool().QueryRow(ctx, "SELECT count(*) FROM "+table+" WHERE user_id = $1", u.ID).Scan(&left); err != nil {
			t.Fatal(err)
		}
		if left != 0 {
			t.Errorf("%s: %d rows of the deleted user left", table, left)
		}
	}
	if sessions, err := q.ListSessionsPage(ctx, dbgen.ListSessionsPageParams{UserID: keep.ID, AfterUpdated: time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC), MaxRows: 10}); err != nil || len(sessions) != 1 {
		t.Errorf("other user's sessions = %d, %v; want 1 untouched", len(sessions), err)
	}
}

func TestSessionsAndMessagesAreScopedToOwner(t *testing.T) {
	s := pgtest.New(t)
	ctx := context.Background()
	q := s.Queries()
	owner := createUser(t, q, "owner@example.com")
	other := createUser(t, q, "other@example.com")
	sess, err := q.CreateSession(ctx, dbgen.CreateSessionParams{UserID: owner.ID, Title: "t", TokenLimit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := q.CreateMessage(ctx, dbgen.CreateMessageParams{SessionID: sess.ID, UserID: owner.ID, Role: "user", Content: "hi"}); err != nil {
		t.Fatal(err)
	}

	if _, err := q.GetSessionForUser(ctx, dbgen.GetSessionForUserParams{ID: sess.ID, UserID: other.ID}); !store.IsNotFound(err) {
		t.Errorf("another user's session: err = %v, want not found", err)
	}
	if msgs, err := q.ListMessagesBySession(ctx, dbgen.ListMessagesBySessionParams{SessionID: sess.ID, UserID: other.ID}); err != nil || len(msgs) != 0 {
		t.Errorf("another user's messages = %d, %v; want none", len(msgs), err)
	}
	if n, err := q.DeleteSessionForUser(ctx, dbgen.DeleteSessionForUserParams{ID: sess.ID, UserID: other.ID}); err != nil || n != 0 {
		t.Errorf("another user deleting the session = %d, %v; want 0 rows", n, err)
	}
	got, err := q.GetSessionForUser(ctx, dbgen.GetSessionForUserParams{ID: sess.ID, UserID: owner.ID})
	if err != nil || got.Status != "ACTIVE" || got.TokenLimit != 1000 || len(got.Emotions) != 0 {
		t.Errorf("own session = %+v, %v", got, err)
	}
	if _, err := q.GetSessionForUser(ctx, dbgen.GetSessionForUserParams{ID: uuid.New(), UserID: owner.ID}); !store.IsNotFound(err) {
		t.Errorf("unknown session: err = %v, want not found", err)
	}
}
