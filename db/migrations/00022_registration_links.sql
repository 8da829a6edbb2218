-- A registration's password is bound to the link that verifies it (issue: account hijack
-- through e-mail verification). An unverified account has no password of its own: each
-- registration of the address leaves a row in email_tokens with the password hash and name
-- the registrant chose, and no token (its "registration row"); the verification mail's job
-- copies the newest registration's password and name into each link it makes, and
-- following a link sets them on the account. A new registration of the same address uses up
-- every earlier link, so a pre-registrant's password can never become the account's.

-- +goose Up
ALTER TABLE email_tokens ALTER COLUMN token_hash DROP NOT NULL;
ALTER TABLE email_tokens ADD COLUMN password_hash text, ADD COLUMN name text;
ALTER TABLE email_tokens ADD CONSTRAINT email_tokens_registration_check
    CHECK (purpose = 'verify' OR (token_hash IS NOT NULL AND password_hash IS NULL AND name IS NULL));

-- Accounts that registered before this change keep their pending password: it moves to
-- their open links and to a registration row, and leaves the account.
UPDATE email_tokens t
SET password_hash = u.password_hash, name = u.name
FROM users u
WHERE t.user_id = u.id AND t.purpose = 'verify' AND t.used_at IS NULL
  AND u.email_verified_at IS NULL AND u.password_hash IS NOT NULL;
INSERT INTO email_tokens (user_id, purpose, password_hash, name, expires_at)
SELECT id, 'verify', password_hash, name, now() + interval '24 hours'
FROM users
WHERE email_verified_at IS NULL AND password_hash IS NOT NULL;
UPDATE users SET password_hash = NULL WHERE email_verified_at IS NULL;

-- +goose Down
UPDATE users u
SET password_hash = r.password_hash
FROM (
    SELECT DISTINCT ON (user_id) user_id, password_hash
    FROM email_tokens
    WHERE purpose = 'verify' AND password_hash IS NOT NULL
    ORDER BY user_id, created_at DESC
) r
WHERE u.id = r.user_id AND u.email_verified_at IS NULL;
DELETE FROM email_tokens WHERE token_hash IS NULL;
ALTER TABLE email_tokens DROP CONSTRAINT email_tokens_registration_check;
ALTER TABLE email_tokens DROP COLUMN password_hash, DROP COLUMN name;
ALTER TABLE email_tokens ALTER COLUMN token_hash SET NOT NULL;
