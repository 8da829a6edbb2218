-- Mood check-ins (issue 31, §1): a mood from 1 to 5, and optionally energy, up to 5 emotions,
-- up to 8 tags and a note of up to 500 characters. local_date is the day in the user's own
-- calendar, for the per-day and per-weekday views. safety is the crisis screen's category when
-- the note screened as risky (NULL otherwise): such a note never reaches memory or the
-- companion. users.checkin_low_streak_at is when the gentle card for three very low check-ins
-- in a row was last shown, so that it shows at most once a week.

-- +goose Up
CREATE TABLE checkins (
    id         uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id    uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    mood       integer     NOT NULL CHECK (mood BETWEEN 1 AND 5),
    energy     integer     CHECK (energy BETWEEN 1 AND 5),
    emotions   text[]      NOT NULL DEFAULT '{}' CHECK (cardinality(emotions) <= 5),
    tags       text[]      NOT NULL DEFAULT '{}' CHECK (cardinality(tags) <= 8),
    note       text        CHECK (char_length(note) BETWEEN 1 AND 500),
    safety     text        CHECK (char_length(safety) BETWEEN 1 AND 32),
    local_date date        NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX checkins_user_created_idx ON checkins (user_id, created_at, id);
CREATE INDEX checkins_user_local_date_idx ON checkins (user_id, local_date);

CREATE TRIGGER checkins_set_updated_at BEFORE UPDATE ON checkins
    FOR EACH ROW EXECUTE FUNCTION set_updated_at();

ALTER TABLE users ADD COLUMN checkin_low_streak_at timestamptz;

-- +goose Down
ALTER TABLE users DROP COLUMN checkin_low_streak_at;
DROP TABLE checkins;
