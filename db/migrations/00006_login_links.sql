-- Sign-in by e-mail link: after too many wrong passwords the owner of an address can ask for
-- a one-time link that signs them in. Its token is an e-mail token like the verification and
-- reset links (single-use, stored hashed, expiring).

-- +goose Up
ALTER TABLE email_tokens DROP CONSTRAINT email_tokens_purpose_check;
ALTER TABLE email_tokens ADD CONSTRAINT email_tokens_purpose_check
    CHECK (purpose IN ('verify', 'reset', 'login'));

-- +goose Down
DELETE FROM email_tokens WHERE purpose = 'login';
ALTER TABLE email_tokens DROP CONSTRAINT email_tokens_purpose_check;
ALTER TABLE email_tokens ADD CONSTRAINT email_tokens_purpose_check
    CHECK (purpose IN ('verify', 'reset'));
