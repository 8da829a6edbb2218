-- name: CreateUser :one
-- CreateUser inserts an account; role defaults to USER. password_hash is
-- NULL for accounts that only sign in through an identity provider.
INSERT INTO users (email, name, password_hash, is_student, email_verified_at)
VALUES (@email, @name, sqlc.narg('password_hash'), @is_student, sqlc.narg('email_verified_at'))
RETURNING *;

-- name: GetUserByID :one
-- GetUserByID returns one account by id.
SELECT * FROM users
WHERE id = @id;

-- name: GetUserIdentity :one
-- GetUserIdentity returns who an account is (GET /api/auth/me): its id, e-mail, name,
-- role and student status, without the rest of the row.
SELECT id, email, name, role, is_student FROM users
WHERE id = @id;

-- name: GetUserRole :one
-- GetUserRole returns an account's role alone (what a read of its sessions needs of it).
SELECT role FROM users
WHERE id = @id;

-- name: GetUserByEmail :one
-- GetUserByEmail finds an account by e-mail, ignoring case (it uses the
-- unique index on lower(email)).
SELECT * FROM users
WHERE lower(email) = lower(@email);

-- name: SetUserRoleByEmail :one
-- SetUserRoleByEmail sets the role of the account with this e-mail, ignoring
-- case, and returns the updated row (pgx.ErrNoRows when there is none).
UPDATE users
SET role = @role
WHERE lower(email) = lower(@email)
RETURNING *;

-- name: DeleteUser :execrows
-- DeleteUser deletes an account; everything it owns goes with it through
-- ON DELETE CASCADE.
DELETE FROM users
WHERE id = @id;

-- name: MarkEmailVerified :exec
-- MarkEmailVerified records that the owner of the account proved the address is theirs.
UPDATE users
SET email_verified_at = COALESCE(email_verified_at, now())
WHERE id = @id;

-- name: VerifyRegistration :execrows
-- VerifyRegistration verifies an unverified account with the password and name bound to
-- the link its owner followed. It changes nothing (0 rows) once the account is verified:
-- a link then sets no password.
UPDATE users
SET email_verified_at = now(), password_hash = @password_hash, name = COALESCE(sqlc.narg('name'), name)
WHERE id = @id AND email_verified_at IS NULL;

-- name: SetPasswordHash :exec
-- SetPasswordHash replaces the password of an account.
UPDATE users
SET password_hash = @password_hash
WHERE id = @id;

-- name: ClaimUnverifiedUser :one
-- ClaimUnverifiedUser hands an account that was registered but never verified to the
-- mailbox owner, whom an identity provider vouches for: whoever registered it proved
-- nothing, so their password and chosen name go, and the address counts as verified.
-- pgx.ErrNoRows when the account is already verified.
UPDATE users
SET password_hash = NULL, name = @name, email_verified_at = now()
WHERE id = @id AND email_verified_at IS NULL
RETURNING *;

-- name: LockUserForWrite :one
-- LockUserForWrite takes the account's row in key-share mode for the rest of the
-- transaction, before any other row of it: a deletion of the account then waits for the
-- write (or the write finds the account gone), instead of the two locking each other's
-- rows in opposite orders.
SELECT id FROM users
WHERE id = @id
FOR KEY SHARE;

-- name: GetUserForSend :one
-- GetUserForSend returns one account by id with a fingerprint of its whole row, which a
-- send from a kept state expects to find unchanged (ExpectSendState).
SELECT sqlc.embed(users), md5(users::text)::text AS fingerprint FROM users
WHERE id = @id;

-- name: ExpectSendState :one
-- ExpectSendState takes a send's first locks (the user's row, then the session's) for a send
-- from a kept state, and fails (rolling the transaction back) unless the user's row has
-- @fingerprint (GetUserForSend), the session is the user's at @version, and the prompt's
-- memories are @memories (migration 00020's expect_send_state).
SELECT expect_send_state(@user_id, @fingerprint::text, @session_id, @version::bigint, @memories::text[]);

-- name: MarkThreadAsked :exec
-- MarkThreadAsked records that the welcome asked the user how a remembered event went.
UPDATE users SET thread_asked_at = @asked_at::timestamptz WHERE id = @id;
