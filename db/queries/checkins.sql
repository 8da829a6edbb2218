-- name: InsertCheckin :one
-- InsertCheckin stores one check-in for the user; with a client_id the user already sent, it
-- stores nothing and returns no row (pgx.ErrNoRows).
INSERT INTO checkins (user_id, mood, energy, emotions, tags, note, safety, local_date, client_id)
VALUES (@user_id, @mood, @energy, @emotions, @tags, @note, @safety, @local_date, @client_id)
ON CONFLICT (user_id, client_id) DO NOTHING
RETURNING *;

-- name: GetCheckinByClientID :one
-- GetCheckinByClientID returns the user's check-in sent with this client_id.
SELECT * FROM checkins WHERE user_id = @user_id AND client_id = @client_id;

-- name: GetCheckin :one
-- GetCheckin returns one of the user's check-ins.
SELECT * FROM checkins WHERE id = @id AND user_id = @user_id;

-- name: UpdateCheckin :one
-- UpdateCheckin replaces the changeable fields of one of the user's check-ins.
UPDATE checkins
SET mood = @mood, energy = @energy, emotions = @emotions, tags = @tags, note = @note, safety = @safety
WHERE id = @id AND user_id = @user_id
RETURNING *;

-- name: DeleteCheckin :execrows
-- DeleteCheckin deletes one of the user's check-ins.
DELETE FROM checkins WHERE id = @id AND user_id = @user_id;

-- name: ListCheckinsPage :many
-- ListCheckinsPage pages through the user's check-ins with local_date in [from_date, to_date],
-- newest first (ties by id, descending), after the keyset cursor (after_created, after_id); the
-- first page passes a cursor past every row (a far-future time).
SELECT * FROM checkins
WHERE user_id = @user_id
  AND local_date BETWEEN @from_date::date AND @to_date::date
  AND (created_at, id) < (@after_created::timestamptz, @after_id::uuid)
ORDER BY created_at DESC, id DESC
LIMIT @max_rows::integer;

-- name: ListCheckinMoodsBetween :many
-- ListCheckinMoodsBetween returns the mood, tags and day of the user's check-ins with
-- local_date in [from_date, to_date], oldest first, for the summary.
SELECT local_date, mood, tags FROM checkins
WHERE user_id = @user_id AND local_date BETWEEN @from_date::date AND @to_date::date
ORDER BY local_date, created_at, id
LIMIT @max_rows::integer;

-- name: CountCheckinDaysBetween :one
-- CountCheckinDaysBetween counts the days in [from_date, to_date] with at least one check-in.
SELECT count(DISTINCT local_date)::integer FROM checkins
WHERE user_id = @user_id AND local_date BETWEEN @from_date::date AND @to_date::date;

-- name: LatestCheckinMoods :many
-- LatestCheckinMoods returns the moods of the user's latest check-ins, newest first.
SELECT mood FROM checkins WHERE user_id = @user_id ORDER BY created_at DESC, id DESC LIMIT @max_rows::integer;

-- name: ClaimCheckinLowStreak :execrows
-- ClaimCheckinLowStreak records that the low-streak card is shown now, unless it was shown in
-- the last seven days; one row means this call may show it.
UPDATE users SET checkin_low_streak_at = now()
WHERE id = @user_id AND (checkin_low_streak_at IS NULL OR checkin_low_streak_at <= now() - interval '7 days');

-- name: ListCheckinsForExport :many
-- ListCheckinsForExport pages through the user's check-ins, oldest first, after the cursor
-- (created_at, id); the first page starts from the zero cursor.
SELECT * FROM checkins
WHERE user_id = @user_id AND (created_at, id) > (@after_created::timestamptz, @after_id::uuid)
ORDER BY created_at, id
LIMIT @max_rows::integer;

-- name: ListRecentCheckinsForPrompt :many
-- ListRecentCheckinsForPrompt returns what the companion may know of the user's check-ins
-- created since @since, newest first: mood, energy, emotions, tags and day, never the note,
-- and none whose note the crisis screen flagged (issue 31, §5).
SELECT mood, energy, emotions, tags, local_date FROM checkins
WHERE user_id = @user_id AND created_at >= @since::timestamptz AND safety IS NULL
ORDER BY created_at DESC, id DESC
LIMIT 50;
