-- name: Notify :exec
-- Notify sends a PostgreSQL notification to every instance listening on the
-- channel; inside a transaction it is delivered at commit.
SELECT pg_notify(@channel::text, @payload::text);
