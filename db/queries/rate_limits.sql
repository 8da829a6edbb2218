-- name: HitRateLimit :one
-- HitRateLimit counts one event in a fixed window and returns the window's count so far.
INSERT INTO rate_limits (key, window_start, count)
VALUES (@key, @window_start, 1)
ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + 1
RETURNING count;

-- name: GetRateLimit :one
-- GetRateLimit returns the count of a window (pgx.ErrNoRows when nothing was counted).
SELECT count FROM rate_limits
WHERE key = @key AND window_start = @window_start;

-- name: DeleteRateLimit :exec
-- DeleteRateLimit forgets every window of a key (e.g. failed logins after a success).
DELETE FROM rate_limits
WHERE key = @key;

-- name: PruneRateLimits :execrows
-- PruneRateLimits deletes windows that started before the cut-off.
DELETE FROM rate_limits
WHERE window_start < @before;

-- name: ReleaseRateLimit :exec
-- ReleaseRateLimit gives back one event of a window (an attempt counted before its outcome
-- was known that turned out not to count).
UPDATE rate_limits SET count = count - 1
WHERE key = @key AND window_start = @window_start AND count > 0;

-- name: HitRateLimitWithin :one
-- HitRateLimitWithin is HitRateLimit for an event that must not go over @max_count: over it,
-- the statement fails (expect) and its transaction is rolled back, the count with it.
WITH hit AS (
    INSERT INTO rate_limits (key, window_start, count)
    VALUES (@key, @window_start, 1)
    ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + 1
    RETURNING count
)
SELECT expect(count <= @max_count::integer) FROM hit;

-- name: DeleteRateLimitRange :execrows
-- DeleteRateLimitRange forgets every window of the keys from @low (included) to @high
-- (excluded) in byte order: the keys that begin with one prefix (every pairing of one account
-- with a client address), when @high is that prefix with its last byte raised by one.
DELETE FROM rate_limits
WHERE key COLLATE "C" >= @low::text AND key COLLATE "C" < @high::text;
