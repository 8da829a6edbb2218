package main

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/safetyeval"
)

const dataDir = "../../internal/companion/safetyeval/data"

func loadHalf(t *testing.T, dir, file string) []safetyeval.Item {
	t.Helper()
	items, err := safetyeval.LoadFile(filepath.Join(dir, file))
	if err != nil {
		t.Fatal(err)
	}
	return items
}

// withHeldBack makes a data directory with the committed tuning half and a held-back half of
// the committed held-back half (empty until the fresh set is written) plus, so that the tests
// have one to measure, a stand-in message for each tuning message: its words reversed.
func withHeldBack(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	tuning := loadHalf(t, dataDir, safetyeval.TuningFile)
	held := loadHalf(t, dataDir, safetyeval.HeldbackFile)
	for _, it := range tuning {
		w := strings.Fields(it.Text)
		slices.Reverse(w)
		it.Text = "held back: " + strings.Join(w, " ")
		held = append(held, it)
	}
	for f, items := range map[string][]safetyeval.Item{safetyeval.TuningFile: tuning, safetyeval.HeldbackFile: held} {
		if err := safetyeval.WriteFile(filepath.Join(dir, f), items); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// labelOf looks up the label of a message in a data directory, for test screens that need
// to be right, or wrong, on purpose.
func labelOf(t *testing.T, dir string) func(prev []companion.Turn, text string) safetyeval.Label {
	labels := map[string]safetyeval.Label{}
	for _, file := range []string{safetyeval.TuningFile, safetyeval.HeldbackFile} {
		for _, it := range loadHalf(t, dir, file) {
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
	dir := withHeldBack(t)
	label := labelOf(t, dir)
	register(t, "contrary", func(prev []companion.Turn, text string) safetyeval.Decision {
		if label(prev, text) == safetyeval.Harmless {
			return safetyeval.ClearRisk
		}
		return safetyeval.NoRisk
	})
	var out, errOut strings.Builder
	if code := run([]string{"-data", dir, "-screen", "contrary", "-v"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	printed := out.String()

	tuning := loadHalf(t, dir, safetyeval.TuningFile)
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
	// A held-back text that is part of a longer tuning text (a short question or phrase) is
	// printed with it, so it too cannot be told apart.
	insideTuning := func(s string) bool {
		for text := range tuningText {
			if strings.Contains(text, s) {
				return true
			}
		}
		return false
	}
	checked := 0
	for _, it := range loadHalf(t, dir, safetyeval.HeldbackFile) {
		// Short replies ("yes") also occur in the tuning half, so only the others can be told apart.
		texts := []string{it.Text}
		for _, turn := range it.Context {
			texts = append(texts, turn.Content)
		}
		for _, s := range texts {
			if len(s) < 12 || tuningText[s] || insideTuning(s) {
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
	dir := withHeldBack(t)
	label := labelOf(t, dir)
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
		code := run(append([]string{"-data", dir}, tc.args...), &out, &errOut)
		if code != tc.code || !strings.Contains(out.String(), tc.says) {
			t.Errorf("%v: exit %d, want %d; output lacks %q?\n%s%s", tc.args, code, tc.code, tc.says, out.String(), errOut.String())
		}
	}
}

func TestNoHeldBackHalfYetIsSaidAndFailsTheGate(t *testing.T) {
	dir := t.TempDir()
	copyHalf := func(file string, items []safetyeval.Item) {
		if err := safetyeval.WriteFile(filepath.Join(dir, file), items); err != nil {
			t.Fatal(err)
		}
	}
	copyHalf(safetyeval.TuningFile, loadHalf(t, dataDir, safetyeval.TuningFile)[:40])
	copyHalf(safetyeval.HeldbackFile, nil)
	for _, tc := range []struct {
		args []string
		code int
	}{{nil, 0}, {[]string{"-gate"}, 1}} {
		var out, errOut strings.Builder
		code := run(append([]string{"-data", dir, "-screen", "today"}, tc.args...), &out, &errOut)
		if code != tc.code || !strings.Contains(out.String(), "HELD-BACK half: no messages yet") ||
			!strings.Contains(out.String(), "fails: there is no held-back half to measure") {
			t.Errorf("%v: exit %d, want %d\n%s%s", tc.args, code, tc.code, out.String(), errOut.String())
		}
	}
}

// TestExternalSetsAreReportedAsCounts: the outside test sets get their EXTERNAL sections, with
// counts only, whatever the screen.
func TestExternalSetsAreReportedAsCounts(t *testing.T) {
	sets, err := safetyeval.LoadExternal(filepath.Join(dataDir, safetyeval.ExternalDir))
	if err != nil {
		t.Fatal(err)
	}
	if len(sets) != 2 || len(sets[0].Items) != 20 || len(sets[1].Items) != 1447 {
		t.Fatalf("%d sets", len(sets))
	}
	register(t, "everything", func([]companion.Turn, string) safetyeval.Decision { return safetyeval.ClearRisk })
	var out, errOut strings.Builder
	if code := run([]string{"-data", dataDir, "-tuning", "-screen", "everything"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	for _, want := range []string{"EXTERNAL test set SimpleSafetyTests", "risky flagged:    20 of 20", "EXTERNAL test set OpenAI moderation",
		"risky flagged:    51 of 51", "harmless flagged: 1396 of 1396"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q", want)
		}
	}
	for _, s := range sets {
		for _, it := range s.Items[:5] {
			if len(it.Text) > 20 && strings.Contains(out.String(), it.Text) {
				t.Errorf("an external message is printed")
			}
		}
	}
}
