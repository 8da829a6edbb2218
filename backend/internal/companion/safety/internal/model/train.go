package model

import "math"

// Example is one training text's features and label.
type Example struct {
	Features []uint32
	Risky    bool
	// Weight is the example's weight within its label (0 counts as 1): an outside set of
	// everyday sentences is many times larger than the team's and would otherwise drown it.
	Weight float64
}

func (e Example) weight() float64 {
	if e.Weight == 0 {
		return 1
	}
	return e.Weight
}

// Options tune the training.
type Options struct {
	Epochs int     // full passes over the examples
	L2     float64 // weight of the L2 penalty
	Rate   float64 // AdaGrad's learning rate
	// RiskyShare is the share of the loss the risky examples carry, whatever their count; the
	// rest goes to the harmless ones. Below one half, a text unlike any seen in training
	// scores low, as most messages are harmless.
	RiskyShare float64
	// MaxShare freezes at zero the weight of a feature found in more than this share of the
	// examples: n-grams as common as "and " say nothing about risk, and left free they only
	// offset the bias.
	MaxShare float64
}

// DefaultOptions are the options the committed model was trained with.
var DefaultOptions = Options{Epochs: 600, L2: 1e-5, Rate: 1, RiskyShare: 0.2, MaxShare: 0.05}

// The explicit float64 conversions below keep the compiler from fusing a multiplication and an
// addition (as it may on some architectures), so that the weights are the same bytes everywhere.

// Train fits the logistic regression by full-batch AdaGrad, with the two labels weighted
// by RiskyShare whatever their counts, and quantises it. It is deterministic: the same examples in
// the same order give the same bytes.
func Train(ex []Example, o Options) *Model {
	var nRisky, nHarmless float64
	for _, e := range ex {
		if e.Risky {
			nRisky += e.weight()
		} else {
			nHarmless += e.weight()
		}
	}
	wRisky, wHarmless := o.RiskyShare/math.Max(nRisky, 1), (1-o.RiskyShare)/math.Max(nHarmless, 1)

	// The share of a feature is counted by weight, so that a large outside set at a small
	// weight does not change which features are frozen.
	df := make([]float64, buckets)
	var total float64
	for _, e := range ex {
		total += e.weight()
		for _, f := range e.Features {
			df[f] += e.weight()
		}
	}
	frozen := make([]bool, buckets)
	for i, n := range df {
		frozen[i] = o.MaxShare > 0 && n > o.MaxShare*total
	}

	w := make([]float64, buckets)
	g := make([]float64, buckets)
	acc := make([]float64, buckets)
	var bias, accBias float64
	for range o.Epochs {
		clear(g)
		var gBias float64
		for _, e := range ex {
			if len(e.Features) == 0 {
				continue
			}
			norm := 1 / math.Sqrt(float64(len(e.Features)))
			z := bias
			for _, f := range e.Features {
				z += float64(w[f] * norm)
			}
			p := sigmoid(z)
			y, cw := 0.0, wHarmless
			if e.Risky {
				y, cw = 1, wRisky
			}
			d := (p - y) * float64(cw*e.weight())
			gBias += d
			for _, f := range e.Features {
				g[f] += float64(d * norm)
			}
		}
		for i := range w {
			gi := g[i] + float64(o.L2*w[i])
			if gi == 0 || frozen[i] {
				continue
			}
			acc[i] += float64(gi * gi)
			w[i] -= o.Rate * gi / (math.Sqrt(acc[i]) + 1e-8)
		}
		accBias += float64(gBias * gBias)
		bias -= o.Rate * gBias / (math.Sqrt(accBias) + 1e-8)
	}
	return quantise(w, bias)
}

func quantise(w []float64, bias float64) *Model {
	var top float64
	for _, x := range w {
		top = max(top, math.Abs(x))
	}
	m := &Model{scale: float32(top / 127), bias: float32(bias), w: make([]byte, len(w))}
	if top == 0 {
		return m
	}
	for i, x := range w {
		m.w[i] = byte(int8(max(-127, min(127, math.Round(x/float64(m.scale)))))) // #nosec G115 -- an int8 weight stored as its two's-complement byte
	}
	return m
}
