package httpapi

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestHandlersSeeNoDatabaseRows: the HTTP layer speaks the domain's types, never sqlc's rows
// (a row can carry what must not leave the server, such as a password hash).
func TestHandlersSeeNoDatabaseRows(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		parsed, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range parsed.Imports {
			if path, _ := strconv.Unquote(imp.Path.Value); path == "github.com/percolate/percolate/gen/db" {
				t.Errorf("%s imports gen/db: convert rows to the domain's types in the domain package", f)
			}
		}
	}
}
