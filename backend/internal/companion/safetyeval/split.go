package safetyeval

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
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

// Seed is the seed the committed split was made with. Changing it would reshuffle nothing
// that is already placed (see Split), so it only matters for the first split.
const Seed uint64 = 20261121

// Split divides validated items into the tuning and the held-back half, stratified by
// category: within each category the halves differ by at most one item, and the items of each
// C-SSRS level are spread over both halves. Where a category has an odd count, the extra item
// goes to whichever half is smaller for that label so far, so the halves stay balanced.
//
// Items already placed (prior, by Key) keep their half, so adding messages later never moves
// a held-back message into the tuning half; entries of prior that are no longer among items
// are dropped. Each half lists its items in the order of Categories, then of items.
func Split(items []Item, prior map[string]Half, seed uint64) (tuning, heldback []Item, err error) {
	byCat := make(map[string][]int)
	for i, it := range items {
		if _, ok := CategoryByName(it.Category); !ok {
			return nil, nil, fmt.Errorf("item %d: unknown category %q", i+1, it.Category)
		}
		byCat[it.Category] = append(byCat[it.Category], i)
	}
	half := make([]Half, len(items))
	// Running totals per label, so that odd categories alternate their extra item.
	total := map[Label]*[2]int{Risky: {}, Harmless: {}}
	for _, c := range Categories {
		idx := byCat[c.Name]
		var n [2]int
		var fresh []int
		for _, i := range idx {
			if h, ok := prior[items[i].Key()]; ok {
				half[i] = h
				n[h]++
			} else {
				fresh = append(fresh, i)
			}
		}
		total[c.Label][TuningHalf] += n[TuningHalf]
		total[c.Label][HeldbackHalf] += n[HeldbackHalf]

		// One generator per category, so that adding a category changes no other's split.
		rng := rand.New(rand.NewPCG(seed, nameHash(c.Name))) // #nosec G404 -- a reproducible split of the labelled set, not a secret
		rng.Shuffle(len(fresh), func(a, b int) { fresh[a], fresh[b] = fresh[b], fresh[a] })
		// Grouping by level after the shuffle makes the alternation below spread each level
		// over both halves.
		slices.SortStableFunc(fresh, func(a, b int) int {
			return levelRank(items[a].CSSRS) - levelRank(items[b].CSSRS)
		})
		t := total[c.Label]
		for _, i := range fresh {
			h := TuningHalf
			if n[HeldbackHalf] < n[TuningHalf] || (n[HeldbackHalf] == n[TuningHalf] && t[HeldbackHalf] < t[TuningHalf]) {
				h = HeldbackHalf
			}
			half[i] = h
			n[h]++
			t[h]++
		}
	}
	for _, c := range Categories {
		for _, i := range byCat[c.Name] {
			if half[i] == HeldbackHalf {
				heldback = append(heldback, items[i])
			} else {
				tuning = append(tuning, items[i])
			}
		}
	}
	return tuning, heldback, nil
}

// Placement records which half each item of the two halves is in, as Split's prior.
func Placement(tuning, heldback []Item) map[string]Half {
	m := make(map[string]Half, len(tuning)+len(heldback))
	for _, it := range tuning {
		m[it.Key()] = TuningHalf
	}
	for _, it := range heldback {
		m[it.Key()] = HeldbackHalf
	}
	return m
}

func levelRank(l Level) int { return slices.Index(Levels, l) } // -1 for none: first

func nameHash(s string) uint64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte(s)) // a hash.Hash never returns an error
	return h.Sum64()
}
