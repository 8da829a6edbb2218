package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/auth"
	"github.com/percolate/percolate/backend/internal/chat"
	"github.com/percolate/percolate/backend/internal/companion/llmtest"
	"github.com/percolate/percolate/backend/internal/store"
	"github.com/percolate/percolate/backend/internal/store/pglocal"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
	"github.com/percolate/percolate/gen/api"
	"github.com/percolate/percolate/gen/apiclient"
	dbgen "github.com/percolate/percolate/gen/db"
)

// syncBuffer is the server's log, written by the process's output copier and read by the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// server is the real binary, serving.
type server struct {
	cmd  *exec.Cmd
	base string
	done chan error
	logs *syncBuffer
	// pgLogDir is the private cluster's log directory, when the test runs one.
	pgLogDir string
}

// startBinary builds the binary and runs `percolate serve` with the given environment.
func startBinary(t *testing.T, vars ...string) *server {
	t.Helper()
	bin := buildBinary(t)
	dataDir := t.TempDir()
	// freeAddr's port is free when it answers, but another process may take it before the
	// server binds it: then the server exits at once, and another port is tried.
	for attempt := 1; ; attempt++ {
		s, err := tryStart(t, bin, freeAddr(t), append([]string{"PERCOLATE_DATA_DIR=" + dataDir}, vars...))
		if err == nil {
			return s
		}
		if attempt == 5 || !strings.Contains(s.logs.String(), "address already in use") {
			t.Fatalf("server exited early: %v\n%s", err, s.logs.String())
		}
	}
}

// buildBinary builds this command into a temporary directory and answers its path.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "percolate")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	return bin
}

// tryStart starts bin on addr and waits until it is ready; the error says it exited first.
func tryStart(t *testing.T, bin, addr string, vars []string) (*server, error) {
	t.Helper()
	s := &server{cmd: exec.Command(bin, "serve"), base: "http://" + addr, done: make(chan error, 1), logs: &syncBuffer{}}
	s.cmd.Env = append(os.Environ(), append([]string{"PERCOLATE_ADDR=" + addr}, vars...)...)
	s.cmd.Stderr = s.logs
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { s.done <- s.cmd.Wait() }()
	t.Cleanup(func() { _ = s.cmd.Process.Kill() })
	// A bounded wait for each answer: whoever holds a taken port may never answer.
	client := &http.Client{Timeout: 2 * time.Second}
	deadline := time.Now().Add(60 * time.Second)
	for {
		select {
		case err := <-s.done:
			return s, fmt.Errorf("exited: %v", err)
		default:
		}
		if res, err := client.Get(s.base + "/api/health/ready"); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return s, nil
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("server not ready\n%s", s.logs.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// answer is one HTTP exchange as the client saw it: the typed client's request, and the
// status, headers and body the server sent (recorded by faultDoer, so that a failure shows
// them even when the typed client could not read the answer).
type answer struct {
	method, path     string
	start, end       time.Time
	code             int
	retryAfterHeader string // the Retry-After header as sent
	requestID        string // the server's X-Request-Id, to find the request in its log
	body             []byte
	err              error // no answer, or the typed client could not read it
}

func (a answer) took() time.Duration { return a.end.Sub(a.start) }

// describe tells the request and what came back, with times relative to t0.
func (a answer) describe(t0 time.Time) string {
	s := fmt.Sprintf("%s %s at +%s (took %s): ", a.method, a.path, a.start.Sub(t0).Round(time.Millisecond), a.took().Round(time.Millisecond))
	if a.code == 0 {
		return s + fmt.Sprintf("no answer: %v", a.err)
	}
	s += fmt.Sprintf("%d, Retry-After %q, request id %q, body %s", a.code, a.retryAfterHeader, a.requestID, bytes.TrimSpace(a.body))
	if a.err != nil {
		s += fmt.Sprintf(" (the typed client could not read it: %v)", a.err)
	}
	return s
}

// faultRecording is what faultDoer saw of one exchange's answer.
type faultRecording struct {
	code   int
	header http.Header
	body   bytes.Buffer
}

// faultRecordingKey carries an exchange's *faultRecording in its request's context.
type faultRecordingKey struct{}

// faultDoer is the HTTP client of the fault test's typed client: it records, for a request
// sent by exchange, the status, headers and body the server sent.
type faultDoer struct{ hc *http.Client }

func (d faultDoer) Do(req *http.Request) (*http.Response, error) {
	res, err := d.hc.Do(req)
	if rec, ok := req.Context().Value(faultRecordingKey{}).(*faultRecording); ok && err == nil {
		rec.code, rec.header = res.StatusCode, res.Header
		res.Body = struct {
			io.Reader
			io.Closer
		}{io.TeeReader(res.Body, &rec.body), res.Body}
	}
	return res, err
}

// faultTypedClient is the typed client of the contract for the server at base, whose
// exchanges are recorded (exchange).
func faultTypedClient(t *testing.T, base string) *apiclient.ClientWithResponses {
	t.Helper()
	hc := &http.Client{Transport: &http.Transport{}}
	t.Cleanup(hc.CloseIdleConnections)
	c, err := apiclient.NewClientWithResponses(base, apiclient.WithHTTPClient(faultDoer{hc}))
	if err != nil {
		t.Fatalf("typed client: %v", err)
	}
	return c
}

// exchange sends one request of a faultTypedClient (send, method and path name it) within
// 30 s, and returns its typed answer (nil if the typed client returned an error, which the
// answer keeps) and the exchange as the client saw it. Every answer is a typed answer, a 503
// as much as a 200: only a request without an answer, or an answer the typed client cannot
// read, is an error.
func exchange[A any](method, path string, send func(context.Context) (A, error)) (A, answer) {
	rec := &faultRecording{}
	ctx, cancel := context.WithTimeout(context.WithValue(context.Background(), faultRecordingKey{}, rec), 30*time.Second)
	defer cancel()
	a := answer{method: method, path: path, start: time.Now()}
	res, err := send(ctx)
	a.end, a.err = time.Now(), err
	a.code, a.body = rec.code, rec.body.Bytes()
	if rec.header != nil {
		a.retryAfterHeader, a.requestID = rec.header.Get("Retry-After"), rec.header.Get("X-Request-Id")
	}
	return res, a
}

// lastLines returns the last n lines of text.
func lastLines(text string, n int) string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{fmt.Sprintf("[%d earlier lines]", len(lines)-n)}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}

// report is what a failure prints about the server: its log lines for the given request ids,
// then the tail of its log, then the tail of the private cluster's log if there is one.
func (s *server) report(requestIDs ...string) string {
	logs := s.logs.String()
	var b strings.Builder
	for _, id := range requestIDs {
		if id == "" {
			continue
		}
		fmt.Fprintf(&b, "server log lines of request %s:\n", id)
		for _, line := range strings.Split(logs, "\n") {
			if strings.Contains(line, id) {
				fmt.Fprintf(&b, "  %s\n", line)
			}
		}
	}
	fmt.Fprintf(&b, "server log (tail):\n%s\n", lastLines(logs, 40))
	if s.pgLogDir != "" {
		entries, _ := os.ReadDir(s.pgLogDir)
		for _, e := range entries {
			if b2, err := os.ReadFile(filepath.Join(s.pgLogDir, e.Name())); err == nil && len(b2) > 0 {
				fmt.Fprintf(&b, "PostgreSQL log %s (tail):\n%s\n", e.Name(), lastLines(string(b2), 25))
			}
		}
	}
	return b.String()
}

// addUser creates a verified account with a password directly in the database.
func addUser(t *testing.T, dbURL, email, password string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, err := store.Open(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	hash, err := auth.NewHasher(auth.Argon2Params{MemoryKiB: 256, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}, 0).Hash(ctx, password)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if _, err := st.Queries().CreateUser(ctx, dbgen.CreateUserParams{Email: email, Name: "Ada", PasswordHash: &hash, EmailVerifiedAt: &now}); err != nil {
		t.Fatal(err)
	}
}

// faultSend sends text in session as token's user, through c.
func faultSend(c *apiclient.ClientWithResponses, token string, session uuid.UUID, text string) (*apiclient.SendChatMessageAnswer, answer) {
	return exchange(http.MethodPost, "/api/chat/message", func(ctx context.Context) (*apiclient.SendChatMessageAnswer, error) {
		return c.SendChatMessageWithResponse(ctx, api.SendMessageRequest{Message: text, SessionId: &session}, bearer(token))
	})
}

// recordedSend sends text as one request of the load, under lock's read side (the test takes
// the write side to hold sends back), and records what its typed answer says.
func recordedSend(c *apiclient.ClientWithResponses, token string, session uuid.UUID, text string, lock *sync.RWMutex) loadRecord {
	lock.RLock()
	res, a := faultSend(c, token, session, text)
	lock.RUnlock()
	r := loadRecord{kind: "send", text: text, answer: a}
	if res != nil {
		r.reply = res.JSON200
		if res.Headers503 != nil {
			r.retryAfter = res.Headers503.RetryAfter
		}
	}
	return r
}

// faultSession reads session as token's user, through c.
func faultSession(c *apiclient.ClientWithResponses, token string, session uuid.UUID) (*apiclient.GetChatSessionAnswer, answer) {
	return exchange(http.MethodGet, "/api/chat/sessions/"+session.String(), func(ctx context.Context) (*apiclient.GetChatSessionAnswer, error) {
		return c.GetChatSessionWithResponse(ctx, session, bearer(token))
	})
}

// loadRecord is one request of the load, with the message it sent (if a send) and what its
// typed answer says.
type loadRecord struct {
	answer
	kind       string // "read" or "send"
	text       string
	reply      *api.SendMessageResponse // a send's 200 (JSON200)
	retryAfter *int                     // a 503's Retry-After (Headers503)
}

// TestPostgresRestartUnderLoad runs the real binary on a private PostgreSQL cluster (so
// stopping it cannot disturb the shared server), drives a steady load of authenticated reads
// and message sends, stops the database with pg_ctl stop -m fast, waits and starts it again.
// While it is down every answer is a quick 503 with Retry-After, never a 401; afterwards the
// same tokens work, the app recovered by itself, every send answered 200 is stored with its
// reply, and no session is left refusing messages as "still replying".
func TestPostgresRestartUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary on its own PostgreSQL cluster")
	}
	ctx := context.Background()
	// A short path, so that the socket directory is dir/run and stays the same across restarts.
	dir, err := os.MkdirTemp("/tmp", "pgfault-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	if os.Geteuid() == 0 { // run as root, the cluster's user must reach its directory
		if err := os.Chmod(dir, 0o711); err != nil {
			t.Fatal(err)
		}
	}
	cluster, err := pglocal.Start(ctx, filepath.Join(dir, "db"), nil)
	if errors.Is(err, pglocal.ErrNotInstalled) {
		t.Skip("initdb/pg_ctl not found: this test needs a PostgreSQL installation to run its own cluster")
	}
	if err != nil {
		t.Fatal(err)
	}
	var clusterMu sync.Mutex
	t.Cleanup(func() {
		clusterMu.Lock()
		defer clusterMu.Unlock()
		_ = cluster.Stop(context.Background())
	})
	dbURL := cluster.URL()

	llm := llmtest.New(t)
	llm.SetDefault(llmtest.Script{Chunks: []string{"I hear", " you."}, PromptTokens: 1, CompletionTokens: 1})
	srv := startBinary(t,
		"DATABASE_URL="+dbURL,
		"PERCOLATE_LLM_BASE_URL="+llm.URL(),
		"PERCOLATE_LLM_API_KEY=test-key",
		"PERCOLATE_MESSAGES_PER_DAY=BASIC=100000",
		"PERCOLATE_SESSION_TOKEN_LIMITS=BASIC=1000000",
		// warn: each 503 logs the database error behind it, each 500 its cause, with the request id.
		"PERCOLATE_LOG_LEVEL=warn",
	)
	srv.pgLogDir = filepath.Join(cluster.DataDir(), "log")
	// One account per worker: a user may send 20 messages a minute (chat.Limits.BurstPerMinute).
	// One more account sends the held reply (below).
	const workers = 4
	c := faultTypedClient(t, srv.base)
	type user struct {
		access, refresh string
		session         uuid.UUID
	}
	users := make([]user, workers+1)
	func() {
		defer func() { // a failed sign-in or new chat shows the server's log too
			if t.Failed() {
				t.Logf("%s", srv.report())
			}
		}()
		for i := range users {
			email := fmt.Sprintf("user%d@example.com", i)
			addUser(t, dbURL, email, "brew-a-fresh-pot")
			users[i].access, users[i].refresh = signIn(t, c, email, "brew-a-fresh-pot")
			users[i].session = startChat(t, c, users[i].access)
		}
	}()

	var (
		mu      sync.Mutex
		sendMu  sync.RWMutex // held by the test while the held send reaches the model
		records []loadRecord
		stop    = make(chan struct{})
		wg      sync.WaitGroup
		// The outage's moments, for the failure messages (zero until they happen; read under mu).
		t0                                = time.Now()
		stopAt, stopped, startAt, readyAt time.Time
	)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			u := users[w]
			var lastSend time.Time
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				var r loadRecord
				// Reads all the time, a send every 600 ms (within the sending limit).
				if time.Since(lastSend) < 600*time.Millisecond {
					res, a := exchange(http.MethodGet, "/api/profile", func(ctx context.Context) (*apiclient.GetProfileAnswer, error) {
						return c.GetProfileWithResponse(ctx, bearer(u.access))
					})
					r = loadRecord{kind: "read", answer: a}
					if res != nil && res.Headers503 != nil {
						r.retryAfter = res.Headers503.RetryAfter
					}
				} else {
					lastSend = time.Now()
					r = recordedSend(c, u.access, u.session, fmt.Sprintf("worker %d message %d", w, n), &sendMu)
				}
				mu.Lock()
				records = append(records, r)
				mu.Unlock()
				// Pace the load (a steady stream of requests, not a flood on two cores).
				time.Sleep(20 * time.Millisecond)
			}
		}(w)
	}
	mark := func(at *time.Time) {
		mu.Lock()
		*at = time.Now()
		mu.Unlock()
	}
	// timeline says when the outage's steps happened and what the clients got, for a failure message.
	timeline := func() string {
		mu.Lock()
		defer mu.Unlock()
		var b strings.Builder
		for _, e := range []struct {
			name string
			at   time.Time
		}{{"pg_ctl stop called", stopAt}, {"stop returned", stopped}, {"pg_ctl start called", startAt}, {"start returned ready", readyAt}} {
			if !e.at.IsZero() {
				fmt.Fprintf(&b, "%s at +%s; ", e.name, e.at.Sub(t0).Round(time.Millisecond))
			}
		}
		counts := map[string]int{}
		for _, r := range records {
			counts[fmt.Sprintf("%s %d", r.kind, r.code)]++
		}
		keys := make([]string, 0, len(counts))
		for k := range counts {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteString("answers:")
		for _, k := range keys {
			fmt.Fprintf(&b, " %s × %d;", k, counts[k])
		}
		b.WriteString("\nlast answers:\n")
		for _, r := range records[max(0, len(records)-8):] {
			fmt.Fprintf(&b, "  %s\n", r.describe(t0))
		}
		return b.String()
	}
	successes := func(after time.Time) (reads, sends int) {
		mu.Lock()
		defer mu.Unlock()
		for _, r := range records {
			if r.code == http.StatusOK && r.start.After(after) {
				if r.kind == "read" {
					reads++
				} else {
					sends++
				}
			}
		}
		return
	}
	// fatal stops the load and fails with the timeline and the server's and the database's logs.
	fatal := func(format string, args ...any) {
		t.Helper()
		select {
		case <-stop:
		default:
			close(stop)
		}
		wg.Wait()
		t.Fatalf("%s\n%s%s", fmt.Sprintf(format, args...), timeline(), srv.report())
	}
	waitFor := func(what string, limit time.Duration, after time.Time) {
		t.Helper()
		deadline := time.Now().Add(limit)
		for {
			r, s := successes(after)
			if r >= 20 && s >= 4 {
				return
			}
			if time.Now().After(deadline) {
				fatal("%s: not within %s (%d reads and %d sends answered 200 since +%s; want 20 and 4)", what, limit, r, s, after.Sub(t0).Round(time.Millisecond))
			}
			time.Sleep(20 * time.Millisecond)
		}
	}

	// Healthy load first.
	waitFor("sends and reads before the outage", 10*time.Second, t0)

	// One reply is held half-written across the stop, so that in every run a reply's store
	// meets the outage (otherwise only a send that happens to be in flight at the stop does).
	// The load's sends wait while the held send takes the model's paused script; its model
	// goes on once the database is down.
	resume, paused := make(chan struct{}), make(chan struct{}, 1)
	resumed := false
	defer func() {
		if !resumed {
			close(resume)
		}
	}()
	const heldText = "held across the restart"
	held := users[workers]
	type heldAnswer struct {
		res *apiclient.SendChatMessageAnswer
		answer
	}
	heldDone := make(chan heldAnswer, 1)
	sendMu.Lock()
	llm.Enqueue(llmtest.Script{Chunks: []string{"Held", " across the restart."}, PauseAfter: 1, Resume: resume, Paused: paused})
	go func() {
		res, a := faultSend(c, held.access, held.session, heldText)
		heldDone <- heldAnswer{res, a}
	}()
	select {
	case <-paused:
		sendMu.Unlock()
	case <-time.After(10 * time.Second):
		sendMu.Unlock()
		fatal("the held send did not reach the model within 10 s")
	}
	// Its message must be committed before the stop (the commit runs beside the model).
	committedBy := time.Now().Add(10 * time.Second)
	for {
		res, a := faultSession(c, held.access, held.session)
		if a.err == nil && a.code == http.StatusOK && res.JSON200 != nil && slices.ContainsFunc(res.JSON200.Messages, func(m api.Message) bool {
			return m.Role == api.ChatRoleUser && m.Content == heldText
		}) {
			break
		}
		if time.Now().After(committedBy) {
			fatal("the held send's message is not stored within 10 s: %s", a.describe(t0))
		}
		time.Sleep(20 * time.Millisecond)
	}

	// Stop the database (fast: sessions are ended, as a crash-safe shutdown does), keep it down, start it again.
	mark(&stopAt)
	clusterMu.Lock()
	err = cluster.Stop(ctx)
	clusterMu.Unlock()
	if err != nil {
		fatal("stop the database: %v", err)
	}
	mark(&stopped)
	close(resume) // the held reply is finished while the database is down
	resumed = true
	const down = 3 * time.Second
	time.Sleep(down) // the outage itself: the time the database stays down
	mark(&startAt)
	restarted, err := pglocal.Start(ctx, filepath.Join(dir, "db"), nil)
	if err != nil {
		fatal("start the database again: %v", err)
	}
	mark(&readyAt)
	clusterMu.Lock()
	cluster = restarted
	clusterMu.Unlock()
	if restarted.URL() != dbURL {
		fatal("the restarted cluster moved: %s, was %s", restarted.URL(), dbURL)
	}

	// Recovery without restarting the app: reads and sends succeed again.
	waitFor("reads and sends after the restart", 15*time.Second, readyAt)
	close(stop)
	wg.Wait()

	// A reply whose store met the outage is stored once the database is back if that is
	// within chat.StoreTimeout; after a longer outage the store gives up (not this test's case).
	outage := readyAt.Sub(stopAt)
	replyStored := outage < chat.StoreTimeout
	if !replyStored {
		t.Logf("the database was down %s, not under chat.StoreTimeout (%s): replies met by the outage are not expected to be stored", outage, chat.StoreTimeout)
	}

	// The held send is answered with its reply, stored once the database was back.
	select {
	case a := <-heldDone:
		const heldReply = "Held across the restart."
		switch {
		case a.err != nil || a.code != http.StatusOK || a.res.JSON200 == nil:
			t.Errorf("the held send: %s, want 200 with its reply\n%s%s", a.describe(t0), timeline(), srv.report(a.requestID))
		case replyStored && !a.res.JSON200.Success:
			t.Errorf("the held send: success = false, want true: %s\n%s%s", a.describe(t0), timeline(), srv.report(a.requestID))
		case replyStored && a.res.JSON200.AiResponse != heldReply:
			t.Errorf("the held send: aiResponse = %q, want %q: %s\n%s%s", a.res.JSON200.AiResponse, heldReply, a.describe(t0), timeline(), srv.report(a.requestID))
		}
	case <-time.After(time.Until(readyAt.Add(chat.StoreTimeout))):
		t.Fatalf("the held send is not answered %s after the database was ready (chat.StoreTimeout)\n%s%s", chat.StoreTimeout, timeline(), srv.report())
	}

	// No session is left "replying": a reply whose store met the outage is stored once the
	// database is back (chat tries it again within chat.StoreTimeout), so each session shows
	// no reply in progress and takes a message again. After a longer outage the store gives
	// up, and the session waits for its reply's deadline instead: not this test's case.
	if replyStored {
		for i, u := range users {
			deadline := readyAt.Add(chat.StoreTimeout)
			for {
				res, a := faultSession(c, u.access, u.session)
				if a.err != nil || a.code != http.StatusOK || res.JSON200 == nil {
					t.Fatalf("user %d's session after the restart: %s\n%s%s", i, a.describe(t0), timeline(), srv.report(a.requestID))
				}
				if p := res.JSON200.ReplyInProgress; p == nil || !*p {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("user %d's session still shows a reply in progress %s after the database was ready (chat.StoreTimeout %s): %s\n%s%s",
						i, time.Since(readyAt).Round(time.Millisecond), chat.StoreTimeout, a.describe(t0), timeline(), srv.report(a.requestID))
				}
				time.Sleep(50 * time.Millisecond)
			}
			res, a := faultSend(c, u.access, u.session, "after the restart")
			if a.err != nil || a.code != http.StatusOK || res.JSON200 == nil {
				t.Fatalf("user %d's session takes no message after the restart: %s\n%s%s", i, a.describe(t0), timeline(), srv.report(a.requestID))
			}
			if !res.JSON200.Success {
				t.Fatalf("user %d's message after the restart: success = false, want true: %s\n%s%s", i, a.describe(t0), timeline(), srv.report(a.requestID))
			}
		}
	}

	// Nobody was signed out: the same access and refresh tokens still work.
	for i, u := range users {
		me, a := exchange(http.MethodGet, "/api/auth/me", func(ctx context.Context) (*apiclient.GetCurrentUserAnswer, error) {
			return c.GetCurrentUserWithResponse(ctx, bearer(u.access))
		})
		if a.err != nil || a.code != http.StatusOK || me.JSON200 == nil {
			t.Fatalf("user %d's access token after the restart: %s\n%s%s", i, a.describe(t0), timeline(), srv.report(a.requestID))
		}
		if want := fmt.Sprintf("user%d@example.com", i); string(me.JSON200.Email) != want {
			t.Fatalf("user %d's access token after the restart: email = %q, want %q: %s", i, me.JSON200.Email, want, a.describe(t0))
		}
		refreshed, a := exchange(http.MethodPost, "/api/auth/refresh", func(ctx context.Context) (*apiclient.RefreshTokensAnswer, error) {
			return c.RefreshTokensWithResponse(ctx, api.RefreshRequest{RefreshToken: u.refresh})
		})
		if a.err != nil || a.code != http.StatusOK || refreshed.JSON200 == nil {
			t.Fatalf("user %d's refresh token after the restart: %s\n%s%s", i, a.describe(t0), timeline(), srv.report(a.requestID))
		}
	}

	// Every answer during the run: 200, or a quick 503 with Retry-After. Never 401, never another failure.
	sort.Slice(records, func(i, j int) bool { return records[i].start.Before(records[j].start) })
	var (
		first503, firstOKAfter time.Time
		n503, nOK              int
		slowest503, slowest    time.Duration
		committed              []string
		bad                    []string // each wrong answer, described
		badIDs                 []string
	)
	wrong := func(r loadRecord, why string) {
		bad = append(bad, fmt.Sprintf("%s %s: %s", r.kind, why, r.describe(t0)))
		badIDs = append(badIDs, r.requestID)
	}
	for _, r := range records {
		if r.took() > slowest {
			slowest = r.took()
		}
		switch {
		case r.err != nil:
			wrong(r, "no typed answer")
		case r.code == http.StatusOK:
			nOK++
			if r.kind == "send" {
				committed = append(committed, r.text)
				// A send answered 200 stored its message; success says its reply was stored too.
				if r.reply == nil {
					wrong(r, "send answered 200 without a SendMessageResponse")
				} else if replyStored && !r.reply.Success {
					wrong(r, "send whose reply was not stored (success = false)")
				}
			}
			// The first success once the database is surely down (a request can still succeed
			// while pg_ctl stop is ending the sessions).
			if firstOKAfter.IsZero() && r.start.After(stopped) {
				firstOKAfter = r.end
			}
		case r.code == http.StatusServiceUnavailable:
			n503++
			if first503.IsZero() {
				first503 = r.end
			}
			if r.retryAfter == nil || *r.retryAfter < 1 {
				wrong(r, "503 without a Retry-After of 1 s or more")
			}
			if r.took() > slowest503 {
				slowest503 = r.took()
			}
		default:
			wrong(r, "neither 200 nor 503")
		}
	}
	if len(bad) > 0 {
		if len(bad) > 20 {
			bad, badIDs = append(bad[:20:20], fmt.Sprintf("[and %d more]", len(bad)-20)), badIDs[:20]
		}
		t.Errorf("%d wrong answers:\n  %s\n%s%s", len(bad), strings.Join(bad, "\n  "), timeline(), srv.report(badIDs...))
	}
	if n503 == 0 {
		t.Fatalf("no request saw the outage\n%s%s", timeline(), srv.report())
	}
	if slowest503 > 2*time.Second {
		t.Errorf("the slowest 503 took %s, want well under 2 s\n%s%s", slowest503, timeline(), srv.report())
	}
	if firstOKAfter.IsZero() {
		t.Fatalf("no success after the database stopped\n%s%s", timeline(), srv.report())
	}

	// Nothing committed is lost: every send answered 200 is stored.
	st, err := store.Open(ctx, dbURL)
	if err != nil {
		t.Fatalf("open the restarted database: %v\n%s", err, srv.report())
	}
	defer st.Close()
	stored := map[string]bool{}
	rows, err := st.Pool().Query(ctx, "SELECT content FROM messages WHERE role = 'user'")
	if err != nil {
		t.Fatalf("read the stored messages: %v\n%s", err, srv.report())
	}
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			t.Fatalf("read the stored messages: %v\n%s", err, srv.report())
		}
		stored[c] = true
	}
	if rows.Err() != nil {
		t.Fatalf("read the stored messages: %v\n%s", rows.Err(), srv.report())
	}
	lost := 0
	for _, r := range records {
		if r.kind == "send" && r.code == http.StatusOK && !stored[r.text] {
			lost++
			t.Errorf("send %q answered 200 but is not stored: %s\n%s", r.text, r.describe(t0), srv.report(r.requestID))
		}
	}

	t.Logf("database down (stop called → start returned ready): %s (stop took %s, kept down %s, start took %s)",
		readyAt.Sub(stopAt).Round(time.Millisecond), stopped.Sub(stopAt).Round(time.Millisecond), down, readyAt.Sub(startAt).Round(time.Millisecond))
	t.Logf("outage seen by clients (first 503 → first success once the database was down): %s; first 503 at +%s after stop was called, first success %s after ready",
		firstOKAfter.Sub(first503).Round(time.Millisecond), first503.Sub(stopAt).Round(time.Millisecond), firstOKAfter.Sub(readyAt).Round(time.Millisecond))
	retries := strings.Count(srv.logs.String(), "store reply: database unavailable, trying again")
	if retries == 0 {
		t.Errorf("the held reply's store never met the outage (no retry in the server's log)\n%s", srv.report())
	}
	t.Logf("answers: %d (%d × 200, %d × 503); slowest 503 %s, slowest answer %s; sends answered 200: %d, lost: %d; reply stores tried again after meeting the outage: %d",
		len(records), nOK, n503, slowest503.Round(time.Millisecond), slowest.Round(time.Millisecond), len(committed), lost, retries)
}

// TestTryStartReportsATakenPort holds the port the server is given: the server exits at once,
// with the message startBinary looks for before it tries another port.
func TestTryStartReportsATakenPort(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := buildBinary(t)
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	s, err := tryStart(t, bin, taken.Addr().String(), []string{"DATABASE_URL=" + pgtest.EmptyURL(t), "PERCOLATE_DATA_DIR=" + t.TempDir()})
	if err == nil {
		t.Fatal("the server started on a port another process holds")
	}
	if !strings.Contains(s.logs.String(), "address already in use") {
		t.Fatalf("the server's exit does not say the address is in use:\n%s", s.logs.String())
	}
}
