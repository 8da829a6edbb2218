-- name: TakeUsage :one
-- TakeUsage counts one more use of a daily quota and returns the day's count
-- with it. The caller refuses above its limit by rolling back; the counter row
-- stays locked until then, so parallel sends are counted one at a time.
INSERT INTO usage_counters (user_id, day, kind, count)
VALUES (@user_id, @day, @kind, 1)
ON CONFLICT (user_id, day, kind)
DO UPDATE SET count = usage_counters.count + 1
RETURNING count;

-- name: ReleaseUsage :exec
-- ReleaseUsage gives back one use of a daily quota (a reply that failed).
UPDATE usage_counters
SET count = count - 1
WHERE user_id = @user_id AND day = @day AND kind = @kind AND count > 0;

-- name: TakeUsageWithin :one
-- TakeUsageWithin is TakeUsage for a send that must not go over @max_count: over it, the
-- statement fails (expect) and its transaction is rolled back, the count with it.
WITH taken AS (
    INSERT INTO usage_counters (user_id, day, kind, count)
    VALUES (@user_id, @day, @kind, 1)
    ON CONFLICT (user_id, day, kind)
    DO UPDATE SET count = usage_counters.count + 1
    RETURNING count
)
SELECT expect(count <= @max_count::integer) FROM taken;
