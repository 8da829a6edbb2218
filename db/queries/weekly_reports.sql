-- name: ListUsersDueWeeklyReport :many
-- ListUsersDueWeeklyReport returns users whose role includes weekly reports (roles) with no
-- report yet for the week.
SELECT u.id, u.email, u.name FROM users u
WHERE u.role = ANY(@roles::text[])
  AND NOT EXISTS (SELECT 1 FROM weekly_reports r WHERE r.user_id = u.id AND r.week_start = @week_start)
ORDER BY u.id
LIMIT @max_users;

-- name: ListEndedSessionsBetween :many
-- ListEndedSessionsBetween returns one user's sessions that ended in [from, to).
SELECT id, title, summary, emotions, ended_at FROM chat_sessions
WHERE user_id = @user_id AND status = 'ENDED' AND ended_at >= @from_time AND ended_at < @to_time
ORDER BY ended_at;

-- name: InsertWeeklyReport :one
-- InsertWeeklyReport stores a report unless one exists for that user and week; it returns
-- the id only when this call stored it, so exactly one instance mails it.
INSERT INTO weekly_reports (user_id, week_start, content)
VALUES (@user_id, @week_start, @content)
ON CONFLICT (user_id, week_start) DO NOTHING
RETURNING id;

-- name: ListWeeklyReportsForUser :many
-- ListWeeklyReportsForUser returns a user's reports, newest first.
SELECT * FROM weekly_reports
WHERE user_id = @user_id
ORDER BY week_start DESC
LIMIT 52;

-- name: GetWeeklyReportForMail :one
-- GetWeeklyReportForMail returns a report with its owner's address, name and country (for
-- the job that mails it; the country picks the helplines it names).
SELECT r.week_start, r.content, u.email, u.name, u.country
FROM weekly_reports r JOIN users u ON u.id = r.user_id
WHERE r.id = @id;

-- name: ListUserMessagesOfSessionsEndedBetween :many
-- ListUserMessagesOfSessionsEndedBetween returns the user's own messages (never the
-- assistant's) of their sessions that ended in [from, to), oldest first, for the week's themes.
SELECT m.session_id, m.content, m.created_at
FROM messages m JOIN chat_sessions s ON s.id = m.session_id
WHERE s.user_id = @user_id AND m.user_id = @user_id AND m.role = 'user'
  AND s.status = 'ENDED' AND s.ended_at >= @from_time AND s.ended_at < @to_time
ORDER BY m.created_at, m.id
LIMIT 2000;
