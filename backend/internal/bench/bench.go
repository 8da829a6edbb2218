// Package bench is the load harness behind `make bench`: it runs Percolate on a fresh database,
// seeds users, sessions and messages, drives it from loopback for a fixed time per phase and
// writes what it measured, each figure next to a reference measured in the same run (a trivial
// net/http JSON handler for reads, raw argon2id for logins).
//
// Run (this file) runs the phases in order; seed.go writes the data they read, measure.go
// drives a phase and reads the server's CPU and memory, ttft.go times first tokens,
// instances.go runs two instances on one database, and report.go checks the targets and
// writes results.json and results.md.
package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"golang.org/x/crypto/argon2"

	"github.com/percolate/percolate/backend/internal/auth"
	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/llmtest"
	"github.com/percolate/percolate/backend/internal/reminders"
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
	// CheckinsOnly stops after the ceiling and the check-ins posted at 16 connections and
	// writes nothing (for A/B runs).
	CheckinsOnly bool
	// ReminderUsers is the number of users with reminders the due-reminder claim runs among
	// (100,000).
	ReminderUsers int
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
	Checkins    []Load     `json:"checkins"`
	DueClaim    *Due       `json:"dueReminders"`
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
	if o.ReminderUsers == 0 {
		o.ReminderUsers = 100_000
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
		reads := []struct{ name, path string }{
			{"GET /api/auth/me", "/api/auth/me"},
			{"GET /api/chat/sessions (50)", "/api/chat/sessions"},
			{"GET /api/chat/sessions/{id} (100 messages)", "/api/chat/sessions/" + detailID},
		}
		if o.CheckinsOnly {
			reads = nil
		}
		for _, r := range reads {
			l := phase(ctx, r.name, o.Conns, o.Phase, get(srv.BaseURL+r.path, tok["reader"]), srv.PID)
			if ref.RPS > 0 {
				l.Ratio = l.RPS / ref.RPS
			}
			res.Reads = append(res.Reads, l)
		}
		if o.ReadsOnly {
			return res, nil
		}

		// Check-ins: a write at the same connections, against the same ceiling.
		ci, err := postCheckins(ctx, db, client, srv.BaseURL, o.Conns, o.Phase, ref.RPS, srv.PID)
		if err != nil {
			return nil, fmt.Errorf("check-ins: %w", err)
		}
		if ref.RPS > 0 {
			ci.Ratio = ci.RPS / ref.RPS
		}
		res.Checkins = []Load{ci}
		if o.CheckinsOnly {
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

	// The reminder job's claim, with no server running (its job would send the due ones).
	if res.DueClaim, err = claimDue(ctx, db, o.ReminderUsers, min(1000, o.ReminderUsers/2), reminders.ClaimBatch, o.Phase); err != nil {
		return nil, fmt.Errorf("due reminders: %w", err)
	}

	res.Targets = append(targets(res), instanceTargets(res.Instances)...)
	if err := write(o.OutDir, res); err != nil {
		return nil, err
	}
	return res, nil
}
