-- The keys that sign access tokens and the third-party sign-in flow cookie, shared by every
-- instance on the database (unless PERCOLATE_SECRET_KEY is set, when they are derived from it
-- and this table stays empty). The first is made at start-up under an advisory lock; a
-- rotation adds one that signs from activates_at on (once every instance has loaded it), and
-- the one before it is still accepted until the tokens it signed have expired.

-- +goose Up
CREATE TABLE signing_keys (
    kid          text PRIMARY KEY,
    secret       bytea NOT NULL CHECK (length(secret) = 32),
    created_at   timestamptz NOT NULL DEFAULT now(),
    activates_at timestamptz NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE signing_keys;
