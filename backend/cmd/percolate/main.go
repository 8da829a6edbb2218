// Command percolate is the whole Percolate service in one binary: the API, the embedded web
// app, migrations and operator commands.
//
//	percolate [serve]                         run the server (the default; migrates first)
//	percolate migrate                         apply database migrations and exit
//	percolate backup FILE                     write the whole database to FILE (pg_dump)
//	percolate restore FILE                    load FILE into an empty database (pg_restore)
//	percolate users set-role EMAIL ROLE       ROLE is USER, BASIC, PREMIUM or ADMIN
//	percolate keys rotate                     add a new signing key (the previous one still checks)
//	percolate version                         print the version
//
// Configuration comes from PERCOLATE_* environment variables (see README.md).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/percolate/percolate/backend/internal/account"
	"github.com/percolate/percolate/backend/internal/app"
	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/auth"
	"github.com/percolate/percolate/backend/internal/config"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

const usage = `Usage:
  percolate [serve]                     run the server (migrates the database first)
  percolate migrate                     apply database migrations and exit
  percolate backup FILE                 write the whole database to FILE (pg_dump's custom format)
  percolate restore FILE                load a backup into an empty database, then migrate it
  percolate users set-role EMAIL ROLE   set an account's role: USER, BASIC, PREMIUM or ADMIN
  percolate keys rotate                 add a signing key; it signs in 2 minutes, and tokens
                                        signed by the one before stay valid until they expire
  percolate version                     print the version

Configuration comes from the environment (PERCOLATE_ADDR, DATABASE_URL, …); see README.md.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "percolate:", err)
		var ue usageError
		if errors.As(err, &ue) {
			fmt.Fprint(os.Stderr, usage)
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// defaultMemoryLimit is the soft limit of the Go runtime's memory when GOMEMLIMIT is unset:
// room for the live heap under load and one argon2id hash per CPU (auth.DefaultArgon2's
// memory each), without letting login bursts grow the RSS past 128 MiB. The live heap
// measured under load is in bench/findings.md.
const defaultMemoryLimit = 80 << 20

// defaultGCPercent is GOGC when it is unset. The live heap of a serving instance is small,
// so at Go's default of 100 the collector ran after a few dozen session-list reads, and its
// marking and the allocation slow paths were a large share of the server's CPU under reads
// (bench/findings.md). At 300 it runs a third as often; the memory limit still bounds the
// heap (it is the limit, not GOGC, that governs under login bursts), so the peak RSS of
// logins in parallel stays as it was.
const defaultGCPercent = 300

// tuneGC sets the soft memory limit and the GC's pace of a serving instance, where
// GOMEMLIMIT and GOGC do not set them.
func tuneGC(getenv func(string) string) {
	if getenv("GOMEMLIMIT") == "" {
		// A soft limit on the Go heap, so the garbage of argon2id (its memory a hash, dropped at
		// once) is collected before the heap grows past it, and freed pages go back to the OS
		// while under it. GOMEMLIMIT overrides it; GOGC paces the GC below it.
		debug.SetMemoryLimit(defaultMemoryLimit)
	}
	if getenv("GOGC") == "" {
		debug.SetGCPercent(defaultGCPercent)
	}
}

// sampleHeapOnlyForPprof turns the runtime's heap profile off in a serving instance that does
// not serve pprof (PERCOLATE_PPROF_ADDR unset), where nobody can read it: otherwise every
// 512 KiB allocated records its call stack, which touches pages of the table of stacks
// and the function tables of every caller it walks, and keeps them resident in an idle
// server. GODEBUG's memprofilerate still sets the rate when given.
func sampleHeapOnlyForPprof(pprofAddr string, getenv func(string) string) {
	if pprofAddr == "" && !strings.Contains(getenv("GODEBUG"), "memprofilerate=") {
		runtime.MemProfileRate = 0
	}
}

type usageError string

func (u usageError) Error() string { return string(u) }

func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cmd := "serve"
	if len(args) > 0 {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	case "version", "--version":
		fmt.Fprintln(stdout, version)
		return nil
	}

	cfg, err := config.Load(getenv)
	if err != nil {
		return fmt.Errorf("configuration:\n%w", err)
	}
	logger := slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: cfg.LogLevel}))
	slog.SetDefault(logger)

	switch cmd {
	case "serve":
		if len(args) > 0 {
			return usageError("serve takes no arguments")
		}
		tuneGC(getenv)
		sampleHeapOnlyForPprof(cfg.PprofAddr, getenv)
		return app.Serve(ctx, cfg, logger, version)
	case "migrate":
		if len(args) > 0 {
			return usageError("migrate takes no arguments")
		}
		db, err := app.OpenDatabase(ctx, cfg, logger)
		if err != nil {
			return err
		}
		db.Close()
		fmt.Fprintln(stdout, "migrations applied")
		return nil
	case "backup", "restore":
		if len(args) != 1 || args[0] == "" {
			return usageError(cmd + " takes one argument: the backup file")
		}
		do, did := app.Backup, "backed up"
		if cmd == "restore" {
			do, did = app.Restore, "restored"
		}
		n, err := do(ctx, cfg, logger, args[0])
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s %s: %s\n", did, args[0], n)
		return nil
	case "users":
		if len(args) != 3 || args[0] != "set-role" {
			return usageError("expected: users set-role EMAIL ROLE")
		}
		return setRole(ctx, cfg, logger, args[1], args[2], stdout)
	case "keys":
		if len(args) != 1 || args[0] != "rotate" {
			return usageError("expected: keys rotate")
		}
		return rotateKeys(ctx, cfg, logger, stdout)
	default:
		return usageError(fmt.Sprintf("unknown command %q", cmd))
	}
}

func setRole(ctx context.Context, cfg config.Config, logger *slog.Logger, email, role string, stdout io.Writer) error {
	db, err := app.OpenDatabase(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer db.Close()
	u, err := account.SetRole(ctx, db.Queries(), email, role)
	var verr *apperr.ValidationError
	switch {
	case errors.As(err, &verr):
		return usageError("ROLE " + verr.Fields["role"])
	case errors.Is(err, apperr.ErrNotFound):
		return fmt.Errorf("no account has the e-mail %s", email)
	case err != nil:
		return err
	}
	fmt.Fprintf(stdout, "%s is now %s\n", u.Email, u.Role)
	return nil
}

func rotateKeys(ctx context.Context, cfg config.Config, logger *slog.Logger, stdout io.Writer) error {
	if cfg.SecretKey != "" {
		return errors.New("the signing keys are derived from PERCOLATE_SECRET_KEY: change it on every instance instead (signed-in users stay signed in)")
	}
	db, err := app.OpenDatabase(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer db.Close()
	keys, err := app.OpenKeyring(ctx, db.Store, cfg, logger)
	if err != nil {
		return err
	}
	kid, err := keys.Rotate(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "new signing key %s: it signs from %s on; tokens signed before stay valid until they expire\n",
		kid, time.Now().Add(auth.DefaultKeyPropagation).UTC().Format(time.RFC3339))
	return nil
}
