-- name: ListMemoriesForUser :many
-- ListMemoriesForUser returns the user's memories, newest first.
SELECT * FROM memories
WHERE user_id = @user_id
ORDER BY created_at DESC, id DESC
LIMIT 50;

-- name: ListMemoryTextsForPrompt :many
-- ListMemoryTextsForPrompt returns the texts of the user's memories, newest first, only
-- while the user has memory turned on.
SELECT m.text FROM memories m
JOIN users u ON u.id = m.user_id
WHERE m.user_id = @user_id AND u.memory_enabled
ORDER BY m.created_at DESC, m.id DESC
LIMIT 50;

-- name: UpdateMemoryForUser :one
-- UpdateMemoryForUser changes the text of the user's memory; pgx.ErrNoRows when it is not
-- the user's.
UPDATE memories SET text = @text
WHERE id = @id AND user_id = @user_id
RETURNING *;

-- name: DeleteMemoryForUser :execrows
-- DeleteMemoryForUser deletes the user's memory; no rows when it is not the user's.
DELETE FROM memories WHERE id = @id AND user_id = @user_id;

-- name: DeleteMemoriesForUser :exec
-- DeleteMemoriesForUser deletes every memory of the user.
DELETE FROM memories WHERE user_id = @user_id;

-- name: UpsertMemory :exec
-- UpsertMemory stores a memory; one with the same key replaces the user's older one (its
-- text, session and age: it counts as new).
-- The clock, not the transaction's start, dates it: the facts of one session keep their order.
INSERT INTO memories (user_id, session_id, text, key, created_at)
VALUES (@user_id, @session_id, @text, @key, clock_timestamp())
ON CONFLICT (user_id, key) WHERE key IS NOT NULL
DO UPDATE SET text = EXCLUDED.text, session_id = EXCLUDED.session_id, created_at = EXCLUDED.created_at;

-- name: ReplaceMemoryForUser :execrows
-- ReplaceMemoryForUser replaces a memory the model merged a new fact into.
UPDATE memories SET text = @text, session_id = @session_id, created_at = clock_timestamp()
WHERE id = @id AND user_id = @user_id;

-- name: TrimMemoriesForUser :exec
-- TrimMemoriesForUser keeps the user's newest max_rows memories and deletes the rest.
DELETE FROM memories d
WHERE d.user_id = @user_id
  AND d.id NOT IN (SELECT k.id FROM memories k WHERE k.user_id = @user_id ORDER BY k.created_at DESC, k.id DESC LIMIT @max_rows);

-- name: ListMemoriesForExport :many
-- ListMemoriesForExport returns every memory of the user, oldest first.
SELECT * FROM memories WHERE user_id = @user_id ORDER BY created_at, id;
