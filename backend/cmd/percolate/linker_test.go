package main

import (
	"bufio"
	"bytes"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestNoMethodLookupByName links the binary and checks that no function reachable in it looks
// a method up by a name known only at run time (text/template's execution, reflect's
// MethodByName with a variable): the linker then keeps every exported method of every type
// that may sit in an interface, and an idle server's RSS goes over its ceiling. Why, and how
// to write HTML instead: README, "Writing HTML in Go: no templates" (figures in
// bench/findings.md).
func TestNoMethodLookupByName(t *testing.T) {
	if testing.Short() {
		t.Skip("links the binary")
	}
	var deps bytes.Buffer
	cmd := exec.Command("go", "build", "-ldflags=-dumpdep", "-o", t.TempDir()+"/percolate", ".")
	cmd.Stderr = &deps
	if err := cmd.Run(); err != nil {
		t.Fatalf("build: %v\n%.2000s", err, deps.String())
	}
	var found []string
	sc := bufio.NewScanner(&deps)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		// Lines are "caller -> callee", each side marked <ReflectMethod> when it does this.
		if from, _, ok := strings.Cut(sc.Text(), " -> "); ok && strings.HasSuffix(from, "<ReflectMethod>") && len(found) < 10 {
			if !slices.Contains(found, from) {
				found = append(found, from)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(found) > 0 {
		t.Errorf("reachable functions look methods up by name, so the linker keeps every exported method:\n%s\n"+
			"(go build -ldflags=-dumpdep shows who reaches them; README, \"Writing HTML in Go: no templates\", says why and what to do instead)", strings.Join(found, "\n"))
	}
}
