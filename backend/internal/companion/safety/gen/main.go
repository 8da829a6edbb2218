// Command gen trains the crisis screen's scorer on the tuning half of the labelled set and the
// training corpus, and writes its weights to scorer.bin (run by go generate in the safety
// package's directory). The training is deterministic: the same files give the same bytes.
package main

import (
	"fmt"
	"os"

	"github.com/percolate/percolate/backend/internal/companion/safety/internal/corpus"
	"github.com/percolate/percolate/backend/internal/companion/safety/internal/model"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run() error {
	var items []corpus.Item
	for _, f := range []string{corpus.TuningFile, corpus.ExtraFile} {
		its, err := corpus.Load(f)
		if err != nil {
			return err
		}
		items = append(items, its...)
	}
	m := model.Train(corpus.Examples(items), model.DefaultOptions)
	return os.WriteFile("scorer.bin", m.Encode(), 0o644) // #nosec G306 -- a committed, public file (the embedded weights)
}
