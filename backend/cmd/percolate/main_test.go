package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/account"
	"github.com/percolate/percolate/backend/internal/apitest"
	"github.com/percolate/percolate/backend/internal/app"
	"github.com/percolate/percolate/backend/internal/store"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
	"github.com/percolate/percolate/gen/api"
	dbgen "github.com/percolate/percolate/gen/db"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestBadConfigurationNamesTheVariable(t *testing.T) {
	var out, errOut bytes.Buffer
	err := run(context.Background(), []string{"migrate"}, env(map[string]string{"PERCOLATE_ADDR": "not-an-address"}), &out, &errOut)
	if err == nil || !strings.Contains(err.Error(), "PERCOLATE_ADDR") {
		t.Fatalf("err = %v, want one naming PERCOLATE_ADDR", err)
	}
}

func TestUnknownCommandIsAUsageError(t *testing.T) {
	err := run(context.Background(), []string{"frobnicate"}, env(nil), io.Discard, io.Discard)
	var ue usageError
	if !errors.As(err, &ue) {
		t.Fatalf("err = %v, want a usage error", err)
	}
}

// TestMigrateAppliesRiversMigrationsToo runs `percolate migrate` on an empty database and
// expects both River's schema (the job queue's tables, at River's newest version) and ours.
func TestMigrateAppliesRiversMigrationsToo(t *testing.T) {
	url := pgtest.EmptyURL(t)
	ctx := context.Background()
	vars := env(map[string]string{"DATABASE_URL": url, "PERCOLATE_DATA_DIR": t.TempDir(), "PERCOLATE_LOG_LEVEL": "error"})
	var out bytes.Buffer
	if err := run(ctx, []string{"migrate"}, vars, &out, io.Discard); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	if !strings.Contains(out.String(), "migrations applied") {
		t.Errorf("output %q", out.String())
	}
	st, err := store.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	river, err := store.RiverMigrator(st.Pool())
	if err != nil {
		t.Fatal(err)
	}
	applied, err := river.ExistingVersions(ctx)
	if err != nil {
		t.Fatalf("River's migrations: %v", err)
	}
	all := river.AllVersions()
	if len(applied) != len(all) || applied[len(applied)-1].Version != all[len(all)-1].Version {
		t.Fatalf("River's migrations applied: %d, newest %v; want all %d", len(applied), applied, len(all))
	}
	for _, table := range []string{"river_job", "river_leader", "river_queue", "users"} {
		var name *string
		if err := st.Pool().QueryRow(ctx, "SELECT to_regclass($1)::text", "public."+table).Scan(&name); err != nil || name == nil {
			t.Errorf("table %s missing after migrate (%v)", table, err)
		}
	}
	if v, err := store.MigrationVersion(ctx, st.Pool()); err != nil || v < 4 {
		t.Errorf("goose version %d (%v), want the River migration (4) applied", v, err)
	}
	// Migrating again is a no-op.
	if err := run(ctx, []string{"migrate"}, vars, io.Discard, io.Discard); err != nil {
		t.Fatalf("second migrate: %v", err)
	}
}

func TestUsersSetRole(t *testing.T) {
	url := pgtest.URL(t)
	ctx := context.Background()
	st, err := store.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.Queries().CreateUser(ctx, dbgen.CreateUserParams{Email: "Ada@Example.com", Name: "Ada"}); err != nil {
		t.Fatal(err)
	}
	vars := env(map[string]string{"DATABASE_URL": url, "PERCOLATE_DATA_DIR": t.TempDir(), "PERCOLATE_LOG_LEVEL": "error"})

	var out bytes.Buffer
	if err := run(ctx, []string{"users", "set-role", "ada@example.COM", "premium"}, vars, &out, io.Discard); err != nil {
		t.Fatalf("set-role: %v", err)
	}
	u, err := st.Queries().GetUserByEmail(ctx, "ada@example.com")
	if err != nil || u.Role != "PREMIUM" {
		t.Fatalf("role = %q, %v; want PREMIUM", u.Role, err)
	}
	if !strings.Contains(out.String(), "PREMIUM") {
		t.Errorf("output %q does not confirm the role", out.String())
	}

	err = run(ctx, []string{"users", "set-role", "ada@example.com", "GOD"}, vars, io.Discard, io.Discard)
	var ue usageError
	if !errors.As(err, &ue) {
		t.Errorf("unknown role: err = %v, want a usage error", err)
	}
	err = run(ctx, []string{"users", "set-role", "nobody@example.com", "BASIC"}, vars, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "no account") {
		t.Errorf("unknown e-mail: err = %v", err)
	}
	if u, _ := st.Queries().GetUserByEmail(ctx, "ada@example.com"); u.Role != "PREMIUM" {
		t.Errorf("a failed set-role changed the role to %q", u.Role)
	}
}

// TestBackupAndRestore backs up a database with accounts, sessions and messages, restores it
// into an empty database, and finds every row; a restore into a database with accounts is
// refused and changes nothing.
func TestBackupAndRestore(t *testing.T) {
	ctx := context.Background()
	srcURL := pgtest.URL(t)
	src, err := store.Open(ctx, srcURL)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	q := src.Queries()
	type row struct{ email, session, message string }
	var want []row
	for i := range 3 {
		u, err := q.CreateUser(ctx, dbgen.CreateUserParams{Email: fmt.Sprintf("user%d@example.com", i), Name: "User"})
		if err != nil {
			t.Fatal(err)
		}
		for j := range 2 {
			sid := uuid.New()
			title := fmt.Sprintf("Session %d.%d", i, j)
			if _, err := q.OpenSession(ctx, dbgen.OpenSessionParams{ID: sid, UserID: u.ID, Title: title, TokenLimit: 1000}); err != nil {
				t.Fatal(err)
			}
			text := fmt.Sprintf("message %d.%d — with ünïcode", i, j)
			if _, err := q.InsertMessage(ctx, dbgen.InsertMessageParams{ID: uuid.New(), SessionID: sid, UserID: u.ID,
				Role: "user", Content: text, TokenCount: 3, Status: "complete"}); err != nil {
				t.Fatal(err)
			}
			want = append(want, row{u.Email, title, text})
		}
	}

	file := filepath.Join(t.TempDir(), "percolate.dump")
	var out bytes.Buffer
	vars := func(url string) func(string) string {
		return env(map[string]string{"DATABASE_URL": url, "PERCOLATE_DATA_DIR": t.TempDir(), "PERCOLATE_LOG_LEVEL": "error"})
	}
	if err := run(ctx, []string{"backup", file}, vars(srcURL), &out, io.Discard); err != nil {
		t.Fatalf("backup: %v", err)
	}
	if !strings.Contains(out.String(), "3 users, 6 sessions, 6 messages") {
		t.Errorf("backup output %q does not count what it wrote", out.String())
	}
	if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("backup file: %v, mode %v; want readable by the owner only", err, fi.Mode())
	}

	dstURL := pgtest.EmptyURL(t)
	out.Reset()
	if err := run(ctx, []string{"restore", file}, vars(dstURL), &out, io.Discard); err != nil {
		t.Fatalf("restore: %v", err)
	}
	if !strings.Contains(out.String(), "3 users, 6 sessions, 6 messages") {
		t.Errorf("restore output %q", out.String())
	}
	dst, err := store.Open(ctx, dstURL)
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	var got []row
	rows, err := dst.Pool().Query(ctx, `SELECT u.email, s.title, m.content FROM messages m
		JOIN chat_sessions s ON s.id = m.session_id JOIN users u ON u.id = s.user_id ORDER BY s.title`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.email, &r.session, &r.message); err != nil {
			t.Fatal(err)
		}
		got = append(got, r)
	}
	if rows.Err() != nil || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("restored rows (%v):\n got %v\nwant %v", rows.Err(), got, want)
	}
	if v, err := store.MigrationVersion(ctx, dst.Pool()); err != nil || v < 5 {
		t.Errorf("restored database's migration version %d (%v)", v, err)
	}

	// Restoring over accounts is refused, and leaves them as they were.
	err = run(ctx, []string{"restore", file}, vars(dstURL), io.Discard, io.Discard)
	if !errors.Is(err, app.ErrNotEmpty) {
		t.Fatalf("restore into a database with accounts: err = %v, want ErrNotEmpty", err)
	}
	var users int
	if err := dst.Pool().QueryRow(ctx, "SELECT count(*) FROM users").Scan(&users); err != nil || users != 3 {
		t.Errorf("after a refused restore: %d users (%v), want 3", users, err)
	}
	// The built-in cluster (no DATABASE_URL) restores the same file.
	if !testing.Short() {
		out.Reset()
		dataDir := t.TempDir()
		if os.Geteuid() == 0 { // run as root, the built-in cluster's user must reach the data dir
			if err := os.Chmod(filepath.Dir(dataDir), 0o711); err != nil {
				t.Fatal(err)
			}
		}
		builtIn := env(map[string]string{"PERCOLATE_DATA_DIR": dataDir, "PERCOLATE_LOG_LEVEL": "error"})
		if err := run(ctx, []string{"restore", file}, builtIn, &out, io.Discard); err != nil {
			t.Fatalf("restore into the built-in database: %v", err)
		}
		if !strings.Contains(out.String(), "3 users, 6 sessions, 6 messages") {
			t.Errorf("restore into the built-in database: output %q", out.String())
		}
	}
	if err := run(ctx, []string{"restore", filepath.Join(t.TempDir(), "missing.dump")}, vars(pgtest.EmptyURL(t)), io.Discard, io.Discard); err == nil {
		t.Error("restore of a missing file succeeded")
	}
}

// TestServeMigratesAndFinishesInFlightRequestsOnSIGTERM runs the real binary on an empty
// database, holds a request open while SIGTERM arrives, and expects the request to be
// answered and the process to exit 0.
func TestServeMigratesAndFinishesInFlightRequestsOnSIGTERM(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	pprofAddr := freeAddr(t)
	srv := startBinary(t, "DATABASE_URL="+pgtest.EmptyURL(t), "PERCOLATE_PPROF_ADDR="+pprofAddr)
	cmd, done, logs, addr := srv.cmd, srv.done, srv.logs, strings.TrimPrefix(srv.base, "http://")
	health, err := typedClient(t, srv.base).GetHealthWithResponse(context.Background())
	if err != nil || health.StatusCode() != http.StatusOK || health.JSON200.Status != api.HealthStatusOk {
		t.Fatalf("health: %v %v", err, health)
	}
	// Profiles are served on their own loopback address, never by the app's server.
	if body := get(t, "http://"+pprofAddr+"/debug/pprof/heap?debug=1"); !strings.Contains(body, "heap profile") {
		t.Errorf("PERCOLATE_PPROF_ADDR serves no heap profile:\n%.200s", body)
	}
	if body := get(t, "http://"+addr+"/debug/pprof/heap?debug=1"); strings.Contains(body, "heap profile") {
		t.Error("the app's own address serves profiles")
	}

	// Send the headers and half the body, then SIGTERM, then the rest of the body.
	body := `{"email":"someone@example.com","password":"correct horse"}`
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /api/auth/login HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", addr, len(body), body[:10])
	time.Sleep(200 * time.Millisecond)
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	select {
	case err := <-done:
		t.Fatalf("exited (%v) before the in-flight request finished\n%s", err, logs.String())
	default:
	}
	if _, err := io.WriteString(conn, body[10:]); err != nil {
		t.Fatal(err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("in-flight request was dropped: %v\n%s", err, logs.String())
	}
	reply, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		t.Fatalf("in-flight request's answer was cut: %v\n%s", err, logs.String())
	}
	// Login is routed, validated and reaches its handler, which answers the contract's 401 for
	// an address without an account.
	if res.StatusCode != http.StatusUnauthorized {
		t.Fatalf("in-flight login: status = %d, want 401: %.300s", res.StatusCode, reply)
	}
	refused := apitest.DecodeAs[api.ErrorResponse](t, "the in-flight login's answer", reply)
	if refused.Code != account.CodeBadCredentials {
		t.Errorf("in-flight login: code = %q, want %s", refused.Code, account.CodeBadCredentials)
	}
	if refused.Message != account.MsgInvalidLogin {
		t.Errorf("in-flight login: message = %q, want %q", refused.Message, account.MsgInvalidLogin)
	}

	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit: %v (want 0)\n%s", err, logs.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("did not exit after SIGTERM\n%s", logs.String())
	}
	if !strings.Contains(logs.String(), `"msg":"request"`) || !strings.Contains(logs.String(), `"request_id"`) {
		t.Errorf("logs are not JSON lines with request ids:\n%s", logs.String())
	}
	// The job queue ran, and stopped only after the server had finished its requests.
	// Each line is looked for after the one before it.
	rest := logs.String()
	for _, msg := range []string{`"msg":"River client started"`, `"msg":"shutting down: finishing in-flight requests and replies"`,
		`"msg":"request"`, `"msg":"requests finished; stopping the job queue"`, `"msg":"River client stopped"`, `"msg":"stopped"`} {
		i := strings.Index(rest, msg)
		if i < 0 {
			t.Fatalf("shutdown out of order: no %s after the lines before it\n%s", msg, logs.String())
		}
		rest = rest[i+len(msg):]
	}
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// get returns the body of a GET, failing the test when the request fails.
func get(t *testing.T, url string) string {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	return string(b)
}

// TestKeysRotate adds a signing key to the database's (made on first use); with
// PERCOLATE_SECRET_KEY there is nothing to rotate, and the command says what to do instead.
func TestKeysRotate(t *testing.T) {
	url := pgtest.URL(t)
	ctx := context.Background()
	st, err := store.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	vars := map[string]string{"DATABASE_URL": url, "PERCOLATE_DATA_DIR": t.TempDir(), "PERCOLATE_LOG_LEVEL": "error"}
	for want := 2; want <= 3; want++ {
		var out bytes.Buffer
		if err := run(ctx, []string{"keys", "rotate"}, env(vars), &out, io.Discard); err != nil {
			t.Fatalf("keys rotate: %v", err)
		}
		var n int
		if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM signing_keys`).Scan(&n); err != nil || n != want {
			t.Fatalf("%d keys after rotating (%v), want %d", n, err, want)
		}
		if !strings.Contains(out.String(), "new signing key") {
			t.Errorf("output %q", out.String())
		}
	}
	var ue usageError
	if err := run(ctx, []string{"keys", "spin"}, env(vars), io.Discard, io.Discard); !errors.As(err, &ue) {
		t.Errorf("keys spin: %v, want a usage error", err)
	}
	vars["PERCOLATE_SECRET_KEY"] = "0123456789abcdef0123456789abcdef"
	if err := run(ctx, []string{"keys", "rotate"}, env(vars), io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), "PERCOLATE_SECRET_KEY") {
		t.Errorf("rotate with PERCOLATE_SECRET_KEY: %v", err)
	}
}

// TestTuneGC: a serving instance sets its memory limit and GC pace unless GOMEMLIMIT and
// GOGC set them.
func TestTuneGC(t *testing.T) {
	prevPercent := debug.SetGCPercent(100)
	prevLimit := debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() { debug.SetGCPercent(prevPercent); debug.SetMemoryLimit(prevLimit) })

	tuneGC(func(string) string { return "" })
	if got := debug.SetGCPercent(100); got != defaultGCPercent {
		t.Errorf("GC percent with GOGC unset = %d, want %d", got, defaultGCPercent)
	}
	if got := debug.SetMemoryLimit(math.MaxInt64); got != defaultMemoryLimit {
		t.Errorf("memory limit with GOMEMLIMIT unset = %d, want %d", got, defaultMemoryLimit)
	}

	set := map[string]string{"GOGC": "100", "GOMEMLIMIT": "1GiB"}
	tuneGC(func(k string) string { return set[k] })
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GC percent with GOGC set = %d, want the runtime's 100 left alone", got)
	}
	if got := debug.SetMemoryLimit(math.MaxInt64); got != math.MaxInt64 {
		t.Errorf("memory limit with GOMEMLIMIT set = %d, want it left alone", got)
	}
}

// TestSampleHeapOnlyForPprof: the heap profile is sampled only where pprof serves it, or
// where GODEBUG sets its rate.
func TestSampleHeapOnlyForPprof(t *testing.T) {
	prev := runtime.MemProfileRate
	t.Cleanup(func() { runtime.MemProfileRate = prev })
	unset := func(string) string { return "" }

	runtime.MemProfileRate = 512 * 1024
	sampleHeapOnlyForPprof("127.0.0.1:6060", unset)
	if runtime.MemProfileRate != 512*1024 {
		t.Errorf("with pprof served, MemProfileRate = %d, want it left alone", runtime.MemProfileRate)
	}
	sampleHeapOnlyForPprof("", func(k string) string { return map[string]string{"GODEBUG": "memprofilerate=1"}[k] })
	if runtime.MemProfileRate != 512*1024 {
		t.Errorf("with GODEBUG's memprofilerate, MemProfileRate = %d, want it left alone", runtime.MemProfileRate)
	}
	sampleHeapOnlyForPprof("", unset)
	if runtime.MemProfileRate != 0 {
		t.Errorf("without pprof, MemProfileRate = %d, want 0 (off)", runtime.MemProfileRate)
	}
}
