-- Replies that outlive their request: a reply is written under its own deadline and stored
-- even when the client goes away, and any instance can follow or stop it.

-- +goose Up

-- How a stored message ended. A reply is 'interrupted' when the model failed part-way (the
-- text is what arrived before) and 'stopped' when the user stopped it; everything else,
-- users' messages included, is 'complete'.
ALTER TABLE messages
    ADD COLUMN status text NOT NULL DEFAULT 'complete'
        CHECK (status IN ('complete', 'interrupted', 'stopped'));

-- Set with the user's message while its reply is being written, cleared when the reply is
-- stored. It is the reply's own deadline with a margin, so that a reply whose instance died
-- stops counting as in progress on its own.
ALTER TABLE chat_sessions
    ADD COLUMN reply_until timestamptz;

-- +goose Down
ALTER TABLE chat_sessions DROP COLUMN reply_until;
ALTER TABLE messages DROP COLUMN status;
