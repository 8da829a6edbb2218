// Command safety-eval measures the crisis screen on the labelled set: recall on the risky
// messages and the false-positive rate on the harmless ones, per category, per C-SSRS level
// and overall, on the tuning half (the team's set, data/full/) and on the held-back half (the
// fresh set written blind, data/fresh/; it may be empty), and the median time per message.
//
//	go run ./backend/cmd/safety-eval [-data DIR] [-screen NAME] [-v] [-gate]
//
// It never prints the text of a held-back message, only counts, so that nobody can tune on
// the held-back half by reading the output. -v lists the tuning half's misses and false
// alarms. -gate exits with status 1 when the held-back half's recall is below 98% or its
// false-positive rate above 3%.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/percolate/percolate/backend/internal/companion/safetyeval"
)

// namedScreen is a screen that can be measured, with a line about what it is.
type namedScreen struct {
	about  string
	screen safetyeval.Screener
}

// screens are the screens that can be measured, by name. A new screen is added here, with an
// adapter to safetyeval.Screener if its signature differs.
var screens = map[string]namedScreen{
	"layered": {"safety.Screen: false-alarm layer, context rule, rules, learned scorer; two tiers", safetyeval.Layered},
	"today":   {"companion.Screen: the layered screen on the message alone, either tier as the crisis reply", safetyeval.Today},
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("safety-eval", flag.ContinueOnError)
	fl.SetOutput(stderr)
	dir := fl.String("data", "backend/internal/companion/safetyeval/data", "the data directory")
	name := fl.String("screen", "layered", "the screen to measure: "+strings.Join(slices.Sorted(maps.Keys(screens)), ", "))
	verbose := fl.Bool("v", false, "list the tuning halves' misses and false alarms, with the layer that decided (never the held-back halves')")
	tuningOnly := fl.Bool("tuning", false, "measure the tuning halves only: for work in progress, which must never read the held-back halves")
	gate := fl.Bool("gate", false, fmt.Sprintf("exit 1 unless held-back recall ≥ %d%% and false-positive rate ≤ %d%%",
		safetyeval.GateRecallPercent, safetyeval.GateFPRPercent))
	if err := fl.Parse(args); err != nil {
		return 2
	}
	s, ok := screens[*name]
	if !ok {
		fmt.Fprintf(stderr, "safety-eval: no screen named %q\n", *name)
		return 2
	}

	tuning, err := load(filepath.Join(*dir, safetyeval.TuningFile))
	if err != nil {
		fmt.Fprintln(stderr, "safety-eval:", err)
		return 1
	}
	held, err := load(filepath.Join(*dir, safetyeval.HeldbackFile))
	if err != nil {
		fmt.Fprintln(stderr, "safety-eval:", err)
		return 1
	}

	fmt.Fprintf(stdout, "Crisis screen %q (%s)\n", *name, s.about)
	fmt.Fprintln(stdout, "flagged = given a check-in or the crisis reply; clear = the crisis reply")

	tr := safetyeval.Evaluate(tuning, s.screen)
	fmt.Fprintf(stdout, "\nTUNING half: %d risky, %d harmless\n", tr.Risky.N, tr.Harmless.N)
	tr.WriteTable(stdout)
	if *verbose {
		fmt.Fprintf(stdout, "\n  tuning misses and false alarms (%d):\n", len(tr.Misses))
		safetyeval.WriteMisses(stdout, tr.Misses)
	}

	if *tuningOnly {
		held = nil
	}
	hr := safetyeval.Evaluate(held, s.screen)
	switch {
	case *tuningOnly:
		fmt.Fprintln(stdout, "\nHELD-BACK half: not measured (-tuning)")
	case len(held) == 0:
		fmt.Fprintf(stdout, "\nHELD-BACK half: no messages yet (the fresh set, data/%s/, is not written yet)\n", safetyeval.FreshDir)
	default:
		fmt.Fprintf(stdout, "\nHELD-BACK half: %d risky, %d harmless (counts only: never read or tune on these messages)\n",
			hr.Risky.N, hr.Harmless.N)
		hr.WriteTable(stdout)
	}

	for i, set := range safetyeval.EverydayDirs {
		title := "EVERYDAY set"
		if i > 0 {
			title = fmt.Sprintf("EVERYDAY set %d", i+1)
		}
		for _, half := range []struct {
			name, dir, note string
		}{
			{"TUNING", "tuning", ""},
			{"HELD-BACK", "heldback", " (counts only: never read or tune on these messages)"},
		} {
			if *tuningOnly && half.dir == "heldback" {
				continue
			}
			path := filepath.Join(*dir, set, half.dir)
			if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
				fmt.Fprintf(stdout, "\n%s, %s half: not written yet (data/%s/%s)\n", title, half.name, set, half.dir)
				continue
			}
			e, err := safetyeval.LoadEveryday(path)
			if err != nil {
				fmt.Fprintln(stderr, "safety-eval:", err)
				return 1
			}
			fmt.Fprintf(stdout, "\n%s, %s half%s: %d ordinary messages, %d ordinary conversations, %d risky messages, %d risky conversations,\n"+
				"  through the send path's decisions and the offline engine (data/%s, written blind)\n",
				title, half.name, half.note, len(e.Ordinary), len(e.Conversations), len(e.Risky), len(e.RiskyConvs), set)
			safetyeval.EvaluateEveryday(e).Write(stdout)
			if *verbose && half.dir == "tuning" {
				safetyeval.WriteEverydayDecisions(stdout, e)
			}
		}
	}

	var ext []safetyeval.ExternalSet
	if _, err := os.Stat(filepath.Join(*dir, safetyeval.ExternalDir)); errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintf(stdout, "\nEXTERNAL test sets: not present (data/%s)\n", safetyeval.ExternalDir)
	} else if ext, err = safetyeval.LoadExternal(filepath.Join(*dir, safetyeval.ExternalDir)); err != nil {
		fmt.Fprintln(stderr, "safety-eval:", err)
		return 1
	}
	for _, set := range ext {
		fmt.Fprintf(stdout, "\nEXTERNAL test set %s (%s; data/%s, never trained or tuned on: report only)\n",
			set.Name, set.About, safetyeval.ExternalDir)
		safetyeval.EvaluateExternal(set, s.screen).Write(stdout)
	}

	if *tuningOnly {
		return 0
	}
	gateErr := hr.Gate()
	if len(held) == 0 {
		gateErr = errors.New("there is no held-back half to measure")
	}
	verdict := "passes"
	if gateErr != nil {
		verdict = "fails: " + gateErr.Error()
	}
	fmt.Fprintf(stdout, "\nGate (held-back recall ≥ %d%%, false-positive rate ≤ %d%%): %s\n",
		safetyeval.GateRecallPercent, safetyeval.GateFPRPercent, verdict)
	if *gate && gateErr != nil {
		return 1
	}
	return 0
}

// load reads and validates one half. Its errors name the file and the line, never the text.
func load(path string) ([]safetyeval.Item, error) {
	items, err := safetyeval.LoadFile(path)
	if err != nil {
		return nil, err
	}
	if err := safetyeval.Validate(items); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return items, nil
}
