-- The whole data model of the first release. Later changes come as new
-- numbered files; this one is never edited once released.
--
-- Conventions: uuid keys from gen_random_uuid() (core since PostgreSQL 13),
-- timestamptz everywhere, CHECK constraints that mirror the API's validation
-- rules as a last line of defence, and ON DELETE CASCADE from users so that
-- deleting an account really deletes everything that belongs to it.

-- +goose Up

-- +goose StatementBegin
CREATE FUNCTION set_updated_at() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    NEW.updated_at = now();
    RETURN NEW;
END;
$$;
-- +goose StatementEnd

-- Accounts. The profile fields (age, focus areas, primary concerns, sensitive
-- topics) live on the user row: they are 1:1, always loaded together and
-- deleted together, so a separate table would only add a join.
CREATE TABLE users (
    id                 uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    email              text        NOT NULL CHECK (char_length(email) BETWEEN 3 AND 254),
    name               text        NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
    -- NULL for accounts that only ever signed in through an identity provider.
    password_hash      text,
    role               text        NOT NULL DEFAULT 'USER'
                                   CHECK (role IN ('USER', 'BASIC', 'PREMIUM', 'ADMIN')),
    is_student         boolean     NOT NULL DEFAULT false,
    email_verified_at  timestamptz,
    age                integer     CHECK (age BETWEEN 13 AND 120),
    focus_areas        text        NOT NULL DEFAULT '' CHECK (char_length(focus_areas) <= 250),
    primary_concerns   text        NOT NULL DEFAULT '' CHECK (char_length(primary_concerns) <= 250),
    sensitive_topics   text        NOT NULL DEFAULT '' CHECK (char_length(sensitive_topics) <= 250),
    stripe_customer_id text        UNIQUE,
    created_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now()
);

-- E-mail addresses are unique regardless of case; every lookup uses lower(email).
CREATE UNIQUE INDEX users_email_lower_key ON users (lower(email));

CREATE TRIGGER users_set_updated_at BEFORE UPDATE ON users
    FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- Third-party (OIDC) sign-ins linked to an account.
CREATE TABLE external_identities (
    id         uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id    uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    provider   text        NOT NULL CHECK (char_length(provider) BETWEEN 1 AND 64),
    subject    text        NOT NULL CHECK (char_length(subject) BETWEEN 1 AND 255),
    email      text        CHECK (char_length(email) <= 254),
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (provider, subject)
);

CREATE INDEX external_identities_user_id_idx ON external_identities (user_id);

-- A refresh-token family is one login. Every refresh rotates the token within
-- the family; presenting a rotated token (outside a short grace window)
-- revokes the whole family. expires_at is absolute: rotation never extends it.
CREATE TABLE refresh_token_families (
    id            uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id       uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at    timestamptz NOT NULL DEFAULT now(),
    expires_at    timestamptz NOT NULL,
    revoked_at    timestamptz,
    revoke_reason text        CHECK (char_length(revoke_reason) <= 64)
);

CREATE INDEX refresh_token_families_user_id_idx ON refresh_token_families (user_id);

-- Only a hash of each token is stored (SHA-256 of the opaque random value).
CREATE TABLE refresh_tokens (
    id          uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    family_id   uuid        NOT NULL REFERENCES refresh_token_families (id) ON DELETE CASCADE,
    user_id     uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token_hash  bytea       NOT NULL UNIQUE,
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL,
    -- Set when this token was exchanged for its successor.
    rotated_at  timestamptz,
    replaced_by uuid        REFERENCES refresh_tokens (id) ON DELETE SET NULL,
    revoked_at  timestamptz
);

CREATE INDEX refresh_tokens_family_id_idx ON refresh_tokens (family_id);
CREATE INDEX refresh_tokens_user_id_idx ON refresh_tokens (user_id);
CREATE INDEX refresh_tokens_expires_at_idx ON refresh_tokens (expires_at);

-- Single-use e-mail verification and password-reset tokens, stored hashed.
CREATE TABLE email_tokens (
    id         uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id    uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    purpose    text        NOT NULL CHECK (purpose IN ('verify', 'reset')),
    token_hash bytea       NOT NULL UNIQUE,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    used_at    timestamptz
);

CREATE INDEX email_tokens_user_id_purpose_idx ON email_tokens (user_id, purpose);
CREATE INDEX email_tokens_expires_at_idx ON email_tokens (expires_at);

-- One-time codes that hand the SPA its tokens after a third-party sign-in, so
-- tokens never travel in a URL. Short-lived, single-use, stored hashed.
CREATE TABLE login_codes (
    code_hash  bytea       PRIMARY KEY,
    user_id    uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    used_at    timestamptz
);

CREATE INDEX login_codes_user_id_idx ON login_codes (user_id);
CREATE INDEX login_codes_expires_at_idx ON login_codes (expires_at);

-- Chat sessions. last_message is a short preview for the dashboard so the
-- list does not have to read messages.
CREATE TABLE chat_sessions (
    id                 uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id            uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    title              text        NOT NULL DEFAULT '' CHECK (char_length(title) <= 200),
    status             text        NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'ENDED')),
    tokens_used        integer     NOT NULL DEFAULT 0 CHECK (tokens_used >= 0),
    token_limit        integer     NOT NULL DEFAULT 1000 CHECK (token_limit > 0),
    summary            text        CHECK (char_length(summary) <= 4000),
    emotions           text[]      NOT NULL DEFAULT '{}' CHECK (cardinality(emotions) <= 5),
    end_reason         text        CHECK (char_length(end_reason) <= 200),
    last_message       text        NOT NULL DEFAULT '' CHECK (char_length(last_message) <= 300),
    -- A positive safety screen in this session: the user's next session opens
    -- with a gentle check-in.
    checkin_pending    boolean     NOT NULL DEFAULT false,
    -- When the "I'm an AI, not a person or a therapist" notice was last shown;
    -- it is repeated after every 3 hours of continuing use.
    last_disclosure_at timestamptz,
    created_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now(),
    ended_at           timestamptz,
    CHECK ((status = 'ENDED') = (ended_at IS NOT NULL))
);

CREATE INDEX chat_sessions_user_id_updated_at_idx ON chat_sessions (user_id, updated_at DESC);
CREATE INDEX chat_sessions_checkin_pending_idx ON chat_sessions (user_id) WHERE checkin_pending;

CREATE TRIGGER chat_sessions_set_updated_at BEFORE UPDATE ON chat_sessions
    FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- Messages. user_id is the session owner's id, kept on every row so each query
-- can be scoped to the caller without a join.
CREATE TABLE messages (
    id          uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    session_id  uuid        NOT NULL REFERENCES chat_sessions (id) ON DELETE CASCADE,
    user_id     uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role        text        NOT NULL CHECK (role IN ('user', 'assistant', 'system')),
    content     text        NOT NULL CHECK (char_length(content) BETWEEN 1 AND 20000),
    token_count integer     NOT NULL DEFAULT 0 CHECK (token_count >= 0),
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX messages_session_id_created_at_idx ON messages (session_id, created_at, id);
CREATE INDEX messages_user_id_idx ON messages (user_id);

-- Stripe subscriptions. last_event_at is the creation time of the newest
-- Stripe event applied, so an older event arriving late is ignored.
CREATE TABLE subscriptions (
    id                     uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id                uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    stripe_subscription_id text        NOT NULL UNIQUE,
    stripe_customer_id     text        NOT NULL,
    plan                   text        NOT NULL CHECK (plan IN ('BASIC', 'PREMIUM')),
    status                 text        NOT NULL CHECK (char_length(status) BETWEEN 1 AND 32),
    current_period_end     timestamptz,
    cancel_at_period_end   boolean     NOT NULL DEFAULT false,
    last_event_at          timestamptz NOT NULL,
    created_at             timestamptz NOT NULL DEFAULT now(),
    updated_at             timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX subscriptions_user_id_idx ON subscriptions (user_id);

CREATE TRIGGER subscriptions_set_updated_at BEFORE UPDATE ON subscriptions
    FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- Stripe webhook events already handled, so a redelivery is a no-op.
CREATE TABLE processed_webhook_events (
    event_id     text        PRIMARY KEY,
    event_type   text        NOT NULL,
    processed_at timestamptz NOT NULL DEFAULT now()
);

-- Messages sent from the public contact form.
CREATE TABLE contact_messages (
    id         uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    name       text        NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
    email      text        NOT NULL CHECK (char_length(email) BETWEEN 3 AND 254),
    message    text        NOT NULL CHECK (char_length(message) BETWEEN 1 AND 5000),
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX contact_messages_created_at_idx ON contact_messages (created_at DESC);

-- Fixed-window rate-limit counters, shared by every app instance. The key
-- names the limit and its subject (e.g. "login:ip:203.0.113.7").
CREATE TABLE rate_limits (
    key          text        NOT NULL CHECK (char_length(key) BETWEEN 1 AND 512),
    window_start timestamptz NOT NULL,
    count        integer     NOT NULL DEFAULT 0 CHECK (count >= 0),
    PRIMARY KEY (key, window_start)
);

CREATE INDEX rate_limits_window_start_idx ON rate_limits (window_start);

-- Per-user, per-day usage (messages, voice replies, ...) for tier limits.
CREATE TABLE usage_counters (
    user_id uuid    NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    day     date    NOT NULL,
    kind    text    NOT NULL CHECK (kind ~ '^[a-z][a-z_]{0,31}$'),
    count   integer NOT NULL DEFAULT 0 CHECK (count >= 0),
    PRIMARY KEY (user_id, day, kind)
);

-- Crisis-resource referrals per day, for the yearly count California SB 243
-- asks for. Deliberately no user id and no message content.
CREATE TABLE safety_referral_counts (
    day   date    PRIMARY KEY,
    count integer NOT NULL DEFAULT 0 CHECK (count >= 0)
);

-- Weekly insight reports, one per user and week (week_start is a Monday).
CREATE TABLE weekly_reports (
    id         uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id    uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    week_start date        NOT NULL,
    content    jsonb       NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (user_id, week_start)
);

-- +goose Down
DROP TABLE weekly_reports;
DROP TABLE safety_referral_counts;
DROP TABLE usage_counters;
DROP TABLE rate_limits;
DROP TABLE contact_messages;
DROP TABLE processed_webhook_events;
DROP TABLE subscriptions;
DROP TABLE messages;
DROP TABLE chat_sessions;
DROP TABLE login_codes;
DROP TABLE email_tokens;
DROP TABLE refresh_tokens;
DROP TABLE refresh_token_families;
DROP TABLE external_identities;
DROP TABLE users;
DROP FUNCTION set_updated_at();
