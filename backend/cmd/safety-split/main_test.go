package main

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/percolate/percolate/backend/internal/companion/safetyeval"
)

// TestRerunChangesNothing proves that the committed halves are exactly what the split makes of
// the committed full and fresh sets: nobody moved a message between halves by hand, and a
// message added to full/ or fresh/ without re-running the split is caught.
func TestRerunChangesNothing(t *testing.T) {
	src := "../../internal/companion/safetyeval/data"
	dir := t.TempDir()
	copySets(t, src, dir)
	for _, f := range []string{safetyeval.TuningFile, safetyeval.HeldbackFile} {
		copyFile(t, filepath.Join(src, f), filepath.Join(dir, f))
	}

	var out, errOut strings.Builder
	if code := run([]string{"-data", dir}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	for _, f := range []string{safetyeval.TuningFile, safetyeval.HeldbackFile} {
		want, _ := os.ReadFile(filepath.Join(src, f))
		got, _ := os.ReadFile(filepath.Join(dir, f))
		if string(got) != string(want) {
			t.Errorf("%s changed on a re-run; run go run ./backend/cmd/safety-split and commit it", f)
		}
	}
}

func TestFreshSetBecomesTheHeldBackHalf(t *testing.T) {
	src := "../../internal/companion/safetyeval/data"
	full, err := safetyeval.LoadDir(filepath.Join(src, safetyeval.FullDir))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.CopyFS(filepath.Join(dir, safetyeval.FullDir), os.DirFS(filepath.Join(src, safetyeval.FullDir))); err != nil {
		t.Fatal(err)
	}

	// No fresh/ at all: everything is tuning data, and the held-back half is empty.
	var out, errOut strings.Builder
	if code := run([]string{"-data", dir}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	tuning, _ := safetyeval.LoadFile(filepath.Join(dir, safetyeval.TuningFile))
	held, err := safetyeval.LoadFile(filepath.Join(dir, safetyeval.HeldbackFile))
	if err != nil || len(tuning) != len(full) || len(held) != 0 {
		t.Errorf("without fresh/: %d tuning, %d held-back (%v); want %d and 0", len(tuning), len(held), err, len(full))
	}

	// A fresh set: it is the held-back half, whole, and the tuning half does not change.
	fresh := []safetyeval.Item{
		{Text: "a fresh risky message nobody tuned on", Label: safetyeval.Risky, Category: "plan", CSSRS: safetyeval.LevelPlan},
		{Text: "a fresh harmless message nobody tuned on", Label: safetyeval.Harmless, Category: "venting"},
	}
	if err := os.Mkdir(filepath.Join(dir, safetyeval.FreshDir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := safetyeval.WriteFile(filepath.Join(dir, safetyeval.FreshDir, "mixed.jsonl"), fresh); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if code := run([]string{"-data", dir}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if strings.Contains(out.String(), "nobody tuned on") {
		t.Error("safety-split printed a fresh message")
	}
	tuning2, _ := safetyeval.LoadFile(filepath.Join(dir, safetyeval.TuningFile))
	held, _ = safetyeval.LoadFile(filepath.Join(dir, safetyeval.HeldbackFile))
	if !reflect.DeepEqual(tuning2, tuning) {
		t.Error("the fresh set changed the tuning half")
	}
	if want := []safetyeval.Item{fresh[0], fresh[1]}; !reflect.DeepEqual(held, want) {
		t.Errorf("held-back half %v, want the fresh set", held)
	}

	// A fresh message the screen was tuned on cannot be held back.
	dup := full[0]
	if err := safetyeval.WriteFile(filepath.Join(dir, safetyeval.FreshDir, "dup.jsonl"), []safetyeval.Item{dup}); err != nil {
		t.Fatal(err)
	}
	errOut.Reset()
	if code := run([]string{"-data", dir}, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "repeats a message of the full set") {
		t.Errorf("a repeated message: exit %d, %s", code, errOut.String())
	}
}

// copySets copies full/ and, where it exists, fresh/.
func copySets(t *testing.T, src, dir string) {
	t.Helper()
	for _, d := range []string{safetyeval.FullDir, safetyeval.FreshDir} {
		if _, err := os.Stat(filepath.Join(src, d)); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err := os.CopyFS(filepath.Join(dir, d), os.DirFS(filepath.Join(src, d))); err != nil {
			t.Fatal(err)
		}
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
