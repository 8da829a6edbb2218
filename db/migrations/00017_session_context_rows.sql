-- How many of a session's newest messages its last send needed for the prompt (the context
-- budget and half again for the summary), and a few more. The next send reads that many in
-- its first round trip: a session of short messages needs more than one page of 100, which
-- was read by a second round trip on every send, before the model could be asked.

-- +goose Up
ALTER TABLE chat_sessions ADD COLUMN context_rows integer NOT NULL DEFAULT 0
    CHECK (context_rows >= 0);

-- +goose Down
ALTER TABLE chat_sessions DROP COLUMN context_rows;
