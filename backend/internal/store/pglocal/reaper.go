package pglocal

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
)

// reaperPipes keeps the write ends of the reapers' pipes open (and out of
// the garbage collector's reach) for the life of the process.
var (
	reaperMu    sync.Mutex
	reaperPipes []*os.File
)

// RemoveOnExit arranges for a throwaway cluster (tests, previews) to be shut
// down and its whole directory deleted when the current process exits, even
// if it is killed: a small shell process waits on a pipe that the kernel
// closes when this process dies. Use it only on a directory that holds
// nothing but the cluster.
func (c *Cluster) RemoveOnExit() error {
	// As root the reaper runs as the database user, which must own the
	// directory to delete it from a sticky /tmp.
	if err := c.run.chown(c.dir); err != nil {
		return err
	}
	if err := c.run.chown(filepath.Join(c.dir, "pglocal.lock")); err != nil {
		return err
	}
	r, w, err := os.Pipe()
	if err != nil {
		return fmt.Errorf("remove on exit: %w", err)
	}
	defer r.Close()

	script := `read -r _ignored; "$PGLOCAL_PGCTL" stop -D "$PGLOCAL_PGDATA" -m immediate -w -t 30 >/dev/null 2>&1; rm -rf "$PGLOCAL_DIR"`
	if c.tempSocketDir {
		script += `; rm -rf "$PGLOCAL_SOCKET_DIR"`
	}
	cmd := exec.Command("/bin/sh", "-c", script)
	cmd.Dir = "/"
	cmd.Stdin = r
	cmd.Env = append(cleanEnv(),
		"PGLOCAL_PGCTL="+filepath.Join(c.run.binDir, "pg_ctl"),
		"PGLOCAL_PGDATA="+c.dataDir,
		"PGLOCAL_DIR="+c.dir,
		"PGLOCAL_SOCKET_DIR="+c.socketDir,
	)
	// Its own process group, so a Ctrl-C that kills this process does not
	// kill the reaper before it has cleaned up.
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.run.cred, Setpgid: true}
	if err := cmd.Start(); err != nil {
		_ = w.Close()
		return fmt.Errorf("remove on exit: start reaper: %w", err)
	}
	// Nobody waits for the reaper: it outlives this process by design.
	_ = cmd.Process.Release()

	reaperMu.Lock()
	reaperPipes = append(reaperPipes, w)
	reaperMu.Unlock()
	return nil
}
