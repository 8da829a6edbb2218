package httpapi

import (
	"context"
	"net/http"
	"strings"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/apperr"
)

// Caller is the authenticated user of a request.
type Caller struct {
	UserID uuid.UUID
	Role   string
	// Family is the refresh-token family the access token was issued for (logout revokes it).
	Family uuid.UUID
}

// TokenVerifier checks an access token and returns its caller. The accounts package provides
// the implementation; without one every protected operation answers 401.
type TokenVerifier interface {
	VerifyAccessToken(ctx context.Context, token string) (Caller, error)
}

type callerKey struct{}

// WithCaller returns ctx carrying the caller.
func WithCaller(ctx context.Context, c Caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

// CallerFrom returns the caller of the request, if its bearer token was valid.
func CallerFrom(ctx context.Context) (Caller, bool) {
	c, ok := ctx.Value(callerKey{}).(Caller)
	return c, ok
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
// It rejects nothing itself: the request validator knows which operations need a caller.
func authenticate(v TokenVerifier) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			token, ok := bearerToken(r)
			if ok && v != nil {
				if c, err := v.VerifyAccessToken(r.Context(), token); err == nil {
					r = r.WithContext(WithCaller(r.Context(), c))
				}
			}
			next.ServeHTTP(w, r)
		})
	}
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
