package safety

import (
	"fmt"
	"math"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/optimize"

	"github.com/percolate/percolate/backend/internal/companion/safety/internal/corpus"
	"github.com/percolate/percolate/backend/internal/companion/safety/internal/model"
	"github.com/percolate/percolate/backend/internal/companion/safety/internal/text"
	"github.com/percolate/percolate/backend/internal/encoder"
	"github.com/percolate/percolate/backend/internal/encoder/fullmodel"
)

// TestFullEncoder is the bench that asks whether the full USE-lite encoder (2 transformer
// layers, 512-d, run by Node) would help the screen more than the distilled table does (issue
// 32 §1: "a second stage where the table is unsure, if that measurably helps"). Run by hand
// with SAFETY_FULLENC=1 (it needs node and frontend's npm packages); findings in
// bench/findings.md. It never reads a held-back half.
//
// With cv_test.go's five folds of the labelled tuning half, for each fold a logistic head is
// trained on the other folds, the training corpus (extra.jsonl), XSTest's safe prompts and one
// SAD sentence in eight, over one of:
//   - full: the full model's 512-d vector of the raw text and the n-gram scorer's score;
//   - table: encoder.Embed's 256-d vector and the same score;
//   - score: the score alone (the control: what the vectors add).
//
// The score is out of fold for every text the head is trained on (an inner five-fold split of
// the other folds and the corpus) and the fold's own scorer's for the fold and the everyday
// set. Each head is read two ways, over a sweep of its threshold: "alone" (the rules and the
// context rule, then the head instead of the scorer, the check-in phrasings and the denial
// rule) and "veto" (today's screen, with a message flagged by the scorer alone, at either
// level, kept only if the head agrees: the second stage). Figures: recall on the risky
// labelled items, harmless look-alikes flagged, and the everyday tuning half's ordinary and
// risky messages flagged by each of the five fold screens, at today's cross-validated recall
// and a little below.
//
// The full model's vectors come from encoder/fullmodel (cached in /tmp/fullenc, or
// $FULLENC_CACHE; texts not there yet are embedded by encoder/gen/embed-texts.mjs).
// SAFETY_FULLENC_L2 sets the heads' L2 penalties (default "0.001,0.01,0.1");
// SAFETY_FULLENC_FEATS=screen gives every head the lexicon's strength and the screen's level
// too (see scoreFeatures).
func TestFullEncoder(t *testing.T) {
	tuning, extra := handRun(t, "SAFETY_FULLENC")
	everyday, everydayRisky := cvEveryday(t, "ordinary_messages.jsonl"), cvEveryday(t, "risky_messages.jsonl")
	sad, err := corpus.Load(corpus.OutsideFiles[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	var outside []corpus.Item
	for i, it := range sad {
		if i%8 == 0 {
			outside = append(outside, it)
		}
	}
	xs, err := corpus.Load(corpus.OutsideFiles[1].Path)
	if err != nil {
		t.Fatal(err)
	}
	outside = append(outside, xs...)

	var texts []string
	for _, its := range [][]corpus.Item{tuning, extra, outside} {
		for _, it := range its {
			texts = append(texts, it.Text)
		}
	}
	texts = append(append(texts, everyday...), everydayRisky...)
	fullVecs, timing, err := fullmodel.Vectors(texts)
	if err != nil {
		t.Fatal(err)
	}
	if timing != "" {
		t.Log("full model: " + timing)
	}
	full := map[string][]float32{}
	for i, s := range texts {
		full[s] = fullVecs[i]
	}
	vec := map[string]map[string][]float64{"full": {}, "table": {}, "score": {}}
	for _, s := range texts {
		f := full[s]
		v := make([]float64, len(f))
		for i, x := range f {
			v[i] = float64(x)
		}
		vec["full"][s] = v
		e := encoder.Embed(s)
		w := make([]float64, len(e))
		for i, x := range e {
			w[i] = float64(x)
		}
		vec["table"][s] = w
		vec["score"][s] = nil
	}
	heads := []string{"full", "table", "score"}
	l2s := []float64{0.001, 0.01, 0.1}
	if v := os.Getenv("SAFETY_FULLENC_L2"); v != "" {
		l2s = nil
		for _, f := range strings.Split(v, ",") {
			var x float64
			fmt.Sscan(f, &x)
			l2s = append(l2s, x)
		}
	}

	o := devOptions()
	var outsideEx []model.Example
	for _, f := range corpus.OutsideFiles {
		its, err := corpus.Load(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		outsideEx = append(outsideEx, corpus.WeightedExamples(its, f.Weight)...)
	}
	// A record is one screened message of one fold: today's verdict and each head's probability.
	type record struct {
		risky, flagged, hard bool // hard: flagged by the context rule or the rules
		scorerOnly           bool // flagged by the scorer alone
		layer                string
		p                    map[string]float64
	}
	var labelled, ordinary, evRisky []record
	start := time.Now()
	for k := range cvFolds {
		train, test := corpus.Fold(tuning, k, cvFolds)
		pool := append(slices.Clone(train), extra...)
		ex := corpus.Examples(pool)
		m := model.Train(ex, o)
		ev := model.Train(append(ex, outsideEx...), o)
		s := &screener{m: m, ev: ev, th: defaultThresholds}

		// The score feature of each text the head is trained on, out of fold.
		type row struct {
			text  string
			risky bool
			sc    []float64
		}
		var rows []row
		for j := range cvFolds {
			in, out := corpus.Fold(pool, j, cvFolds)
			mj := &screener{m: model.Train(corpus.Examples(in), o), th: defaultThresholds}
			for _, it := range out {
				if it.Risky() && len(it.Context) > 0 {
					continue // its risk is in its context, which the context rule reads
				}
				rows = append(rows, row{it.Text, it.Risky(), scoreFeatures(mj, it.Text)})
			}
		}
		plain := &screener{m: m, th: defaultThresholds}
		for _, it := range outside {
			rows = append(rows, row{it.Text, false, scoreFeatures(plain, it.Text)})
		}
		probs := map[string]map[string]func(string) float64{}
		for _, h := range heads {
			probs[h] = map[string]func(string) float64{}
			for _, l2 := range l2s {
				var X [][]float64
				var y []bool
				for _, r := range rows {
					X = append(X, append(slices.Clone(r.sc), vec[h][r.text]...))
					y = append(y, r.risky)
				}
				lr := trainLogistic(X, y, l2)
				probs[h][l2Key(l2)] = func(msg string) float64 {
					return lr.prob(append(scoreFeatures(plain, msg), vec[h][msg]...))
				}
			}
		}
		rec := func(msg string, c Context, risky bool) record {
			r, layer := s.screenLayer(msg, c)
			rc := record{risky: risky, flagged: r.Risky(), hard: layer == "context" || layer == "unclear" || layer == "rules" || layer == "defused", // defused: mostly a rule lowered to the check-in
				scorerOnly: layer == "scorer", layer: layer, p: map[string]float64{}}
			for _, h := range heads {
				for _, l2 := range l2s {
					rc.p[h+" "+l2Key(l2)] = probs[h][l2Key(l2)](msg)
				}
			}
			return rc
		}
		for _, it := range test {
			labelled = append(labelled, rec(it.Text, devContext(s, it.Context), it.Risky()))
		}
		for _, msg := range everyday {
			ordinary = append(ordinary, rec(msg, Context{}, false))
		}
		for _, msg := range everydayRisky {
			evRisky = append(evRisky, rec(msg, Context{}, true))
		}
		t.Logf("fold %d done after %v", k, time.Since(start).Round(time.Second))
	}

	type point struct{ tp, nr, fp, nh, ord, nord, evr, nevr int }
	count := func(flag func(record) bool) point {
		var p point
		for _, r := range labelled {
			if r.risky {
				p.nr++
				p.tp += b2i(flag(r))
			} else {
				p.nh++
				p.fp += b2i(flag(r))
			}
		}
		for _, r := range ordinary {
			p.nord++
			p.ord += b2i(flag(r))
		}
		for _, r := range evRisky {
			p.nevr++
			p.evr += b2i(flag(r))
		}
		return p
	}
	pct := func(a, b int) string { return fmt.Sprintf("%d/%d (%.1f%%)", a, b, 100*float64(a)/float64(b)) }
	line := func(name string, p point) string {
		return fmt.Sprintf("| %s | %s | %s | %s | %s |\n", name, pct(p.tp, p.nr), pct(p.fp, p.nh), pct(p.ord, p.nord), pct(p.evr, p.nevr))
	}
	var b strings.Builder
	today := count(func(r record) bool { return r.flagged })
	fmt.Fprintf(&b, "%d-fold CV, %d labelled messages, everyday %d ordinary and %d risky a fold; %v\n", cvFolds, len(tuning),
		len(everyday), len(everydayRisky), time.Since(start).Round(time.Second))
	fmt.Fprintf(&b, "| screen | recall | harmless flagged | everyday ordinary flagged | everyday risky flagged |\n|---|---|---|---|---|\n")
	b.WriteString(line("today", today))
	// Which layer flagged today's everyday ordinary flags.
	layers := map[string]int{}
	for _, r := range ordinary {
		if r.flagged {
			layers[r.layer]++
		}
	}
	fmt.Fprintf(&b, "today's everyday ordinary flags by layer: %v\n", layers)
	modes := []struct {
		name  string
		flag  func(r record, p, th float64) bool
		drops []int
	}{
		{"alone", func(r record, p, th float64) bool { return r.hard || p >= th }, []int{-5, 0, 5, 10, 20}},
		{"veto", func(r record, p, th float64) bool { return r.flagged && (!r.scorerOnly || p >= th) }, []int{0, 5, 10, 20}},
		// vetoall: the head also overrules the check-in phrasings and the denial rule.
		{"vetoall", func(r record, p, th float64) bool { return r.flagged && (r.hard || p >= th) }, []int{0, 5, 10, 20}},
		// or: the head also flags what today's screen does not (for recall).
		{"or", func(r record, p, th float64) bool { return r.flagged || p >= th }, []int{-20, -10, -5}},
	}
	for _, md := range modes {
		for _, h := range heads {
			for _, l2 := range l2s {
				key := h + " " + l2Key(l2)
				// Every threshold that changes a labelled verdict, highest first.
				var ths []float64
				for _, r := range labelled {
					ths = append(ths, r.p[key])
				}
				sort.Sort(sort.Reverse(sort.Float64Slice(ths)))
				for _, drop := range md.drops {
					want := today.tp - drop
					for _, th := range ths {
						p := count(func(r record) bool { return md.flag(r, r.p[key], th) })
						if p.tp >= want {
							b.WriteString(line(fmt.Sprintf("%s %s L2 %s (recall %+d) t=%.3f", md.name, h, l2Key(l2), -drop, th), p))
							break
						}
					}
				}
			}
		}
	}
	t.Log("\n" + b.String())
}

func l2Key(l2 float64) string { return fmt.Sprintf("%g", l2) }

// scoreFeatures are the n-gram scorer's features of a message for a head: the logit of its
// score of the whole masked text, and the logit of the highest of its window scores (the whole
// text's for a message under longWords words). With SAFETY_FULLENC_FEATS=screen, also the
// lexicon's strength and the screen's level (with s's scorer, on the message on its own), one
// hot each.
func scoreFeatures(s *screener, msg string) []float64 {
	mk := text.Mask(msg)
	whole := s.m.Score(model.Features(mk.Text))
	strength := lexiconStrength(mk.Text)
	w, win, weak := s.score(mk, strength)
	f := []float64{logit(whole), logit(max(w, win, weak))}
	if os.Getenv("SAFETY_FULLENC_FEATS") == "screen" {
		level := s.screen(msg, Context{}).Level
		f = append(f, float64(b2i(strength == 1)), float64(b2i(strength == 2)), float64(b2i(level == Possible)), float64(b2i(level == Clear)))
	}
	return f
}

func logit(p float64) float64 {
	p = min(max(p, 1e-4), 1-1e-4)
	return math.Log(p / (1 - p))
}

// logistic is a logistic regression over standardised features.
type logistic struct {
	mean, sd, w []float64
	bias        float64
}

func (l *logistic) prob(x []float64) float64 {
	z := l.bias
	for i, v := range x {
		z += l.w[i] * (v - l.mean[i]) / l.sd[i]
	}
	return 1 / (1 + math.Exp(-z))
}

// trainLogistic fits it by L-BFGS: both labels carry half the loss whatever their counts, plus
// l2/2 times the squared weights (the bias is free).
func trainLogistic(X [][]float64, y []bool, l2 float64) *logistic {
	n, d := len(X), len(X[0])
	l := &logistic{mean: make([]float64, d), sd: make([]float64, d)}
	for _, x := range X {
		for i, v := range x {
			l.mean[i] += v / float64(n)
		}
	}
	for _, x := range X {
		for i, v := range x {
			l.sd[i] += (v - l.mean[i]) * (v - l.mean[i]) / float64(n)
		}
	}
	for i := range l.sd {
		l.sd[i] = math.Sqrt(l.sd[i]) + 1e-9
	}
	Z := make([][]float64, n)
	for j, x := range X {
		Z[j] = make([]float64, d)
		for i, v := range x {
			Z[j][i] = (v - l.mean[i]) / l.sd[i]
		}
	}
	var nPos float64
	for _, v := range y {
		if v {
			nPos++
		}
	}
	wPos, wNeg := 0.5/nPos, 0.5/(float64(n)-nPos)
	grad := func(g, beta []float64) float64 {
		var loss float64
		if g != nil {
			clear(g)
		}
		for j, z := range Z {
			s := beta[d]
			for i, v := range z {
				s += beta[i] * v
			}
			wt, target := wNeg, 0.0
			if y[j] {
				wt, target = wPos, 1
			}
			p := 1 / (1 + math.Exp(-s))
			// log(1+e^s) - target*s, stably.
			loss += wt * (math.Max(s, 0) + math.Log1p(math.Exp(-math.Abs(s))) - target*s)
			if g != nil {
				e := wt * (p - target)
				for i, v := range z {
					g[i] += e * v
				}
				g[d] += e
			}
		}
		for i := range d {
			loss += l2 / 2 * beta[i] * beta[i]
			if g != nil {
				g[i] += l2 * beta[i]
			}
		}
		return loss
	}
	res, err := optimize.Minimize(optimize.Problem{
		Func: func(beta []float64) float64 { return grad(nil, beta) },
		Grad: func(g, beta []float64) { grad(g, beta) },
	}, make([]float64, d+1), &optimize.Settings{GradientThreshold: 1e-7, MajorIterations: 2000}, &optimize.LBFGS{})
	if err != nil && res == nil {
		panic(err)
	}
	l.w, l.bias = res.X[:d], res.X[d]
	return l
}
