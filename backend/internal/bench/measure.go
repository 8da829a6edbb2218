package bench

// How a phase is measured: requests from several connections for a while, the server's CPU
// and memory read from /proc, and the plain-handler ceiling the reads are compared with.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// do sends one request and answers the size of a 2xx response's body.
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
	if resp.StatusCode/100 != 2 {
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
