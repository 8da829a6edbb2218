package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/percolate/percolate/backend/internal/companion/safetyeval"
)

// TestRerunChangesNothing proves that the committed halves are exactly what the split makes of
// the committed full set: nobody moved a message between halves by hand, and a re-run keeps
// every message where it is.
func TestRerunChangesNothing(t *testing.T) {
	src := "../../internal/companion/safetyeval/data"
	dir := t.TempDir()
	if err := os.CopyFS(filepath.Join(dir, safetyeval.FullDir), os.DirFS(filepath.Join(src, safetyeval.FullDir))); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{safetyeval.TuningFile, safetyeval.HeldbackFile} {
		copyFile(t, filepath.Join(src, f), filepath.Join(dir, f))
	}

	var out, errOut strings.Builder
	if code := run([]string{"-data", dir}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), "0 newly placed, 0 dropped") {
		t.Errorf("the re-run placed or dropped messages:\n%s", out.String())
	}
	for _, f := range []string{safetyeval.TuningFile, safetyeval.HeldbackFile} {
		want, _ := os.ReadFile(filepath.Join(src, f))
		got, _ := os.ReadFile(filepath.Join(dir, f))
		if string(got) != string(want) {
			t.Errorf("%s changed on a re-run; run go run ./backend/cmd/safety-split and commit it", f)
		}
	}
}

func TestFirstSplitPlacesEverything(t *testing.T) {
	src := "../../internal/companion/safetyeval/data"
	dir := t.TempDir()
	if err := os.CopyFS(filepath.Join(dir, safetyeval.FullDir), os.DirFS(filepath.Join(src, safetyeval.FullDir))); err != nil {
		t.Fatal(err)
	}
	var out, errOut strings.Builder
	if code := run([]string{"-data", dir}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), "0 kept in their half") {
		t.Errorf("unexpected summary:\n%s", out.String())
	}
	tuning, err := safetyeval.LoadFile(filepath.Join(dir, safetyeval.TuningFile))
	if err != nil {
		t.Fatal(err)
	}
	held, err := safetyeval.LoadFile(filepath.Join(dir, safetyeval.HeldbackFile))
	if err != nil {
		t.Fatal(err)
	}
	full, _ := safetyeval.LoadDir(filepath.Join(dir, safetyeval.FullDir))
	if len(tuning)+len(held) != len(full) || len(tuning) == 0 || len(held) == 0 {
		t.Errorf("%d tuning + %d held-back, full set %d", len(tuning), len(held), len(full))
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
