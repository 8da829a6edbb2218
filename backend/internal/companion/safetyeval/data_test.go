package safetyeval

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/percolate/percolate/backend/internal/companion"
)

// loadData reads the committed set: the full set and its two halves.
func loadData(t *testing.T) (full, tuning, held []Item) {
	t.Helper()
	full, err := LoadDir(filepath.Join("data", FullDir))
	if err != nil {
		t.Fatal(err)
	}
	if tuning, err = LoadFile(filepath.Join("data", TuningFile)); err != nil {
		t.Fatal(err)
	}
	if held, err = LoadFile(filepath.Join("data", HeldbackFile)); err != nil {
		t.Fatal(err)
	}
	return full, tuning, held
}

func TestDataIsWellFormedAndCoversEveryCategory(t *testing.T) {
	full, tuning, held := loadData(t)
	for name, items := range map[string][]Item{"full": full, "tuning": tuning, "held-back": held} {
		if err := Validate(items); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}

	labels := map[Label]int{}
	cats := map[string]int{}
	levels := map[Level]int{}
	withContext := map[Label]int{}
	for _, it := range full {
		labels[it.Label]++
		cats[it.Category]++
		if it.CSSRS != "" {
			levels[it.CSSRS]++
		}
		if len(it.Context) > 0 {
			withContext[it.Label]++
		}
	}
	for _, l := range []Label{Risky, Harmless} {
		if labels[l] < 400 {
			t.Errorf("%d %s messages, want at least 400", labels[l], l)
		}
		if withContext[l] < MinPerCategory {
			t.Errorf("%d %s messages with context, want at least %d", withContext[l], l, MinPerCategory)
		}
	}
	if len(labels) != 2 {
		t.Errorf("labels %v, want only risky and harmless", labels)
	}
	for _, c := range Categories {
		if cats[c.Name] < MinPerCategory {
			t.Errorf("category %s has %d messages, want at least %d", c.Name, cats[c.Name], MinPerCategory)
		}
	}
	for _, l := range Levels {
		if levels[l] < MinPerCategory {
			t.Errorf("C-SSRS level %s has %d messages, want at least %d", l, levels[l], MinPerCategory)
		}
	}

	// Stratified: every category is in both halves, nearly evenly.
	count := func(items []Item) map[string]int {
		m := map[string]int{}
		for _, it := range items {
			m[it.Category]++
		}
		return m
	}
	tc, hc := count(tuning), count(held)
	for _, c := range Categories {
		if tc[c.Name] == 0 || hc[c.Name] == 0 {
			t.Errorf("category %s: %d tuning, %d held-back; want it in both halves", c.Name, tc[c.Name], hc[c.Name])
		}
		if d := tc[c.Name] - hc[c.Name]; d > 1 || d < -1 {
			t.Errorf("category %s: %d tuning, %d held-back; want halves within one", c.Name, tc[c.Name], hc[c.Name])
		}
	}
}

func TestHalvesPartitionTheFullSet(t *testing.T) {
	full, tuning, held := loadData(t)
	inTuning := map[string]Item{}
	for _, it := range tuning {
		inTuning[it.Key()] = it
	}
	halves := map[string]Item{}
	for _, it := range held {
		if _, both := inTuning[it.Key()]; both {
			t.Errorf("a %s message is in both halves", it.Category)
		}
		halves[it.Key()] = it
	}
	for k, it := range inTuning {
		halves[k] = it
	}
	if len(halves) != len(full) || len(tuning)+len(held) != len(full) {
		t.Fatalf("halves hold %d+%d messages (%d distinct), the full set %d", len(tuning), len(held), len(halves), len(full))
	}
	for i, it := range full {
		got, ok := halves[it.Key()]
		if !ok {
			t.Errorf("full set item %d (%s) is in neither half", i+1, it.Category)
		} else if !reflect.DeepEqual(got, it) {
			t.Errorf("full set item %d (%s) differs in its half (label, category or level)", i+1, it.Category)
		}
	}
}

// BenchmarkTodayOnTuningHalf measures today's screen, cycling through the tuning half.
func BenchmarkTodayOnTuningHalf(b *testing.B) {
	items, err := LoadFile(filepath.Join("data", TuningFile))
	if err != nil {
		b.Fatal(err)
	}
	prevs := make([][]companion.Turn, len(items))
	for i, it := range items {
		prevs[i] = it.Prev()
	}
	// One operation is one message, so ns/op is the time per screened message.
	for i := 0; b.Loop(); i++ {
		k := i % len(items)
		Today(prevs[k], items[k].Text)
	}
}
