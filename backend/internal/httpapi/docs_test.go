package httpapi

import (
	"bytes"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// TestDocsPageEscapesTheContract: every text the contract gives the page is escaped in its place,
// so a summary or description with markup can never add an element or an attribute.
func TestDocsPageEscapesTheContract(t *testing.T) {
	odd := `<b onclick="x">&'+</b>`
	var b bytes.Buffer
	err := docsPage.Execute(&b, docsData{Title: odd, Version: odd, Description: odd, Ops: []docsOp{
		{ID: odd, Method: odd, Path: odd, Summary: odd, Description: odd, Body: odd, Public: true, Params: []string{odd}, Responses: []string{odd}},
		{ID: "bare", Method: "get", Path: "/bare"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if strings.Contains(page, "<b onclick") || strings.Contains(page, "</b>") || strings.Contains(page, `"x"`) {
		t.Errorf("the page lets the contract's markup through:\n%s", page)
	}
	// Title twice, version, description, and 8 places in the first operation.
	if n := strings.Count(page, "&lt;b onclick=&#34;x&#34;&gt;&amp;&#39;&#43;&lt;/b&gt;"); n != 12 {
		t.Errorf("escaped value appears %d times, want 12:\n%s", n, page)
	}
	if !strings.Contains(page, `<section id="bare">`) || strings.Count(page, "(no sign-in)") != 1 {
		t.Errorf("the bare operation is not shown as it is:\n%s", page)
	}
}

func TestDocsPageListsEveryOperation(t *testing.T) {
	spec := &openapi3.T{Info: &openapi3.Info{Title: "T", Version: "1"}, Paths: openapi3.NewPaths()}
	spec.Paths.Set("/b", &openapi3.PathItem{Get: &openapi3.Operation{OperationID: "getB", Responses: openapi3.NewResponses()}})
	spec.Paths.Set("/a", &openapi3.PathItem{Post: &openapi3.Operation{OperationID: "postA", Responses: openapi3.NewResponses()}})
	page, err := renderDocs(spec)
	if err != nil {
		t.Fatal(err)
	}
	a, b := bytes.Index(page, []byte(`id="postA"`)), bytes.Index(page, []byte(`id="getB"`))
	if a < 0 || b < 0 || a > b {
		t.Errorf("operations missing or out of path order (postA at %d, getB at %d)", a, b)
	}
}
