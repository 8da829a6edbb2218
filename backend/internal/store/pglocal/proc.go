package pglocal

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
)

// runner runs PostgreSQL's programs, as another user when the app runs as
// root (PostgreSQL refuses to run as root).
type runner struct {
	binDir string
	// cred is nil when the programs run as the current user.
	cred *syscall.Credential
	// groups are cred's supplementary groups, for permission checks.
	groups []uint32
}

// command prepares binDir/name with a clean environment: PG* variables
// (PGDATA, PGHOST, PGPORT…) meant for the app must not steer initdb/pg_ctl.
// It runs in its own process group so that a Ctrl-C aimed at the app does
// not also stop the server before the app has drained its connections.
func (r *runner) command(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, filepath.Join(r.binDir, name), args...) // #nosec G204 -- a PostgreSQL tool in the resolved bin directory, arguments built here; no shell
	// The child may run as another user who cannot read the app's working
	// directory; initdb and pg_ctl fail on an unreadable cwd.
	cmd.Dir = "/"
	cmd.Env = cleanEnv()
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: r.cred, Setpgid: true}
	return cmd
}

// run runs a program and returns its combined output in the error.
func (r *runner) run(ctx context.Context, name string, args ...string) error {
	out, err := r.command(ctx, name, args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s: %w: %s", name, err, bytes.TrimSpace(out))
	}
	return nil
}

func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PG") {
			env = append(env, kv)
		}
	}
	return env
}

// newRunner decides who runs the server. As an ordinary user: that user.
// As root: the owner of an existing data directory if it is not root
// (someone initialized it without root), else the "postgres" system user.
func newRunner(binDir, dataDir string) (*runner, error) {
	r := &runner{binDir: binDir}
	if os.Geteuid() != 0 {
		return r, nil
	}
	if fi, err := os.Stat(dataDir); err == nil {
		if st, ok := fi.Sys().(*syscall.Stat_t); ok && st.Uid != 0 {
			r.cred = &syscall.Credential{Uid: st.Uid, Gid: st.Gid}
			if u, err := user.LookupId(strconv.Itoa(int(st.Uid))); err == nil {
				r.groups = groupIDs(u)
			}
			return r, nil
		}
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, errors.New(`running as root, the built-in database must run as an unprivileged user, but there is no "postgres" user: install the "postgresql" package (it creates one), run as another user, or set DATABASE_URL`)
	}
	uid, err1 := strconv.ParseUint(u.Uid, 10, 32)
	gid, err2 := strconv.ParseUint(u.Gid, 10, 32)
	if err1 != nil || err2 != nil {
		return nil, fmt.Errorf("user postgres has a non-numeric uid %q or gid %q", u.Uid, u.Gid)
	}
	r.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	r.groups = groupIDs(u)
	return r, nil
}

func groupIDs(u *user.User) []uint32 {
	ids, _ := u.GroupIds()
	var out []uint32
	for _, id := range ids {
		if n, err := strconv.ParseUint(id, 10, 32); err == nil {
			out = append(out, uint32(n))
		}
	}
	return out
}

// chown gives path to the server's user; a no-op when not running as root.
func (r *runner) chown(path string) error {
	if r.cred == nil {
		return nil
	}
	if err := os.Chown(path, int(r.cred.Uid), int(r.cred.Gid)); err != nil {
		return fmt.Errorf("chown %s to the database user: %w", path, err)
	}
	return nil
}

// mkdirOwned creates dir (mode 0700) if needed and gives it to the server's user.
func (r *runner) mkdirOwned(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	return r.chown(dir)
}

// ensureReachable makes sure the server's user can reach dir. When the app
// runs as root, dir is the app's own data directory and may be 0700: it
// gets the search bit for others (enter, not list), which is enough for the
// server to reach its own subdirectories. An ancestor that blocks the way is
// not changed behind the operator's back: that is an error saying what to do.
func (r *runner) ensureReachable(dir string) error {
	if r.cred == nil {
		return nil
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("stat %s: %w", dir, err)
	}
	if !r.canSearch(fi) {
		if err := os.Chmod(dir, fi.Mode().Perm()|0o001); err != nil {
			return fmt.Errorf("let the database user enter %s: %w", dir, err)
		}
	}
	for p := filepath.Dir(dir); ; p = filepath.Dir(p) {
		fi, err := os.Stat(p)
		if err != nil {
			return fmt.Errorf("stat %s: %w", p, err)
		}
		if !r.canSearch(fi) {
			return fmt.Errorf("the database runs as uid %d, which cannot enter %s (mode %v): choose a data directory it can reach (e.g. under /var/lib), run as an ordinary user, or set DATABASE_URL",
				r.cred.Uid, p, fi.Mode().Perm())
		}
		if p == filepath.Dir(p) {
			return nil
		}
	}
}

// canSearch applies the owner/group/other precedence of Unix permissions.
func (r *runner) canSearch(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return true
	}
	mode := fi.Mode().Perm()
	switch {
	case st.Uid == r.cred.Uid:
		return mode&0o100 != 0
	case st.Gid == r.cred.Gid || slices.Contains(r.groups, st.Gid):
		return mode&0o010 != 0
	default:
		return mode&0o001 != 0
	}
}

// logTail returns the end of the newest server log, to explain a failed start.
func logTail(logDir string) string {
	entries, err := os.ReadDir(logDir)
	if err != nil || len(entries) == 0 {
		return ""
	}
	type logFile struct {
		path string
		mod  int64
	}
	var files []logFile
	for _, e := range entries {
		if info, err := e.Info(); err == nil && !e.IsDir() {
			files = append(files, logFile{filepath.Join(logDir, e.Name()), info.ModTime().UnixNano()})
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].mod > files[j].mod })
	if len(files) == 0 {
		return ""
	}
	f, err := os.Open(files[0].path)
	if err != nil {
		return ""
	}
	defer f.Close()
	const tail = 2000
	if fi, err := f.Stat(); err == nil && fi.Size() > tail {
		_, _ = f.Seek(-tail, io.SeekEnd)
	}
	b, _ := io.ReadAll(f)
	return strings.TrimSpace(string(b))
}
