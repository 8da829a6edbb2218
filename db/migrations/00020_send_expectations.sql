-- A send to a session whose state the instance kept (chat's sendstate.go) is written in one
-- round trip: its statements go in one pipeline, which PostgreSQL runs as one implicit
-- transaction, committed at its end only if every statement succeeded. What Go assumed when it
-- decided the reply and built the prompt (the session's version, the user's row, the
-- memories the prompt carries, the quotas not reached) is checked by the statements
-- themselves: expect() and expect_send_state() raise when a check fails, the whole send is rolled back, and the send
-- is made again the usual way, from what the database holds.
--
-- The instances keep that state only while they listen: these triggers tell them, through
-- NOTIFY percolate_chat on commit, that a user's row or memories changed ("user <id>"), so
-- that a kept state stops being used at once; the checks above catch what a notification has
-- not yet reached.

-- +goose Up
-- +goose StatementBegin
CREATE FUNCTION expect(ok boolean) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    IF ok IS NOT TRUE THEN
        RAISE EXCEPTION 'a kept state is out of date' USING ERRCODE = 'PX001';
    END IF;
    RETURN true;
END;
$$;
-- +goose StatementEnd

-- expect_send_state takes a send's first locks in the usual order (the user's row in key-share
-- mode, then the session's row), each with its check: the user's row has the fingerprint the
-- kept state was read with (md5 of the whole row, as GetUserForSend gives it), the session is
-- the user's and at the kept version, and the memories a prompt carries
-- (ListMemoryTextsForPrompt) are the kept ones. One statement, not three: each statement of a
-- send costs the server its own round of work.
-- +goose StatementBegin
CREATE FUNCTION expect_send_state(p_user uuid, p_fingerprint text, p_session uuid, p_version bigint, p_memories text[])
RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM users u WHERE u.id = p_user AND md5(u::text) = p_fingerprint FOR KEY SHARE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'a kept state is out of date (user)' USING ERRCODE = 'PX001';
    END IF;
    PERFORM 1 FROM chat_sessions s WHERE s.id = p_session AND s.user_id = p_user AND s.version = p_version FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'a kept state is out of date (session)' USING ERRCODE = 'PX001';
    END IF;
    IF ARRAY(
        SELECT m.text FROM memories m
        JOIN users u ON u.id = m.user_id
        WHERE m.user_id = p_user AND u.memory_enabled
        ORDER BY m.created_at DESC, m.id DESC
        LIMIT 50
    ) IS DISTINCT FROM p_memories THEN
        RAISE EXCEPTION 'a kept state is out of date (memories)' USING ERRCODE = 'PX001';
    END IF;
    RETURN true;
END;
$$;
-- +goose StatementEnd

-- notify_prompt_change's argument names the changed rows' user id column.
-- +goose StatementBegin
CREATE FUNCTION notify_prompt_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    uid uuid;
BEGIN
    FOR uid IN EXECUTE format('SELECT DISTINCT %I FROM changed', TG_ARGV[0]) LOOP
        PERFORM pg_notify('percolate_chat', 'user ' || uid::text);
    END LOOP;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

CREATE TRIGGER users_prompt_change_update AFTER UPDATE ON users
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION notify_prompt_change('id');
CREATE TRIGGER users_prompt_change_delete AFTER DELETE ON users
    REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION notify_prompt_change('id');
CREATE TRIGGER memories_prompt_change_insert AFTER INSERT ON memories
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION notify_prompt_change('user_id');
CREATE TRIGGER memories_prompt_change_update AFTER UPDATE ON memories
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION notify_prompt_change('user_id');
CREATE TRIGGER memories_prompt_change_delete AFTER DELETE ON memories
    REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION notify_prompt_change('user_id');

-- +goose Down
DROP TRIGGER memories_prompt_change_delete ON memories;
DROP TRIGGER memories_prompt_change_update ON memories;
DROP TRIGGER memories_prompt_change_insert ON memories;
DROP TRIGGER users_prompt_change_delete ON users;
DROP TRIGGER users_prompt_change_update ON users;
DROP FUNCTION notify_prompt_change();
DROP FUNCTION expect_send_state(uuid, text, uuid, bigint, text[]);
DROP FUNCTION expect(boolean);
