package main

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/safetyeval"
)

const dataDir = "../../internal/companion/safetyeval/data"

func loadHalf(t *testing.T, file string) []safetyeval.Item {
	t.Helper()
	items, err := safetyeval.LoadFile(filepath.Join(dataDir, file))
	if err != nil {
		t.Fatal(err)
	}
	return items
}

// labelOf looks up the label of a message in the committed set, for test screens that need
// to be right, or wrong, on purpose.
func labelOf(t *testing.T) func(prev []companion.Turn, text string) safetyeval.Label {
	labels := map[string]safetyeval.Label{}
	for _, file := range []string{safetyeval.TuningFile, safetyeval.HeldbackFile} {
		for _, it := range loadHalf(t, file) {
			labels[it.Key()] = it.Label
		}
	}
	return func(prev []companion.Turn, text string) safetyeval.Label {
		it := safetyeval.Item{Text: text}
		for _, p := range prev {
			it.Context = append(it.Context, safetyeval.Turn{Role: p.Role, Content: p.Content})
		}
		return labels[it.Key()]
	}
}

// register adds a screen for the length of a test.
func register(t *testing.T, name string, screen safetyeval.Screener) {
	screens[name] = namedScreen{"test", screen}
	t.Cleanup(func() { delete(screens, name) })
}

func TestHeldBackTextIsNeverPrintedEvenWithV(t *testing.T) {
	// A screen wrong on every message makes every message a miss or a false alarm, so -v has
	// every message of both halves to hand.
	label := labelOf(t)
	register(t, "contrary", func(prev []companion.Turn, text string) safetyeval.Decision {
		if label(prev, text) == safetyeval.Harmless {
			return safetyeval.ClearRisk
		}
		return safetyeval.NoRisk
	})
	var out, errOut strings.Builder
	if code := run([]string{"-data", dataDir, "-screen", "contrary", "-v"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	printed := out.String()

	tuning := loadHalf(t, safetyeval.TuningFile)
	tuningText := map[string]bool{}
	for _, it := range tuning {
		tuningText[it.Text] = true
		for _, turn := range it.Context {
			tuningText[turn.Content] = true
		}
		if !strings.Contains(printed, strconv.Quote(it.Text)) {
			t.Fatalf("-v did not show a tuning %s message; the check below would prove nothing", it.Category)
		}
	}
	checked := 0
	for _, it := range loadHalf(t, safetyeval.HeldbackFile) {
		// Short replies ("yes") also occur in the tuning half, so only the others can be told apart.
		texts := []string{it.Text}
		for _, turn := range it.Context {
			texts = append(texts, turn.Content)
		}
		for _, s := range texts {
			if len(s) < 12 || tuningText[s] {
				continue
			}
			checked++
			if strings.Contains(printed, s) {
				t.Errorf("text of a held-back %s message was printed", it.Category)
			}
		}
	}
	if checked < 400 {
		t.Errorf("only %d held-back texts checked", checked)
	}
}

func TestGateExitsNonZeroOnlyWhenHeldBackFallsShort(t *testing.T) {
	// An oracle that knows every label passes; a screen that flags nothing does not.
	label := labelOf(t)
	register(t, "oracle", func(prev []companion.Turn, text string) safetyeval.Decision {
		if label(prev, text) == safetyeval.Risky {
			return safetyeval.PossibleRisk
		}
		return safetyeval.NoRisk
	})
	register(t, "silent", func([]companion.Turn, string) safetyeval.Decision { return safetyeval.NoRisk })

	for _, tc := range []struct {
		args []string
		code int
		says string
	}{
		{[]string{"-screen", "oracle", "-gate"}, 0, "passes"},
		{[]string{"-screen", "silent", "-gate"}, 1, "fails: recall 0.0% is below 98%"},
		{[]string{"-screen", "silent"}, 0, "fails: recall 0.0% is below 98%"},
		{[]string{"-screen", "nope"}, 2, ""},
	} {
		var out, errOut strings.Builder
		code := run(append([]string{"-data", dataDir}, tc.args...), &out, &errOut)
		if code != tc.code || !strings.Contains(out.String(), tc.says) {
			t.Errorf("%v: exit %d, want %d; output lacks %q?\n%s%s", tc.args, code, tc.code, tc.says, out.String(), errOut.String())
		}
	}
}
