package safety

import (
	"fmt"
	"os"
	"slices"
	"testing"

	"github.com/percolate/percolate/backend/internal/companion/safety/internal/corpus"
	"github.com/percolate/percolate/backend/internal/companion/safety/internal/model"
)

// TestEverydayCrossValidation is the bench behind corpus.EverydayRepeat and the possible
// threshold, run by hand with SAFETY_CV=1: the labelled tuning half and the everyday tuning
// half's single messages are each cut into cvFolds folds; for each fold a scorer is trained on
// the other folds (the everyday ones given 0 to 5 times) and the corpus, and the layered screen
// is run on the fold, at two possible thresholds. It reports recall and the false-positive
// rate of both sets. It never reads a held-back half.
func TestEverydayCrossValidation(t *testing.T) {
	if os.Getenv("SAFETY_CV") == "" {
		t.Skip("SAFETY_CV not set")
	}
	tuning, err := corpus.Load(corpus.TuningFile)
	if err != nil {
		t.Fatal(err)
	}
	extra, err := corpus.Load(corpus.ExtraFile)
	if err != nil {
		t.Fatal(err)
	}
	everyday, err := corpus.LoadEveryday(corpus.EverydayTuningDir)
	if err != nil {
		t.Fatal(err)
	}
	type cell struct{ tp, nr, fp, nh int }
	cells := map[string]*cell{}
	add := func(k string, risky bool, r Result) {
		if cells[k] == nil {
			cells[k] = &cell{}
		}
		c := cells[k]
		switch {
		case risky:
			c.nr++
			if r.Risky() {
				c.tp++
			}
		default:
			c.nh++
			if r.Risky() {
				c.fp++
			}
		}
	}
	for k := range cvFolds {
		ltrain, ltest := corpus.Fold(tuning, k, cvFolds)
		etrain, etest := corpus.Fold(everyday, k, cvFolds)
		for _, rep := range []int{0, 1, 3, 5} {
			train := append(slices.Clone(ltrain), extra...)
			for range rep {
				train = append(train, etrain...)
			}
			m := model.Train(corpus.Examples(train), devOptions())
			for _, p := range []float64{0.3, 0.35} {
				th := defaultThresholds
				th.possible = p
				s := &screener{m: m, th: th}
				name := fmt.Sprintf("everyday ×%d, possible %.2f", rep, p)
				for _, it := range ltest {
					add(name+" | labelled", it.Risky(), s.screen(it.Text, devContext(s, it.Context)))
				}
				for _, it := range etest {
					add(name+" | everyday", it.Risky(), s.screen(it.Text, Context{}))
				}
			}
		}
	}
	names := make([]string, 0, len(cells))
	for k := range cells {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		c := cells[k]
		t.Logf("%-45s recall %d/%d (%.1f%%), false positives %d/%d (%.1f%%)", k, c.tp, c.nr,
			100*float64(c.tp)/float64(c.nr), c.fp, c.nh, 100*float64(c.fp)/float64(c.nh))
	}
}
