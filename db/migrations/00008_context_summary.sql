-- A model's summary of the earlier part of a long session, for the prompts of its later
-- replies: what no longer fits the context budget, summarised once by the model in the
-- background rather than cut. It covers the session's messages up to context_summary_through.

-- +goose Up
ALTER TABLE chat_sessions
    ADD COLUMN context_summary text NOT NULL DEFAULT '',
    ADD COLUMN context_summary_through timestamptz;

-- +goose Down
ALTER TABLE chat_sessions
    DROP COLUMN context_summary,
    DROP COLUMN context_summary_through;
