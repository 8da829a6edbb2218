-- name: CreateMessage :one
-- CreateMessage stores a message; user_id is the session owner's id.
INSERT INTO messages (session_id, user_id, role, content, token_count)
VALUES (@session_id, @user_id, @role, @content, @token_count)
RETURNING *;

-- name: ListMessagesBySession :many
-- ListMessagesBySession lists a session's messages oldest first, scoped to
-- the owner so another user's session yields nothing.
SELECT * FROM messages
WHERE session_id = @session_id AND user_id = @user_id
ORDER BY created_at, id;

-- name: ListMessagesAfter :many
-- ListMessagesAfter lists the user's session's messages created after @after (all of them
-- when it is NULL), oldest first.
SELECT * FROM messages
WHERE session_id = @session_id AND user_id = @user_id
  AND created_at > COALESCE(sqlc.narg(after)::timestamptz, '-infinity'::timestamptz)
ORDER BY created_at, id;

-- name: InsertMessage :one
-- InsertMessage stores a message with an id chosen by the caller (so that the
-- statements of one send can be sent together); user_id is the session
-- owner's id. risk_level is the message's tier of risk (see the messages table),
-- alone_level a user's message's tier on its own (NULL for a reply).
INSERT INTO messages (id, session_id, user_id, role, content, token_count, status, risk_level, alone_level)
VALUES (@id, @session_id, @user_id, @role, @content, @token_count, @status, @risk_level, sqlc.narg(alone_level))
RETURNING *;

-- name: ListRecentMessages :many
-- ListRecentMessages lists at most max_rows of the user's session's messages,
-- newest first, older than the (before_at, before_id) cursor when it is set: a
-- backward index scan that stops at the limit, whatever the session's length.
SELECT * FROM messages
WHERE session_id = @session_id AND user_id = @user_id
  AND (sqlc.narg(before_at)::timestamptz IS NULL
       OR (created_at, id) < (sqlc.narg(before_at)::timestamptz, sqlc.narg(before_id)::uuid))
ORDER BY created_at DESC, id DESC
LIMIT @max_rows;

-- name: ListContextMessages :many
-- ListContextMessages lists the user's session's newest messages, newest first: at least
-- min_rows, or as many as the session's last send needed for its prompt
-- (chat_sessions.context_rows), whichever is more. Those the session's stored summary covers
-- (created at or before context_summary_through) are left out, since the prompt has the
-- summary in their place, but never the newest eight, which the safety screen reads for the
-- context of the next message. A backward index scan that stops at the limit or the summary.
SELECT * FROM messages
WHERE messages.session_id = @session_id AND messages.user_id = @user_id
  AND messages.created_at > (
      SELECT CASE WHEN s.context_summary_through IS NULL THEN '-infinity'::timestamptz
             ELSE LEAST(s.context_summary_through, COALESCE(
                 (SELECT n.created_at FROM messages n WHERE n.session_id = @session_id AND n.user_id = @user_id
                  ORDER BY n.created_at DESC, n.id DESC OFFSET 8 LIMIT 1),
                 '-infinity'::timestamptz)) END
      FROM chat_sessions s WHERE s.id = @session_id AND s.user_id = @user_id)
ORDER BY messages.created_at DESC, messages.id DESC
LIMIT GREATEST(@min_rows::integer,
               (SELECT s.context_rows FROM chat_sessions s WHERE s.id = @session_id AND s.user_id = @user_id));

-- name: GetSessionContextRows :one
-- GetSessionContextRows is the session's context_rows, which ListContextMessages reads as
-- its limit: a first page shorter than that limit holds every message a prompt can use.
SELECT context_rows FROM chat_sessions WHERE id = @id AND user_id = @user_id;

-- name: DeleteMessageForUser :execrows
-- DeleteMessageForUser deletes one of the user's messages (a partial reply
-- replaced by a retry).
DELETE FROM messages
WHERE id = @id AND user_id = @user_id;

-- name: ListMessagesForSessions :many
-- ListMessagesForSessions lists the messages of several of the user's sessions (a page of
-- an export), by session and then oldest first.
SELECT * FROM messages
WHERE user_id = @user_id AND session_id = ANY(@session_ids::uuid[])
ORDER BY session_id, created_at, id;

-- name: ListMessagesUnlessVersion :many
-- ListMessagesUnlessVersion lists the user's session's messages, oldest first, unless the
-- session's version is @known_version (what a cache of its detail holds). Every row carries
-- the version this statement saw, so a reader knows which version the messages are of even
-- when the session row was read by another statement of its batch, in another snapshot. It
-- returns one row with NULL message columns when the version is @known_version or the session
-- has no messages, and no row when the session is not the user's. The version test is the
-- lateral subquery's one-time filter: with the version unchanged, no message is read.
-- sqlc does not know that the lateral join's columns may be NULL, so the one row without a
-- message has them zero instead: its id is the nil uuid.
SELECT s.version,
       COALESCE(m.id, '00000000-0000-0000-0000-000000000000'::uuid)::uuid AS id,
       COALESCE(m.role, '')::text AS role, COALESCE(m.content, '')::text AS content,
       COALESCE(m.token_count, 0)::integer AS token_count,
       COALESCE(m.created_at, 'epoch'::timestamptz)::timestamptz AS created_at,
       COALESCE(m.status, '')::text AS status
FROM chat_sessions AS s
LEFT JOIN LATERAL (
    SELECT messages.id, messages.role, messages.content, messages.token_count, messages.created_at, messages.status
    FROM messages
    WHERE messages.session_id = s.id AND messages.user_id = s.user_id
      AND s.version <> @known_version::bigint
    ORDER BY messages.created_at, messages.id
) AS m ON true
WHERE s.id = @id AND s.user_id = @user_id
ORDER BY m.created_at, m.id;
