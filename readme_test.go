package percolate

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeLayoutNamesEveryPackage: the README's layout section names every command, every
// package under backend/internal and every generated Go package, so a newcomer who reads it
// finds each of them (and a new one cannot be added without saying what it is for).
func TestReadmeLayoutNamesEveryPackage(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)## Layout\n\n```\n(.*?)```").FindSubmatch(readme)
	if m == nil {
		t.Fatal("README.md has no ## Layout section with a code block")
	}
	layout := string(m[1])
	for _, parent := range []string{"backend/cmd", "backend/internal", "gen"} {
		dirs, err := os.ReadDir(parent)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range dirs {
			if !d.IsDir() {
				continue
			}
			full := filepath.ToSlash(filepath.Join(parent, d.Name())) + "/"
			if !strings.Contains(layout, full) && !regexp.MustCompile(`(?m)^\s+`+regexp.QuoteMeta(d.Name())+`/`).MatchString(layout) {
				t.Errorf("the README's layout does not name %s", full)
			}
		}
	}
}
