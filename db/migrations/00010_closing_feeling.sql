-- How the user felt as a session ended, when they said (the closing moment of End Session):
-- better, the same or worse than before it. Optional; never shown to anyone else.

-- +goose Up
ALTER TABLE chat_sessions
    ADD COLUMN closing_feeling text CHECK (closing_feeling IN ('better', 'same', 'worse'));

-- +goose Down
ALTER TABLE chat_sessions DROP COLUMN closing_feeling;
