// Package apperr holds the errors that domain services return and the HTTP layer maps, once,
// to the API's error shapes. Services never pick status codes; they say what went wrong.
package apperr

import (
	"errors"
	"fmt"
	"time"
)

// Sentinel errors. Wrap them with context (fmt.Errorf("end session %s: %w", id, ErrNotFound));
// the HTTP layer finds them with errors.Is and answers with a fixed, human message.
var (
	// ErrBadRequest: the request is well-formed but cannot be carried out as asked.
	ErrBadRequest = errors.New("bad request")
	// ErrNotFound: the row does not exist or belongs to someone else (never reveal which).
	ErrNotFound = errors.New("not found")
	// ErrUnauthorized: missing, invalid or expired credentials.
	ErrUnauthorized = errors.New("unauthorized")
	// ErrForbidden: the caller is known but not allowed to do this.
	ErrForbidden = errors.New("forbidden")
	// ErrConflict: the resource is not in a state that allows this.
	ErrConflict = errors.New("conflict")
	// ErrNotImplemented: the endpoint is declared in the contract but not built yet.
	ErrNotImplemented = errors.New("not implemented")
	// ErrUnavailable: a part the call needs is not configured or not reachable.
	ErrUnavailable = errors.New("unavailable")
)

// Error is an error with its own code and human message, for cases the sentinels do not
// describe well enough (for example EMAIL_NOT_VERIFIED). Kind is one of the sentinels and
// decides the HTTP status.
type Error struct {
	Kind    error
	Code    string
	Message string
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s", e.Code, e.Message) }

// Unwrap lets errors.Is match the kind.
func (e *Error) Unwrap() error { return e.Kind }

// New returns an *Error of the given kind, code and human message.
func New(kind error, code, message string) *Error {
	return &Error{Kind: kind, Code: code, Message: message}
}

// ValidationError maps field names to human messages. Summary, when set, replaces the
// default summary line of the response.
type ValidationError struct {
	Summary string
	Fields  map[string]string
}

func (e *ValidationError) Error() string {
	return fmt.Sprintf("validation failed on %d field(s)", len(e.Fields))
}

// Invalid returns a ValidationError for one field.
func Invalid(field, message string) *ValidationError {
	return &ValidationError{Fields: map[string]string{field: message}}
}

// LimitError says a rate or quota limit was reached; RetryAfter becomes the Retry-After header.
type LimitError struct {
	Message    string
	RetryAfter time.Duration
}

func (e *LimitError) Error() string { return "limit reached: " + e.Message }
