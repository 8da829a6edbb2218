-- name: Notify :exec
-- Notify sends a PostgreSQL notification to every instance listening on the
-- channel; inside a transaction it is delivered at commit.
SELECT pg_notify(@channel::text, @payload::text);

-- name: NotifyReplyStored :exec
-- NotifyReplyStored tells every instance, at commit, that the user's session's reply was
-- stored: "done <session id> <outcome> <version>", with the version the session is at in
-- this transaction, so that an instance that kept an older state of it drops it.
SELECT pg_notify(@channel::text, 'done ' || id::text || ' ' || @outcome::text || ' ' || version::text)
FROM chat_sessions
WHERE id = @session_id AND user_id = @user_id;
