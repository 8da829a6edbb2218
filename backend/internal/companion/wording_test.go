package companion

import (
	"regexp"
	"testing"
)

// harmWords are words of a method, a means or a place of harm, and of dying: the engine's own
// lines never hold one, so that whatever it fills them with, it names none itself.
var harmWords = regexp.MustCompile(`(?i)\b(pills?|tablets?|overdos\w*|rope|hang\w*|noose|blades?|razors?|knife|knives|cut\w*|bleach|poison\w*|jump\w*|bridges?|roofs?|tracks|guns?|shoot\w*|starv\w*|purg\w*|kill\w*|die|dying|dead|death|suicid\w*|self-harm)\b`)

// TestEngineWordingNamesNoHarm is the build-time check of the offline engine's own words,
// which the send path does not screen as if the user had written them: no line it can say,
// and no fixed reply other than the safety ones, names a method, a means or a place of harm.
// (It never quotes a flagged message either; see guarded.)
func TestEngineWordingNamesNoHarm(t *testing.T) {
	if len(wording) < 100 {
		t.Fatalf("only %d lines registered: lines() is not collecting the engine's wording", len(wording))
	}
	fixed := []string{Disclosure, BreakReminder, CheckIn, Welcome("Sam", false), Welcome("Sam", true), RepeatedDisclosure(16)}
	for _, line := range append(fixed, wording...) {
		if w := harmWords.FindString(line); w != "" {
			t.Errorf("the engine's line %q names %q", line, w)
		}
	}
}
