package main

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/store"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
	"github.com/percolate/percolate/gen/api"
	"github.com/percolate/percolate/gen/apiclient"
)

// TestConnectionRefusalsUnderLoad runs the real binary on a database of a private cluster,
// reached as an ordinary role with a password (as in production), drives a steady load of
// authenticated reads, message sends and refreshes, and makes the server, up all along,
// refuse the app's connections in each way an operator's change does: maintenance
// (55000), a restore (3D000), a revoked CONNECT privilege (42501) and a rotated password
// (28P01), each followed by the end of the app's sessions and lifted after a while. While a
// refusal holds every answer is 200 (a request that got its connection before) or 503 with
// Retry-After, never 401 or any other; afterwards each worker's tokens (refreshed all along)
// still work, every send answered 200 is stored with its reply, and no refresh token is lost.
func TestConnectionRefusalsUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary on a private PostgreSQL cluster")
	}
	db := pgtest.NewRefusable(t)
	srv := startBinary(t,
		"DATABASE_URL="+db.URL,
		"PERCOLATE_MESSAGES_PER_DAY=USER=100000,BASIC=100000",
		"PERCOLATE_SESSION_TOKEN_LIMITS=USER=1000000,BASIC=1000000",
		// warn: each 503 logs the database error behind it, each 500 its cause.
		"PERCOLATE_LOG_LEVEL=warn",
	)
	const workers = 4
	c := faultTypedClient(t, srv.base)
	type user struct {
		access, refresh string
		session         uuid.UUID
	}
	users := make([]user, workers)
	for i := range users {
		email := fmt.Sprintf("user%d@example.com", i)
		addUser(t, db.URL, email, "brew-a-fresh-pot")
		users[i].access, users[i].refresh = signIn(t, c, email, "brew-a-fresh-pot")
		users[i].session = startChat(t, c, users[i].access)
	}

	type phase struct {
		code                     string
		refuseAt, allowAt, okAt  time.Time // refusal applied, lifted, first success after lifting
		first503                 time.Time
		answers                  map[int]int
		slowest503               time.Duration
		reads, sends, refreshes  int // requests started while the refusal held
		sends200, sendsFailed    int // sends started while refused: answered 200, 200 without a stored reply
		refreshed200, refresh503 int
	}
	var (
		mu      sync.Mutex
		sendMu  sync.RWMutex // held by the test while it ends the app's sessions (see below)
		records []loadRecord
		phases  []*phase
		cur     *phase
		bad     []string
		badIDs  []string
		stop    = make(chan struct{})
		wg      sync.WaitGroup
		t0      = time.Now()
	)
	// note files an answer under the refusal that held when its request started.
	note := func(r loadRecord) {
		mu.Lock()
		defer mu.Unlock()
		records = append(records, r)
		wrong := func(why string) {
			bad = append(bad, fmt.Sprintf("%s %s: %s", r.kind, why, r.describe(t0)))
			badIDs = append(badIDs, r.requestID)
		}
		switch {
		case r.err != nil:
			wrong("no typed answer")
		case r.code == http.StatusOK:
			if r.kind == "send" && (r.reply == nil || !r.reply.Success) {
				wrong("send answered 200 without its reply stored")
			}
		case r.code == http.StatusServiceUnavailable:
			if r.retryAfter == nil || *r.retryAfter < 1 {
				wrong("503 without a Retry-After of 1 s or more")
			}
		default:
			wrong("neither 200 nor 503")
		}
		p := cur
		if p == nil || r.start.Before(p.refuseAt) {
			return
		}
		if !p.allowAt.IsZero() && r.start.After(p.allowAt) {
			// Lifted: only the first success counts, for the time to recover.
			if r.code == http.StatusOK && (p.okAt.IsZero() || r.end.Before(p.okAt)) {
				p.okAt = r.end
			}
			return
		}
		p.answers[r.code]++
		switch r.kind {
		case "read":
			p.reads++
		case "send":
			p.sends++
			if r.code == http.StatusOK {
				p.sends200++
				if r.reply == nil || !r.reply.Success {
					p.sendsFailed++
				}
			}
		case "refresh":
			p.refreshes++
			switch r.code {
			case http.StatusOK:
				p.refreshed200++
			case http.StatusServiceUnavailable:
				p.refresh503++
			}
		}
		if r.code == http.StatusServiceUnavailable {
			if p.first503.IsZero() || r.end.Before(p.first503) {
				p.first503 = r.end
			}
			p.slowest503 = max(p.slowest503, r.took())
		}
	}
	tokens := make([]user, workers) // each worker's current tokens, read at the end
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			u := users[w]
			defer func() {
				mu.Lock()
				tokens[w] = u
				mu.Unlock()
			}()
			var lastSend, lastRefresh time.Time
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				var r loadRecord
				switch {
				case time.Since(lastSend) > 3500*time.Millisecond: // within 20 sends a minute
					lastSend = time.Now()
					r = recordedSend(c, u.access, u.session, fmt.Sprintf("worker %d message %d", w, n), &sendMu)
				case time.Since(lastRefresh) > time.Second:
					// The client keeps its refresh token unless a new one comes back.
					lastRefresh = time.Now()
					res, a := exchange(http.MethodPost, "/api/auth/refresh", func(ctx context.Context) (*apiclient.RefreshTokensAnswer, error) {
						return c.RefreshTokensWithResponse(ctx, api.RefreshRequest{RefreshToken: u.refresh})
					})
					r = loadRecord{kind: "refresh", answer: a}
					if res != nil && res.JSON200 != nil {
						u.access, u.refresh = res.JSON200.AccessToken, res.JSON200.RefreshToken
					}
					if res != nil && res.Headers503 != nil {
						r.retryAfter = res.Headers503.RetryAfter
					}
				default:
					res, a := exchange(http.MethodGet, "/api/profile", func(ctx context.Context) (*apiclient.GetProfileAnswer, error) {
						return c.GetProfileWithResponse(ctx, bearer(u.access))
					})
					r = loadRecord{kind: "read", answer: a}
					if res != nil && res.Headers503 != nil {
						r.retryAfter = res.Headers503.RetryAfter
					}
				}
				note(r)
				time.Sleep(20 * time.Millisecond) // a steady stream, not a flood on two cores
			}
		}(w)
	}
	stopLoad := func() {
		select {
		case <-stop:
		default:
			close(stop)
		}
		wg.Wait()
	}
	defer stopLoad()
	summary := func() string {
		mu.Lock()
		defer mu.Unlock()
		counts := map[string]int{}
		for _, r := range records {
			counts[fmt.Sprintf("%s %d", r.kind, r.code)]++
		}
		keys := make([]string, 0, len(counts))
		for k := range counts {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var b strings.Builder
		b.WriteString("answers:")
		for _, k := range keys {
			fmt.Fprintf(&b, " %s × %d;", k, counts[k])
		}
		b.WriteString("\n")
		return b.String()
	}
	// waitOK waits until reads, sends and refreshes all succeed again after since.
	waitOK := func(what string, since time.Time) {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for {
			mu.Lock()
			ok := map[string]int{}
			for _, r := range records {
				if r.code == http.StatusOK && r.start.After(since) {
					ok[r.kind]++
				}
			}
			mu.Unlock()
			if ok["read"] >= 8 && ok["send"] >= 2 && ok["refresh"] >= 2 {
				return
			}
			if time.Now().After(deadline) {
				stopLoad()
				t.Fatalf("%s: no recovery within 20 s (successes since: %v)\n%s%s", what, ok, summary(), srv.report())
			}
			time.Sleep(20 * time.Millisecond)
		}
	}

	waitOK("before any refusal", t0)
	const hold = 3 * time.Second
	for _, ref := range pgtest.Refusals {
		p := &phase{code: ref.Code, answers: map[int]int{}}
		mu.Lock()
		p.refuseAt = time.Now()
		cur = p
		phases = append(phases, p)
		mu.Unlock()
		// No send is in flight while the refusal ends the app's sessions: a session ended
		// during a reply's commit leaves unknown whether the reply was stored, which chat
		// does not find out (TestPostgresRestartUnderLoad's territory, and a known limit);
		// this test is about the connections refused afterwards. Sends started during the
		// refusal go on as usual.
		sendMu.Lock()
		db.Refuse(t, ref.Code)
		sendMu.Unlock()
		time.Sleep(hold)
		db.Allow(t, ref.Code)
		mu.Lock()
		p.allowAt = time.Now()
		mu.Unlock()
		waitOK("after lifting "+ref.Code, p.allowAt)
	}
	stopLoad()

	nbad := len(bad)
	if nbad > 0 {
		if len(bad) > 20 {
			bad, badIDs = append(bad[:20:20], fmt.Sprintf("[and %d more]", len(bad)-20)), badIDs[:20]
		}
		t.Errorf("%d wrong answers:\n  %s\n%sserver errors other than requests:\n%s\n%s", nbad, strings.Join(bad, "\n  "), summary(), serverErrors(srv), srv.report(badIDs...))
	}
	for _, p := range phases {
		if p.answers[http.StatusServiceUnavailable] == 0 {
			t.Errorf("%s: no request saw the refusal\n%s", p.code, summary())
		}
		if p.answers[http.StatusUnauthorized] > 0 {
			t.Errorf("%s: %d answers 401", p.code, p.answers[http.StatusUnauthorized])
		}
	}

	// Nobody was signed out: each worker's last tokens work, its refresh token included.
	for i, u := range tokens {
		me, a := exchange(http.MethodGet, "/api/auth/me", func(ctx context.Context) (*apiclient.GetCurrentUserAnswer, error) {
			return c.GetCurrentUserWithResponse(ctx, bearer(u.access))
		})
		if a.err != nil || a.code != http.StatusOK || me.JSON200 == nil {
			t.Errorf("user %d's access token afterwards: %s", i, a.describe(t0))
		}
		refreshed, a := exchange(http.MethodPost, "/api/auth/refresh", func(ctx context.Context) (*apiclient.RefreshTokensAnswer, error) {
			return c.RefreshTokensWithResponse(ctx, api.RefreshRequest{RefreshToken: u.refresh})
		})
		if a.err != nil || a.code != http.StatusOK || refreshed.JSON200 == nil {
			t.Errorf("user %d's refresh token afterwards: %s", i, a.describe(t0))
		}
	}

	// Nothing lost: every send answered 200 is stored, with its reply.
	ctx := context.Background()
	st, err := store.Open(ctx, db.URL)
	if err != nil {
		t.Fatalf("open the database: %v", err)
	}
	defer st.Close()
	stored := map[string]bool{}
	rows, err := st.Pool().Query(ctx, "SELECT content FROM messages WHERE role = 'user'")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		stored[s] = true
	}
	if rows.Err() != nil {
		t.Fatal(rows.Err())
	}
	lost, sends200 := 0, 0
	for _, r := range records {
		if r.kind == "send" && r.code == http.StatusOK {
			sends200++
			if !stored[r.text] {
				lost++
				t.Errorf("send %q answered 200 but is not stored: %s", r.text, r.describe(t0))
			}
		}
	}

	for _, p := range phases {
		t.Logf("%s: held %s; answers while refused: 200 × %d, 503 × %d, 401 × %d, other × %d (reads %d, sends %d, refreshes %d); first 503 %s after the refusal, slowest 503 %s; sends answered 200 while refused: %d (%d without their reply); refreshes 200 × %d, 503 × %d; first success %s after lifting",
			p.code+" at +"+p.refuseAt.Sub(t0).Round(time.Millisecond).String(), p.allowAt.Sub(p.refuseAt).Round(time.Millisecond), p.answers[200], p.answers[503], p.answers[401],
			p.reads+p.sends+p.refreshes-p.answers[200]-p.answers[503]-p.answers[401],
			p.reads, p.sends, p.refreshes, p.first503.Sub(p.refuseAt).Round(time.Millisecond), p.slowest503.Round(time.Millisecond),
			p.sends200, p.sendsFailed, p.refreshed200, p.refresh503, p.okAt.Sub(p.allowAt).Round(time.Millisecond))
	}
	t.Logf("%sall sends answered 200: %d, not stored: %d; wrong answers: %d", summary(), sends200, lost, nbad)
}

// serverErrors is the server's logged errors other than its request lines (a reply's failed
// store is logged by session, not by request).
func serverErrors(srv *server) string {
	var lines []string
	for _, line := range strings.Split(srv.logs.String(), "\n") {
		if strings.Contains(line, `"level":"ERROR"`) && !strings.Contains(line, `"msg":"request"`) {
			lines = append(lines, "  "+line)
		}
	}
	return lastLines(strings.Join(lines, "\n"), 20)
}
