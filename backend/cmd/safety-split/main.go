// Command safety-split splits the crisis screen's labelled set into its tuning half and its
// held-back half (see backend/internal/companion/safetyeval/data/README.md).
//
//	go run ./backend/cmd/safety-split [-data DIR]
//
// It reads every file in DIR/full and the two halves already in DIR, keeps every message that
// is already placed in its half, places only the new ones (stratified by category, with a
// fixed seed) and rewrites DIR/tuning.jsonl and DIR/heldback.jsonl. It prints counts only.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
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
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if err := split(*dir, stdout); err != nil {
		fmt.Fprintln(stderr, "safety-split:", err)
		return 1
	}
	return 0
}

func split(dir string, out io.Writer) error {
	all, err := safetyeval.LoadDir(filepath.Join(dir, safetyeval.FullDir))
	if err != nil {
		return err
	}
	if err := safetyeval.Validate(all); err != nil {
		return err
	}
	tuningPath := filepath.Join(dir, safetyeval.TuningFile)
	heldPath := filepath.Join(dir, safetyeval.HeldbackFile)
	oldTuning, err := loadIfExists(tuningPath)
	if err != nil {
		return err
	}
	oldHeld, err := loadIfExists(heldPath)
	if err != nil {
		return err
	}
	prior := safetyeval.Placement(oldTuning, oldHeld)
	tuning, held, err := safetyeval.Split(all, prior, safetyeval.Seed)
	if err != nil {
		return err
	}
	if err := safetyeval.WriteFile(tuningPath, tuning); err != nil {
		return err
	}
	if err := safetyeval.WriteFile(heldPath, held); err != nil {
		return err
	}

	placed := 0
	for _, it := range all {
		if _, ok := prior[it.Key()]; ok {
			placed++
		}
	}
	fmt.Fprintf(out, "%d messages: %d kept in their half, %d newly placed, %d dropped from the halves\n\n",
		len(all), placed, len(all)-placed, len(prior)-placed)
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

func loadIfExists(path string) ([]safetyeval.Item, error) {
	items, err := safetyeval.LoadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return items, err
}
