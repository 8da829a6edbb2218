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
