-- The country whose helplines the crisis texts give: an ISO 3166-1 alpha-2 code, or null when
-- the user has not said (the texts then give findahelpline.com).

-- +goose Up
ALTER TABLE users ADD COLUMN country text CHECK (country ~ '^[A-Z]{2}$');

-- +goose Down
ALTER TABLE users DROP COLUMN country;
