-- Failed sign-ins are counted per account and client address together (one key per pairing,
-- the account's hash leading), and a sign-in link or a password reset forgets every pairing
-- of the account at once: a range of keys sharing that prefix. The primary key orders keys by
-- the database's collation, which need not be byte order; this index is in byte order, so the
-- range is read from it whatever the collation.

-- +goose Up
CREATE INDEX rate_limits_key_bytes_idx ON rate_limits ((key COLLATE "C"));

-- +goose Down
DROP INDEX rate_limits_key_bytes_idx;
