package store

import (
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// PostgreSQL error codes the domain packages care about.
const (
	codeUniqueViolation     = "23505"
	codeForeignKeyViolation = "23503"
	codeCheckViolation      = "23514"
)

// IsNotFound reports whether err means a query returned no row.
func IsNotFound(err error) bool {
	return errors.Is(err, pgx.ErrNoRows)
}

// IsUniqueViolation reports whether err is a unique-constraint violation, on
// the named constraint or index when constraint is not empty
// (e.g. "users_email_lower_key").
func IsUniqueViolation(err error, constraint string) bool {
	return isPgError(err, codeUniqueViolation, constraint)
}

// IsForeignKeyViolation reports whether err is a foreign-key violation, on the
// named constraint when constraint is not empty.
func IsForeignKeyViolation(err error, constraint string) bool {
	return isPgError(err, codeForeignKeyViolation, constraint)
}

// IsCheckViolation reports whether err is a CHECK-constraint violation, on
// the named constraint when constraint is not empty
// (e.g. "users_role_check").
func IsCheckViolation(err error, constraint string) bool {
	return isPgError(err, codeCheckViolation, constraint)
}

func isPgError(err error, code, constraint string) bool {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != code {
		return false
	}
	return constraint == "" || pgErr.ConstraintName == constraint
}
