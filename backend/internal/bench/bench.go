// Package bench is the load harness behind `make bench`: it runs Percolate on a fresh database,
// seeds users, sessions and messages, drives it from loopback for a fixed time per phase and
// writes what it measured, each figure next to a reference measured in the same run (a trivial
// net/http JSON handler for reads, raw argon2id for logins).
package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"golang.org/x/crypto/argon2"

	"github.com/percolate/percolate/backend/internal/auth"
	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/llmtest"
)

// Server is a running Percolate.
type Server struct {
	// BaseURL is http://host:port without a trailing slash.
	BaseURL string
	// PID is the process whose RSS is reported (the harness's own when the server runs in it).
	PID int
	// Stop ends the server.
	Stop func()
}

// Options says what to run and for how long.
type Options struct {
	// DatabaseURL is the empty database the server runs on (it migrates it first).
	DatabaseURL string
	// Start starts the server with env (added to its environment) and waits until it is ready.
	// The server keeps its files in env's PERCOLATE_DATA_DIR when it names one, and in a data
	// directory of the run's otherwise.
	Start func(ctx context.Context, env map[string]string) (*Server, error)
	// Phase is how long each measured phase runs.
	Phase time.Duration
	// Conns is the number of connections for reads (16).
	Conns int
	// BigSessions is the session count of the large user in the growth phase (10,000).
	BigSessions int
	// TTFTRequests is the number of streamed messages per history length (500; 0 skips it).
	TTFTRequests int
	// ReadsOnly stops after the reads at 16 connections and writes nothing (for A/B runs).
	ReadsOnly bool
	// TTFTOnly measures time to first token alone and writes nothing (for A/B runs).
	TTFTOnly bool
	// OutDir receives results.md and results.json.
	OutDir string
	// Note says how the server was run, for the report.
	Note string
}

// Load is what one phase measured.
type Load struct {
	Name     string  `json:"name"`
	Conns    int     `json:"conns"`
	Requests int     `json:"requests"`
	Errors   int     `json:"errors"`
	RPS      float64 `json:"reqPerSec"`
	P50ms    float64 `json:"p50Ms"`
	P99ms    float64 `json:"p99Ms"`
	Bytes    int     `json:"bytesPerResponse"`
	RSSMiB   float64 `json:"serverRssMiB,omitempty"`
	Ratio    float64 `json:"ratioToReference,omitempty"`
	FirstErr string  `json:"firstError,omitempty"`
	// The server's own cost per request over the phase: CPU time (user + system, from
	// /proc), and, when it serves pprof (PERCOLATE_PPROF_ADDR), heap allocations and GC
	// cycles (the runtime's counters, read before and after the phase).
	CPUus        float64 `json:"serverCpuUsPerRequest,omitempty"`
	AllocsPerReq float64 `json:"serverAllocsPerRequest,omitempty"`
	KBPerReq     float64 `json:"serverAllocKiBPerRequest,omitempty"`
	GCsPer1k     float64 `json:"serverGCsPer1000Requests,omitempty"`
}

// Target is one of the targets and whether this run met it.
type Target struct {
	What  string `json:"what"`
	Want  string `json:"want"`
	Got   string `json:"got"`
	Met   bool   `json:"met"`
	Notes string `json:"notes,omitempty"`
}

// Results is the whole report.
type Results struct {
	When        string     `json:"when"`
	Machine     Machine    `json:"machine"`
	Server      string     `json:"server"`
	PhaseSec    float64    `json:"phaseSeconds"`
	IdleRSSMiB  float64    `json:"idleRssMiB"`
	Reads       []Load     `json:"reads"`
	Growth      []Load     `json:"growth"`
	GrowthRatio GrowthOut  `json:"growthRatios"`
	Login       []Load     `json:"login"`
	Argon2      []Load     `json:"rawArgon2"`
	TTFT        []TTFT     `json:"timeToFirstToken"`
	Instances   *Instances `json:"twoInstances"`
	Targets     []Target   `json:"targets"`
	NotMeasured []string   `json:"notMeasured"`
}

// GrowthOut compares the large user with the small one.
type GrowthOut struct {
	BigSessions    int     `json:"bigSessions"`
	SmallSessions  int     `json:"smallSessions"`
	ListP50Ratio   float64 `json:"listP50Ratio"`
	SearchP50Ratio float64 `json:"searchP50Ratio"`
	FirstPageBytes int     `json:"firstPageBytes"`
}

// Machine is where the run happened.
type Machine struct {
	NProc int    `json:"nproc"`
	CPU   string `json:"cpu"`
	Go    string `json:"go"`
	OS    string `json:"os"`
}

const password = "bench-password-2026!"

// Run runs every phase and writes the results; it returns them too.
func Run(ctx context.Context, o Options) (*Results, error) {
	if o.Conns == 0 {
		o.Conns = 16
	}
	start := o.Start
	o.Start = func(ctx context.Context, env map[string]string) (*Server, error) {
		s, err := start(ctx, env)
		if err == nil {
			s.Stop = sync.OnceFunc(s.Stop) // a server stopped early is stopped again at the end
		}
		return s, err
	}
	res := &Results{When: time.Now().UTC().Format(time.RFC3339), Machine: machine(), Server: o.Note, PhaseSec: o.Phase.Seconds()}
	env := map[string]string{
		"DATABASE_URL":                   o.DatabaseURL,
		"PERCOLATE_LOG_LEVEL":            "error",
		"PERCOLATE_AUTH_LIMITS":          "login_per_account=100000000,login_per_account_total=100000000,login_per_address=100000000,bad_tokens_per_address=100000000",
		"PERCOLATE_MESSAGES_PER_DAY":     "PREMIUM=1000000",
		"PERCOLATE_SESSION_TOKEN_LIMITS": "PREMIUM=100000000",
	}
	offline := maps.Clone(env)
	srv, err := o.Start(ctx, env)
	if err != nil {
		return nil, fmt.Errorf("start: %w", err)
	}
	defer func() { srv.Stop() }()
	time.Sleep(200 * time.Millisecond)
	res.IdleRSSMiB = rssMiB(srv.PID)

	db, err := pgx.Connect(ctx, o.DatabaseURL)
	if err != nil {
		return nil, err
	}
	defer db.Close(context.Background())
	hash, err := auth.NewHasher(auth.DefaultArgon2, 1).Hash(ctx, password)
	if err != nil {
		return nil, err
	}
	_, detailID, err := seedUser(ctx, db, hash, "reader@bench.test", 50, 100)
	if err != nil {
		return nil, fmt.Errorf("seed: %w", err)
	}
	small := 10
	if _, _, err := seedUser(ctx, db, hash, "small@bench.test", small, 0); err != nil {
		return nil, fmt.Errorf("seed: %w", err)
	}
	if _, _, err := seedUser(ctx, db, hash, "big@bench.test", o.BigSessions, 0); err != nil {
		return nil, fmt.Errorf("seed: %w", err)
	}
	if _, err := db.Exec(ctx, "ANALYZE"); err != nil {
		return nil, err
	}

	client := &http.Client{Transport: &http.Transport{MaxIdleConns: 64, MaxIdleConnsPerHost: 64}, Timeout: 30 * time.Second}
	tok := map[string]string{}
	for _, who := range []string{"reader", "small", "big"} {
		t, err := login(ctx, client, srv.BaseURL, who+"@bench.test")
		if err != nil {
			return nil, fmt.Errorf("login %s: %w", who, err)
		}
		tok[who] = t
	}

	if !o.TTFTOnly {
		// The ceiling: a plain net/http JSON handler in this process.
		ceil, err := ceiling()
		if err != nil {
			return nil, err
		}
		defer ceil.Close()
		ceilURL := "http://" + ceil.Addr().String()

		get := func(url, token string) func(context.Context) (int, error) {
			return func(ctx context.Context) (int, error) { return do(ctx, client, "GET", url, token, nil) }
		}
		ref := phase(ctx, "ceiling (net/http JSON)", o.Conns, o.Phase, get(ceilURL+"/me", ""), 0)
		res.Reads = append(res.Reads, ref)
		for _, r := range []struct{ name, path string }{
			{"GET /api/auth/me", "/api/auth/me"},
			{"GET /api/chat/sessions (50)", "/api/chat/sessions"},
			{"GET /api/chat/sessions/{id} (100 messages)", "/api/chat/sessions/" + detailID},
		} {
			l := phase(ctx, r.name, o.Conns, o.Phase, get(srv.BaseURL+r.path, tok["reader"]), srv.PID)
			if ref.RPS > 0 {
				l.Ratio = l.RPS / ref.RPS
			}
			res.Reads = append(res.Reads, l)
		}
		if o.ReadsOnly {
			return res, nil
		}

		// Growth: one connection, so latency is the query's, not the queue's.
		g := GrowthOut{BigSessions: o.BigSessions, SmallSessions: small}
		var list, search [2]Load
		for i, who := range []string{"small", "big"} {
			n := map[string]int{"small": small, "big": o.BigSessions}[who]
			list[i] = phase(ctx, fmt.Sprintf("list, %d sessions", n), 1, o.Phase, get(srv.BaseURL+"/api/chat/sessions", tok[who]), srv.PID)
			search[i] = phase(ctx, fmt.Sprintf("search, %d sessions", n), 1, o.Phase, get(srv.BaseURL+"/api/profile/sessions?query=rain", tok[who]), srv.PID)
		}
		res.Growth = []Load{list[0], list[1], search[0], search[1]}
		if list[0].P50ms > 0 {
			g.ListP50Ratio = list[1].P50ms / list[0].P50ms
		}
		if search[0].P50ms > 0 {
			g.SearchP50Ratio = search[1].P50ms / search[0].P50ms
		}
		g.FirstPageBytes = list[1].Bytes
		res.GrowthRatio = g

		// Logins against raw argon2id with the app's parameters, in this process.
		body, _ := json.Marshal(map[string]string{"email": "reader@bench.test", "password": password})
		p := auth.DefaultArgon2
		salt := make([]byte, p.SaltLen)
		for _, par := range []int{1, 2, 8} {
			l := phase(ctx, fmt.Sprintf("POST /api/auth/login, %d parallel", par), par, o.Phase, func(ctx context.Context) (int, error) {
				return do(ctx, client, "POST", srv.BaseURL+"/api/auth/login", "", body)
			}, srv.PID)
			a := phase(ctx, fmt.Sprintf("raw argon2id, %d parallel", par), par, o.Phase, func(context.Context) (int, error) {
				argon2.IDKey([]byte(password), salt, p.Time, p.MemoryKiB, p.Threads, p.KeyLen)
				return 0, nil
			}, 0)
			if a.RPS > 0 {
				l.Ratio = l.RPS / a.RPS
			}
			res.Login = append(res.Login, l)
			res.Argon2 = append(res.Argon2, a)
		}
	}

	// Time to first token: the same database, served again with a model on the OpenAI wire.
	if o.TTFTRequests > 0 {
		m := llmtest.Start() // its answers stream at once; it notes when the first one was flushed
		defer m.Close()
		// Summaries are JSON, as a model asked for them gives: a long session's prompt then
		// carries the summary of its earlier part, not those turns.
		m.Route(companion.SummaryInstructionPrefix, llmtest.Script{Chunks: []string{`{"summary": "You talked about a busy week and winding down.", "emotions": ["tired"]}`}})
		m.Route(companion.MemoryInstructionPrefix, llmtest.Script{Chunks: []string{`{"memories": []}`}})
		srv.Stop()
		env["PERCOLATE_LLM_BASE_URL"] = m.URL()
		env["PERCOLATE_LLM_API_KEY"] = "bench"
		if srv, err = o.Start(ctx, env); err != nil {
			return nil, fmt.Errorf("start with a model: %w", err)
		}
		// chat_send allows a user 20 messages a minute (not configurable), so each user sends
		// at most perUser, in a session of their own with the history. A new address is a new
		// issuer (PERCOLATE_PUBLIC_URL defaults to it): everyone signs in on this server.
		const perUser = 19
		for _, history := range []int{10, 2000} {
			var targets []streamTarget
			for i := 0; i*perUser < o.TTFTRequests; i++ {
				email := fmt.Sprintf("stream-%d-%d@bench.test", history, i)
				uid, _, err := seedUser(ctx, db, hash, email, 0, 0)
				if err != nil {
					return nil, fmt.Errorf("seed: %w", err)
				}
				sid, err := seedSession(ctx, db, uid, history)
				if err != nil {
					return nil, fmt.Errorf("seed: %w", err)
				}
				t, err := login(ctx, client, srv.BaseURL, email)
				if err != nil {
					return nil, fmt.Errorf("login: %w", err)
				}
				targets = append(targets, streamTarget{token: t, session: sid, n: min(perUser, o.TTFTRequests-i*perUser)})
			}
			if _, err := db.Exec(ctx, "ANALYZE"); err != nil {
				return nil, err
			}
			res.TTFT = append(res.TTFT, ttft(ctx, client, srv.BaseURL, targets, history, m))
		}
	}

	if o.TTFTOnly {
		return res, nil
	}

	// Two instances on the same database, with the offline engine, in place of the one: any
	// instance left running would take their jobs too.
	srv.Stop()
	if res.Instances, err = twoInstances(ctx, o, offline, db, hash, client); err != nil {
		return nil, fmt.Errorf("two instances: %w", err)
	}

	res.Targets = append(targets(res), instanceTargets(res.Instances)...)
	if err := write(o.OutDir, res); err != nil {
		return nil, err
	}
	return res, nil
}

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

// do sends one request and answers the size of a 200 response's body.
func do(ctx context.Context, c *http.Client, method, url, token string, body []byte) (int, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return 0, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, err
	}
	n, err := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if err != nil {
		return 0, err
	}
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("status %d", resp.StatusCode)
	}
	return int(n), nil
}

// phase runs fn from conns goroutines for d and samples pid's RSS (its peak is reported). A
// request in flight at the end is finished and counted (and every goroutine makes at least one),
// so a phase shorter than one request still measures something.
func phase(parent context.Context, name string, conns int, d time.Duration, fn func(context.Context) (int, error), pid int) Load {
	ctx, cancel := context.WithTimeout(parent, d)
	defer cancel()
	var peak atomic.Uint64
	done := make(chan struct{})
	if pid != 0 {
		go func() {
			tk := time.NewTicker(50 * time.Millisecond)
			defer tk.Stop()
			for {
				if r := uint64(rssMiB(pid) * 1024); r > peak.Load() {
					peak.Store(r)
				}
				select {
				case <-done:
					return
				case <-tk.C:
				}
			}
		}()
	}
	var mu sync.Mutex
	var lat []time.Duration
	var errs, size int
	var firstErr string
	cpu0, mem0 := cpuTicks(pid), memCounters(pid)
	start := time.Now()
	var wg sync.WaitGroup
	for range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []time.Duration
			var e, n int
			var fe string
			for first := true; first || ctx.Err() == nil; first = false {
				t := time.Now()
				b, err := fn(parent)
				if err != nil {
					e++
					if fe == "" {
						fe = err.Error()
					}
					continue
				}
				mine = append(mine, time.Since(t))
				n = b
			}
			mu.Lock()
			lat = append(lat, mine...)
			errs += e
			if n > 0 {
				size = n
			}
			if firstErr == "" {
				firstErr = fe
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	close(done)
	slices.Sort(lat)
	l := Load{Name: name, Conns: conns, Requests: len(lat), Errors: errs, Bytes: size, FirstErr: firstErr,
		RPS: float64(len(lat)) / elapsed.Seconds(), P50ms: ms(pct(lat, 0.50)), P99ms: ms(pct(lat, 0.99))}
	if pid != 0 {
		l.RSSMiB = float64(peak.Load()) / 1024
		if n := float64(len(lat)); n > 0 {
			l.CPUus = float64(cpuTicks(pid)-cpu0) * 1e6 / clockTicks / n
			if mem1 := memCounters(pid); mem0 != nil && mem1 != nil {
				l.AllocsPerReq = float64(mem1["Mallocs"]-mem0["Mallocs"]) / n
				l.KBPerReq = float64(mem1["TotalAlloc"]-mem0["TotalAlloc"]) / 1024 / n
				l.GCsPer1k = float64(mem1["NumGC"]-mem0["NumGC"]) * 1000 / n
			}
		}
	}
	return l
}

// clockTicks is the kernel's USER_HZ, the unit of /proc/PID/stat's CPU times (100 on Linux).
const clockTicks = 100

// cpuTicks is the CPU time (user + system) process pid has used, in clock ticks.
func cpuTicks(pid int) int64 {
	if pid == 0 {
		return 0
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// The fields after the command's closing parenthesis: state is field 3, utime 14, stime 15.
	_, rest, ok := strings.Cut(string(b), ") ")
	f := strings.Fields(rest)
	if !ok || len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	s, _ := strconv.ParseInt(f[12], 10, 64)
	return u + s
}

// memCounters reads the runtime's allocation counters (Mallocs, TotalAlloc, NumGC) from the
// server's heap profile, when PERCOLATE_PPROF_ADDR tells the server to serve one; nil
// otherwise.
func memCounters(pid int) map[string]uint64 {
	addr := os.Getenv("PERCOLATE_PPROF_ADDR")
	if pid == 0 || addr == "" {
		return nil
	}
	// #nosec G704 -- the operator's own pprof address, which the server accepts only on loopback
	resp, err := http.Get("http://" + addr + "/debug/pprof/heap?debug=1")
	if err != nil {
		return nil
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil
	}
	out := map[string]uint64{}
	for _, line := range strings.Split(string(body), "\n") {
		k, v, ok := strings.Cut(strings.TrimPrefix(line, "# "), " = ")
		if ok && (k == "Mallocs" || k == "TotalAlloc" || k == "NumGC") {
			out[k], _ = strconv.ParseUint(strings.TrimSpace(v), 10, 64)
		}
	}
	if len(out) != 3 {
		return nil
	}
	return out
}

func pct(s []time.Duration, p float64) time.Duration {
	if len(s) == 0 {
		return 0
	}
	return s[min(len(s)-1, int(float64(len(s))*p))]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// ceiling serves a trivial JSON answer, the size of /me's, with plain net/http.
func ceiling() (net.Listener, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	me := map[string]any{"id": "6d1f1f0e-58a4-4b5c-9d6c-0a9b1f0a2c11", "email": "reader@bench.test", "name": "Bench", "role": "PREMIUM", "isStudent": false}
	go func() {
		h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(me)
		})
		_ = (&http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}).Serve(ln)
	}()
	return ln, nil
}

// rssMiB reads VmRSS of pid from /proc (0 when it cannot).
func rssMiB(pid int) float64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return float64(kb) / 1024
		}
	}
	return 0
}

func machine() Machine {
	m := Machine{NProc: runtime.NumCPU(), Go: runtime.Version(), OS: runtime.GOOS + "/" + runtime.GOARCH}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "model name"); ok {
				m.CPU = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(v), ":"))
				break
			}
		}
	}
	return m
}

func targets(r *Results) []Target {
	var t []Target
	ratio := func(name string, want float64) {
		for _, l := range r.Reads {
			if strings.HasPrefix(l.Name, name) {
				t = append(t, Target{What: "reads: " + l.Name + " req/s vs the ceiling", Want: fmt.Sprintf("≥ %.2f", want),
					Got: fmt.Sprintf("%.3f", l.Ratio), Met: l.Ratio >= want && l.Errors == 0})
			}
		}
	}
	ratio("GET /api/auth/me", 0.25)
	ratio("GET /api/chat/sessions (50)", 0.12)
	ratio("GET /api/chat/sessions/{id}", 0.12)
	g := r.GrowthRatio
	t = append(t,
		Target{What: fmt.Sprintf("growth: list p50, %d sessions vs %d", g.BigSessions, g.SmallSessions), Want: "≤ ×2", Got: fmt.Sprintf("×%.2f", g.ListP50Ratio), Met: g.ListP50Ratio <= 2},
		Target{What: fmt.Sprintf("growth: search p50, %d sessions vs %d", g.BigSessions, g.SmallSessions), Want: "≤ ×2", Got: fmt.Sprintf("×%.2f", g.SearchP50Ratio), Met: g.SearchP50Ratio <= 2},
		Target{What: "growth: first page of the list", Want: "< 100 KB", Got: fmt.Sprintf("%d bytes", g.FirstPageBytes), Met: g.FirstPageBytes < 100_000},
		Target{What: "memory: idle RSS", Want: "≤ 30 MiB", Got: fmt.Sprintf("%.1f MiB", r.IdleRSSMiB), Met: r.IdleRSSMiB > 0 && r.IdleRSSMiB <= 30},
	)
	if len(r.TTFT) == 2 {
		a, b := r.TTFT[0], r.TTFT[1]
		ok := a.Errors == 0 && b.Errors == 0
		t = append(t,
			Target{What: fmt.Sprintf("time to first token added by the server, p50 (%d requests, %d messages of history)", a.Requests, a.History), Want: "≤ 1 ms", Got: fmt.Sprintf("%.2f ms", a.AddedP50ms), Met: ok && a.AddedP50ms <= 1},
			Target{What: "time to first token added by the server, p99", Want: "≤ 5 ms", Got: fmt.Sprintf("%.2f ms", a.AddedP99ms), Met: ok && a.AddedP99ms <= 5},
			Target{What: fmt.Sprintf("time to first token added, p50 at %d messages of history vs %d", b.History, a.History), Want: "≤ ×1.2", Got: fmt.Sprintf("×%.2f", b.AddedP50ms/a.AddedP50ms), Met: ok && b.AddedP50ms <= 1.2*a.AddedP50ms},
		)
	}
	for _, l := range r.Login {
		if l.Conns == 8 {
			t = append(t, Target{What: "memory: peak RSS while logging in at 8 parallel", Want: "≤ 128 MiB", Got: fmt.Sprintf("%.1f MiB", l.RSSMiB), Met: l.RSSMiB > 0 && l.RSSMiB <= 128})
		}
	}
	return t
}

// Rewrite renders dir/results.md again from dir/results.json.
func Rewrite(dir string) error {
	b, err := os.ReadFile(filepath.Join(dir, "results.json")) // #nosec G304 -- the results directory the operator named
	if err != nil {
		return err
	}
	var r Results
	if err := json.Unmarshal(b, &r); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "results.md"), []byte(Markdown(&r)+findings(dir)), 0o644) // #nosec G306 -- committed, public results
}

// findings is dir/findings.md, written by people: what was found behind each target, met or
// missed. results.md ends with it.
func findings(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, "findings.md")) // #nosec G304 -- the results directory the operator named
	if err != nil {
		return ""
	}
	return "\n" + string(b)
}

func write(dir string, r *Results) error {
	if err := os.MkdirAll(dir, 0o755); err != nil { // #nosec G301 -- a directory of the repository
		return err
	}
	j, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "results.json"), append(j, '\n'), 0o644); err != nil { // #nosec G306 -- committed, public results
		return err
	}
	return os.WriteFile(filepath.Join(dir, "results.md"), []byte(Markdown(r)+findings(dir)), 0o644) // #nosec G306 -- committed, public results
}

// Markdown renders the results for people.
func Markdown(r *Results) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# `make bench` results\n\nWritten by `make bench` (backend/cmd/percolate-bench); do not edit by hand.\n\n")
	fmt.Fprintf(&b, "- When: %s\n- Machine: %d CPUs, %s, %s, %s\n- Server: %s\n- Each phase: %.1f s, loopback only\n- Idle server RSS: %.1f MiB\n\n"+
		"Server RSS is the peak VmRSS (/proc/PID/status) sampled every 50 ms during a phase. Bytes are a 200 answer's body as the client reads it: Go's client asks for gzip and decompresses, so they are the uncompressed size. Ratios are to the reference measured in the same run.\n\n",
		r.When, r.Machine.NProc, r.Machine.CPU, r.Machine.OS, r.Machine.Go, r.Server, r.PhaseSec, r.IdleRSSMiB)
	table := func(title, ratioName string, ls []Load) {
		fmt.Fprintf(&b, "## %s\n\n| phase | conns | requests | errors | req/s | p50 ms | p99 ms | bytes | server RSS MiB | %s |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n", title, ratioName)
		for _, l := range ls {
			ratio := ""
			if l.Ratio > 0 {
				ratio = fmt.Sprintf("%.3f", l.Ratio)
			}
			rss := ""
			if l.RSSMiB > 0 {
				rss = fmt.Sprintf("%.1f", l.RSSMiB)
			}
			fmt.Fprintf(&b, "| %s | %d | %d | %d | %.0f | %.2f | %.2f | %d | %s | %s |\n", l.Name, l.Conns, l.Requests, l.Errors, l.RPS, l.P50ms, l.P99ms, l.Bytes, rss, ratio)
		}
		b.WriteString("\n")
	}
	table("Reads", "ratio to ceiling", r.Reads)
	if len(r.Reads) > 1 && r.Reads[1].CPUus > 0 {
		b.WriteString("Server cost per request (CPU from /proc; allocations and GC cycles only when the server serves pprof):\n\n| phase | CPU µs/req | allocs/req | KiB/req | GCs per 1000 req |\n|---|---:|---:|---:|---:|\n")
		for _, l := range r.Reads[1:] {
			fmt.Fprintf(&b, "| %s | %.0f | %.0f | %.1f | %.2f |\n", l.Name, l.CPUus, l.AllocsPerReq, l.KBPerReq, l.GCsPer1k)
		}
		b.WriteString("\n")
	}
	table("Growth (1 connection)", "", r.Growth)
	g := r.GrowthRatio
	fmt.Fprintf(&b, "List p50 ×%.2f, search p50 ×%.2f for %d sessions against %d; first page %d bytes.\n\n", g.ListP50Ratio, g.SearchP50Ratio, g.BigSessions, g.SmallSessions, g.FirstPageBytes)
	table("Login", "ratio to raw argon2id", r.Login)
	table("Raw argon2id (the app's parameters, in the harness process)", "", r.Argon2)
	if len(r.TTFT) > 0 {
		b.WriteString("## Time to first token added by the server (one request at a time, a model on the OpenAI wire that answers at once)\n\n")
		fmt.Fprintf(&b, "Added = (first delta at the client − request sent) − (model's first chunk flushed − request reached the model); upstream = request reached the model − request sent; downstream = first delta at the client − model's first chunk flushed. Each user opens a session of their own (reads it, untimed, as the web app does) and sends 19 messages to it; a session of more than %d messages is seeded with the running summary a session of that length has (all but its newest %d messages), and the model answers summaries with JSON, so that its summary job runs as it would in use.\n\n", summarisedAfter*2, summarisedAfter)
		b.WriteString("| history | requests | errors | added p50 ms | added p99 ms | upstream p50 ms | upstream p99 ms | downstream p50 ms | downstream p99 ms |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
		for _, x := range r.TTFT {
			fmt.Fprintf(&b, "| %d | %d | %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n", x.History, x.Requests, x.Errors, x.AddedP50ms, x.AddedP99ms, x.UpP50ms, x.UpP99ms, x.DownP50ms, x.DownP99ms)
			if x.FirstErr != "" {
				fmt.Fprintf(&b, "\nFirst error at %d messages of history: %s\n", x.History, x.FirstErr)
			}
		}
		b.WriteString("\n")
	}
	if x := r.Instances; x != nil {
		b.WriteString("## Two instances, one database\n\n")
		b.WriteString("Two instances of the server, A and B, started in place of the one above, each with a data directory of its own, on the same database and public URL, with the offline engine. ")
		b.WriteString("A login begun on A is used on B; sessions are begun on one, written to on the other and ended on the first; ")
		b.WriteString("wrong passwords go to A alone for one account and alternate between A and B for another; a login B has just checked is closed on A, and B is asked until it answers 401. ")
		b.WriteString("A job run twice would show as a second job, an attempt above 1 or a second recorded runner.\n\n")
		fmt.Fprintf(&b, "- Logout on A until B refuses: access token %.1f ms, refresh token %.1f ms (-1: still accepted after %.0f ms)\n", x.LogoutAccessMs, x.LogoutRefreshMs, x.WaitMs)
		fmt.Fprintf(&b, "- Login limit %d: 429 at wrong password %d on A alone, %d alternating A and B\n", x.LoginLimit, x.LimitedAtOne, x.LimitedAtBoth)
		for _, j := range []Jobs{x.Summaries, x.Memories} {
			fmt.Fprintf(&b, "- %s, %d sessions ended: %d jobs, %d completed, %d attempts, %d recorded runs, by %d distinct instances\n", j.Kind, x.Ended, j.Jobs, j.Completed, j.Runs, j.RunBy, j.Clients)
		}
		fmt.Fprintf(&b, "- Summaries written: %d of %d\n", x.Written, x.Ended)
		if x.FirstErr != "" {
			fmt.Fprintf(&b, "- First error: %s\n", x.FirstErr)
		}
		b.WriteString("\n")
	}
	b.WriteString("## Targets of issue 14\n\n| target | want | got | met |\n|---|---|---|---|\n")
	for _, t := range r.Targets {
		met := "no"
		if t.Met {
			met = "yes"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", t.What, t.Want, t.Got, met)
	}
	if len(r.NotMeasured) > 0 {
		b.WriteString("\n## Not measured yet\n\n")
		for _, n := range r.NotMeasured {
			fmt.Fprintf(&b, "- %s\n", n)
		}
	}
	return b.String()
}
