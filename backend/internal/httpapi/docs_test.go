package httpapi

import (
	"bytes"
	"html/template"
	"testing"

	"github.com/percolate/percolate/gen/api"
)

// docsTemplate is the html/template the docs page was rendered with before writeDocs; the page
// must stay what it gave. Only the test executes it: see docs.go for why the server must not.
const docsTemplate = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}} · reference</title>
` + docsStyle + `</head><body><main>
<h1>{{.Title}} <span class="muted">{{.Version}}</span></h1>
<p>The machine-readable contract is <a href="/api/openapi.yaml">/api/openapi.yaml</a>.</p>
<pre class="muted">{{.Description}}</pre>
{{range .Ops}}<section id="{{.ID}}">
<div><span class="m">{{.Method}}</span> <code>{{.Path}}</code> {{if .Public}}<span class="muted">(no sign-in)</span>{{end}}</div>
{{if .Summary}}<p>{{.Summary}}</p>{{end}}
{{if .Description}}<pre class="muted">{{.Description}}</pre>{{end}}
{{if .Params}}<table>{{range .Params}}<tr><td><code>{{.}}</code></td></tr>{{end}}</table>{{end}}
{{if .Body}}<p class="muted">Body: <code>{{.Body}}</code></p>{{end}}
<table>{{range .Responses}}<tr><td><code>{{.}}</code></td></tr>{{end}}</table>
</section>{{end}}
</main></body></html>
`

func templateDocs(t *testing.T, title, version, description string, ops []docsOp) []byte {
	t.Helper()
	page := template.Must(template.New("docs").Parse(docsTemplate))
	var b bytes.Buffer
	if err := page.Execute(&b, map[string]any{"Title": title, "Version": version, "Description": description, "Ops": ops}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestDocsPageIsTheTemplates(t *testing.T) {
	spec, err := api.GetSpec()
	if err != nil {
		t.Fatal(err)
	}
	got := renderDocs(spec)
	if want := templateDocs(t, spec.Info.Title, spec.Info.Version, spec.Info.Description, docsOps(spec)); !bytes.Equal(got, want) {
		t.Errorf("the contract's docs page differs from the template's:\n got %d bytes\nwant %d bytes", len(got), len(want))
	}

	// Every character the template escapes, in every place a value goes, and the empty cases.
	odd := "a \"b\" & 'c' + <d> \x00 é \xff é +"
	for _, c := range []struct {
		name string
		ops  []docsOp
	}{
		{"none", nil},
		{"bare", []docsOp{{Method: "get", Path: "/x"}}},
		{"full", []docsOp{
			{ID: odd, Method: odd, Path: odd, Summary: odd, Description: odd, Body: odd, Public: true, Params: []string{odd, ""}, Responses: []string{odd}},
			{ID: "b", Method: "post", Path: "/b", Params: []string{}, Responses: []string{"200", "401 application/json Error"}},
		}},
	} {
		var b bytes.Buffer
		writeDocs(&b, odd, odd, odd, c.ops)
		if want := templateDocs(t, odd, odd, odd, c.ops); !bytes.Equal(b.Bytes(), want) {
			t.Errorf("%s: page differs from the template's:\n got %q\nwant %q", c.name, b.Bytes(), want)
		}
	}
}
