package pglocal

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// tempDir returns a fresh directory the database user can reach: t.TempDir's
// parent is mode 0700, which blocks the "postgres" user when tests run as root.
func tempDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if os.Geteuid() == 0 {
		if err := os.Chmod(filepath.Dir(dir), 0o711); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func requirePostgres(t *testing.T) {
	t.Helper()
	if _, err := findBinDir(context.Background(), 0); errors.Is(err, ErrNotInstalled) {
		t.Skip("no PostgreSQL installation on this machine")
	}
}

func startCluster(t *testing.T, dir string) *Cluster {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, err := Start(ctx, dir, nil)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { _ = c.Stop(context.Background()) })
	return c
}

func query(t *testing.T, url, sql string, args ...any) string {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatalf("connect to %s: %v", url, err)
	}
	defer conn.Close(ctx)
	var out string
	if err := conn.QueryRow(ctx, sql, args...).Scan(&out); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return out
}

func TestStartQueryStopRestart(t *testing.T) {
	requirePostgres(t)
	dir := tempDir(t)

	begin := time.Now()
	c := startCluster(t, dir)
	t.Logf("first start (initdb + start + create database): %v", time.Since(begin))

	if !strings.HasPrefix(c.URL(), "postgres://postgres@/percolate?host=") {
		t.Errorf("URL() = %q, want a unix-socket URL for database percolate", c.URL())
	}
	if got := query(t, c.URL(), "SELECT current_database()"); got != DatabaseName {
		t.Errorf("current_database() = %q, want %q", got, DatabaseName)
	}
	if got := query(t, c.URL(), "SHOW listen_addresses"); got != "" {
		t.Errorf("listen_addresses = %q, want no TCP listener", got)
	}
	conn, err := pgx.Connect(context.Background(), c.URL())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(context.Background(), "CREATE TABLE kept (v text); INSERT INTO kept VALUES ('still here')"); err != nil {
		t.Fatal(err)
	}
	conn.Close(context.Background())

	if err := c.Stop(context.Background()); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if _, err := os.Stat(filepath.Join(c.DataDir(), "postmaster.pid")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("postmaster.pid still present after Stop (err=%v)", err)
	}

	begin = time.Now()
	c2 := startCluster(t, dir)
	t.Logf("second start (existing data): %v", time.Since(begin))
	if got := query(t, c2.URL(), "SELECT v FROM kept"); got != "still here" {
		t.Errorf("after restart kept.v = %q", got)
	}
}

func TestStartReusesRunningServer(t *testing.T) {
	requirePostgres(t)
	dir := tempDir(t)
	c := startCluster(t, dir)

	other := startCluster(t, dir)
	if other.URL() != c.URL() {
		t.Errorf("second Start URL = %q, want the running server's %q", other.URL(), c.URL())
	}
	if err := other.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	// The second Cluster did not start the server, so it must not stop it.
	if got := query(t, c.URL(), "SELECT 'up'"); got != "up" {
		t.Errorf("server not answering after the reusing Cluster stopped")
	}
}

func TestStartAfterCrash(t *testing.T) {
	requirePostgres(t)
	dir := tempDir(t)
	c := startCluster(t, dir)

	// Simulate a crash of the machine's processes: kill the postmaster
	// outright, leaving a stale postmaster.pid behind.
	pid, _ := readPidFile(c.DataDir())
	if pid == 0 {
		t.Fatal("no postmaster.pid")
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 100 && syscall.Kill(pid, 0) == nil; i++ {
		time.Sleep(50 * time.Millisecond)
	}

	c2 := startCluster(t, dir)
	if got := query(t, c2.URL(), "SELECT 'recovered'"); got != "recovered" {
		t.Errorf("got %q", got)
	}
}

func TestLongDirectoryUsesShortSocketDir(t *testing.T) {
	requirePostgres(t)
	dir := filepath.Join(tempDir(t), strings.Repeat("long-directory-name-", 6))
	c := startCluster(t, dir)
	if !c.tempSocketDir || !strings.HasPrefix(c.socketDir, "/tmp/") {
		t.Errorf("socket dir = %q, want a short one under /tmp", c.socketDir)
	}
	if got := query(t, c.URL(), "SELECT 'ok'"); got != "ok" {
		t.Errorf("got %q", got)
	}
	socketDir := c.socketDir
	if err := c.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(socketDir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("temporary socket dir %s left behind (err=%v)", socketDir, err)
	}
}

func TestNotInstalled(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	old := debianLibGlob
	debianLibGlob = filepath.Join(t.TempDir(), "*", "bin")
	t.Cleanup(func() { debianLibGlob = old })

	_, err := Start(context.Background(), t.TempDir(), nil)
	if !errors.Is(err, ErrNotInstalled) {
		t.Fatalf("Start error = %v, want ErrNotInstalled", err)
	}
	if !strings.Contains(err.Error(), "apt-get install postgresql") {
		t.Errorf("error %q does not say how to install PostgreSQL", err)
	}
}
