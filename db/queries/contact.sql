-- name: CreateContactMessage :one
-- CreateContactMessage stores one message sent through the public contact form.
INSERT INTO contact_messages (name, email, message)
VALUES (@name, @email, @message)
RETURNING *;

-- name: CountContactMessages :one
-- CountContactMessages counts the stored contact messages (for operators and tests).
SELECT count(*) FROM contact_messages;

-- name: GetContactMessage :one
-- GetContactMessage returns one stored contact message (for the job that mails it).
SELECT * FROM contact_messages WHERE id = @id;

-- name: PruneContactMessages :execrows
-- PruneContactMessages deletes the contact messages received before the cut-off (the privacy
-- page states how long they are kept).
DELETE FROM contact_messages
WHERE created_at < @before;
