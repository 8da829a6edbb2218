-- A check-in's client_id is chosen by the client, once per check-in (issue 31, §4): a check-in
-- kept while offline may be sent more than once (the first answer lost with the connection),
-- and is stored once. Unique per user; another user's same id is independent. NULL for
-- check-ins sent without one.

-- +goose Up
ALTER TABLE checkins ADD COLUMN client_id uuid;
CREATE UNIQUE INDEX checkins_user_client_id_idx ON checkins (user_id, client_id);

-- +goose Down
DROP INDEX checkins_user_client_id_idx;
ALTER TABLE checkins DROP COLUMN client_id;
