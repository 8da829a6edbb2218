-- The two tiers of the crisis screen, and the previous turn as its context.

-- +goose Up

-- The tier of risk of a message, so that the next message is screened with its context:
-- for a user's message, the level the screen gave it (0 none, 1 possible, 2 clear); for a
-- reply, the tier it answered (1 the gentle check-in, or a model reply that a model-side
-- signal completed with the check-in; 2 the crisis reply; 0 anything else).
ALTER TABLE messages
    ADD COLUMN risk_level smallint NOT NULL DEFAULT 0 CHECK (risk_level BETWEEN 0 AND 2);

-- Check-ins per day (the possible-risk tier: a direct question with the resources), counted
-- apart from the referrals of clear risk. Like the referrals, no user id and no content.
ALTER TABLE safety_referral_counts
    ADD COLUMN checkins integer NOT NULL DEFAULT 0 CHECK (checkins >= 0);

-- +goose Down
ALTER TABLE safety_referral_counts DROP COLUMN checkins;
ALTER TABLE messages DROP COLUMN risk_level;
