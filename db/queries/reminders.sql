-- name: GetReminder :one
SELECT * FROM reminders WHERE user_id = @user_id;

-- name: UpsertReminder :one
-- UpsertReminder stores the caller's reminder settings with the next due instant computed in Go.
INSERT INTO reminders (user_id, days, local_time, time_zone, email, push, next_due)
VALUES (@user_id, @days, @local_time, @time_zone, @email, @push, sqlc.narg('next_due'))
ON CONFLICT (user_id) DO UPDATE
SET days = EXCLUDED.days, local_time = EXCLUDED.local_time, time_zone = EXCLUDED.time_zone,
    email = EXCLUDED.email, push = EXCLUDED.push, next_due = EXCLUDED.next_due, updated_at = now()
RETURNING *;

-- name: ClaimDueReminders :many
-- ClaimDueReminders locks up to `lim` reminders due at @now, skipping rows another instance holds;
-- the caller advances each in the same transaction (AdvanceReminder).
SELECT r.*, u.email AS address
FROM reminders r JOIN users u ON u.id = r.user_id
WHERE r.next_due IS NOT NULL AND r.next_due <= @now::timestamptz
ORDER BY r.next_due
LIMIT @lim
FOR UPDATE OF r SKIP LOCKED;

-- name: AdvanceReminder :exec
UPDATE reminders SET next_due = sqlc.narg('next_due') WHERE user_id = @user_id;

-- name: CountDueReminders :one
-- CountDueReminders is the benchmark's and the tests' view of what the job would select.
SELECT count(*) FROM reminders WHERE next_due IS NOT NULL AND next_due <= @now::timestamptz;

-- name: UnsubscribeReminderEmail :one
-- UnsubscribeReminderEmail turns e-mail reminders off; the caller recomputes next_due.
UPDATE reminders SET email = false, next_due = CASE WHEN push THEN next_due END, updated_at = now()
WHERE user_id = @user_id
RETURNING *;

-- name: ActivitySince :one
-- ActivitySince tells whether the user checked in or wrote in a chat since @since (the local
-- midnight of the reminder's day): such a day gets no reminder.
SELECT (
    EXISTS (SELECT 1 FROM checkins c WHERE c.user_id = @user_id::uuid AND c.created_at >= @since::timestamptz)
    OR EXISTS (SELECT 1 FROM messages m WHERE m.user_id = @user_id::uuid AND m.role = 'user' AND m.created_at >= @since::timestamptz)
)::boolean;

-- name: AddPushSubscription :one
-- AddPushSubscription stores a device's subscription; the same endpoint again (a browser that
-- subscribed anew) moves to this user with its new keys.
INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, device)
VALUES (@user_id, @endpoint, @p256dh, @auth, @device)
ON CONFLICT (endpoint) DO UPDATE
SET user_id = EXCLUDED.user_id, p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth, device = EXCLUDED.device,
    created_at = now()
RETURNING *;

-- name: ListPushSubscriptions :many
SELECT * FROM push_subscriptions WHERE user_id = @user_id ORDER BY created_at, id;

-- name: DeletePushSubscription :execrows
DELETE FROM push_subscriptions WHERE id = @id AND user_id = @user_id;

-- name: DeletePushSubscriptionByEndpoint :exec
DELETE FROM push_subscriptions WHERE endpoint = @endpoint;

-- name: CreateReminderKeys :exec
-- CreateReminderKeys stores the keys unless an instance made them first.
INSERT INTO reminder_keys (vapid_public, vapid_private, unsubscribe_secret)
VALUES (@vapid_public, @vapid_private, @unsubscribe_secret)
ON CONFLICT (id) DO NOTHING;

-- name: GetReminderKeys :one
SELECT vapid_public, vapid_private, unsubscribe_secret FROM reminder_keys;
