-- name: UpdateProfile :one
-- UpdateProfile changes the fields whose set_ flag is true and returns the row.
UPDATE users
SET age              = CASE WHEN @set_age::boolean THEN sqlc.narg('age')::integer ELSE age END,
    focus_areas      = COALESCE(sqlc.narg('focus_areas')::text, focus_areas),
    primary_concerns = COALESCE(sqlc.narg('primary_concerns')::text, primary_concerns),
    sensitive_topics = COALESCE(sqlc.narg('sensitive_topics')::text, sensitive_topics),
    memory_enabled   = COALESCE(sqlc.narg('memory_enabled')::boolean, memory_enabled),
    onboarded        = COALESCE(sqlc.narg('onboarded')::boolean, onboarded),
    country          = CASE WHEN @set_country::boolean THEN sqlc.narg('country')::text ELSE country END
WHERE id = @id
RETURNING *;
