-- The planner's estimate of a session's messages. Every read of a session's messages is scoped
-- to its owner too (session_id = $1 AND user_id = $2), and PostgreSQL multiplies the two
-- selectivities as if they were independent: for a session of 2,000 messages it expected a few
-- dozen rows, and read a send's newest page (LIMIT 100) with a bitmap scan of the whole session
-- and a sort (2.4 ms, every row, growing with the session) instead of a backward scan of the
-- (session_id, created_at, id) index that stops at the limit (0.13 ms). A session has one
-- owner: the functional dependency, once ANALYZE has gathered it, gives the estimate of
-- session_id alone.

-- +goose Up
CREATE STATISTICS messages_session_user_stats (dependencies) ON session_id, user_id FROM messages;
ANALYZE messages;

-- +goose Down
DROP STATISTICS messages_session_user_stats;
