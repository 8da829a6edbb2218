package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"math"
	"net/http"
	"strconv"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/store"
	"github.com/percolate/percolate/gen/api"
)

// Human messages for the sentinel errors. They never carry internal detail.
const (
	msgValidation     = "Please fix the errors below."
	msgUnauthorized   = "Please sign in to continue."
	msgForbidden      = "You don't have access to this."
	msgNotFound       = "We couldn't find that."
	msgConflict       = "That can't be done right now."
	msgNotImplemented = "This part of Percolate isn't available yet."
	msgUnavailable    = "This service is temporarily unavailable. Please try again later."
	msgDatabaseDown   = "Percolate can't reach its database right now. Please try again in a moment."
	msgInternal       = "Something went wrong on our side. Please try again."
	msgMalformedJSON  = "The request body is not valid JSON."
	msgTooLarge       = "The request is too large."
	msgRateLimited    = "Too many requests. Please wait a moment and try again."
)

// writeJSON writes v as JSON with the given status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeError writes the API's common error shape.
func writeError(w http.ResponseWriter, status int, code, message string) {
	writeJSON(w, status, api.ErrorResponse{Code: code, Error: message, Message: message})
}

// writeValidation writes the API's validation error shape.
func writeValidation(w http.ResponseWriter, summary string, fields map[string]string) {
	if summary == "" {
		summary = msgValidation
	}
	if fields == nil {
		fields = map[string]string{}
	}
	writeJSON(w, http.StatusBadRequest, api.ValidationErrorResponse{
		Code:    api.VALIDATIONERROR,
		Error:   summary,
		Message: summary,
		Details: fields,
	})
}

// databaseRetryAfter is the Retry-After of an answer to a request the database could not serve.
const databaseRetryAfter = 5

// writeDomainError is the one place where errors returned by services become HTTP answers.
// A database that cannot be reached is a 503 with Retry-After, never a 401 or a 500: the
// request was not carried out, and the client keeps its sign-in and tries again. Anything
// else it does not recognise is logged and answered with a generic 500, so no internal
// detail (SQL, stack, ids) ever reaches a client.
func writeDomainError(w http.ResponseWriter, r *http.Request, err error) {
	if responseStarted(w) {
		// The status and part of the body are out (a streamed download cut short): an
		// error written now would be appended to the body, a corrupt file the client takes
		// for a whole one. Break the connection instead, so the download visibly fails.
		if r.Context().Err() == nil {
			slog.ErrorContext(r.Context(), "response failed after it started", "error", err.Error(), "request_id", RequestID(r.Context()))
		}
		panic(http.ErrAbortHandler)
	}
	var (
		verr  *apperr.ValidationError
		lerr  *apperr.LimitError
		coded *apperr.Error
		mbe   *http.MaxBytesError
	)
	switch {
	case errors.As(err, &verr):
		writeValidation(w, verr.Summary, verr.Fields)
	case errors.As(err, &lerr):
		secs := int(math.Ceil(lerr.RetryAfter.Seconds()))
		if secs < 1 {
			secs = 1
		}
		w.Header().Set("Retry-After", strconv.Itoa(secs))
		msg := lerr.Message
		if msg == "" {
			msg = msgRateLimited
		}
		writeError(w, http.StatusTooManyRequests, "RATE_LIMITED", msg)
	case errors.As(err, &mbe):
		writeError(w, http.StatusRequestEntityTooLarge, "PAYLOAD_TOO_LARGE", msgTooLarge)
	case errors.As(err, &coded):
		writeError(w, statusOf(coded.Kind), coded.Code, coded.Message)
	case store.IsUnavailable(err):
		slog.WarnContext(r.Context(), "database unavailable", "error", err.Error(), "request_id", RequestID(r.Context()))
		w.Header().Set("Retry-After", strconv.Itoa(databaseRetryAfter))
		writeError(w, http.StatusServiceUnavailable, "SERVICE_UNAVAILABLE", msgDatabaseDown)
	case errors.Is(err, context.Canceled) && r.Context().Err() != nil:
		// The client went away before the answer: nobody to answer, nothing went wrong here.
		w.WriteHeader(http.StatusServiceUnavailable)
	default:
		status := statusOf(err)
		if status == http.StatusInternalServerError {
			slog.ErrorContext(r.Context(), "request failed", "error", err.Error(), "request_id", RequestID(r.Context()))
		}
		code, msg := sentinelText(status)
		writeError(w, status, code, msg)
	}
}

// statusOf gives the HTTP status of a sentinel kind (500 for anything else).
func statusOf(err error) int {
	switch {
	case errors.Is(err, apperr.ErrBadRequest):
		return http.StatusBadRequest
	case errors.Is(err, apperr.ErrNotFound):
		return http.StatusNotFound
	case errors.Is(err, apperr.ErrUnauthorized), store.IsUserGone(err):
		// A write for an account deleted meanwhile (its token was checked before): signed out.
		return http.StatusUnauthorized
	case errors.Is(err, apperr.ErrForbidden):
		return http.StatusForbidden
	case errors.Is(err, apperr.ErrConflict):
		return http.StatusConflict
	case errors.Is(err, apperr.ErrNotImplemented):
		return http.StatusNotImplemented
	case errors.Is(err, apperr.ErrUnavailable):
		return http.StatusServiceUnavailable
	default:
		return http.StatusInternalServerError
	}
}

// sentinelText gives the code and human message of a status produced by statusOf.
func sentinelText(status int) (string, string) {
	switch status {
	case http.StatusBadRequest:
		return "BAD_REQUEST", "This request can't be carried out."
	case http.StatusNotFound:
		return "NOT_FOUND", msgNotFound
	case http.StatusUnauthorized:
		return "UNAUTHORIZED", msgUnauthorized
	case http.StatusForbidden:
		return "FORBIDDEN", msgForbidden
	case http.StatusConflict:
		return "CONFLICT", msgConflict
	case http.StatusNotImplemented:
		return "NOT_IMPLEMENTED", msgNotImplemented
	case http.StatusServiceUnavailable:
		return "SERVICE_UNAVAILABLE", msgUnavailable
	default:
		return "INTERNAL_ERROR", msgInternal
	}
}

// startedWriter is a response writer that knows whether the status line was sent.
type startedWriter interface{ started() bool }

// responseStarted reports whether w (or a writer it wraps) has sent its status: from then on
// an error can no longer be answered, only the connection broken.
func responseStarted(w http.ResponseWriter) bool {
	for w != nil {
		if s, ok := w.(startedWriter); ok && s.started() {
			return true
		}
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			return false
		}
		w = u.Unwrap()
	}
	return false
}
