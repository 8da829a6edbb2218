-- An authenticated request's one statement (GetLiveRefreshFamily) now reads who the caller is
-- (e-mail, name, student status) with the role, and each instance keeps it with the login for
-- half a second, so that GET /api/auth/me needs no statement of its own. So a change of any of
-- them now empties every instance's cache of checked logins, as a change of the role did
-- (migration 00013).

-- +goose Up
DROP TRIGGER users_auth_change ON users;
CREATE TRIGGER users_auth_change
AFTER UPDATE OF role, email, name, is_student OR DELETE ON users
FOR EACH STATEMENT EXECUTE FUNCTION notify_auth_change();

-- +goose Down
DROP TRIGGER users_auth_change ON users;
CREATE TRIGGER users_auth_change
AFTER UPDATE OF role OR DELETE ON users
FOR EACH STATEMENT EXECUTE FUNCTION notify_auth_change();
