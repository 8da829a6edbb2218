-- Gentle reminders (issue 31 §3): a user's reminder settings, the push subscriptions of their
-- devices, and the keys of the reminders (VAPID for Web Push, a secret that signs the one-click
-- unsubscribe links), made once and shared by every instance.
--
-- days is a bit set of weekdays, bit 0 Sunday … bit 6 Saturday (Go's time.Weekday). next_due is
-- the UTC instant of the next reminder, computed from local_time in time_zone with Go's time
-- package; it is null while the reminder is off (no day, or neither e-mail nor push). The
-- periodic job selects due rows with its partial index and advances next_due in the
-- transaction that queues the sending, so each slot is sent once.

-- +goose Up
CREATE TABLE reminders (
    user_id    uuid        PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    days       smallint    NOT NULL CHECK (days BETWEEN 0 AND 127),
    local_time text        NOT NULL CHECK (local_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
    time_zone  text        NOT NULL CHECK (length(time_zone) BETWEEN 1 AND 64),
    email      boolean     NOT NULL DEFAULT false,
    push       boolean     NOT NULL DEFAULT false,
    next_due   timestamptz,
    updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX reminders_next_due ON reminders (next_due) WHERE next_due IS NOT NULL;

CREATE TABLE push_subscriptions (
    id         uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id    uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    endpoint   text        NOT NULL UNIQUE,
    p256dh     text        NOT NULL,
    auth       text        NOT NULL,
    device     text        NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX push_subscriptions_user ON push_subscriptions (user_id, created_at);

CREATE TABLE reminder_keys (
    id                 boolean     PRIMARY KEY DEFAULT true CHECK (id),
    vapid_public       text        NOT NULL,
    vapid_private      text        NOT NULL,
    unsubscribe_secret bytea       NOT NULL CHECK (length(unsubscribe_secret) = 32),
    created_at         timestamptz NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE reminder_keys;
DROP TABLE push_subscriptions;
DROP TABLE reminders;
