-- Whether the user has finished or skipped the first sign-in's onboarding, so it shows once per
-- account, not per device. The accounts that exist already are past their first sign-in: they
-- are marked onboarded; new accounts start without.

-- +goose Up
ALTER TABLE users ADD COLUMN onboarded boolean NOT NULL DEFAULT true;
ALTER TABLE users ALTER COLUMN onboarded SET DEFAULT false;

-- +goose Down
ALTER TABLE users DROP COLUMN onboarded;
