package auth

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/cache"
	"github.com/percolate/percolate/backend/internal/store"
	dbgen "github.com/percolate/percolate/gen/db"
)

// Defaults of Config.
const (
	DefaultAccessTTL = 15 * time.Minute
	DefaultFamilyTTL = 30 * 24 * time.Hour
	DefaultGrace     = 2 * time.Second
	DefaultAudience  = "percolate"
)

// Config configures Tokens.
type Config struct {
	// Keys sign access tokens (HS256, with the key's id as kid) and derive refresh-token
	// successors. Without it, a keyring is derived from Key (32 bytes or more).
	Keys *Keyring
	Key  []byte
	// Issuer and Audience are written into, and required of, every access token.
	Issuer   string
	Audience string
	// AccessTTL is the life of an access token; FamilyTTL the absolute life of a login.
	AccessTTL time.Duration
	FamilyTTL time.Duration
	// Grace is how long after a rotation the old refresh token still yields the current pair.
	Grace time.Duration
}

// Principal is who an access token or a refresh names.
type Principal struct {
	UserID uuid.UUID
	Role   string
	// Family is the refresh-token family (one login) the access token belongs to.
	Family uuid.UUID
	// Identity is who the account is, as VerifyAccess read it with the role; nil in a
	// Principal made otherwise.
	Identity *Identity
}

// Identity is who an account is: what GET /api/auth/me shows besides its id and role.
type Identity struct {
	Email     string
	Name      string
	IsStudent bool
}

// Pair is what a sign-in or a refresh hands out.
type Pair struct {
	Principal
	Access  string
	Refresh string
}

// claims is the payload of an access token.
type claims struct {
	jwt.RegisteredClaims
	Role string `json:"role"`
	SID  string `json:"sid"`
}

// ErrInvalidRefresh answers any refresh token that is unknown, rotated, revoked or expired.
var ErrInvalidRefresh = apperr.New(apperr.ErrUnauthorized, "INVALID_REFRESH_TOKEN", "Your session has expired. Please sign in again.")

// Tokens issues and checks access and refresh tokens.
type Tokens struct {
	cfg    Config
	st     *store.Store
	keys   *Keyring
	parser *jwt.Parser
	// validator is the parser's check of the claims (time, issuer, audience), run again on
	// every use of a token whose signature was verified before (see verified).
	validator *jwt.Validator
	// verified remembers access tokens whose signature has been verified, by their exact
	// text: decoding a token's JSON and its HMAC were the largest cost of an authenticated
	// request after the database. Only tokens that passed every check are kept.
	verified *cache.Cache[string, verifiedToken]
	logins   *cache.Cache[uuid.UUID, cachedLogin] // see logincache.go
	// Now is the clock of access tokens; replaceable in tests.
	Now func() time.Time
}

// NewTokens returns Tokens over the store st.
func NewTokens(st *store.Store, cfg Config) (*Tokens, error) {
	if cfg.Keys == nil {
		if len(cfg.Key) < KeySize {
			return nil, fmt.Errorf("auth: signing key must be at least %d bytes", KeySize)
		}
		cfg.Keys = SecretKeyring(cfg.Key)
	}
	if cfg.Issuer == "" {
		return nil, errors.New("auth: issuer required")
	}
	if cfg.Audience == "" {
		cfg.Audience = DefaultAudience
	}
	if cfg.AccessTTL <= 0 {
		cfg.AccessTTL = DefaultAccessTTL
	}
	if cfg.FamilyTTL <= 0 {
		cfg.FamilyTTL = DefaultFamilyTTL
	}
	if cfg.Grace <= 0 {
		cfg.Grace = DefaultGrace
	}
	if cfg.AccessTTL > cfg.Keys.cfg.Retain {
		return nil, fmt.Errorf("auth: access tokens outlive their key's retention (%s)", cfg.Keys.cfg.Retain)
	}
	t := &Tokens{cfg: cfg, st: st, keys: cfg.Keys, Now: time.Now}
	opts := []jwt.ParserOption{
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithAudience(cfg.Audience),
		jwt.WithIssuer(cfg.Issuer),
		jwt.WithIssuedAt(),
		jwt.WithExpirationRequired(),
		jwt.WithLeeway(5 * time.Second),
		jwt.WithTimeFunc(func() time.Time { return t.Now() }),
	}
	t.parser = jwt.NewParser(opts...)
	t.validator = jwt.NewValidator(opts...)
	t.verified = cache.New(cache.Config[string, verifiedToken]{MaxEntries: maxVerifiedTokens})
	t.logins = newLoginCache()
	return t, nil
}

// IssueAccess signs an access token for p.
func (t *Tokens) IssueAccess(p Principal) (string, error) {
	now := t.Now()
	c := claims{
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer:    t.cfg.Issuer,
			Subject:   p.UserID.String(),
			Audience:  jwt.ClaimStrings{t.cfg.Audience},
			IssuedAt:  jwt.NewNumericDate(now),
			NotBefore: jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(now.Add(t.cfg.AccessTTL)),
			ID:        uuid.NewString(),
		},
		Role: p.Role,
		SID:  p.Family.String(),
	}
	key := t.keys.Signer()
	tok := jwt.NewWithClaims(jwt.SigningMethodHS256, c)
	tok.Header["kid"] = key.ID
	s, err := tok.SignedString(key.access)
	if err != nil {
		return "", fmt.Errorf("auth: sign access token: %w", err)
	}
	return s, nil
}

// ParseAccess checks an access token's signature (by the accepted key its kid names),
// algorithm and claims, without asking the database whether its login is still live.
//
// A token seen before with the same key skips the decoding and the signature, which cannot
// have changed: its key must still be accepted (a retired key's tokens are refused at once)
// and its claims pass the same checks again (expiry above all).
func (t *Tokens) ParseAccess(ctx context.Context, token string) (Principal, error) {
	if v, ok := t.verified.Get(token); ok {
		key, live := t.keys.Lookup(ctx, v.kid)
		if live && bytes.Equal(key.access, v.key) && t.validator.Validate(&v.claims) == nil {
			return v.p, nil
		}
		t.verified.Delete(token)
		// Checked in full again below, which refuses it as it did before it was remembered.
	}
	var (
		c       claims
		kid     string
		signer  []byte
		keysErr error // the keys could not be read: the token could not be checked
	)
	keyFor := func(tok *jwt.Token) (any, error) {
		kid, _ = tok.Header["kid"].(string)
		key, ok, err := t.keys.LookupChecked(ctx, kid)
		if err != nil {
			keysErr = err
			return nil, err
		}
		if !ok {
			return nil, errors.New("unknown or retired kid")
		}
		signer = key.access
		return key.access, nil
	}
	if _, err := t.parser.ParseWithClaims(token, &c, keyFor); err != nil {
		if keysErr != nil {
			// Not a verdict on the token: the caller answers "try again", not "signed out".
			return Principal{}, fmt.Errorf("access token: %w", keysErr)
		}
		return Principal{}, fmt.Errorf("access token: %w", apperr.ErrUnauthorized)
	}
	uid, err1 := uuid.Parse(c.Subject)
	fam, err2 := uuid.Parse(c.SID)
	if err1 != nil || err2 != nil || c.Role == "" {
		return Principal{}, fmt.Errorf("access token claims: %w", apperr.ErrUnauthorized)
	}
	p := Principal{UserID: uid, Role: c.Role, Family: fam}
	t.verified.Set(token, verifiedToken{p: p, claims: c, kid: kid, key: signer})
	return p, nil
}

// maxVerifiedTokens bounds the tokens remembered as verified.
const maxVerifiedTokens = 8192

type verifiedToken struct {
	p      Principal
	claims claims
	kid    string
	key    []byte // the key that verified the signature
}

// VerifyAccess checks an access token and that its login (refresh family) is still live, so
// logout, a password reset and account deletion take effect at once. The role and the
// identity returned are the account's current ones (shared, not to be changed).
func (t *Tokens) VerifyAccess(ctx context.Context, token string) (Principal, error) {
	p, err := t.ParseAccess(ctx, token)
	if err != nil {
		return Principal{}, err
	}
	if e, ok := t.logins.Get(p.Family); ok && e.user == p.UserID {
		p.Role, p.Identity = e.role, e.id
		return p, nil
	}
	gen := t.logins.Gen()
	row, err := t.st.Queries().GetLiveRefreshFamily(ctx, dbgen.GetLiveRefreshFamilyParams{ID: p.Family, UserID: p.UserID})
	if store.IsNotFound(err) {
		return Principal{}, fmt.Errorf("access token of a closed login: %w", apperr.ErrUnauthorized)
	}
	if err != nil {
		return Principal{}, fmt.Errorf("check login: %w", err)
	}
	id := &Identity{Email: row.Email, Name: row.Name, IsStudent: row.IsStudent}
	t.logins.SetSince(gen, p.Family, cachedLogin{user: p.UserID, role: row.Role, id: id})
	p.Role, p.Identity = row.Role, id
	return p, nil
}

// StartSession opens a new login (refresh family) for a user on q (a pool's or a
// transaction's queries) and returns its first pair.
func (t *Tokens) StartSession(ctx context.Context, q *dbgen.Queries, userID uuid.UUID, role string) (Pair, error) {
	fam, err := q.CreateRefreshFamily(ctx, dbgen.CreateRefreshFamilyParams{UserID: userID, ExpiresAt: time.Now().Add(t.cfg.FamilyTTL)})
	if err != nil {
		return Pair{}, fmt.Errorf("create login: %w", err)
	}
	refresh, hash, err := NewOpaqueToken()
	if err != nil {
		return Pair{}, err
	}
	if _, err := q.CreateRefreshToken(ctx, dbgen.CreateRefreshTokenParams{FamilyID: fam.ID, UserID: userID, TokenHash: hash, ExpiresAt: fam.ExpiresAt}); err != nil {
		return Pair{}, fmt.Errorf("create refresh token: %w", err)
	}
	p := Principal{UserID: userID, Role: role, Family: fam.ID}
	access, err := t.IssueAccess(p)
	if err != nil {
		return Pair{}, err
	}
	return Pair{Principal: p, Access: access, Refresh: refresh}, nil
}

// maxGraceChain bounds how many rotations inside the grace window are followed.
const maxGraceChain = 8

// Refresh exchanges a refresh token for a new pair. The token is rotated: its successor is
// the only one that works afterwards. Presenting a rotated token again revokes the whole
// family (someone else has a copy), except within the grace window after its rotation, when
// the current pair is handed back (two tabs refreshing at once).
func (t *Tokens) Refresh(ctx context.Context, token string) (Pair, error) {
	var (
		pair    Pair
		revoked bool
	)
	grace := t.cfg.Grace.Seconds()
	err := t.st.WithTx(ctx, func(q *dbgen.Queries) error {
		row, err := q.GetRefreshTokenForUpdate(ctx, dbgen.GetRefreshTokenForUpdateParams{GraceSeconds: grace, TokenHash: HashToken(token)})
		if store.IsNotFound(err) {
			return ErrInvalidRefresh
		}
		if err != nil {
			return fmt.Errorf("find refresh token: %w", err)
		}
		if row.FamilyRevokedAt != nil || row.RevokedAt != nil || !row.FamilyLive {
			return ErrInvalidRefresh
		}
		p := Principal{UserID: row.UserID, Role: row.Role, Family: row.FamilyID}
		current := token
		if row.RotatedAt != nil {
			if !row.InGrace {
				t.logins.Clear()
				if _, err := q.RevokeRefreshFamily(ctx, dbgen.RevokeRefreshFamilyParams{Reason: new("reuse"), ID: row.FamilyID, UserID: row.UserID}); err != nil {
					return fmt.Errorf("revoke family: %w", err)
				}
				revoked = true
				return nil
			}
			// Follow the chain of rotations to the token that is current now. Each
			// successor was derived with the key that signed then: try each accepted one.
			keys := t.keys.Accepted()
			for i := 0; ; i++ {
				var r dbgen.GetRefreshTokenByHashRow
				prev := current
				for _, k := range keys {
					current = successor(k.refresh, prev)
					r, err = q.GetRefreshTokenByHash(ctx, dbgen.GetRefreshTokenByHashParams{GraceSeconds: grace, TokenHash: HashToken(current), UserID: row.UserID, FamilyID: row.FamilyID})
					if !store.IsNotFound(err) {
						break
					}
				}
				if err != nil || r.RevokedAt != nil || i >= maxGraceChain || (r.RotatedAt != nil && !r.InGrace) {
					return ErrInvalidRefresh
				}
				if r.RotatedAt == nil {
					break
				}
			}
		} else {
			next := successor(t.keys.Signer().refresh, token)
			nt, err := q.CreateRefreshToken(ctx, dbgen.CreateRefreshTokenParams{FamilyID: row.FamilyID, UserID: row.UserID, TokenHash: HashToken(next), ExpiresAt: row.FamilyExpiresAt})
			if err != nil {
				return fmt.Errorf("create refresh token: %w", err)
			}
			if err := q.MarkRefreshTokenRotated(ctx, dbgen.MarkRefreshTokenRotatedParams{ReplacedBy: &nt.ID, ID: row.ID, UserID: row.UserID}); err != nil {
				return fmt.Errorf("rotate refresh token: %w", err)
			}
			current = next
		}
		access, err := t.IssueAccess(p)
		if err != nil {
			return err
		}
		pair = Pair{Principal: p, Access: access, Refresh: current}
		return nil
	})
	if err != nil {
		return Pair{}, err
	}
	if revoked {
		return Pair{}, ErrInvalidRefresh
	}
	return pair, nil
}

// RevokeFamily closes one login of a user.
func (t *Tokens) RevokeFamily(ctx context.Context, q *dbgen.Queries, userID, family uuid.UUID, reason string) error {
	defer t.logins.Clear()
	if _, err := q.RevokeRefreshFamily(ctx, dbgen.RevokeRefreshFamilyParams{Reason: &reason, ID: family, UserID: userID}); err != nil {
		return fmt.Errorf("revoke login: %w", err)
	}
	return nil
}

// RevokeAll closes every login of a user, except keep when it is not uuid.Nil.
func (t *Tokens) RevokeAll(ctx context.Context, q *dbgen.Queries, userID, keep uuid.UUID, reason string) error {
	defer t.logins.Clear()
	var err error
	if keep == uuid.Nil {
		_, err = q.RevokeUserRefreshFamilies(ctx, dbgen.RevokeUserRefreshFamiliesParams{Reason: &reason, UserID: userID})
	} else {
		_, err = q.RevokeUserRefreshFamiliesExcept(ctx, dbgen.RevokeUserRefreshFamiliesExceptParams{Reason: &reason, UserID: userID, KeepID: keep})
	}
	if err != nil {
		return fmt.Errorf("revoke logins: %w", err)
	}
	return nil
}
