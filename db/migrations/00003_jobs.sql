-- A small PostgreSQL-backed job queue (session summaries first). Workers on
-- any number of app instances claim jobs with FOR UPDATE SKIP LOCKED and a
-- lease, so each job runs once; a failed job is retried with backoff until
-- max_attempts, then kept as 'failed' with its last error.

-- +goose Up
CREATE TABLE jobs (
    id           bigserial   PRIMARY KEY,
    kind         text        NOT NULL CHECK (char_length(kind) BETWEEN 1 AND 64),
    payload      jsonb       NOT NULL DEFAULT '{}',
    -- Optional de-duplication key: a second job with the same key is not queued.
    unique_key   text        UNIQUE CHECK (char_length(unique_key) <= 200),
    state        text        NOT NULL DEFAULT 'pending'
                             CHECK (state IN ('pending', 'running', 'done', 'failed')),
    attempts     integer     NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    max_attempts integer     NOT NULL DEFAULT 5 CHECK (max_attempts > 0),
    run_at       timestamptz NOT NULL DEFAULT now(),
    -- While running: the lease; a job whose lease ran out (its worker died) is claimed again.
    locked_until timestamptz,
    last_error   text        CHECK (char_length(last_error) <= 1000),
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX jobs_ready_idx ON jobs (run_at, id) WHERE state IN ('pending', 'running');

CREATE TRIGGER jobs_set_updated_at BEFORE UPDATE ON jobs
    FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- +goose Down
DROP TABLE jobs;
