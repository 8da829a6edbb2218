package safetyeval

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/percolate/percolate/backend/internal/companion"
)

// loadData reads the committed set: the full set, the fresh set (possibly empty) and the two
// halves.
func loadData(t *testing.T) (full, fresh, tuning, held []Item) {
	t.Helper()
	full, err := LoadDir(filepath.Join("data", FullDir))
	if err != nil {
		t.Fatal(err)
	}
	if fresh, err = LoadDirIfAny(filepath.Join("data", FreshDir)); err != nil {
		t.Fatal(err)
	}
	if tuning, err = LoadFile(filepath.Join("data", TuningFile)); err != nil {
		t.Fatal(err)
	}
	if held, err = LoadFile(filepath.Join("data", HeldbackFile)); err != nil {
		t.Fatal(err)
	}
	return full, fresh, tuning, held
}

func TestDataIsWellFormedAndCoversEveryCategory(t *testing.T) {
	full, fresh, tuning, held := loadData(t)
	for name, items := range map[string][]Item{"full": full, "fresh": fresh, "tuning": tuning, "held-back": held} {
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
}

// TestHalvesAreTheFullAndTheFreshSet proves that the tuning half is the whole full set and
// the held-back half the whole fresh set (empty until it is written), with nothing in both.
func TestHalvesAreTheFullAndTheFreshSet(t *testing.T) {
	full, fresh, tuning, held := loadData(t)
	for _, c := range []struct {
		name        string
		source      []Item
		half, other []Item
	}{{"tuning", full, tuning, held}, {"held-back", fresh, held, tuning}} {
		in := map[string]Item{}
		for _, it := range c.half {
			in[it.Key()] = it
		}
		if len(in) != len(c.source) || len(c.half) != len(c.source) {
			t.Errorf("%s half holds %d messages (%d distinct), its source %d", c.name, len(c.half), len(in), len(c.source))
		}
		for i, it := range c.source {
			if got, ok := in[it.Key()]; !ok {
				t.Errorf("%s source item %d (%s) is not in its half", c.name, i+1, it.Category)
			} else if !reflect.DeepEqual(got, it) {
				t.Errorf("%s source item %d (%s) differs in its half (label, category or level)", c.name, i+1, it.Category)
			}
		}
		for _, it := range c.other {
			if _, both := in[it.Key()]; both {
				t.Errorf("a %s message is in both halves", it.Category)
			}
		}
	}
}

// BenchmarkTodayOnTuningHalf measures today's screen, cycling through the tuning half.
func BenchmarkTodayOnTuningHalf(b *testing.B) { benchmarkOnTuningHalf(b, Today) }

// BenchmarkLayeredOnTuningHalf measures the layered screen, cycling through the tuning half
// (the previous turns included); make safety-eval reports the median per message.
func BenchmarkLayeredOnTuningHalf(b *testing.B) { benchmarkOnTuningHalf(b, Layered) }

func benchmarkOnTuningHalf(b *testing.B, screen Screener) {
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
		screen(prevs[k], items[k].Text)
	}
}
