package safetyeval

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestHalvesAreTheFullSetAndTheFreshSetInCategoryOrder(t *testing.T) {
	full := []Item{
		{Text: "a", Label: Harmless, Category: "venting"},
		{Text: "b", Label: Risky, Category: "plan", CSSRS: LevelPlan},
		{Text: "c", Label: Harmless, Category: "venting"},
		{Text: "d", Label: Risky, Category: "passive_wish", CSSRS: LevelWish},
	}
	fresh := []Item{
		{Text: "e", Label: Harmless, Category: "negated"},
		{Text: "f", Label: Risky, Category: "timing", CSSRS: LevelPlan},
	}
	tuning, held, err := Halves(full, fresh)
	if err != nil {
		t.Fatal(err)
	}
	if want := []Item{full[3], full[1], full[0], full[2]}; !reflect.DeepEqual(tuning, want) {
		t.Errorf("tuning %v, want %v", tuning, want)
	}
	if want := []Item{fresh[1], fresh[0]}; !reflect.DeepEqual(held, want) {
		t.Errorf("held-back %v, want %v", held, want)
	}

	// No fresh set yet: everything is tuning data and nothing is held back.
	tuning, held, err = Halves(full, nil)
	if err != nil || len(tuning) != len(full) || len(held) != 0 {
		t.Errorf("no fresh set: %d tuning, %d held-back, %v", len(tuning), len(held), err)
	}
}

func TestHalvesRejectFreshMessagesTheScreenWasTunedOn(t *testing.T) {
	full := []Item{{Text: "a secret phrasing", Label: Risky, Category: "plan", CSSRS: LevelPlan}}
	_, _, err := Halves(full, []Item{{Text: "a secret phrasing", Label: Risky, Category: "plan"}})
	if err == nil {
		t.Fatal("no error for a fresh message that repeats the full set")
	}
	if strings.Contains(err.Error(), "secret") {
		t.Errorf("the error quotes the message: %v", err)
	}
	if _, _, err := Halves([]Item{{Text: "x", Label: Risky, Category: "nope"}}, nil); err == nil {
		t.Error("no error for an unknown category")
	}
}

func TestLoadDirIfAnyAcceptsAMissingOrEmptyFreshSet(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{filepath.Join(dir, "missing"), dir} {
		items, err := LoadDirIfAny(d)
		if err != nil || len(items) != 0 {
			t.Errorf("%s: %d items, %v", d, len(items), err)
		}
	}
	line := `{"text":"x","label":"harmless","category":"venting"}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, "venting.jsonl"), []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	if items, err := LoadDirIfAny(dir); err != nil || len(items) != 1 {
		t.Errorf("%d items, %v; want 1", len(items), err)
	}
}
