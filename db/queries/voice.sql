-- name: ReleaseUsage :exec
-- ReleaseUsage gives back one use of a daily quota (for a request refused after counting).
UPDATE usage_counters
SET count = count - 1
WHERE user_id = @user_id AND day = @day AND kind = @kind AND count > 0;
