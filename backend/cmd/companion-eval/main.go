// Command companion-eval is the companion's conversation benchmark (issue 34, section 7): it
// runs the blind-written conversations through the send path's decisions and the offline
// engine and prints the automatic figures per half.
//
//	go run ./backend/cmd/companion-eval [-data DIR] [-tuning] [-baseline keywords] [-v]
//
// It never prints a held-back message or reply, only figures. -tuning measures the tuning half
// only (for work in progress, which must never read the held-back half); -v prints the tuning
// half's conversations with the replies; -baseline keywords ablates the sentence encoder.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/companioneval"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("companion-eval", flag.ContinueOnError)
	fl.SetOutput(stderr)
	dir := fl.String("data", "backend/internal/companion/companioneval/data", "the data directory")
	tuningOnly := fl.Bool("tuning", false, "measure the tuning half only: for work in progress, which must never read the held-back half")
	baseline := fl.String("baseline", "", `"keywords": the encoder ablated, acts read from keyword rules alone`)
	verbose := fl.Bool("v", false, "print the tuning half's conversations and replies (never the held-back half's)")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	engine := companion.NewOffline()
	engine.WordDelay = 0
	name := "offline engine with the sentence encoder"
	switch *baseline {
	case "":
	case "keywords":
		engine.Keywords, name = true, "keyword baseline (encoder ablated)"
	default:
		fmt.Fprintf(stderr, "companion-eval: no baseline named %q\n", *baseline)
		return 2
	}
	halves := []string{companioneval.Tuning}
	if !*tuningOnly {
		halves = append(halves, companioneval.Heldback)
	}
	fmt.Fprintf(stdout, "companion-eval: %s\n", name)
	for _, h := range halves {
		convs, err := companioneval.Load(*dir, h)
		if err != nil {
			fmt.Fprintf(stderr, "companion-eval: %v\n", err)
			return 1
		}
		if *verbose && h == companioneval.Tuning {
			for _, c := range convs {
				r := companioneval.Converse(c, engine)
				fmt.Fprintf(stdout, "\n== %s: %s\n", c.ID, c.Topic)
				misses := companioneval.Misses(r, engine.Keywords)
				for i, ex := range r.Exchanges {
					fmt.Fprintf(stdout, "U: %s\n   %+v\nA: %s\n", ex.Turn.User, ex.Turn.Expect, ex.Reply)
					if len(misses[i]) > 0 {
						fmt.Fprintf(stdout, "   missed: %s\n", strings.Join(misses[i], ", "))
					}
				}
				fmt.Fprintf(stdout, "memories: %q\nnext session: %s\n", r.Memories, r.Recall)
			}
		}
		companioneval.Measure(convs, engine).Write(stdout, h)
	}
	return 0
}
