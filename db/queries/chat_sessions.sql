-- name: CreateSession :one
-- CreateSession starts an ACTIVE session for the user.
INSERT INTO chat_sessions (user_id, title, token_limit)
VALUES (@user_id, @title, @token_limit)
RETURNING *;

-- name: ListSessionsByUser :many
-- ListSessionsByUser lists the user's sessions, most recently updated first.
SELECT * FROM chat_sessions
WHERE user_id = @user_id
ORDER BY updated_at DESC, id;

-- name: GetSessionForUser :one
-- GetSessionForUser returns the session only if it belongs to the user, so a
-- session owned by someone else is not found.
SELECT * FROM chat_sessions
WHERE id = @id AND user_id = @user_id;

-- name: DeleteSessionForUser :execrows
-- DeleteSessionForUser deletes the user's session and its messages; it
-- affects no rows when the session belongs to someone else.
DELETE FROM chat_sessions
WHERE id = @id AND user_id = @user_id;

-- name: GetSessionForUserForUpdate :one
-- GetSessionForUserForUpdate locks the user's session for the rest of the
-- transaction (sends to one session are serialised).
SELECT * FROM chat_sessions
WHERE id = @id AND user_id = @user_id
FOR UPDATE;

-- name: AddSessionTokens :one
-- AddSessionTokens counts tokens against the user's session and updates the
-- dashboard preview of its last message.
UPDATE chat_sessions
SET tokens_used = tokens_used + @tokens::integer,
    last_message = @last_message
WHERE id = @id AND user_id = @user_id
RETURNING *;

-- name: EndSessionForUser :one
-- EndSessionForUser ends the user's ACTIVE session; pgx.ErrNoRows when it is
-- not the user's or already ended.
UPDATE chat_sessions
SET status = 'ENDED', ended_at = now(), end_reason = @end_reason
WHERE id = @id AND user_id = @user_id AND status = 'ACTIVE'
RETURNING *;

-- name: SetSessionSummary :execrows
-- SetSessionSummary stores the summary and emotion labels of the user's session.
UPDATE chat_sessions
SET summary = @summary, emotions = @emotions
WHERE id = @id AND user_id = @user_id;

-- name: SetSessionTitle :exec
-- SetSessionTitle renames the user's session.
UPDATE chat_sessions
SET title = @title
WHERE id = @id AND user_id = @user_id;

-- name: SetSessionDisclosure :exec
-- SetSessionDisclosure records when the AI notice was last shown in the session.
UPDATE chat_sessions
SET last_disclosure_at = @at
WHERE id = @id AND user_id = @user_id;

-- name: MarkSessionCheckin :exec
-- MarkSessionCheckin asks for a gentle check-in at the user's next session.
UPDATE chat_sessions
SET checkin_pending = true
WHERE id = @id AND user_id = @user_id;

-- name: TakePendingCheckins :execrows
-- TakePendingCheckins clears the user's pending check-ins and says how many
-- there were.
UPDATE chat_sessions
SET checkin_pending = false
WHERE user_id = @user_id AND checkin_pending;

-- name: SearchSessionsByUser :many
-- SearchSessionsByUser lists the user's sessions whose title, last message or
-- id contains the query (ignoring case), most recently updated first.
SELECT * FROM chat_sessions
WHERE user_id = @user_id
  AND (@query::text = ''
       OR strpos(lower(title), lower(@query::text)) > 0
       OR strpos(lower(last_message), lower(@query::text)) > 0
       OR strpos(id::text, lower(@query::text)) > 0)
ORDER BY updated_at DESC, id;

-- name: IncrementUsageWithinLimit :one
-- IncrementUsageWithinLimit counts one more use of a daily quota unless the
-- count already reached the limit, atomically (the conflicting row is locked):
-- pgx.ErrNoRows means the limit is reached.
INSERT INTO usage_counters (user_id, day, kind, count)
VALUES (@user_id, @day, @kind, 1)
ON CONFLICT (user_id, day, kind)
DO UPDATE SET count = usage_counters.count + 1
WHERE usage_counters.count < @max_count::integer
RETURNING count;

-- name: IncrementSafetyReferrals :exec
-- IncrementSafetyReferrals counts one crisis-resource referral for the day
-- (no user, no content).
INSERT INTO safety_referral_counts (day, count)
VALUES (@day, 1)
ON CONFLICT (day) DO UPDATE SET count = safety_referral_counts.count + 1;

-- name: GetSafetyReferralCount :one
-- GetSafetyReferralCount returns the day's referral count (0 when none).
SELECT COALESCE((SELECT count FROM safety_referral_counts WHERE day = @day), 0)::integer;
