package safetyeval

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
)

// synthetic makes n items of a category, their levels cycling through levels.
func synthetic(category string, label Label, n int, levels ...Level) []Item {
	items := make([]Item, n)
	for i := range items {
		items[i] = Item{Text: fmt.Sprintf("%s %d", category, i), Label: label, Category: category}
		if len(levels) > 0 {
			items[i].CSSRS = levels[i%len(levels)]
		}
	}
	return items
}

func halfOf(tuning, held []Item) map[string]Half { return Placement(tuning, held) }

func TestSplitIsStratifiedDeterministicAndBalanced(t *testing.T) {
	var items []Item
	items = append(items, synthetic("passive_wish", Risky, 21, LevelWish, LevelThoughts)...)
	items = append(items, synthetic("plan", Risky, 25, LevelPlan)...)
	items = append(items, synthetic("self_harm_act", Risky, 20)...)
	items = append(items, synthetic("venting", Harmless, 23)...)
	items = append(items, synthetic("negated", Harmless, 20)...)

	tuning, held, err := Split(items, nil, 7)
	if err != nil {
		t.Fatal(err)
	}
	if len(tuning)+len(held) != len(items) {
		t.Fatalf("%d+%d items, want %d", len(tuning), len(held), len(items))
	}
	// Within one of even per category and per level; the odd categories' extras alternate,
	// so each label's halves are within one too.
	type stratum struct {
		cat string
		lvl Level
	}
	diff := map[any]int{}
	for _, it := range tuning {
		diff[it.Category]++
		diff[stratum{it.Category, it.CSSRS}]++
		diff[it.Label]++
	}
	for _, it := range held {
		diff[it.Category]--
		diff[stratum{it.Category, it.CSSRS}]--
		diff[it.Label]--
	}
	for k, d := range diff {
		if d > 1 || d < -1 {
			t.Errorf("%v: tuning minus held-back is %d, want within one", k, d)
		}
	}
	// Categories in the order of Categories.
	if tuning[0].Category != "passive_wish" || held[len(held)-1].Category != "negated" {
		t.Errorf("halves not in category order: first %s, last %s", tuning[0].Category, held[len(held)-1].Category)
	}

	again, heldAgain, _ := Split(items, nil, 7)
	if !reflect.DeepEqual(again, tuning) || !reflect.DeepEqual(heldAgain, held) {
		t.Error("the same seed gave a different split")
	}
	other, _, _ := Split(items, nil, 8)
	if reflect.DeepEqual(other, tuning) {
		t.Error("another seed gave the same split; the seed is not used")
	}
}

func TestSplitKeepsEveryPlacedItemInItsHalf(t *testing.T) {
	items := synthetic("plan", Risky, 20, LevelPlan)
	items = append(items, synthetic("venting", Harmless, 20)...)
	tuning, held, err := Split(items, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	before := halfOf(tuning, held)

	// Grow the set (with a different seed, as a careless re-run might) and drop one item.
	grown := slices.Concat(items[1:], synthetic("plan", Risky, 30, LevelPlan)[20:], synthetic("timing", Risky, 20, LevelIntent))
	tuning2, held2, err := Split(grown, before, 99)
	if err != nil {
		t.Fatal(err)
	}
	after := halfOf(tuning2, held2)
	if len(after) != len(grown) {
		t.Fatalf("%d items placed, want %d", len(after), len(grown))
	}
	for _, it := range items[1:] {
		if after[it.Key()] != before[it.Key()] {
			t.Errorf("%q moved from %s to %s", it.Text, before[it.Key()], after[it.Key()])
		}
	}
	if _, kept := after[items[0].Key()]; kept {
		t.Errorf("a dropped item is still in a half")
	}
	n := map[Half]int{}
	for _, it := range grown {
		if it.Category == "plan" {
			n[after[it.Key()]]++
		}
	}
	if d := n[TuningHalf] - n[HeldbackHalf]; d > 1 || d < -1 {
		t.Errorf("plan after growing: %v, want halves within one", n)
	}
}

func TestSplitRejectsUnknownCategory(t *testing.T) {
	if _, _, err := Split([]Item{{Text: "x", Label: Risky, Category: "nope"}}, nil, 1); err == nil {
		t.Error("no error for an unknown category")
	}
}
