-- name: CreateSession :one
-- CreateSession starts an ACTIVE session for the user.
INSERT INTO chat_sessions (user_id, title, token_limit)
VALUES (@user_id, @title, @token_limit)
RETURNING *;

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

-- name: EndSessionForUser :one
-- EndSessionForUser ends the user's ACTIVE session; pgx.ErrNoRows when it is
-- not the user's or already ended.
UPDATE chat_sessions
SET status = 'ENDED', ended_at = now(), end_reason = @end_reason
WHERE id = @id AND user_id = @user_id AND status = 'ACTIVE'
RETURNING *;

-- name: SetSessionSummary :execrows
-- SetSessionSummary stores the summary and emotion labels of the user's session, and the
-- title made from the conversation unless it is empty.
UPDATE chat_sessions
SET summary = @summary, emotions = @emotions, title = COALESCE(NULLIF(@title::text, ''), title)
WHERE id = @id AND user_id = @user_id;

-- name: TakePendingCheckins :execrows
-- TakePendingCheckins clears the user's pending check-ins and says how many
-- there were.
UPDATE chat_sessions
SET checkin_pending = false
WHERE user_id = @user_id AND checkin_pending;

-- name: ListSessionsPage :many
-- ListSessionsPage pages through the user's sessions, most recently updated first (ties by id,
-- descending), after the keyset cursor (after_updated, after_id); the first page passes a cursor
-- past every row (a far-future time). It reads only the columns a list item shows (not the
-- context summary, the tokens or the end reason, say), and each row's version, which says
-- whether an answer kept for the page still holds (chat.Page.Version).
--
-- Each argument is read through a scalar subquery (an InitPlan), so that the planner never
-- sees its value: every plan of this statement is the same plan, the index scan of
-- (user_id, updated_at, id) that stops at the LIMIT, whatever the user. PostgreSQL then keeps
-- the prepared statement's generic plan after its fifth execution on a connection, since a
-- custom plan no longer costs less. With the values in sight it planned every read again (a
-- custom plan for a user with few sessions costs less than the generic plan's estimate of a
-- tenth of an average user's sessions): a quarter of PostgreSQL's CPU under the session list.
SELECT id, title, status, summary, emotions, last_message, updated_at, closing_feeling, checkin_id, version
FROM chat_sessions
WHERE user_id = (SELECT @user_id::uuid)
  AND (updated_at, id) < ((SELECT @after_updated::timestamptz), (SELECT @after_id::uuid))
ORDER BY updated_at DESC, id DESC
LIMIT (SELECT @max_rows::integer);

-- name: SearchSessionsPage :many
-- SearchSessionsPage is ListSessionsPage for the sessions whose title, last message or id
-- matches @pattern, a LIKE pattern ('%' + the escaped query + '%'), ignoring case: search_text
-- is the three lower-cased (migration 00015). It reads the user's @head_rows newest sessions
-- after the cursor from the (user_id, updated_at, id) index, stopping once @max_rows match (a
-- common term fills its page in a few hundred rows, with nothing to sort). Only when they
-- hold fewer and there are more sessions beyond them does it ask chat_sessions_search_text_idx
-- for every match and sort them: the term is rare, so they are few. OFFSET 0 keeps that branch
-- from walking the ordered index instead (a generic plan would, for a rare term, through
-- all of the user's sessions). Statistics are table-wide, so the planner alone cannot tell a
-- term common for this user from one common for others; the head decides at run time.
WITH hits AS (
    SELECT id, title, status, summary, emotions, last_message, updated_at, closing_feeling, checkin_id, version
    FROM (
        SELECT id, title, status, summary, emotions, last_message, updated_at, closing_feeling, checkin_id, version, search_text
        FROM chat_sessions AS s
        WHERE s.user_id = @user_id
          AND (s.updated_at, s.id) < (@after_updated::timestamptz, @after_id::uuid)
        ORDER BY s.updated_at DESC, s.id DESC
        LIMIT @head_rows
    ) AS head
    WHERE search_text LIKE lower(@pattern::text)
    ORDER BY updated_at DESC, id DESC
    LIMIT @max_rows
), beyond AS (
    SELECT (SELECT count(*) FROM hits) < @max_rows
       AND EXISTS (SELECT FROM chat_sessions AS s
                   WHERE s.user_id = @user_id
                     AND (s.updated_at, s.id) < (@after_updated::timestamptz, @after_id::uuid)
                   ORDER BY s.updated_at DESC, s.id DESC
                   OFFSET @head_rows) AS rare
)
SELECT id, title, status, summary, emotions, last_message, updated_at, closing_feeling, checkin_id, version
FROM hits
WHERE NOT (SELECT rare FROM beyond)
UNION ALL
(SELECT id, title, status, summary, emotions, last_message, updated_at, closing_feeling, checkin_id, version
 FROM (SELECT id, title, status, summary, emotions, last_message, updated_at, closing_feeling, checkin_id, version
       FROM chat_sessions AS s
       WHERE s.user_id = @user_id
         AND (s.updated_at, s.id) < (@after_updated::timestamptz, @after_id::uuid)
         AND s.search_text LIKE lower(@pattern::text)
         AND (SELECT rare FROM beyond)
       OFFSET 0) AS matches
 ORDER BY updated_at DESC, id DESC
 LIMIT @max_rows)
ORDER BY updated_at DESC, id DESC
LIMIT @max_rows;

-- name: IncrementSafetyReferrals :exec
-- IncrementSafetyReferrals counts one crisis-resource referral for the day
-- (no user, no content).
INSERT INTO safety_referral_counts (day, count)
VALUES (@day, 1)
ON CONFLICT (day) DO UPDATE SET count = safety_referral_counts.count + 1;

-- name: GetSafetyReferralCount :one
-- GetSafetyReferralCount returns the day's referral count (0 when none).
SELECT COALESCE((SELECT count FROM safety_referral_counts WHERE day = @day), 0)::integer;

-- name: IncrementSafetyCheckins :exec
-- IncrementSafetyCheckins counts one possible-risk check-in for the day (no
-- user, no content).
INSERT INTO safety_referral_counts (day, checkins)
VALUES (@day, 1)
ON CONFLICT (day) DO UPDATE SET checkins = safety_referral_counts.checkins + 1;

-- name: GetSafetyCheckinCount :one
-- GetSafetyCheckinCount returns the day's check-in count (0 when none).
SELECT COALESCE((SELECT checkins FROM safety_referral_counts WHERE day = @day), 0)::integer;

-- name: OpenSession :one
-- OpenSession starts an ACTIVE session with everything its first send sets, in
-- one statement: title, AI-notice time, check-in flag, preview, the reply
-- in progress until reply_until, and the check-in it was started from (NULL:
-- none; another user's check-in is never linked).
INSERT INTO chat_sessions (id, user_id, title, token_limit, last_disclosure_at, last_message, checkin_pending, reply_until, checkin_id)
VALUES (@id, @user_id, @title, @token_limit, @disclosed_at, @last_message, @checkin_pending, @reply_until,
        (SELECT c.id FROM checkins AS c WHERE c.id = sqlc.narg(checkin_id)::uuid AND c.user_id = @user_id))
RETURNING *;

-- name: ContinueSession :one
-- ContinueSession records a send in the user's session in one statement: the
-- title, the AI-notice time when it was shown again, the tokens (negative when
-- a retry removes a partial reply), the preview, a pending check-in, the
-- reply in progress until reply_until, and how many newest messages the next
-- send should read (context_rows).
UPDATE chat_sessions
SET title = @title,
    last_disclosure_at = COALESCE(sqlc.narg(disclosed_at), last_disclosure_at),
    tokens_used = GREATEST(tokens_used + @tokens::integer, 0),
    last_message = @last_message,
    checkin_pending = checkin_pending OR @checkin_pending::boolean,
    reply_until = @reply_until,
    context_rows = @context_rows::integer
WHERE id = @id AND user_id = @user_id
RETURNING *;

-- name: FinishReply :one
-- FinishReply records a stored reply in the user's session in one statement:
-- its tokens, the preview (kept when empty), a pending check-in, the pinned
-- support lines (kept when NULL) and the crisis replies given, the end of the
-- reply in progress, and the end of an active session whose tokens reach its
-- limit (with @limit_reason).
UPDATE chat_sessions
SET tokens_used = tokens_used + @tokens::integer,
    checkin_pending = checkin_pending OR @checkin_pending::boolean,
    safety_pinned = COALESCE(sqlc.narg(safety_pinned)::text, safety_pinned),
    crisis_replies = crisis_replies + @crisis_replies::integer,
    last_message = CASE WHEN @last_message::text = '' THEN last_message ELSE @last_message::text END,
    reply_until = NULL,
    status = CASE WHEN status = 'ACTIVE' AND tokens_used + @tokens::integer >= token_limit THEN 'ENDED' ELSE status END,
    ended_at = CASE WHEN status = 'ACTIVE' AND tokens_used + @tokens::integer >= token_limit THEN now() ELSE ended_at END,
    end_reason = CASE WHEN status = 'ACTIVE' AND tokens_used + @tokens::integer >= token_limit THEN @limit_reason::text ELSE end_reason END
WHERE id = @id AND user_id = @user_id
RETURNING *;

-- name: SetContextSummary :execrows
-- SetContextSummary stores the model's summary of the session's messages up to
-- @through, unless a summary that reaches as far or further is already stored. A stored
-- summary tells every instance, at commit, "moved <session id> <version>": the session's
-- next prompt carries it, so a send state kept before it would only be tried and refused.
WITH stored AS (
    UPDATE chat_sessions
    SET context_summary = @summary, context_summary_through = @through
    WHERE id = @id AND user_id = @user_id
      AND (context_summary_through IS NULL OR context_summary_through < @through)
    RETURNING id, version
)
SELECT pg_notify(@channel::text, 'moved ' || id::text || ' ' || version::text) FROM stored;

-- name: ListSessionsForExport :many
-- ListSessionsForExport pages through the user's sessions, oldest first, after the cursor
-- (created_at, id); the first page starts from the zero cursor.
SELECT * FROM chat_sessions
WHERE user_id = @user_id AND (created_at, id) > (@after_created::timestamptz, @after_id::uuid)
ORDER BY created_at, id
LIMIT @max_rows;

-- name: SetClosingFeeling :one
-- SetClosingFeeling records how the user felt as their session ended.
UPDATE chat_sessions
SET closing_feeling = @feeling
WHERE id = @id AND user_id = @user_id
RETURNING *;
