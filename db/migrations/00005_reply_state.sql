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

-- A session's messages are read by session and owner, newest first, a page at a time (the
-- history a reply's prompt needs). With the owner in the index as well as the session, the
-- plan is a backward index scan that stops at the page's LIMIT whatever the statistics say;
-- with the session alone, the planner may instead combine two indexes and sort the session's
-- every message, so that reading the newest page took longer the longer the session.
CREATE INDEX messages_session_user_created_at_idx ON messages (session_id, user_id, created_at, id);
DROP INDEX messages_session_id_created_at_idx;

-- +goose Down
CREATE INDEX messages_session_id_created_at_idx ON messages (session_id, created_at, id);
DROP INDEX messages_session_user_created_at_idx;
ALTER TABLE chat_sessions DROP COLUMN reply_until;
ALTER TABLE messages DROP COLUMN status;
