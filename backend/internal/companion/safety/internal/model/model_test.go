package model

import (
	"bytes"
	"slices"
	"testing"
)

func examples() []Example {
	var ex []Example
	for _, s := range []string{" i want to die ", " i want to end my life ", " i have the pills ready "} {
		ex = append(ex, Example{Features: Features(s), Risky: true})
	}
	for _, s := range []string{" i want to go home ", " i have the notes ready ", " end of term party "} {
		ex = append(ex, Example{Features: Features(s), Risky: false})
	}
	return ex
}

func TestTrainSeparatesAndIsDeterministic(t *testing.T) {
	o := Options{Epochs: 200, L2: 1e-5, Rate: 1, RiskyShare: 0.5}
	a, b := Train(examples(), o), Train(examples(), o)
	if !bytes.Equal(a.Encode(), b.Encode()) {
		t.Fatal("two trainings on the same examples differ")
	}
	for _, e := range examples() {
		if p := a.Score(e.Features); (p >= 0.5) != e.Risky {
			t.Errorf("score %.2f for a risky=%v training example", p, e.Risky)
		}
	}
}

func TestEncodeDecode(t *testing.T) {
	m := Train(examples(), DefaultOptions)
	b := m.Encode()
	if len(b) != 16+1<<Bits {
		t.Fatalf("encoded size %d", len(b))
	}
	d, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	fs := Features(" i want to die ")
	if d.Score(fs) != m.Score(fs) {
		t.Error("the decoded model scores differently")
	}
	for _, bad := range [][]byte{nil, []byte("PSS1"), append([]byte("XXXX"), b[4:]...), b[:len(b)-1]} {
		if _, err := Decode(bad); err == nil {
			t.Errorf("Decode accepted %d bad bytes", len(bad))
		}
	}
}

func TestFeatures(t *testing.T) {
	fs := Features(" a b ")
	if !slices.IsSorted(fs) || len(slices.Compact(slices.Clone(fs))) != len(fs) {
		t.Fatalf("features not sorted and unique: %v", fs)
	}
	// Spacing does not matter; words do.
	if !slices.Equal(Features("a   b"), fs) || slices.Equal(Features(" a c "), fs) {
		t.Error("features depend on spacing, or not on the words")
	}
	if len(Features("")) != 0 {
		t.Error("features of empty text")
	}
}

// TestWeights: a weight of one is no weight (the same bytes), and an outside example at a small
// weight pulls the model less than at full weight.
func TestWeights(t *testing.T) {
	o := Options{Epochs: 200, L2: 1e-5, Rate: 1, RiskyShare: 0.5, MaxShare: 0.5}
	ones := examples()
	for i := range ones {
		ones[i].Weight = 1
	}
	if !bytes.Equal(Train(examples(), o).Encode(), Train(ones, o).Encode()) {
		t.Fatal("weight 1 trains a different model from no weight")
	}
	outside := Example{Features: Features(" i want to go to the pub "), Risky: false}
	probe := outside.Features
	light, full := outside, outside
	light.Weight, full.Weight = 0.05, 1
	pl := Train(append(examples(), light), o).Score(probe)
	pf := Train(append(examples(), full), o).Score(probe)
	if !(pf < pl) {
		t.Errorf("score at full weight %.3f, want below the score at a small weight %.3f", pf, pl)
	}
}
