-- The hand-written job queue gives way to River, whose tables its own migrations create
-- (store.Migrate applies them before these). Summaries still waiting in the old queue move
-- to River, so no ended session loses its summary; then the old table goes.

-- +goose Up
-- +goose StatementBegin
DO $$
BEGIN
    IF to_regclass('river_job') IS NOT NULL THEN
        INSERT INTO river_job (kind, args, queue, max_attempts, state, scheduled_at)
        SELECT kind, payload, 'default', 5, 'available', now()
        FROM jobs
        WHERE kind = 'chat.summary' AND state IN ('pending', 'running');
    END IF;
END
$$;
-- +goose StatementEnd
DROP TABLE jobs;

-- +goose Down
CREATE TABLE jobs (
    id           bigserial   PRIMARY KEY,
    kind         text        NOT NULL CHECK (char_length(kind) BETWEEN 1 AND 64),
    payload      jsonb       NOT NULL DEFAULT '{}',
    unique_key   text        UNIQUE CHECK (char_length(unique_key) <= 200),
    state        text        NOT NULL DEFAULT 'pending'
                             CHECK (state IN ('pending', 'running', 'done', 'failed')),
    attempts     integer     NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    max_attempts integer     NOT NULL DEFAULT 5 CHECK (max_attempts > 0),
    run_at       timestamptz NOT NULL DEFAULT now(),
    locked_until timestamptz,
    last_error   text        CHECK (char_length(last_error) <= 1000),
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX jobs_ready_idx ON jobs (run_at, id) WHERE state IN ('pending', 'running');

CREATE TRIGGER jobs_set_updated_at BEFORE UPDATE ON jobs
    FOR EACH ROW EXECUTE FUNCTION set_updated_at();
