package pgtest

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/store"
	dbgen "github.com/percolate/percolate/gen/db"
)

// User creates a user of role (USER, BASIC, PREMIUM or ADMIN) with an e-mail address of its
// own: the one fixture for "a user of a role".
func User(t testing.TB, st *store.Store, role string) dbgen.User {
	t.Helper()
	ctx := context.Background()
	q := st.Queries()
	u, err := q.CreateUser(ctx, dbgen.CreateUserParams{Email: uuid.NewString() + "@example.com", Name: "Alex Doe"})
	if err != nil {
		t.Fatal(err)
	}
	if role == u.Role {
		return u
	}
	if u, err = q.SetUserRoleByEmail(ctx, dbgen.SetUserRoleByEmailParams{Role: role, Email: u.Email}); err != nil {
		t.Fatal(err)
	}
	return u
}

// Exec runs a statement of a test's fixture on st, and fails the test if it fails.
func Exec(t testing.TB, st *store.Store, sql string, args ...any) {
	t.Helper()
	if _, err := st.Pool().Exec(context.Background(), sql, args...); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}
