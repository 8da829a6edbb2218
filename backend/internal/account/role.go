// Package account holds users and their profiles: registration, verification, reset,
// profile changes, deletion, and the operator's role changes.
package account

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/entitlement"
	"github.com/percolate/percolate/backend/internal/store"
	dbgen "github.com/percolate/percolate/gen/db"
)

// SetRole gives the account with this e-mail (compared case-insensitively) a role. It is the
// operator's tool (`percolate users set-role`) for tiers granted outside of payments.
func SetRole(ctx context.Context, q *dbgen.Queries, email, role string) (dbgen.User, error) {
	role = strings.ToUpper(strings.TrimSpace(role))
	if !slices.Contains(entitlement.Roles, role) {
		return dbgen.User{}, apperr.Invalid("role", "Must be one of: "+strings.Join(entitlement.Roles, ", ")+".")
	}
	u, err := q.SetUserRoleByEmail(ctx, dbgen.SetUserRoleByEmailParams{Role: role, Email: strings.TrimSpace(email)})
	if store.IsNotFound(err) {
		return dbgen.User{}, fmt.Errorf("set role: no account with e-mail %q: %w", email, apperr.ErrNotFound)
	}
	if err != nil {
		return dbgen.User{}, fmt.Errorf("set role: %w", err)
	}
	return u, nil
}
