package httpapi

import (
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestHandlersSeeNoDatabaseRows: the HTTP layer speaks the domain's types, never sqlc's rows
// (a row can carry what must not leave the server, such as a password hash).
func TestHandlersSeeNoDatabaseRows(t *testing.T) {
	for path, f := range handlerImports(t) {
		if path == "github.com/percolate/percolate/gen/db" {
			t.Errorf("%s imports gen/db: convert rows to the domain's types in the domain package", f)
		}
	}
}

// handlerImports maps each package the handlers (this package's non-test files) import to
// one file that imports it.
func handlerImports(t *testing.T) map[string]string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	imports := map[string]string{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		parsed, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range parsed.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			imports[path] = f
		}
	}
	return imports
}

// TestServicesHandNoDatabaseRowsToHandlers: nor do rows reach them through a service. No
// exported method of a package the handlers import returns a sqlc row (the store itself, the
// database layer, aside; functions that take a transaction's queries serve other domain
// packages, not the handlers).
func TestServicesHandNoDatabaseRowsToHandlers(t *testing.T) {
	const internal = "github.com/percolate/percolate/backend/internal/"
	pkgs := map[string]bool{}
	for path := range handlerImports(t) {
		if strings.HasPrefix(path, internal) && path != internal+"store" {
			pkgs[strings.TrimPrefix(path, internal)] = true
		}
	}
	if !pkgs["chat"] || !pkgs["insights"] {
		t.Fatalf("the handlers' imports were not found: %v", pkgs)
	}
	for pkg := range pkgs {
		sources, err := filepath.Glob(filepath.Join("..", pkg, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, src := range sources {
			if strings.HasSuffix(src, "_test.go") {
				continue
			}
			fset := token.NewFileSet()
			parsed, err := parser.ParseFile(fset, src, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, decl := range parsed.Decls {
				fn, ok := decl.(*ast.FuncDecl)
				if !ok || fn.Recv == nil || !fn.Name.IsExported() || fn.Type.Results == nil {
					continue
				}
				var results strings.Builder
				for _, field := range fn.Type.Results.List {
					if err := printer.Fprint(&results, fset, field.Type); err != nil {
						t.Fatal(err)
					}
					results.WriteString(" ")
				}
				if strings.Contains(results.String(), "dbgen.") {
					t.Errorf("%s: %s returns a database row: %s", src, fn.Name.Name, results.String())
				}
			}
		}
	}
}
