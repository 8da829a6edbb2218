-- name: CreateEmailToken :one
-- CreateEmailToken stores the hash of a single-use verification or reset token.
INSERT INTO email_tokens (user_id, purpose, token_hash, expires_at)
VALUES (@user_id, @purpose, @token_hash, @expires_at)
RETURNING *;

-- name: GetValidEmailToken :one
-- GetValidEmailToken finds an unused, unexpired token by hash (the token identifies its
-- user) with the owner's e-mail, without using it.
SELECT t.user_id, u.email
FROM email_tokens t
JOIN users u ON u.id = t.user_id
WHERE t.token_hash = @token_hash AND t.purpose = @purpose
  AND t.used_at IS NULL AND t.expires_at > now();

-- name: CreateRegistration :exec
-- CreateRegistration stores one registration of an unverified account: the password hash
-- and name its registrant chose, with no token of its own. The verification mail copies
-- them into its link (CreateVerifyLink); only following that link sets them on the account.
INSERT INTO email_tokens (user_id, purpose, password_hash, name, expires_at)
VALUES (@user_id, 'verify', @password_hash, @name, @expires_at);

-- name: CreateVerifyLink :one
-- CreateVerifyLink stores the hash of a new verification link bound to the account's newest
-- open registration (its password and name). pgx.ErrNoRows when there is none.
INSERT INTO email_tokens (user_id, purpose, token_hash, password_hash, name, expires_at)
SELECT r.user_id, 'verify', @token_hash, r.password_hash, r.name, @expires_at
FROM email_tokens r
WHERE r.user_id = @user_id AND r.purpose = 'verify' AND r.used_at IS NULL
  AND r.password_hash IS NOT NULL
ORDER BY r.created_at DESC
LIMIT 1
RETURNING id;

-- name: GetPendingPassword :one
-- GetPendingPassword returns the password hash of an unverified account's newest open
-- registration (pgx.ErrNoRows when there is none): the one its verification link will set.
SELECT password_hash::text
FROM email_tokens
WHERE user_id = @user_id AND purpose = 'verify' AND used_at IS NULL
  AND password_hash IS NOT NULL
ORDER BY created_at DESC
LIMIT 1;

-- name: UseVerifyLink :one
-- UseVerifyLink marks an unused, unexpired verification link used and returns its account
-- with the password and name bound to it (pgx.ErrNoRows when it is unknown, used, expired
-- or replaced by a later registration).
UPDATE email_tokens
SET used_at = now()
WHERE token_hash = @token_hash AND purpose = 'verify'
  AND used_at IS NULL AND expires_at > now()
RETURNING user_id, password_hash, name;

-- name: UseEmailToken :one
-- UseEmailToken marks an unused, unexpired token used and returns its user
-- (pgx.ErrNoRows when it is unknown, used or expired).
UPDATE email_tokens
SET used_at = now()
WHERE token_hash = @token_hash AND purpose = @purpose
  AND used_at IS NULL AND expires_at > now()
RETURNING user_id;

-- name: InvalidateEmailTokens :exec
-- InvalidateEmailTokens uses up every open token of a user for one purpose.
UPDATE email_tokens
SET used_at = now()
WHERE user_id = @user_id AND purpose = @purpose AND used_at IS NULL;

-- name: SecondsSinceLastEmailToken :one
-- SecondsSinceLastEmailToken says how long ago the user's newest token of a purpose was
-- made (a billion when there is none).
SELECT COALESCE(EXTRACT(EPOCH FROM now() - max(created_at)), 1e9)::float8 AS seconds
FROM email_tokens
WHERE user_id = @user_id AND purpose = @purpose;

-- name: RelaxCommit :exec
-- RelaxCommit lets the current transaction commit without waiting for its WAL flush. Used
-- where a commit's disk wait would otherwise show, in the response time, whether an account
-- exists (registration, reset mail); a crash may lose the last moment of such writes, which
-- only means a link that no longer works.
SELECT set_config('synchronous_commit', 'off', true);

-- name: PruneEmailTokens :execrows
-- PruneEmailTokens deletes tokens that expired or were used before the cut-off.
DELETE FROM email_tokens
WHERE expires_at < @before OR used_at < @before;

-- name: InvalidateAllEmailTokens :exec
-- InvalidateAllEmailTokens uses up every open verification and reset link of a user.
UPDATE email_tokens
SET used_at = now()
WHERE user_id = @user_id AND used_at IS NULL;
