package companioneval

import (
	"testing"

	"github.com/percolate/percolate/backend/internal/companion"
)

// The welcome alone recalls nothing: with the memories emptied, no conversation of the
// tuning half counts as recalled, though the welcome's own words may match what is expected.
func TestRecallNeedsARememberedFact(t *testing.T) {
	convs, err := Load("data", Tuning)
	if err != nil {
		t.Fatal(err)
	}
	engine := &companion.Offline{}
	var with, without Figures
	with.AnsweredByKind, without.AnsweredByKind = map[string][2]int{}, map[string][2]int{}
	for _, c := range convs {
		run := Converse(c, engine)
		with.add(run)
		run.Memories = nil
		run.opening()
		without.add(run)
	}
	if without.Followups == 0 || without.Recalled != 0 {
		t.Errorf("memory empty: %d of %d recalled, want 0", without.Recalled, without.Followups)
	}
	if with.Recalled == 0 {
		t.Errorf("with memories: nothing recalled")
	}
	// A welcome whose own words hold the expected word is no recall.
	run := Run{Conv: Conversation{Followup: &Followup{User: "hey", ExpectRecall: []string{"thoughts"}}}}
	run.opening()
	var f Figures
	f.AnsweredByKind = map[string][2]int{}
	f.add(run)
	if f.Recalled != 0 {
		t.Errorf("the welcome's words counted as a recall: %q", run.Recall)
	}
}
