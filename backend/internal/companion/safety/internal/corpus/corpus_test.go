package corpus

import (
	"fmt"
	"slices"
	"testing"
)

func TestDevSplitIsStratifiedAndStable(t *testing.T) {
	var items []Item
	for c := range 3 {
		for i := range 8 {
			items = append(items, Item{Text: fmt.Sprintf("message %d", i), Label: "risky", Category: fmt.Sprintf("c%d", c)})
		}
	}
	train, test := DevSplit(items)
	if len(train) != 18 || len(test) != 6 {
		t.Fatalf("split %d/%d, want 18/6", len(train), len(test))
	}
	per := map[string]int{}
	for _, it := range test {
		per[it.Category]++
	}
	for c, n := range per {
		if n != 2 {
			t.Errorf("%s has %d test items, want 2", c, n)
		}
	}
	shuffled := slices.Clone(items)
	slices.Reverse(shuffled)
	_, test2 := DevSplit(shuffled)
	key := func(its []Item) (ks []string) {
		for _, it := range its {
			ks = append(ks, it.Category+it.Text)
		}
		slices.Sort(ks)
		return ks
	}
	if !slices.Equal(key(test), key(test2)) {
		t.Error("the split depends on the order of the items")
	}
}

func TestTrainingFilesLoad(t *testing.T) {
	for _, f := range []string{"../../" + TuningFile, "../../" + ExtraFile} {
		items, err := Load(f)
		if err != nil {
			t.Fatal(err)
		}
		if len(items) < 400 {
			t.Errorf("%s: %d items", f, len(items))
		}
	}
}
