-- name: GetExternalIdentityUser :one
-- GetExternalIdentityUser returns the account linked to a provider's subject.
SELECT user_id FROM external_identities
WHERE provider = @provider AND subject = @subject;

-- name: CreateExternalIdentity :exec
-- CreateExternalIdentity links a provider's subject to an account.
INSERT INTO external_identities (user_id, provider, subject, email)
VALUES (@user_id, @provider, @subject, sqlc.narg('email'));

-- name: CreateLoginCode :exec
-- CreateLoginCode stores the hash of a one-time code that hands the SPA its tokens.
INSERT INTO login_codes (code_hash, user_id, expires_at)
VALUES (@code_hash, @user_id, @expires_at);

-- name: UseLoginCode :one
-- UseLoginCode spends an unused, unexpired code and returns its user
-- (pgx.ErrNoRows when it is unknown, used or expired).
UPDATE login_codes
SET used_at = now()
WHERE code_hash = @code_hash AND used_at IS NULL AND expires_at > now()
RETURNING user_id;

-- name: PruneLoginCodes :execrows
-- PruneLoginCodes deletes one-time codes that expired before the cut-off.
DELETE FROM login_codes
WHERE expires_at < @before;
