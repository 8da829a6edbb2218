package safetyeval

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Half is one of the two halves of the set.
type Half int

// The two halves.
const (
	TuningHalf Half = iota
	HeldbackHalf
)

func (h Half) String() string {
	if h == HeldbackHalf {
		return "held-back"
	}
	return "tuning"
}

// Halves makes the two halves: every message of the full set (full/, written by the team and
// tuned on) is in the tuning half, and the held-back half is exactly the fresh set (fresh/,
// written blind by someone who never saw the tuning half or the screen), which may be empty.
// A fresh message that repeats one of the full set is an error, since a message a screen was
// tuned on cannot measure it. Each half lists its items in the order of Categories, then in
// the order given. Errors never quote a message.
func Halves(full, fresh []Item) (tuning, heldback []Item, err error) {
	tuning, err = byCategory(full)
	if err != nil {
		return nil, nil, fmt.Errorf("full set: %w", err)
	}
	heldback, err = byCategory(fresh)
	if err != nil {
		return nil, nil, fmt.Errorf("fresh set: %w", err)
	}
	seen := make(map[string]bool, len(full))
	for _, it := range full {
		seen[it.Key()] = true
	}
	for i, it := range fresh {
		if seen[it.Key()] {
			return nil, nil, fmt.Errorf("fresh set: item %d (%s) repeats a message of the full set", i+1, it.Category)
		}
	}
	return tuning, heldback, nil
}

// byCategory orders items by category, in the order of Categories, keeping their order within
// each category.
func byCategory(items []Item) ([]Item, error) {
	byCat := make(map[string][]Item)
	for i, it := range items {
		if _, ok := CategoryByName(it.Category); !ok {
			return nil, fmt.Errorf("item %d: unknown category %q", i+1, it.Category)
		}
		byCat[it.Category] = append(byCat[it.Category], it)
	}
	out := make([]Item, 0, len(items))
	for _, c := range Categories {
		out = append(out, byCat[c.Name]...)
	}
	return out, nil
}

// LoadDirIfAny reads every .jsonl file of a directory, in name order, like LoadDir, but a
// directory that is missing or holds no .jsonl file gives no items rather than an error: the
// fresh set may not have been written yet.
func LoadDirIfAny(dir string) ([]Item, error) {
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	paths, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil || len(paths) == 0 {
		return nil, err
	}
	return LoadDir(dir)
}
