package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/percolate/percolate/backend/internal/account"
)

// Instances is what the checks of two instances on one database found.
type Instances struct {
	// AccessOnB .. MessageShownOnA: a login begun on A, used on B.
	AccessOnB       int  `json:"accessTokenOnBStatus"`
	RefreshOnB      int  `json:"refreshOnBStatus"`
	MessageOnB      int  `json:"messageOnBStatus"`
	MessageShownOnA bool `json:"messageShownOnA"`
	// LogoutAccessMs is from the answer to a logout on A until B answered 401 to the login's
	// access token (which B had just checked, so cached); LogoutRefreshMs until B answered
	// 401 to its refresh token. -1 when B still accepted it after WaitMs.
	LogoutAccessMs  float64 `json:"logoutAccessMs"`
	LogoutRefreshMs float64 `json:"logoutRefreshMs"`
	WaitMs          float64 `json:"waitMs"`
	// LoginLimit is the configured failed logins per account; LimitedAtOne the wrong
	// password that was answered 429 against A alone, LimitedAtBoth the one alternating A
	// and B (0: never within LoginLimit+3 tries).
	LoginLimit    int `json:"loginLimit"`
	LimitedAtOne  int `json:"limitedAtOneInstance"`
	LimitedAtBoth int `json:"limitedAtTwoInstances"`
	// Ended sessions, with both instances running, and the summary and memory jobs of them.
	Ended     int  `json:"sessionsEnded"`
	Summaries Jobs `json:"summaryJobs"`
	Memories  Jobs `json:"memoryJobs"`
	// Written is how many of the ended sessions have a summary.
	Written  int    `json:"summariesWritten"`
	FirstErr string `json:"firstError,omitempty"`
}

// Jobs counts River's jobs of one kind for the ended sessions once none is left to run.
type Jobs struct {
	Kind      string `json:"kind"`
	Jobs      int    `json:"jobs"`
	Completed int    `json:"completed"`
	// Runs is the sum of the jobs' attempts, RunBy the ids that River's clients recorded
	// working them (a job run twice shows in both).
	Runs    int `json:"runs"`
	RunBy   int `json:"runBy"`
	Clients int `json:"distinctClients"`
	// FirstErr is the first error River recorded for a run of one of them.
	FirstErr string `json:"firstError,omitempty"`
}

// once is whether each of n sessions got one job, completed by one run.
func (j Jobs) once(n int) bool {
	return j.Jobs == n && j.Completed == n && j.Runs == n && j.RunBy == n
}

// twoInstances starts A and B, each with a data directory of its own, on the database and
// with the public URL (the tokens' issuer) of one deployment behind a load balancer, and
// checks that they act as one: logins, logouts, rate limits and background jobs.
func twoInstances(ctx context.Context, o Options, base map[string]string, db *pgx.Conn, hash string, c *http.Client) (*Instances, error) {
	const loginLimit = 3
	out := &Instances{LoginLimit: loginLimit}
	var inst [2]*Server
	for i, name := range []string{"a", "b"} {
		dir, err := os.MkdirTemp("", "percolate-bench-"+name+"-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
		env := maps.Clone(base)
		env["PERCOLATE_DATA_DIR"] = dir
		env["PERCOLATE_PUBLIC_URL"] = "http://percolate.bench.test"
		env["PERCOLATE_AUTH_LIMITS"] = fmt.Sprintf("login_per_account=%d", loginLimit)
		s, err := o.Start(ctx, env)
		if err != nil {
			return nil, fmt.Errorf("start %s: %w", strings.ToUpper(name), err)
		}
		defer s.Stop()
		inst[i] = s
	}
	a, b := inst[0].BaseURL, inst[1].BaseURL
	fail := func(format string, args ...any) {
		if out.FirstErr == "" {
			out.FirstErr = fmt.Sprintf(format, args...)
		}
	}
	for _, email := range []string{"two@bench.test", "limit-one@bench.test", "limit-two@bench.test"} {
		if _, _, err := seedUser(ctx, db, hash, email, 0, 0); err != nil {
			return nil, fmt.Errorf("seed: %w", err)
		}
	}

	// A login begun on A goes on on B.
	var login struct{ AccessToken, RefreshToken string }
	if code, err := call(ctx, c, "POST", a+"/api/auth/login", "", map[string]string{"email": "two@bench.test", "password": password}, &login); code != http.StatusOK {
		return nil, fmt.Errorf("login on A: %d %v", code, err)
	}
	out.AccessOnB, _ = call(ctx, c, "GET", b+"/api/auth/me", login.AccessToken, nil, nil)
	var pair struct{ AccessToken, RefreshToken string }
	out.RefreshOnB, _ = call(ctx, c, "POST", b+"/api/auth/refresh", "", map[string]string{"refreshToken": login.RefreshToken}, &pair)
	if out.RefreshOnB != http.StatusOK {
		return nil, fmt.Errorf("refresh on B of a login begun on A: %d", out.RefreshOnB)
	}
	tok := pair.AccessToken

	// Sessions begun on one instance, written to and ended on the other; the first one's
	// message is checked on A.
	const sessions = 4
	var ids []string
	for i := range sessions {
		on, other := a, b
		if i%2 == 1 {
			on, other = b, a
		}
		var sent struct{ SessionID string }
		if code, err := call(ctx, c, "POST", on+"/api/chat/message", tok, map[string]string{"message": "Hello, I would like to talk about my week."}, &sent); code != http.StatusOK {
			return nil, fmt.Errorf("begin a session: %d %v", code, err)
		}
		msg := fmt.Sprintf("The walk home in the rain helped more than I thought (%d).", i)
		code, err := call(ctx, c, "POST", other+"/api/chat/message", tok, map[string]string{"sessionId": sent.SessionID, "message": msg}, nil)
		if i == 0 {
			out.MessageOnB = code
			var detail struct{ Messages []struct{ Content string } }
			if code, _ := call(ctx, c, "GET", a+"/api/chat/sessions/"+sent.SessionID, tok, nil, &detail); code == http.StatusOK {
				for _, m := range detail.Messages {
					out.MessageShownOnA = out.MessageShownOnA || m.Content == msg
				}
			}
		}
		if code != http.StatusOK {
			fail("a message sent to a session begun on the other instance: %d %v", code, err)
		}
		if code, err := call(ctx, c, "POST", on+"/api/chat/sessions/"+sent.SessionID+"/end", tok, nil, nil); code != http.StatusOK {
			return nil, fmt.Errorf("end a session: %d %v", code, err)
		}
		ids = append(ids, sent.SessionID)
	}
	out.Ended = len(ids)
	if err := jobsDone(ctx, db, ids, out); err != nil {
		return nil, err
	}

	// Wrong passwords: against A alone, then alternating A and B, each for an account of its own.
	limitedAt := func(email string, alternate bool) int {
		// Failed logins are counted in fixed windows: tries on both sides of a window's start
		// would be counted in two. Near the end of one, wait for the next.
		window := account.DefaultLimits().LoginFailPerAccount.Window
		if left := time.Until(time.Now().Truncate(window).Add(window)); left < 10*time.Second {
			time.Sleep(left + 100*time.Millisecond)
		}
		body := map[string]string{"email": email, "password": "not the password"}
		for n := 1; n <= loginLimit+3; n++ {
			on := a
			if alternate && n%2 == 0 {
				on = b
			}
			code, _ := call(ctx, c, "POST", on+"/api/auth/login", "", body, nil)
			if code == http.StatusTooManyRequests {
				return n
			}
			if code != http.StatusUnauthorized {
				fail("a wrong password answered %d", code)
			}
		}
		return 0
	}
	out.LimitedAtOne = limitedAt("limit-one@bench.test", false)
	out.LimitedAtBoth = limitedAt("limit-two@bench.test", true)

	// Logout on A, while B has the login cached: how long B goes on accepting it.
	const wait = 5 * time.Second
	out.WaitMs = ms(wait)
	if code, _ := call(ctx, c, "GET", b+"/api/auth/me", tok, nil, nil); code != http.StatusOK {
		fail("B refuses the login before the logout: %d", code)
	}
	if code, err := call(ctx, c, "POST", a+"/api/auth/logout", tok, nil, nil); code != http.StatusNoContent {
		return nil, fmt.Errorf("logout on A: %d %v", code, err)
	}
	ended := time.Now()
	out.LogoutAccessMs = untilRefused(ctx, ended, wait, func() int {
		code, _ := call(ctx, c, "GET", b+"/api/auth/me", tok, nil, nil)
		return code
	})
	out.LogoutRefreshMs = untilRefused(ctx, ended, wait, func() int {
		code, _ := call(ctx, c, "POST", b+"/api/auth/refresh", "", map[string]string{"refreshToken": pair.RefreshToken}, nil)
		return code
	})
	return out, nil
}

// untilRefused asks until the answer is 401 and answers the milliseconds since from, or -1
// when wait has passed first.
func untilRefused(ctx context.Context, from time.Time, wait time.Duration, ask func() int) float64 {
	for ctx.Err() == nil && time.Since(from) < wait {
		if ask() == http.StatusUnauthorized {
			return ms(time.Since(from))
		}
	}
	return -1
}

// jobsDone waits until no summary or memory job of the sessions is left to run (a minute at
// most) and counts them, their runs and the summaries written.
func jobsDone(ctx context.Context, db *pgx.Conn, ids []string, out *Instances) error {
	deadline := time.Now().Add(time.Minute)
	for {
		var pending int
		err := db.QueryRow(ctx, `SELECT count(*) FROM river_job WHERE kind IN ('chat.summary', 'chat.memory')
			AND args->>'sessionId' = ANY($1) AND finalized_at IS NULL`, ids).Scan(&pending)
		if err != nil {
			return err
		}
		if pending == 0 || time.Now().After(deadline) {
			break
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	for _, j := range []*Jobs{{Kind: "chat.summary"}, {Kind: "chat.memory"}} {
		err := db.QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE state = 'completed'), coalesce(sum(attempt), 0),
			coalesce(sum(cardinality(attempted_by)), 0),
			(SELECT count(DISTINCT c) FROM river_job r, unnest(r.attempted_by) c WHERE r.kind = $1 AND r.args->>'sessionId' = ANY($2)),
			coalesce(min(errors[1]->>'error'), '')
			FROM river_job WHERE kind = $1 AND args->>'sessionId' = ANY($2)`, j.Kind, ids).Scan(&j.Jobs, &j.Completed, &j.Runs, &j.RunBy, &j.Clients, &j.FirstErr)
		if err != nil {
			return err
		}
		if j.Kind == "chat.summary" {
			out.Summaries = *j
		} else {
			out.Memories = *j
		}
	}
	return db.QueryRow(ctx, `SELECT count(*) FROM chat_sessions WHERE id::text = ANY($1) AND summary IS NOT NULL`, ids).Scan(&out.Written)
}

// call sends a JSON request and decodes a 2xx JSON answer into out (when not nil).
func call(ctx context.Context, c *http.Client, method, url, token string, body, out any) (int, error) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return 0, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if out != nil && resp.StatusCode < 300 {
		err = json.NewDecoder(resp.Body).Decode(out)
	} else {
		_, err = io.Copy(io.Discard, resp.Body)
	}
	return resp.StatusCode, err
}

// instanceTargets are the targets of the two-instance checks.
func instanceTargets(x *Instances) []Target {
	if x == nil {
		return nil
	}
	logout := func(v float64) string {
		if v < 0 {
			return fmt.Sprintf("still accepted after %.0f ms", x.WaitMs)
		}
		return fmt.Sprintf("%.1f ms", v)
	}
	j := func(j Jobs) string {
		s := fmt.Sprintf("%d jobs, %d completed, %d runs by %d instances", j.Jobs, j.Completed, j.Runs, j.Clients)
		if j.FirstErr != "" {
			s += " (first error: " + j.FirstErr + ")"
		}
		return s
	}
	return []Target{
		{What: "two instances: a login begun on A used on B (access token, refresh, a message to a session begun on A, shown on A)",
			Want: "200, 200, 200, shown", Got: fmt.Sprintf("%d, %d, %d, shown %v", x.AccessOnB, x.RefreshOnB, x.MessageOnB, x.MessageShownOnA),
			Met: x.AccessOnB == 200 && x.RefreshOnB == 200 && x.MessageOnB == 200 && x.MessageShownOnA && x.FirstErr == "", Notes: x.FirstErr},
		{What: "two instances: logout on A until B refuses the access token it had just checked", Want: "≤ 1 s",
			Got: logout(x.LogoutAccessMs), Met: x.LogoutAccessMs >= 0 && x.LogoutAccessMs <= 1000},
		{What: "two instances: logout on A until B refuses the refresh token", Want: "≤ 1 s",
			Got: logout(x.LogoutRefreshMs), Met: x.LogoutRefreshMs >= 0 && x.LogoutRefreshMs <= 1000},
		{What: fmt.Sprintf("two instances: wrong passwords alternated between A and B, login limit %d", x.LoginLimit),
			Want: fmt.Sprintf("429 at try %d, as against A alone (%d)", x.LoginLimit+1, x.LimitedAtOne), Got: fmt.Sprintf("429 at try %d", x.LimitedAtBoth),
			Met: x.LimitedAtBoth == x.LoginLimit+1 && x.LimitedAtOne == x.LoginLimit+1},
		{What: fmt.Sprintf("two instances: summary jobs of %d sessions ended on A and B", x.Ended),
			Want: fmt.Sprintf("%d jobs, each run once; %d summaries", x.Ended, x.Ended), Got: j(x.Summaries) + fmt.Sprintf("; %d summaries", x.Written),
			Met: x.Summaries.once(x.Ended) && x.Written == x.Ended},
		{What: fmt.Sprintf("two instances: memory jobs of %d sessions ended on A and B", x.Ended),
			Want: fmt.Sprintf("%d jobs, each run once", x.Ended), Got: j(x.Memories), Met: x.Memories.once(x.Ended)},
	}
}
