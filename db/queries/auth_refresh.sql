-- name: CreateRefreshFamily :one
-- CreateRefreshFamily starts a login: a family whose expiry is absolute.
INSERT INTO refresh_token_families (user_id, expires_at)
VALUES (@user_id, @expires_at)
RETURNING *;

-- name: CreateRefreshToken :one
-- CreateRefreshToken stores the hash of a new refresh token of a family.
INSERT INTO refresh_tokens (family_id, user_id, token_hash, expires_at)
VALUES (@family_id, @user_id, @token_hash, @expires_at)
RETURNING *;

-- name: GetRefreshTokenForUpdate :one
-- GetRefreshTokenForUpdate finds a refresh token by its hash (the token identifies its
-- user) with its family and the owner's role, locking the token and its family so that
-- concurrent refreshes of one token are serialised.
SELECT t.id, t.family_id, t.user_id, t.rotated_at, t.replaced_by, t.revoked_at,
       f.expires_at AS family_expires_at, f.revoked_at AS family_revoked_at,
       u.role, (f.expires_at > now())::boolean AS family_live,
       (t.rotated_at IS NOT NULL AND t.rotated_at > now() - make_interval(secs => @grace_seconds::float8))::boolean AS in_grace
FROM refresh_tokens t
JOIN refresh_token_families f ON f.id = t.family_id
JOIN users u ON u.id = t.user_id
WHERE t.token_hash = @token_hash
FOR UPDATE OF t, f;

-- name: GetRefreshTokenByHash :one
-- GetRefreshTokenByHash finds a token of a family by its hash (used to follow a rotation
-- chain inside the grace window); scoped to the user and the family.
SELECT id, rotated_at, revoked_at,
       (rotated_at IS NOT NULL AND rotated_at > now() - make_interval(secs => @grace_seconds::float8))::boolean AS in_grace
FROM refresh_tokens
WHERE token_hash = @token_hash AND user_id = @user_id AND family_id = @family_id;

-- name: MarkRefreshTokenRotated :exec
-- MarkRefreshTokenRotated records that a token was exchanged for its successor.
UPDATE refresh_tokens
SET rotated_at = now(), replaced_by = @replaced_by
WHERE id = @id AND user_id = @user_id;

-- name: RevokeRefreshFamily :execrows
-- RevokeRefreshFamily revokes one family of a user (logout, reuse of a rotated token).
UPDATE refresh_token_families
SET revoked_at = now(), revoke_reason = @reason
WHERE id = @id AND user_id = @user_id AND revoked_at IS NULL;

-- name: RevokeUserRefreshFamilies :execrows
-- RevokeUserRefreshFamilies revokes every family of a user (password reset).
UPDATE refresh_token_families
SET revoked_at = now(), revoke_reason = @reason
WHERE user_id = @user_id AND revoked_at IS NULL;

-- name: RevokeUserRefreshFamiliesExcept :execrows
-- RevokeUserRefreshFamiliesExcept revokes every family of a user but one (password change
-- keeps the caller signed in).
UPDATE refresh_token_families
SET revoked_at = now(), revoke_reason = @reason
WHERE user_id = @user_id AND id <> @keep_id AND revoked_at IS NULL;

-- name: GetLiveRefreshFamily :one
-- GetLiveRefreshFamily returns who the owner is (role, e-mail, name, student status) when the
-- family is neither revoked nor expired (pgx.ErrNoRows otherwise, or when the user is gone).
SELECT u.role, u.email, u.name, u.is_student
FROM refresh_token_families f
JOIN users u ON u.id = f.user_id
WHERE f.id = @id AND f.user_id = @user_id AND f.revoked_at IS NULL AND f.expires_at > now();

-- name: PruneRefreshFamilies :execrows
-- PruneRefreshFamilies deletes families that expired or were revoked before the cut-off.
DELETE FROM refresh_token_families
WHERE expires_at < @before OR revoked_at < @before;
