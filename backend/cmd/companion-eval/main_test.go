package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const oneConversation = `{"id":"t-1","topic":"a test","turns":[{"user":"hey","expect":{}},{"user":"my chemistry exam is on friday","expect":{"focus":"chemistry exam"}},{"user":"should i revise tonight or sleep early","expect":{"answer":true,"kind":"opinion"}},{"user":"ok thanks, bye","expect":{"goodbye":true}}]}` + "\n"

// -tuning reads the tuning half only: a data directory without a held-back file is enough,
// and the output names no held-back figures.
func TestTuningReadsTheTuningHalfOnly(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "tuning.jsonl"), []byte(oneConversation), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"-tuning"}, {"-tuning", "-baseline", "keywords"}} {
		var out, errs bytes.Buffer
		if code := run(append([]string{"-data", dir}, args...), &out, &errs); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs.String())
		}
		if !strings.Contains(out.String(), "questions answered") || strings.Contains(out.String(), "heldback") {
			t.Errorf("%v: output %q", args, out.String())
		}
	}
	var out, errs bytes.Buffer
	if code := run([]string{"-data", dir}, &out, &errs); code == 0 {
		t.Error("without -tuning the held-back half is read, and its absence is an error")
	}
}

func TestUnknownBaselineIsAnError(t *testing.T) {
	var out, errs bytes.Buffer
	if code := run([]string{"-tuning", "-baseline", "dice"}, &out, &errs); code != 2 {
		t.Errorf("exit %d", code)
	}
}
