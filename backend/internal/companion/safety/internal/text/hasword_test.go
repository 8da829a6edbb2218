package text

import (
	"strings"
	"testing"
)

// hasWordByPadding is HasWord as it was first written: " "+w+" " within " "+TrimSpace(t)+" ".
func hasWordByPadding(t string, words []string) bool {
	t = " " + strings.TrimSpace(t) + " "
	for _, w := range words {
		if strings.Contains(t, " "+w+" ") {
			return true
		}
	}
	return false
}

// TestHasWordIsTheWordBetweenSpaces: HasWord answers as the padded search it replaces, for
// words at either end, inside others, repeated, made of several words, with spaces of their
// own, and empty.
func TestHasWordIsTheWordBetweenSpaces(t *testing.T) {
	texts := []string{"", " ", "cut", " cut ", "haircut cut", "cutting", "a cut b", "cutcut cut", "i cut myself ", "  double  space ",
		"end it all", "xend it", "end itx end it", "im so cut up", "cut", "uncut"}
	words := []string{"cut", "end it", "it", "", " ", "cut ", " cut", "a", "double", "up", "x"}
	for _, tx := range texts {
		for _, w := range words {
			if got, want := HasWord(tx, []string{w}), hasWordByPadding(tx, []string{w}); got != want {
				t.Errorf("HasWord(%q, %q) = %v, want %v", tx, w, got, want)
			}
		}
	}
	// With the lexicon-sized lists the screen gives it, on the words of a message.
	if !HasWord(" slept badly but the library was quiet ", []string{"noise", "quiet"}) || HasWord(" quietly ", []string{"quiet"}) {
		t.Error("a whole word is found and a part of one is not")
	}
}
