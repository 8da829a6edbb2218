-- name: LockSigningKeys :exec
-- LockSigningKeys takes the transaction-scoped advisory lock under which signing keys are
-- created, so that instances starting together make one key between them.
SELECT pg_advisory_xact_lock(@lock_id::bigint);

-- name: ListSigningKeys :many
-- ListSigningKeys returns every signing key, oldest first.
SELECT kid, secret, activates_at
FROM signing_keys
ORDER BY activates_at, created_at, kid;

-- name: CreateSigningKey :exec
-- CreateSigningKey adds a key that signs from now() + activate_after_seconds on.
INSERT INTO signing_keys (kid, secret, activates_at)
VALUES (@kid, @secret, now() + make_interval(secs => @activate_after_seconds::float8));

-- name: PruneSigningKeys :execrows
-- PruneSigningKeys deletes the keys that a newer key replaced more than retain_seconds ago:
-- every token they signed has expired.
DELETE FROM signing_keys k
WHERE EXISTS (
    SELECT 1 FROM signing_keys n
    WHERE n.activates_at > k.activates_at
      AND n.activates_at < now() - make_interval(secs => @retain_seconds::float8)
);
