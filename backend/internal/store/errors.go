package store

import (
	"errors"
	"io"
	"net"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/puddle/v2"
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

// IsUserGone reports whether err is a write refused because the user it belongs to no
// longer exists (a foreign key on a user_id column): the account was deleted while one of
// its requests was still running.
func IsUserGone(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == codeForeignKeyViolation && strings.HasSuffix(pgErr.ConstraintName, "_user_id_fkey")
}

// IsDeadlock reports whether err is PostgreSQL cancelling a statement to break a deadlock.
func IsDeadlock(err error) bool {
	return isPgError(err, "40P01", "")
}

// IsExpectationFailed reports whether err is a statement's expect() that failed (migration
// 00020): what the statement's caller assumed of the database no longer holds, and the
// transaction was rolled back.
func IsExpectationFailed(err error) bool {
	return isPgError(err, "PX001", "")
}

func isPgError(err error, code, constraint string) bool {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != code {
		return false
	}
	return constraint == "" || pgErr.ConstraintName == constraint
}

// IsUnavailable reports whether err means the database could not be reached or could not
// serve the statement: no connection could be made, a connection was lost or timed out, the
// pool is closed, or the server is shutting down, starting up or out of connections. Such a
// failure is temporary and says nothing about the request, unlike a statement the database
// refused; the HTTP layer answers it 503 with Retry-After.
//
// Every failure to open a connection counts, whatever the server answered: a server that is
// up can still refuse new connections to the app's database, during maintenance or a restore
// (55000 "not currently accepting connections", 3D000 "does not exist"), after a revoked
// CONNECT privilege (42501) or after a credential rotation (28P01 "password authentication
// failed"). None of them says anything about the request either, and answering them as what
// they would mean on a statement (a 500, or a 401 that signs the user out) loses the user's
// sign-in for an operator's change.
func IsUnavailable(err error) bool {
	if err == nil {
		return false
	}
	var (
		connErr *pgconn.ConnectError
		netErr  net.Error
		pgErr   *pgconn.PgError
	)
	switch {
	case errors.As(err, &connErr):
		// Checked before the server's code: a ConnectError wraps the server's refusal.
		return true
	case errors.As(err, &pgErr):
		// Class 08: connection exception; 53: insufficient resources (too many
		// connections, out of memory or disk); 57014: cancelled (a statement timeout under
		// load); 57P01–57P03: shutting down or starting up.
		return strings.HasPrefix(pgErr.Code, "08") || strings.HasPrefix(pgErr.Code, "53") ||
			pgErr.Code == "57014" || pgErr.Code == "57P01" || pgErr.Code == "57P02" || pgErr.Code == "57P03"
	case errors.As(err, &netErr), pgconn.Timeout(err),
		errors.Is(err, puddle.ErrClosedPool), errors.Is(err, io.ErrUnexpectedEOF):
		return true
	}
	return false
}
