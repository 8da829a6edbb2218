package bench

// The data the phases read: users with sessions and messages written straight into the
// database (the way a year of use would leave them), and signing in as one of them.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"github.com/jackc/pgx/v5"
)

func seedUser(ctx context.Context, db *pgx.Conn, hash, email string, sessions, messages int) (string, string, error) {
	var uid, sid string
	err := db.QueryRow(ctx, `INSERT INTO users (email, name, password_hash, role, email_verified_at)
		VALUES ($1, 'Bench', $2, 'PREMIUM', now()) RETURNING id::text`, email, hash).Scan(&uid)
	if err != nil {
		return "", "", err
	}
	// Every seventh session mentions rain, so that search has something to find.
	_, err = db.Exec(ctx, `INSERT INTO chat_sessions (user_id, title, last_message, status, ended_at, summary, emotions, created_at, updated_at)
		SELECT $1, 'Evening check-in ' || g,
		       CASE WHEN g % 7 = 0 THEN 'The rain kept me in today, and I read a little.' ELSE 'Work was long, but I walked home slowly and felt better.' END,
		       'ENDED', now() - g * interval '1 minute', 'We talked about a long day and a slower walk home.', '{calm,tired}',
		       now() - g * interval '1 minute', now() - g * interval '1 minute'
		FROM generate_series(1, $2::int) g`, uid, sessions)
	if err != nil {
		return "", "", err
	}
	if messages > 0 {
		if err := db.QueryRow(ctx, `SELECT id::text FROM chat_sessions WHERE user_id = $1 ORDER BY updated_at DESC LIMIT 1`, uid).Scan(&sid); err != nil {
			return "", "", err
		}
		err = seedMessages(ctx, db, sid, uid, messages)
	}
	return uid, sid, err
}

// seedSession adds an active session of uid with history messages, summarised as a session
// of that length would be (see summarisedAfter), and answers its id.
func seedSession(ctx context.Context, db *pgx.Conn, uid string, history int) (string, error) {
	var sid string
	err := db.QueryRow(ctx, `INSERT INTO chat_sessions (user_id, title, last_message, token_limit)
		VALUES ($1, 'Streaming', 'Hello', 100000000) RETURNING id::text`, uid).Scan(&sid)
	if err != nil {
		return "", err
	}
	err = seedMessages(ctx, db, sid, uid, history)
	if err != nil || history <= 2*summarisedAfter {
		return sid, err
	}
	// A session that grew this long through sends, with a model, has the running summary of
	// its earlier part; all but the newest turns are covered by it.
	_, err = db.Exec(ctx, `UPDATE chat_sessions SET context_summary = 'You talked about a week that was busier than you hoped.',
		context_summary_through = (SELECT created_at FROM messages WHERE session_id = $1 ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT 1)
		WHERE id = $1`, sid, summarisedAfter)
	return sid, err
}

// seedMessages gives session sid of uid n messages, the user's and the companion's in turn, a
// second apart, a day ago.
func seedMessages(ctx context.Context, db *pgx.Conn, sid, uid string, n int) error {
	_, err := db.Exec(ctx, `INSERT INTO messages (session_id, user_id, role, content, token_count, created_at)
		SELECT $1, $2, CASE WHEN g % 2 = 0 THEN 'assistant' ELSE 'user' END,
		       'This is message ' || g || ' of a long conversation about a week that was busier than I hoped.', 20,
		       now() - interval '1 day' + g * interval '1 second'
		FROM generate_series(1, $3::int) g`, sid, uid, n)
	return err
}

// summarisedAfter is how many of a seeded session's newest messages its stored summary leaves
// out: about the window the summary job keeps (three quarters of the context budget) of the
// seeded messages.
const summarisedAfter = 80

func login(ctx context.Context, c *http.Client, base, email string) (string, error) {
	body, _ := json.Marshal(map[string]string{"email": email, "password": password})
	req, _ := http.NewRequestWithContext(ctx, "POST", base+"/api/auth/login", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var out struct {
		AccessToken string `json:"accessToken"`
	}
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		return "", fmt.Errorf("status %d: %s", resp.StatusCode, b)
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return "", err
	}
	return out.AccessToken, nil
}
