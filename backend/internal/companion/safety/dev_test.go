package safety

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/percolate/percolate/backend/internal/companion/safety/internal/corpus"
	"github.com/percolate/percolate/backend/internal/companion/safety/internal/model"
)

// TestDevSplit is the tuning bench, run by hand with SAFETY_DEV=1: it trains a scorer on the
// development training part of the tuning half plus the training corpus, and reports the
// layered screen on the development test part, where thresholds and features are chosen.
// It never reads the held-back half.
func TestDevSplit(t *testing.T) {
	tuning, extra := handRun(t, "SAFETY_DEV")
	train, test := corpus.DevSplit(tuning)
	o := devOptions()
	if os.Getenv("SAFETY_DEV") == "cv" {
		crossValidate(t, tuning, extra, o)
		return
	}
	m := model.Train(corpus.Examples(append(slices.Clone(train), extra...)), o)
	s := &screener{m: m, th: defaultThresholds}
	for _, part := range []struct {
		name  string
		items []corpus.Item
	}{{"dev-train", train}, {"dev-test", test}} {
		report(t, s, part.name, part.items, part.name == "dev-test" || os.Getenv("SAFETY_DEV") == "v")
	}
	sweep(t, s, test)
}

// handRun skips a bench run by hand unless the variable env is set, and loads what it trains
// and measures on: the tuning half and the training corpus (never the held-back half).
func handRun(t *testing.T, env string) (tuning, extra []corpus.Item) {
	t.Helper()
	if os.Getenv(env) == "" {
		t.Skip(env + " not set")
	}
	tuning, err := corpus.Load(corpus.TuningFile)
	if err != nil {
		t.Fatal(err)
	}
	extra, err = corpus.Load(corpus.ExtraFile)
	if err != nil {
		t.Fatal(err)
	}
	return tuning, extra
}

// crossValidate reports the screen over four folds of the tuning half, each trained on the
// other three and the corpus: a steadier figure than the one development split.
func crossValidate(t *testing.T, tuning, extra []corpus.Item, o model.Options) {
	var risky, flagged, harmless, alarms int
	for k := range 4 {
		train, test := corpus.Fold(tuning, k, 4)
		s := &screener{m: model.Train(corpus.Examples(append(slices.Clone(train), extra...)), o), th: defaultThresholds}
		report(t, s, fmt.Sprintf("fold %d", k), test, os.Getenv("SAFETY_CV") == "v")
		f, r, a, h := score(s, test)
		flagged, risky, alarms, harmless = flagged+f, risky+r, alarms+a, harmless+h
	}
	// The same folds over a grid of thresholds.
	type cell struct{ tp, fp int }
	grid := map[[2]float64]*cell{}
	for k := range 4 {
		train, test := corpus.Fold(tuning, k, 4)
		m := model.Train(corpus.Examples(append(slices.Clone(train), extra...)), o)
		for _, p := range []float64{0.25, 0.3, 0.35, 0.4, 0.45, 0.5} {
			for _, w := range []float64{0.6, 0.7, 0.8} {
				th := defaultThresholds
				th.possible, th.window = p, w
				sc := &screener{m: m, th: th}
				c := grid[[2]float64{p, w}]
				if c == nil {
					c = &cell{}
					grid[[2]float64{p, w}] = c
				}
				tp, _, fp, _ := score(sc, test)
				c.tp, c.fp = c.tp+tp, c.fp+fp
			}
		}
	}
	var b strings.Builder
	for _, p := range []float64{0.25, 0.3, 0.35, 0.4, 0.45, 0.5} {
		for _, w := range []float64{0.6, 0.7, 0.8} {
			c := grid[[2]float64{p, w}]
			fmt.Fprintf(&b, "  possible %.2f window %.2f: recall %d/%d FPR %d/%d\n", p, w, c.tp, risky, c.fp, harmless)
		}
	}
	t.Log("\n" + b.String())
	t.Logf("cross-validated: recall %d/%d (%.1f%%), FPR %d/%d (%.1f%%)", flagged, risky, 100*float64(flagged)/float64(risky),
		alarms, harmless, 100*float64(alarms)/float64(harmless))
}

func devOptions() model.Options {
	o := model.DefaultOptions
	if v := os.Getenv("SAFETY_L2"); v != "" {
		fmt.Sscan(v, &o.L2)
	}
	if v := os.Getenv("SAFETY_SHARE"); v != "" {
		fmt.Sscan(v, &o.RiskyShare)
	}
	if v := os.Getenv("SAFETY_MAXSHARE"); v != "" {
		fmt.Sscan(v, &o.MaxShare)
	}
	if v := os.Getenv("SAFETY_RATE"); v != "" {
		fmt.Sscan(v, &o.Rate)
	}
	if v := os.Getenv("SAFETY_NEG"); v != "" {
		fmt.Sscan(v, &model.NegationScope)
	}
	if v := os.Getenv("SAFETY_TRI"); v != "" {
		model.Trigrams = v == "1"
	}
	if v := os.Getenv("SAFETY_EPOCHS"); v != "" {
		fmt.Sscan(v, &o.Epochs)
	}
	return o
}

// score runs s on items: how many of the risky ones it flags, of how many, and how many of
// the harmless ones it flags (false alarms), of how many.
func score(s *screener, items []corpus.Item) (flagged, risky, alarms, harmless int) {
	for _, it := range items {
		got := s.screen(it.Text, devContext(s, it.Context)).Risky()
		if it.Risky() {
			risky++
			if got {
				flagged++
			}
		} else {
			harmless++
			if got {
				alarms++
			}
		}
	}
	return flagged, risky, alarms, harmless
}

// sweep reports recall and false-positive rate on items for a grid of thresholds.
func sweep(t *testing.T, s *screener, items []corpus.Item) {
	var b strings.Builder
	for _, p := range []float64{0.25, 0.3, 0.35, 0.4} {
		for _, short := range []float64{0.6, 0.7, 0.8, 0.85, 0.9, 0.95} {
			th := defaultThresholds
			th.possible, th.short = p, short
			sc := &screener{m: s.m, th: th}
			tp, nr, fp, nh := score(sc, items)
			fmt.Fprintf(&b, "  possible %.2f short %.2f: recall %d/%d FPR %d/%d\n", p, short, tp, nr, fp, nh)
		}
	}
	t.Log("\n" + b.String())
}
func report(t *testing.T, s *screener, name string, items []corpus.Item, verbose bool) {
	type tally struct{ n, flagged, clear int }
	cats := map[string]*tally{}
	var order []string
	var risky, harmless tally
	var misses []string
	for _, it := range items {
		r := s.screen(it.Text, devContext(s, it.Context))
		if cats[it.Category] == nil {
			cats[it.Category] = &tally{}
			order = append(order, it.Category)
		}
		for _, tl := range []*tally{cats[it.Category], map[bool]*tally{true: &risky, false: &harmless}[it.Risky()]} {
			tl.n++
			if r.Risky() {
				tl.flagged++
			}
			if r.Level == Clear {
				tl.clear++
			}
		}
		if r.Risky() != it.Risky() {
			misses = append(misses, fmt.Sprintf("  [%s %s -> %v] %q", it.Label, it.Category, r.Level, it.Text))
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: recall %d/%d (%.1f%%), FPR %d/%d (%.1f%%)\n", name, risky.flagged, risky.n,
		100*float64(risky.flagged)/float64(risky.n), harmless.flagged, harmless.n, 100*float64(harmless.flagged)/float64(harmless.n))
	for _, c := range order {
		tl := cats[c]
		fmt.Fprintf(&b, "  %-24s %3d %3d %3d\n", c, tl.n, tl.flagged, tl.clear)
	}
	if verbose {
		b.WriteString(strings.Join(misses, "\n"))
	}
	t.Log("\n" + b.String())
}

// devContext builds the screen's context from the turns before a message, as the
// safety-eval adapter does.
func devContext(s *screener, prev []corpus.Turn) Context {
	var c Context
	for i := len(prev) - 1; i >= 0; i-- {
		if prev[i].Role == "assistant" {
			if i == len(prev)-1 && devCheckIn.MatchString(strings.ToLower(prev[i].Content)) {
				c.CheckedIn = true
				// As safety-eval's context does: "no" to "are you safe?" confirms the risk.
				c.AskedSafe = devSafeQuestion.MatchString(strings.ToLower(prev[i].Content))
			}
			continue
		}
		c.Previous = s.screen(prev[i].Content, devContext(s, prev[:i])).Level
		break
	}
	return c
}

// devSafeQuestion is safety-eval's question about being safe (safetyeval.safeQuestion).
var devSafeQuestion = regexp.MustCompile(`are you safe|feel safe|safe right now`)

var devCheckIn = regexp.MustCompile(`hurt(ing)? yourself|harm(ing)? yourself|end(ing)? your life|kill(ing)? yourself|suicid|are you safe|feel safe|safe right now|take something|not wanting to be alive|tried to end|what do you mean|what are you thinking about|hurting you|hurt you|making you do|touching you|threatening you|are you in danger|how you (would|d|will|might|plan to) do it|when you (would|d|will|might|plan to) do it|thought about (how|when)\?$|where are you right now|planning to do with (them|it|those)`)
