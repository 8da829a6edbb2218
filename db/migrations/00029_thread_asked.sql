-- When the welcome last asked how a remembered event went ("How did the driving test go?"):
-- an event is asked about once, in the first new chat after its day, not at every new chat
-- (issue 34). Null: never asked.

-- +goose Up
ALTER TABLE users ADD COLUMN thread_asked_at timestamptz;

-- +goose Down
ALTER TABLE users DROP COLUMN thread_asked_at;
