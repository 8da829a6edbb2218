package pglocal

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// ErrNotInstalled is returned by Start when no PostgreSQL server binaries
// (initdb and pg_ctl) can be found on this machine.
var ErrNotInstalled = errors.New(`PostgreSQL is not installed: install the "postgresql" package (Debian/Ubuntu: apt-get install postgresql) or set DATABASE_URL`)

// debianLibGlob is where Debian and Ubuntu install each PostgreSQL major
// version; their initdb and pg_ctl are not on PATH by default. A variable so
// tests can point it elsewhere.
var debianLibGlob = "/usr/lib/postgresql/*/bin"

// installation is one directory holding initdb and pg_ctl.
type installation struct {
	binDir string
	major  int
}

// findBinDir picks the directory of the initdb and pg_ctl to use: from PATH,
// then from `pg_config --bindir`, then the newest /usr/lib/postgresql/*/bin.
// When wantMajor is not 0 (an existing data directory's version), the first
// installation of that major version wins, because a data directory only
// starts under the major version that created it.
func findBinDir(ctx context.Context, wantMajor int) (installation, error) {
	candidates := binDirCandidates(ctx)
	if len(candidates) == 0 {
		return installation{}, ErrNotInstalled
	}
	var found []installation
	for _, dir := range candidates {
		major, err := binMajor(ctx, dir)
		if err != nil {
			continue
		}
		if wantMajor == 0 || major == wantMajor {
			return installation{binDir: dir, major: major}, nil
		}
		found = append(found, installation{binDir: dir, major: major})
	}
	if len(found) == 0 {
		return installation{}, ErrNotInstalled
	}
	return installation{}, fmt.Errorf(
		"the built-in database was created by PostgreSQL %d, but only PostgreSQL %d is installed (in %s): install PostgreSQL %d, or upgrade the data directory with pg_upgrade, or set DATABASE_URL",
		wantMajor, found[0].major, found[0].binDir, wantMajor)
}

// binDirCandidates lists, without duplicates and in order of preference,
// the directories that contain both initdb and pg_ctl.
func binDirCandidates(ctx context.Context) []string {
	var dirs []string
	seen := map[string]bool{}
	add := func(dir string) {
		if dir == "" {
			return
		}
		// Resolve symlinks (e.g. /usr/local/bin/initdb -> /usr/lib/postgresql/15/bin/initdb)
		// so pg_ctl finds its sibling postgres binary and duplicates collapse.
		if real, err := filepath.EvalSymlinks(filepath.Join(dir, "initdb")); err == nil {
			dir = filepath.Dir(real)
		}
		if seen[dir] || !isExecutable(filepath.Join(dir, "initdb")) || !isExecutable(filepath.Join(dir, "pg_ctl")) {
			return
		}
		seen[dir] = true
		dirs = append(dirs, dir)
	}

	if p, err := exec.LookPath("initdb"); err == nil {
		if _, err := exec.LookPath("pg_ctl"); err == nil {
			add(filepath.Dir(p))
		}
	}
	if p, err := exec.LookPath("pg_config"); err == nil {
		cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		out, err := exec.CommandContext(cctx, p, "--bindir").Output() // #nosec G204 -- pg_config found on PATH or the known install directories; arguments are fixed, no shell
		cancel()
		if err == nil {
			add(strings.TrimSpace(string(out)))
		}
	}
	matches, _ := filepath.Glob(debianLibGlob)
	sort.Slice(matches, func(i, j int) bool { // newest major first
		return versionOf(matches[i]) > versionOf(matches[j])
	})
	for _, m := range matches {
		add(m)
	}
	return dirs
}

// versionOf extracts N from /usr/lib/postgresql/N/bin (0 when it is not a number).
func versionOf(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

var versionRE = regexp.MustCompile(`\(PostgreSQL\) (\d+)`)

// binMajor asks pg_ctl for its major version ("pg_ctl (PostgreSQL) 15.20 …" → 15).
func binMajor(ctx context.Context, binDir string) (int, error) {
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(cctx, filepath.Join(binDir, "pg_ctl"), "--version").Output() // #nosec G204 -- pg_ctl in the resolved bin directory, fixed arguments; no shell
	if err != nil {
		return 0, fmt.Errorf("%s/pg_ctl --version: %w", binDir, err)
	}
	m := versionRE.FindSubmatch(out)
	if m == nil {
		return 0, fmt.Errorf("%s/pg_ctl --version: unexpected output %q", binDir, out)
	}
	return strconv.Atoi(string(m[1]))
}

// dataMajor reads the major version recorded in a data directory's
// PG_VERSION file; 0 with a nil error when the directory is not initialized.
func dataMajor(dataDir string) (int, error) {
	b, err := os.ReadFile(filepath.Join(dataDir, "PG_VERSION")) // #nosec G304 -- a file of the cluster's own data directory
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read PG_VERSION: %w", err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		return 0, fmt.Errorf("%s/PG_VERSION holds %q, not a version", dataDir, b)
	}
	return n, nil
}

func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.IsDir() && fi.Mode().Perm()&0o111 != 0
}

// Tool returns the path of a PostgreSQL client program (pg_dump, pg_restore): the one beside
// the installation's server binaries, whose version matches the built-in cluster, or else the
// one on PATH.
func Tool(ctx context.Context, name string) (string, error) {
	if inst, err := findBinDir(ctx, 0); err == nil {
		if p := filepath.Join(inst.binDir, name); isExecutable(p) {
			return p, nil
		}
	}
	p, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("%s is not installed (Debian: apt-get install postgresql-client): %w", name, err)
	}
	return p, nil
}
