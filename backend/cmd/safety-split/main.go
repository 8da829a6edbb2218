// Command safety-split makes the crisis screen's two halves (see
// backend/internal/companion/safetyeval/data/README.md).
//
//	go run ./backend/cmd/safety-split [-data DIR]
//	go run ./backend/cmd/safety-split [-data DIR] -everyday-from SRC -everyday-to everyday2
//
// It reads every file in DIR/full (the team's set: all of it is the tuning half) and in
// DIR/fresh (the fresh set written blind: all of it is the held-back half; it may be missing or
// empty), checks them, and rewrites DIR/tuning.jsonl and DIR/heldback.jsonl. With
// -everyday-from it instead splits a blind everyday set (see splitEveryday). It prints counts
// only.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/percolate/percolate/backend/internal/companion/safetyeval"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("safety-split", flag.ContinueOnError)
	fl.SetOutput(stderr)
	dir := fl.String("data", "backend/internal/companion/safetyeval/data", "the data directory")
	from := fl.String("everyday-from", "", "split a blind everyday set written into this directory (its four files) …")
	to := fl.String("everyday-to", "", "… into this directory under -data (e.g. everyday2), as tuning/ and heldback/")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if *from != "" || *to != "" {
		if *from == "" || *to == "" {
			fmt.Fprintln(stderr, "safety-split: -everyday-from and -everyday-to go together")
			return 2
		}
		if err := splitEveryday(*from, filepath.Join(*dir, *to), stdout); err != nil {
			fmt.Fprintln(stderr, "safety-split:", err)
			return 1
		}
		return 0
	}
	if err := split(*dir, stdout); err != nil {
		fmt.Fprintln(stderr, "safety-split:", err)
		return 1
	}
	return 0
}

func split(dir string, out io.Writer) error {
	full, err := safetyeval.LoadDir(filepath.Join(dir, safetyeval.FullDir))
	if err != nil {
		return err
	}
	if err := safetyeval.Validate(full); err != nil {
		return fmt.Errorf("%s: %w", safetyeval.FullDir, err)
	}
	fresh, err := safetyeval.LoadDirIfAny(filepath.Join(dir, safetyeval.FreshDir))
	if err != nil {
		return err
	}
	if err := safetyeval.Validate(fresh); err != nil {
		return fmt.Errorf("%s: %w", safetyeval.FreshDir, err)
	}
	tuning, held, err := safetyeval.Halves(full, fresh)
	if err != nil {
		return err
	}
	if err := safetyeval.WriteFile(filepath.Join(dir, safetyeval.TuningFile), tuning); err != nil {
		return err
	}
	if err := safetyeval.WriteFile(filepath.Join(dir, safetyeval.HeldbackFile), held); err != nil {
		return err
	}

	fmt.Fprintf(out, "%d messages: %d from %s/ in the tuning half, %d from %s/ in the held-back half\n\n",
		len(full)+len(fresh), len(tuning), safetyeval.FullDir, len(held), safetyeval.FreshDir)
	count := func(items []safetyeval.Item) map[string]int {
		m := make(map[string]int)
		for _, it := range items {
			m[it.Category]++
			m[string(it.Label)]++
		}
		return m
	}
	t, h := count(tuning), count(held)
	fmt.Fprintf(out, "| category | label | tuning | held-back |\n| --- | --- | ---: | ---: |\n")
	for _, c := range safetyeval.Categories {
		fmt.Fprintf(out, "| %s | %s | %d | %d |\n", c.Name, c.Label, t[c.Name], h[c.Name])
	}
	for _, l := range []safetyeval.Label{safetyeval.Risky, safetyeval.Harmless} {
		fmt.Fprintf(out, "| **all %s** | | %d | %d |\n", l, t[string(l)], h[string(l)])
	}
	return nil
}
