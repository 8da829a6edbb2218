package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"sort"
	"strconv"
	"strings"
	"time"
)

// servePprof serves the runtime's profiles on addr (a loopback address,
// PERCOLATE_PPROF_ADDR) until ctx ends, at the paths of net/http/pprof, which `go tool pprof`
// reads:
//
//	/debug/pprof/                  the list of profiles
//	/debug/pprof/NAME?debug=N      heap (gc=1 collects first), allocs, goroutine, block, mutex, threadcreate
//	/debug/pprof/profile?seconds=N a CPU profile (30 s unless given)
//	/debug/pprof/trace?seconds=N   an execution trace (1 s unless given)
//
// It uses runtime/pprof directly rather than importing net/http/pprof, whose initialisation
// registers its handlers on http.DefaultServeMux in every process, served or not, and keeps
// that code resident in an idle server.
func servePprof(ctx context.Context, addr string, logger *slog.Logger) error {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", serveProfile)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s (PERCOLATE_PPROF_ADDR): %w", addr, err)
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			logger.Warn("pprof server stopped", "error", err.Error())
		}
	}()
	logger.Info("profiles served", "url", "http://"+ln.Addr().String()+"/debug/pprof/")
	return nil
}

func serveProfile(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path, "/debug/pprof/")
	seconds := func(def int) time.Duration {
		if s, err := strconv.Atoi(r.FormValue("seconds")); err == nil && s > 0 {
			return time.Duration(s) * time.Second
		}
		return time.Duration(def) * time.Second
	}
	switch name {
	case "":
		var names []string
		for _, p := range pprof.Profiles() {
			names = append(names, p.Name())
		}
		sort.Strings(names)
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintln(w, "profiles (?debug=1 for text): profile?seconds=N (CPU), trace?seconds=N")
		for _, n := range names {
			fmt.Fprintln(w, n)
		}
	case "profile":
		w.Header().Set("Content-Type", "application/octet-stream")
		if err := pprof.StartCPUProfile(w); err != nil {
			http.Error(w, "cannot profile: "+err.Error(), http.StatusInternalServerError)
			return
		}
		sleep(r.Context(), seconds(30))
		pprof.StopCPUProfile()
	case "trace":
		w.Header().Set("Content-Type", "application/octet-stream")
		if err := trace.Start(w); err != nil {
			http.Error(w, "cannot trace: "+err.Error(), http.StatusInternalServerError)
			return
		}
		sleep(r.Context(), seconds(1))
		trace.Stop()
	default:
		p := pprof.Lookup(name)
		if p == nil {
			http.Error(w, "no such profile: "+name, http.StatusNotFound)
			return
		}
		if name == "heap" && r.FormValue("gc") != "" {
			runtime.GC()
		}
		debug, _ := strconv.Atoi(r.FormValue("debug"))
		if debug > 0 {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		} else {
			w.Header().Set("Content-Type", "application/octet-stream")
		}
		_ = p.WriteTo(w, debug)
	}
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
