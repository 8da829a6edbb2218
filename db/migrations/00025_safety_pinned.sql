-- A session's pinned support lines (issue 32, §3): once a reply has asked about risk or given
-- the crisis reply, the resources stay pinned above the composer for the rest of the session.
-- safety_pinned is the kind of danger they were pinned for (the screen's category of the latest
-- risk), NULL while nothing is pinned. crisis_replies counts the crisis reply and the short
-- acknowledgements that follow a later risk in the session: the first risk gets the crisis
-- reply, every later one a fresh acknowledgement chosen by this count, so that no sentence is
-- said twice. The checks are added NOT VALID: every row before them holds the defaults, and
-- validating them would scan the whole table under its lock.

-- +goose Up
ALTER TABLE chat_sessions
    ADD COLUMN safety_pinned text,
    ADD COLUMN crisis_replies integer NOT NULL DEFAULT 0;
ALTER TABLE chat_sessions ADD CONSTRAINT chat_sessions_safety_pinned_check
    CHECK (char_length(safety_pinned) BETWEEN 1 AND 32) NOT VALID;
ALTER TABLE chat_sessions ADD CONSTRAINT chat_sessions_crisis_replies_check
    CHECK (crisis_replies >= 0) NOT VALID;

-- +goose Down
ALTER TABLE chat_sessions DROP COLUMN crisis_replies, DROP COLUMN safety_pinned;
