package safety

import (
	"testing"

	"github.com/percolate/percolate/backend/internal/companion/safety/internal/corpus"
)

// TestContextOnlyRaisesTheLevel checks, over the labelled messages, that a context (a
// check-in before, or a risky previous message) never gives a lower level than the message
// on its own. The chat send relies on it: a previous message stored with no risk is known to
// have none on its own, and is not screened again.
func TestContextOnlyRaisesTheLevel(t *testing.T) {
	var texts []string
	for _, f := range []string{corpus.TuningFile, corpus.ExtraFile} {
		items, err := corpus.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range items {
			texts = append(texts, it.Text)
		}
	}
	texts = append(texts, "yes", "ok", "no", "not really", "thanks", "maybe", "i guess", "tonight")
	contexts := []Context{{CheckedIn: true}, {Previous: Possible}, {Previous: Clear}, {CheckedIn: true, Previous: Clear}}
	for _, text := range texts {
		alone := Screen(text, Context{}).Level
		for _, c := range contexts {
			if got := Screen(text, c).Level; got < alone {
				t.Errorf("Screen(%q, %+v) = %v, below its level on its own (%v)", text, c, got, alone)
			}
		}
	}
	if len(texts) < 100 {
		t.Fatalf("only %d messages screened", len(texts))
	}
}
