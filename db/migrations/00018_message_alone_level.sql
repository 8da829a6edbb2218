-- The level the safety screen gave a user's message on its own, without the turns before it
-- (risk_level is the level it got in its context). The next send's screen needs it for its
-- context, and read it by screening the previous message again, on every send, before the
-- model could be asked. NULL for replies and for messages stored before it was kept: those
-- are screened again. The check is added NOT VALID: every row before it is NULL, and
-- validating them would scan the whole table under its lock.

-- +goose Up
ALTER TABLE messages ADD COLUMN alone_level smallint;
ALTER TABLE messages ADD CONSTRAINT messages_alone_level_check CHECK (alone_level BETWEEN 0 AND 2) NOT VALID;

-- +goose Down
ALTER TABLE messages DROP COLUMN alone_level;
