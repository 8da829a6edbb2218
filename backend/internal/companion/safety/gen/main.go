// Command gen trains the crisis screen's two scorers and writes their weights, one after the
// other, to scorer.bin (run by go generate in the safety package's directory): the first on
// the tuning half of the labelled set and the training corpus, the second (the everyday
// scorer) on the same and the outside sets of everyday and figurative sentences
// (corpus.OutsideFiles), whose veto an unsure score of a message without a strong word of risk
// gives way to. The training is deterministic: the same files give the same bytes.
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
	ex := corpus.Examples(items)
	first := model.Train(ex, model.DefaultOptions)
	for _, f := range corpus.OutsideFiles {
		its, err := corpus.Load(f.Path)
		if err != nil {
			return err
		}
		ex = append(ex, corpus.WeightedExamples(its, f.Weight)...)
	}
	everyday := model.Train(ex, model.DefaultOptions)
	return os.WriteFile("scorer.bin", append(first.Encode(), everyday.Encode()...), 0o644) // #nosec G306 -- a committed, public file (the embedded weights)
}
