-- name: CreateSession :one
-- CreateSession starts an ACTIVE session for the user.
INSERT INTO chat_sessions (user_id, title, token_limit)
VALUES (@user_id, @title, @token_limit)
RETURNING *;

-- name: ListSessionsByUser :many
-- ListSessionsByUser lists the user's sessions, most recently updated first.
SELECT * FROM chat_sessions
WHERE user_id = @user_id
ORDER BY updated_at DESC, id;

-- name: GetSessionForUser :one
-- GetSessionForUser returns the session only if it belongs to the user, so a
-- session owned by someone else is not found.
SELECT * FROM chat_sessions
WHERE id = @id AND user_id = @user_id;

-- name: DeleteSessionForUser :execrows
-- DeleteSessionForUser deletes the user's session and its messages; it
-- affects no rows when the session belongs to someone else.
DELETE FROM chat_sessions
WHERE id = @id AND user_id = @user_id;
