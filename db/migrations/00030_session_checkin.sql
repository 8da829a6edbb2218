-- The check-in a session was started from by "Talk about it" (issue 31, §1), so that the
-- session remembers it: the list and the chat can say so, and the export keeps the link.
-- Deleting the check-in keeps the session and forgets the link (the row's UPDATE moves the
-- session's version, so no kept detail still shows it). The partial index lets that delete
-- find its sessions without a scan of every session; few sessions have a check-in.

-- +goose Up
ALTER TABLE chat_sessions ADD COLUMN checkin_id uuid REFERENCES checkins (id) ON DELETE SET NULL;
CREATE INDEX chat_sessions_checkin_id_idx ON chat_sessions (checkin_id) WHERE checkin_id IS NOT NULL;

-- +goose Down
DROP INDEX chat_sessions_checkin_id_idx;
ALTER TABLE chat_sessions DROP COLUMN checkin_id;
