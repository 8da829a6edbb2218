-- Paged session lists and an indexed search. Lists walk (updated_at, id) newest first from a
-- keyset cursor, so the ordering index names the id too. Search matches a substring of the title,
-- the last message or the id, ignoring case: pg_trgm's GIN indexes answer ILIKE '%…%' on each, so a
-- search is a bitmap of index matches rather than a read of every one of the user's sessions.

-- +goose Up
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE INDEX chat_sessions_user_id_updated_at_id_idx ON chat_sessions (user_id, updated_at DESC, id DESC);
DROP INDEX chat_sessions_user_id_updated_at_idx;

CREATE INDEX chat_sessions_title_trgm_idx ON chat_sessions USING gin (title gin_trgm_ops);
CREATE INDEX chat_sessions_last_message_trgm_idx ON chat_sessions USING gin (last_message gin_trgm_ops);
CREATE INDEX chat_sessions_id_trgm_idx ON chat_sessions USING gin ((id::text) gin_trgm_ops);

-- +goose Down
DROP INDEX chat_sessions_id_trgm_idx;
DROP INDEX chat_sessions_last_message_trgm_idx;
DROP INDEX chat_sessions_title_trgm_idx;
CREATE INDEX chat_sessions_user_id_updated_at_idx ON chat_sessions (user_id, updated_at DESC);
DROP INDEX chat_sessions_user_id_updated_at_id_idx;
