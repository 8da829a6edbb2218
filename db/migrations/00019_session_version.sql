-- A session's version: 0 when it is created, one more at every UPDATE of its row, set by the
-- row's own trigger so that no statement can forget it. A reader that keeps a session's detail
-- (chat.Service's detail cache) asks the database only whether the version moved, and reads
-- the messages again only when it did.
--
-- That is right only because of an invariant of the code, not of the schema: every write of a
-- session's messages (an insert, a delete) happens in a transaction that also updates the
-- session's row (OpenSession inserts the row, at version 0, with the first message;
-- ContinueSession goes with a send's message and a retry's delete of a partial reply;
-- FinishReply with a stored reply). A message written without it would not be seen by a reader
-- that holds the session's previous version. chat's TestDetailCacheSeesEveryWrite fails when a
-- write path breaks it. Deleting a session (or its account) removes its messages by cascade,
-- and then the session row is gone too, which every reader sees.
--
-- set_updated_at stays as it is for the other tables; chat_sessions gets a function of its own.

-- +goose Up
ALTER TABLE chat_sessions ADD COLUMN version bigint NOT NULL DEFAULT 0;

-- +goose StatementBegin
CREATE FUNCTION chat_sessions_set_updated_at_version() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    NEW.updated_at = now();
    NEW.version = OLD.version + 1;
    RETURN NEW;
END;
$$;
-- +goose StatementEnd

DROP TRIGGER chat_sessions_set_updated_at ON chat_sessions;
CREATE TRIGGER chat_sessions_set_updated_at BEFORE UPDATE ON chat_sessions
    FOR EACH ROW EXECUTE FUNCTION chat_sessions_set_updated_at_version();

-- +goose Down
DROP TRIGGER chat_sessions_set_updated_at ON chat_sessions;
CREATE TRIGGER chat_sessions_set_updated_at BEFORE UPDATE ON chat_sessions
    FOR EACH ROW EXECUTE FUNCTION set_updated_at();
DROP FUNCTION chat_sessions_set_updated_at_version();
ALTER TABLE chat_sessions DROP COLUMN version;
