package httpapi

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/auth"
	"github.com/percolate/percolate/backend/internal/store"
)

// Caller is the authenticated user of a request.
type Caller struct {
	UserID uuid.UUID
	Role   string
	// Family is the refresh-token family the access token was issued for (logout revokes it).
	Family uuid.UUID
	// Identity is who the caller is, when the verifier read it with the role (nil: not read).
	Identity *auth.Identity
}

// TokenVerifier checks an access token and returns its caller. The accounts package provides
// the implementation; without one every protected operation answers 401. An error that wraps
// apperr.ErrUnauthorized says the token is not valid (401); any other error says the token
// could not be checked (503 with Retry-After), and the client keeps it and tries again.
type TokenVerifier interface {
	VerifyAccessToken(ctx context.Context, token string) (Caller, error)
}

// WithCaller returns ctx carrying the caller.
func WithCaller(ctx context.Context, c Caller) context.Context {
	return withState(ctx, func(st *requestState) { st.caller, st.hasCaller = c, true })
}

// CallerFrom returns the caller of the request, if its bearer token was valid.
func CallerFrom(ctx context.Context) (Caller, bool) {
	if st := stateFrom(ctx); st != nil && st.hasCaller {
		return st.caller, true
	}
	return Caller{}, false
}

// caller returns the authenticated caller; the request validator has already refused
// protected operations without one, so its absence is a 401.
func caller(ctx context.Context) (Caller, error) {
	c, ok := CallerFrom(ctx)
	if !ok {
		return Caller{}, apperr.ErrUnauthorized
	}
	return c, nil
}

// authenticate verifies a bearer token when one is sent and puts its caller in the context.
// It rejects no token itself (the request validator knows which operations need a caller).
// Only a verifier's "this token is not valid" (apperr.ErrUnauthorized) leaves the request
// without a caller, to be answered 401, the answer that signs the client out. Any other
// failure means the token could not be checked: the database could not be reached, or refused
// the connection (maintenance, a restore, a revoked privilege, a rotated password), or
// anything else went wrong on our side. None of these says the token is bad, so the request
// is answered as an outage (503 with Retry-After), and the client keeps its tokens and tries
// again.
func authenticate(v TokenVerifier) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			token, ok := bearerToken(r)
			if ok {
				c, err := v.VerifyAccessToken(r.Context(), token)
				switch {
				case err == nil:
					var st *requestState
					r, st = requestStateOf(r)
					st.caller, st.hasCaller = c, true
				case errors.Is(err, apperr.ErrUnauthorized):
					// Not valid: answered 401 by whatever needs a caller.
				default:
					writeUncheckedToken(w, r, fmt.Errorf("check access token: %w", err))
					return
				}
			}
			next.ServeHTTP(w, r)
		})
	}
}

// writeUncheckedToken answers a request whose access token could not be checked: 503 with
// Retry-After, in the words of writeDomainError when the database was the cause.
func writeUncheckedToken(w http.ResponseWriter, r *http.Request, err error) {
	if store.IsUnavailable(err) {
		writeDomainError(w, r, err)
		return
	}
	slog.ErrorContext(r.Context(), "access token could not be checked", "error", err.Error(), "request_id", RequestID(r.Context()))
	w.Header().Set("Retry-After", strconv.Itoa(databaseRetryAfter))
	writeError(w, http.StatusServiceUnavailable, "SERVICE_UNAVAILABLE", msgUnavailable)
}

func bearerToken(r *http.Request) (string, bool) {
	h := r.Header.Get("Authorization")
	scheme, token, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimSpace(token)
	return token, token != ""
}
