package safety

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/percolate/percolate/backend/internal/companion/safety/internal/corpus"
	"github.com/percolate/percolate/backend/internal/companion/safety/internal/model"
)

// cvFolds is the number of folds of the cross-validation.
const cvFolds = 5

// TestCrossValidation is the generalisation bench, run by hand with SAFETY_CV=1 (SAFETY_CV=v
// also lists the misses): the tuning half is cut into cvFolds folds (within each category, by
// the hash of the text); for each fold a scorer is trained on the other folds and the training
// corpus, and the whole layered screen (rules, context rule and that scorer) is run on the
// fold. It reports recall and the false-positive rate per category over all folds, and the
// same over a grid of thresholds. It never reads the held-back half. SAFETY_CV_SUBSET names a
// JSON-lines file whose messages are also reported apart (for example the messages that were
// once held back, on which the rules were never tuned).
func TestCrossValidation(t *testing.T) {
	tuning, extra := handRun(t, "SAFETY_CV")
	subset := map[string]bool{}
	if p := os.Getenv("SAFETY_CV_SUBSET"); p != "" {
		its, err := corpus.Load(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range its {
			subset[cvKey(it)] = true
		}
	}
	o := devOptions()
	type tally struct{ n, flagged, clear int }
	all := map[string]*tally{}
	sub := map[string]*tally{}
	add := func(m map[string]*tally, k string, r Result) {
		if m[k] == nil {
			m[k] = &tally{}
		}
		m[k].n++
		if r.Risky() {
			m[k].flagged++
		}
		if r.Level == Clear {
			m[k].clear++
		}
	}
	var misses []string
	var times []time.Duration
	type cell struct{ tp, fp, nr, nh int }
	grid := map[thresholds]*cell{}
	var order []thresholds
	for _, p := range []float64{0.2, 0.25, 0.3, 0.35, 0.4, 0.5} {
		for _, w := range []float64{0.5, 0.6, 0.7, 0.8} {
			for _, pl := range []float64{0.5, 0.6, 0.7} {
				for _, wk := range []float64{0.3, 0.45, 0.6} {
					th := defaultThresholds
					th.possible, th.window, th.plain, th.weak = p, w, pl, wk
					order = append(order, th)
					grid[th] = &cell{}
				}
			}
		}
	}
	var outside []model.Example
	for _, f := range corpus.OutsideFiles {
		its, err := corpus.Load(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		outside = append(outside, corpus.WeightedExamples(its, f.Weight)...)
	}
	// The everyday set's tuning half, which no scorer is trained on: its ordinary messages
	// (each after "hey", so on its own) and its risky ones, screened by every fold's screen with
	// gates of the everyday scorer: none ({0, 0}), the lower of the two scores ({1, 1}), the
	// shipped one, and with SAFETY_CV_EV=gate a grid.
	everyday, everydayRisky := cvEveryday(t, "ordinary_messages.jsonl"), cvEveryday(t, "risky_messages.jsonl")
	type gate struct{ unsure, veto float64 }
	gates := []gate{{0, 0}, {1, 1}, {defaultThresholds.unsure, defaultThresholds.veto}}
	if os.Getenv("SAFETY_CV_EV") == "gate" {
		for _, u := range []float64{0.5, 0.6, 0.7, 0.8, 0.9} {
			for _, v := range []float64{0.05, 0.1, 0.15, 0.2, 0.3} {
				if !slices.Contains(gates, gate{u, v}) {
					gates = append(gates, gate{u, v})
				}
			}
		}
	}
	type gateCell struct{ tp, nr, fp, nh, ord, ordRisky, evr, evrRisky int }
	gateCells := map[gate]*gateCell{}
	// The cue gate (see hasRiskCue) at cut-offs for a message without a cue: open (0, as
	// shipped), the one it was tried at (cueGate), and with SAFETY_CV_CUE set a grid;
	// SAFETY_CV_CUE=v lists the risky messages
	// the gate at cueGate loses and the everyday ordinary ones it lets through.
	cues := []float64{0, cueGate}
	if os.Getenv("SAFETY_CV_CUE") != "" {
		for _, u := range []float64{0.6, 0.7, 0.8, 0.85, 0.9, 0.95} {
			if !slices.Contains(cues, u) {
				cues = append(cues, u)
			}
		}
	}
	cueCells := map[float64]*gateCell{}
	var cueLost []string
	for k := range cvFolds {
		train, test := corpus.Fold(tuning, k, cvFolds)
		ex := corpus.Examples(append(slices.Clone(train), extra...))
		m := model.Train(ex, o)
		// The everyday scorer of the fold, as ./gen trains it: the same and the outside sets.
		ev := model.Train(append(ex, outside...), o)
		s := &screener{m: m, ev: ev, th: defaultThresholds}
		for _, g := range gates {
			th := defaultThresholds
			th.unsure, th.veto = g.unsure, g.veto
			sc := &screener{m: m, ev: ev, th: th}
			c := gateCells[g]
			if c == nil {
				c = &gateCell{}
				gateCells[g] = c
			}
			for _, it := range test {
				got := sc.screen(it.Text, devContext(sc, it.Context)).Risky()
				if it.Risky() {
					c.nr++
					c.tp += b2i(got)
				} else {
					c.nh++
					c.fp += b2i(got)
				}
			}
			for _, msg := range everyday {
				c.ord++
				c.ordRisky += b2i(sc.screen(msg, Context{}).Risky())
			}
			for _, msg := range everydayRisky {
				c.evr++
				c.evrRisky += b2i(sc.screen(msg, Context{}).Risky())
			}
		}
		for _, u := range cues {
			th := defaultThresholds
			th.uncued = u
			sc := &screener{m: m, ev: ev, th: th}
			c := cueCells[u]
			if c == nil {
				c = &gateCell{}
				cueCells[u] = c
			}
			for _, it := range test {
				got := sc.screen(it.Text, devContext(sc, it.Context)).Risky()
				if it.Risky() {
					c.nr++
					c.tp += b2i(got)
					if u == cueGate && !got {
						open := *s
						open.th.uncued = 0
						if open.screen(it.Text, devContext(&open, it.Context)).Risky() {
							cueLost = append(cueLost, fmt.Sprintf("  [lost %s] %q", it.Category, it.Text))
						}
					}
				} else {
					c.nh++
					c.fp += b2i(got)
				}
			}
			for _, msg := range everyday {
				c.ord++
				got := sc.screen(msg, Context{}).Risky()
				c.ordRisky += b2i(got)
				if u == cueGate && got {
					cueLost = append(cueLost, fmt.Sprintf("  [ordinary flagged] %q", msg))
				}
			}
			for _, msg := range everydayRisky {
				c.evr++
				got := sc.screen(msg, Context{}).Risky()
				c.evrRisky += b2i(got)
				if u == cueGate && !got {
					cueLost = append(cueLost, fmt.Sprintf("  [everyday risky missed] %q", msg))
				}
			}
		}
		for _, it := range test {
			c := devContext(s, it.Context)
			start := time.Now()
			r, layer := s.screenLayer(it.Text, c)
			times = append(times, time.Since(start))
			label := it.Label
			if r.Risky() {
				add(all, "layer "+layer+" "+label, r)
			}
			if r.Weak {
				add(all, "weak "+label, r)
			}
			add(all, it.Category, r)
			add(all, "all "+label, r)
			if subset[cvKey(it)] {
				add(sub, it.Category, r)
				add(sub, "all "+label, r)
			}
			if r.Risky() != it.Risky() {
				misses = append(misses, fmt.Sprintf("  [%s %s -> %v %s] %q", it.Label, it.Category, r.Level, layer, it.Text))
			}
		}
		for _, th := range order {
			sc := &screener{m: m, ev: ev, th: th}
			c := grid[th]
			for _, it := range test {
				got := sc.screen(it.Text, devContext(sc, it.Context)).Risky()
				if it.Risky() {
					c.nr++
					if got {
						c.tp++
					}
				} else {
					c.nh++
					if got {
						c.fp++
					}
				}
			}
		}
	}
	var b strings.Builder
	rate := func(tl *tally) string {
		if tl == nil || tl.n == 0 {
			return "-"
		}
		return fmt.Sprintf("%d/%d (%.1f%%)", tl.flagged, tl.n, 100*float64(tl.flagged)/float64(tl.n))
	}
	slices.Sort(times)
	fmt.Fprintf(&b, "%d-fold cross-validation on the tuning half (%d messages); median %v per screened message\n", cvFolds, len(tuning),
		times[len(times)/2])
	fmt.Fprintf(&b, "| category | all | clear | subset |\n| --- | ---: | ---: | ---: |\n")
	var cats []string
	seen := map[string]bool{}
	for _, it := range tuning {
		if !seen[it.Category] {
			seen[it.Category] = true
			cats = append(cats, it.Category)
		}
	}
	for _, c := range append(cats, "all risky", "all harmless") {
		fmt.Fprintf(&b, "| %s | %s | %d | %s |\n", c, rate(all[c]), all[c].clear, rate(sub[c]))
	}
	// Which layer flagged the messages flagged, risky and harmless.
	for _, l := range []string{"context", "rules", "denial", "possible", "warning", "scorer"} {
		for _, label := range []string{"risky", "harmless"} {
			if tl := all["layer "+l+" "+label]; tl != nil {
				fmt.Fprintf(&b, "flagged by %s: %d %s (%d clear)\n", l, tl.n, label, tl.clear)
			}
		}
	}
	// The weak signals, which a session whose check-in was declined does not ask about again.
	for _, label := range []string{"risky", "harmless"} {
		if tl := all["weak "+label]; tl != nil {
			fmt.Fprintf(&b, "weak signals: %d %s\n", tl.n, label)
		}
	}
	if os.Getenv("SAFETY_CV") == "grid" {
		for _, th := range order {
			c := grid[th]
			fmt.Fprintf(&b, "  possible %.2f window %.2f plain %.2f weak %.2f: recall %d/%d (%.1f%%) FPR %d/%d (%.1f%%)\n", th.possible, th.window, th.plain, th.weak,
				c.tp, c.nr, 100*float64(c.tp)/float64(c.nr), c.fp, c.nh, 100*float64(c.fp)/float64(c.nh))
		}
	}
	for _, g := range gates {
		if c := gateCells[g]; c != nil {
			fmt.Fprintf(&b, "  everyday scorer unsure %.2f veto %.2f: recall %d/%d (%.1f%%) FPR %d/%d; everyday ordinary flagged %d/%d (%.1f%%), everyday risky %d/%d (%.1f%%)\n",
				g.unsure, g.veto, c.tp, c.nr, 100*float64(c.tp)/float64(c.nr), c.fp, c.nh, c.ordRisky, c.ord,
				100*float64(c.ordRisky)/float64(c.ord), c.evrRisky, c.evr, 100*float64(c.evrRisky)/float64(c.evr))
		}
	}
	for _, u := range cues {
		if c := cueCells[u]; c != nil {
			fmt.Fprintf(&b, "  cue gate uncued %.2f: recall %d/%d (%.1f%%) FPR %d/%d; everyday ordinary flagged %d/%d (%.1f%%), everyday risky %d/%d (%.1f%%)\n",
				u, c.tp, c.nr, 100*float64(c.tp)/float64(c.nr), c.fp, c.nh, c.ordRisky, c.ord,
				100*float64(c.ordRisky)/float64(c.ord), c.evrRisky, c.evr, 100*float64(c.evrRisky)/float64(c.evr))
		}
	}
	if os.Getenv("SAFETY_CV_CUE") == "v" {
		b.WriteString(strings.Join(cueLost, "\n") + "\n")
	}
	if os.Getenv("SAFETY_CV") == "v" {
		b.WriteString(strings.Join(misses, "\n"))
	}
	t.Log("\n" + b.String())
}

func cvKey(it corpus.Item) string {
	var b strings.Builder
	for _, t := range it.Context {
		b.WriteString(t.Role + "\x1f" + t.Content + "\x1e")
	}
	return b.String() + "\x1d" + it.Text
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// cvEveryday is the texts of one file of the everyday set's tuning half (never the held-back
// half's).
func cvEveryday(t *testing.T, file string) []string {
	t.Helper()
	b, err := os.ReadFile("../safetyeval/data/everyday/tuning/" + file)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, line := range strings.Split(string(b), "\n") {
		var m struct{ Text string }
		if strings.TrimSpace(line) != "" && json.Unmarshal([]byte(line), &m) == nil {
			texts = append(texts, m.Text)
		}
	}
	return texts
}
