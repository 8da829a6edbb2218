-- Each instance keeps the logins it has checked for half a second (auth.Tokens), so that a
-- read does not pay a round trip to authenticate. These triggers tell every instance at once,
-- through NOTIFY percolate_auth on commit, when any login may have ended or changed: a
-- login revoked (logout, reset, password change) or deleted, an account deleted or its role
-- changed. A listener empties its cache on each; one that is not listening keeps no cache.

-- +goose Up
-- +goose StatementBegin
CREATE FUNCTION notify_auth_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('percolate_auth', '');
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

CREATE TRIGGER refresh_families_auth_change
AFTER UPDATE OF revoked_at OR DELETE ON refresh_token_families
FOR EACH STATEMENT EXECUTE FUNCTION notify_auth_change();

CREATE TRIGGER users_auth_change
AFTER UPDATE OF role OR DELETE ON users
FOR EACH STATEMENT EXECUTE FUNCTION notify_auth_change();

-- +goose Down
DROP TRIGGER users_auth_change ON users;
DROP TRIGGER refresh_families_auth_change ON refresh_token_families;
DROP FUNCTION notify_auth_change();
