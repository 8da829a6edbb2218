// Command percolate-bench is `make bench`: it starts bin/percolate on a new database of the
// PostgreSQL at -admin (dropped afterwards) with the offline engine, drives it from loopback
// and writes bench/results.md and bench/results.json.
//
//	percolate-bench [-bin bin/percolate] [-admin postgres://…] [-phase 5s] [-out bench]
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/percolate/percolate/backend/internal/bench"
)

func main() {
	bin := flag.String("bin", "bin/percolate", "the Percolate binary")
	admin := flag.String("admin", "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable", "a PostgreSQL role that may create databases")
	ph := flag.Duration("phase", 5*time.Second, "how long each phase runs")
	big := flag.Int("big", 10000, "sessions of the large user")
	out := flag.String("out", "bench", "where results.md and results.json go")
	ttftN := flag.Int("ttft", 500, "streamed messages per history length for time to first token (0 skips it)")
	readsOnly := flag.Bool("reads-only", false, "only the reads at 16 connections, printed and not written to -out (for A/B runs)")
	ttftOnly := flag.Bool("ttft-only", false, "only time to first token, printed and not written to -out (for A/B runs)")
	checkinsOnly := flag.Bool("checkins-only", false, "only the ceiling and the check-ins posted at 16 connections, printed and not written to -out (for A/B runs)")
	render := flag.Bool("render", false, "only render results.md again from results.json in -out")
	flag.Parse()
	if *render {
		if err := bench.Rewrite(*out); err != nil {
			fmt.Fprintln(os.Stderr, "percolate-bench:", err)
			os.Exit(1)
		}
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, *bin, *admin, *ph, *big, *ttftN, *readsOnly, *ttftOnly, *checkinsOnly, *out); err != nil {
		fmt.Fprintln(os.Stderr, "percolate-bench:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, bin, admin string, ph time.Duration, big, ttftN int, readsOnly, ttftOnly, checkinsOnly bool, out string) error {
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	suffix := make([]byte, 4)
	_, _ = rand.Read(suffix)
	name := "percolate_bench_" + hex.EncodeToString(suffix)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		return err
	}
	defer func() {
		_, _ = conn.Exec(context.Background(), "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)")
	}()
	u, err := url.Parse(admin)
	if err != nil {
		return err
	}
	u.Path = "/" + name
	dataDir, err := os.MkdirTemp("", "percolate-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dataDir)

	start := func(ctx context.Context, env map[string]string) (*bench.Server, error) {
		addr, err := freeAddr()
		if err != nil {
			return nil, err
		}
		cmd := exec.Command(bin, "serve")
		cmd.Env = append(os.Environ(), "PERCOLATE_ADDR="+addr)
		if env["PERCOLATE_DATA_DIR"] == "" {
			cmd.Env = append(cmd.Env, "PERCOLATE_DATA_DIR="+dataDir)
		}
		for k, v := range env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			return nil, err
		}
		s := &bench.Server{BaseURL: "http://" + addr, PID: cmd.Process.Pid, Stop: func() {
			_ = cmd.Process.Signal(syscall.SIGTERM)
			done := make(chan struct{})
			go func() { _ = cmd.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				_ = cmd.Process.Kill()
				<-done
			}
		}}
		if err := waitReady(ctx, s.BaseURL); err != nil {
			s.Stop()
			return nil, err
		}
		return s, nil
	}
	res, err := bench.Run(ctx, bench.Options{
		DatabaseURL: u.String(), Start: start, Phase: ph, Conns: 16, BigSessions: big, TTFTRequests: ttftN, ReadsOnly: readsOnly, TTFTOnly: ttftOnly, CheckinsOnly: checkinsOnly, OutDir: out,
		Note: "bin/percolate as its own process, offline engine, a new database on " + u.Host,
	})
	if err != nil {
		return err
	}
	fmt.Print(bench.Markdown(res))
	return nil
}

func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// waitReady polls /api/health/ready for up to a minute (the server migrates first).
func waitReady(ctx context.Context, base string) error {
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		req, _ := http.NewRequestWithContext(ctx, "GET", base+"/api/health/ready", nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
	return fmt.Errorf("%s did not become ready within a minute", base)
}
