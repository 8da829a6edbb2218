-- Memory across sessions: short sentences about the user ("Has a statistics midterm on
-- Tuesday") extracted when a session ends, shown, edited and deleted on the profile, and
-- used in later sessions. A user may turn memory off: nothing is extracted or used then.

-- +goose Up
ALTER TABLE users ADD COLUMN memory_enabled boolean NOT NULL DEFAULT true;

CREATE TABLE memories (
    id         uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id    uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- The session it was learnt in; NULL once that session is deleted.
    session_id uuid        REFERENCES chat_sessions (id) ON DELETE SET NULL,
    text       text        NOT NULL CHECK (char_length(text) BETWEEN 1 AND 200),
    -- What the memory is about ("event:midterm", "person:maya"): a newer memory with the
    -- same key supersedes the older one instead of standing beside it.
    key        text        CHECK (char_length(key) <= 100),
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);

-- Listed newest first, per user; at most 50 are kept (the oldest go first).
CREATE INDEX memories_user_id_created_at_idx ON memories (user_id, created_at DESC, id DESC);
CREATE UNIQUE INDEX memories_user_id_key_key ON memories (user_id, key) WHERE key IS NOT NULL;

CREATE TRIGGER memories_set_updated_at BEFORE UPDATE ON memories
    FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- +goose Down
DROP TABLE memories;
ALTER TABLE users DROP COLUMN memory_enabled;
