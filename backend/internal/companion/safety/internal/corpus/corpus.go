// Package corpus reads the texts the scorer is trained on: the tuning half of the labelled set
// (never the held-back half) and the screen's own training corpus, and makes the development
// split of the tuning half that thresholds are chosen on.
package corpus

import (
	"bufio"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"slices"
	"strings"

	"github.com/percolate/percolate/backend/internal/companion/safety/internal/model"
	"github.com/percolate/percolate/backend/internal/companion/safety/internal/text"
)

// The files the scorer is trained on, relative to the safety package's directory.
const (
	TuningFile = "../safetyeval/data/tuning.jsonl"
	ExtraFile  = "training/extra.jsonl"
)

// OutsideFiles are the public sets of everyday and figurative sentences the scorer is also
// trained on, all harmless (see training/external/README.md), each with the weight of one of
// its sentences against one of the team's.
var OutsideFiles = []struct {
	Path   string
	Weight float64
}{
	{"training/external/sad/sad.jsonl", sadWeight},
	{"training/external/xstest/safe.jsonl", 1},
}

// sadWeight is the weight of one of SAD's sentences: everyday stress, told much as students
// tell it, but 6,692 of them against about 1,500 of the team's harmless messages.
const sadWeight = 0.3

// WeightedExamples are Examples, each with the given weight.
func WeightedExamples(items []Item, w float64) []model.Example {
	ex := Examples(items)
	for i := range ex {
		ex[i].Weight = w
	}
	return ex
}

// Turn is one earlier turn of a conversation.
type Turn struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Item is one labelled message, in the labelled set's format.
type Item struct {
	Text     string `json:"text"`
	Label    string `json:"label"`
	Category string `json:"category"`
	CSSRS    string `json:"cssrs,omitempty"`
	Context  []Turn `json:"context,omitempty"`
}

// Risky reports whether the item is labelled risky.
func (it Item) Risky() bool { return it.Label == "risky" }

// Load reads one JSON-lines file.
func Load(path string) ([]Item, error) {
	f, err := os.Open(path) // #nosec G304 -- a file of the repository's labelled set, read at build time
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var items []Item
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 1024*1024)
	for line := 1; sc.Scan(); line++ {
		b := strings.TrimSpace(sc.Text())
		if b == "" || strings.HasPrefix(b, "//") {
			continue
		}
		var it Item
		if err := json.Unmarshal([]byte(b), &it); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		if it.Label != "risky" && it.Label != "harmless" {
			return nil, fmt.Errorf("%s:%d: label %q", path, line, it.Label)
		}
		items = append(items, it)
	}
	return items, sc.Err()
}

// DevSplit divides the tuning half once, deterministically, into a development training part
// and a development test part (one item in four of each category, chosen by the hash of its
// text), on which thresholds and features are tuned.
func DevSplit(items []Item) (train, test []Item) { return Fold(items, 3, 4) }

// Fold is fold k of n of the same stratified order: within each category, the items whose
// place in the hashed order is k modulo n are the test part.
func Fold(items []Item, k, n int) (train, test []Item) {
	byCat := map[string][]Item{}
	var cats []string
	for _, it := range items {
		if _, ok := byCat[it.Category]; !ok {
			cats = append(cats, it.Category)
		}
		byCat[it.Category] = append(byCat[it.Category], it)
	}
	for _, c := range cats {
		its := slices.Clone(byCat[c])
		slices.SortStableFunc(its, func(a, b Item) int { return cmpHash(a, b) })
		for i, it := range its {
			if i%n == k {
				test = append(test, it)
			} else {
				train = append(train, it)
			}
		}
	}
	return train, test
}

func cmpHash(a, b Item) int {
	ha, hb := key(a), key(b)
	switch {
	case ha < hb:
		return -1
	case ha > hb:
		return 1
	}
	return 0
}

func key(it Item) uint64 {
	h := fnv.New64a()
	for _, t := range it.Context {
		h.Write([]byte(t.Content + "\x1e"))
	}
	h.Write([]byte(it.Text))
	return h.Sum64()
}

// Examples turns items into training examples: the masked text of each (see text.Mask) and,
// for long messages, each sentence of a harmless one as a harmless example too. Items whose
// risk lies in their context ("yes" after a check-in) are left out: the context rule, not the
// scorer, reads them.
func Examples(items []Item) []model.Example {
	var ex []model.Example
	for _, it := range items {
		if it.Risky() && len(it.Context) > 0 {
			continue
		}
		m := text.Mask(it.Text)
		ex = append(ex, model.Example{Features: model.Features(m.Text), Risky: it.Risky()})
		if !it.Risky() && len(strings.Fields(it.Text)) >= 20 {
			for _, s := range m.Sentences {
				ex = append(ex, model.Example{Features: model.Features(s), Risky: false})
			}
		}
	}
	return ex
}
