-- name: EnqueueJob :execrows
-- EnqueueJob queues a job; with a unique key already queued it does nothing.
INSERT INTO jobs (kind, payload, unique_key, max_attempts)
VALUES (@kind, @payload, sqlc.narg('unique_key'), @max_attempts)
ON CONFLICT (unique_key) DO NOTHING;

-- name: ClaimJob :one
-- ClaimJob takes the oldest due job (or one whose worker's lease ran out),
-- skipping rows other workers hold, marks it running under a lease and counts
-- the attempt. pgx.ErrNoRows when there is nothing to do.
UPDATE jobs
SET state = 'running',
    attempts = attempts + 1,
    locked_until = now() + make_interval(secs => @lease_seconds::integer)
WHERE id = (
    SELECT j.id FROM jobs j
    WHERE (j.state = 'pending' AND j.run_at <= now())
       OR (j.state = 'running' AND j.locked_until < now())
    ORDER BY j.run_at, j.id
    LIMIT 1
    FOR UPDATE SKIP LOCKED
)
RETURNING *;

-- name: CompleteJob :exec
-- CompleteJob marks a claimed job done.
UPDATE jobs
SET state = 'done', locked_until = NULL, last_error = NULL
WHERE id = @id;

-- name: FailJob :one
-- FailJob records a failed attempt: the job runs again after the backoff, or
-- stays 'failed' once it has used all its attempts.
UPDATE jobs
SET state = CASE WHEN attempts >= max_attempts THEN 'failed' ELSE 'pending' END,
    run_at = now() + make_interval(secs => @backoff_seconds::integer),
    locked_until = NULL,
    last_error = left(@last_error::text, 1000)
WHERE id = @id
RETURNING *;

-- name: GetJob :one
-- GetJob returns one job (for tests and operators).
SELECT * FROM jobs WHERE id = @id;

-- name: ListJobsByKind :many
-- ListJobsByKind lists the jobs of a kind, oldest first.
SELECT * FROM jobs WHERE kind = @kind ORDER BY id;
