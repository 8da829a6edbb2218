package httpapi

import (
	"bytes"
	"fmt"
	"html/template"
	"net/http"
	"sort"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
)

// The docs page is a readable reference of openapi.yaml as one static HTML page: no scripts,
// nothing fetched from elsewhere, so it works offline and under the strict CSP. html/template
// escapes every value from the contract in its place.
var docsPage = template.Must(template.New("docs").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}} · reference</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;background:#FBF6EF;color:#2B1D14;line-height:1.55}
main{max-width:960px;margin:0 auto;padding:24px}
h1{font-family:Georgia,serif}
section{background:#FFFDF9;border:1px solid #e8dccd;border-radius:10px;padding:12px 16px;margin:12px 0}
.m{display:inline-block;min-width:64px;font-weight:700;color:#6F4E37}
code{font-size:.95em}
.muted{color:#7A6555}
table{border-collapse:collapse}td{padding:2px 10px 2px 0;vertical-align:top}
a{color:#6F4E37}
</style></head><body><main>
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
`))

// docsData is what the docs page shows.
type docsData struct {
	Title, Version, Description string
	Ops                         []docsOp
}

type docsOp struct {
	ID, Method, Path, Summary, Description, Body string
	Public                                       bool
	Params, Responses                            []string
}

// renderDocs builds the docs page (once, on its first request: see serveDocs).
func renderDocs(spec *openapi3.T) ([]byte, error) {
	var b bytes.Buffer
	err := docsPage.Execute(&b, docsData{Title: spec.Info.Title, Version: spec.Info.Version, Description: spec.Info.Description, Ops: docsOps(spec)})
	return b.Bytes(), err
}

// docsOps lists the contract's operations by path, then method.
func docsOps(spec *openapi3.T) []docsOp {
	var ops []docsOp
	paths := spec.Paths.InMatchingOrder()
	sort.Strings(paths)
	for _, p := range paths {
		item := spec.Paths.Value(p)
		methods := item.Operations()
		names := make([]string, 0, len(methods))
		for m := range methods {
			names = append(names, m)
		}
		sort.Strings(names)
		for _, m := range names {
			op := methods[m]
			d := docsOp{ID: op.OperationID, Method: m, Path: p, Summary: op.Summary, Description: op.Description}
			d.Public = op.Security != nil && len(*op.Security) == 0
			for _, pr := range op.Parameters {
				d.Params = append(d.Params, fmt.Sprintf("%s (%s)", pr.Value.Name, pr.Value.In))
			}
			if op.RequestBody != nil && op.RequestBody.Value != nil {
				for ct, mt := range op.RequestBody.Value.Content {
					d.Body = ct + " " + schemaName(mt.Schema)
				}
			}
			for _, code := range sortedKeys(op.Responses.Map()) {
				resp := op.Responses.Value(code)
				line := code
				if resp.Value != nil {
					var cts []string
					for ct, mt := range resp.Value.Content {
						cts = append(cts, ct+" "+schemaName(mt.Schema))
					}
					sort.Strings(cts)
					line += " " + strings.Join(cts, " | ")
				}
				d.Responses = append(d.Responses, strings.TrimSpace(line))
			}
			ops = append(ops, d)
		}
	}
	return ops
}

func schemaName(ref *openapi3.SchemaRef) string {
	if ref == nil {
		return ""
	}
	if ref.Ref != "" {
		return ref.Ref[strings.LastIndex(ref.Ref, "/")+1:]
	}
	if ref.Value != nil && ref.Value.Type != nil && len(*ref.Value.Type) > 0 {
		t := (*ref.Value.Type)[0]
		if t == "array" && ref.Value.Items != nil {
			return "[" + schemaName(ref.Value.Items) + "]"
		}
		return t
	}
	return ""
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// serveDocs serves the docs page, rendering it on the first request: most servers are never
// asked for it, and an idle one need not hold the page.
func serveDocs(spec *openapi3.T) http.HandlerFunc {
	render := sync.OnceValues(func() ([]byte, error) { return renderDocs(spec) })
	return func(w http.ResponseWriter, r *http.Request) {
		page, err := render()
		if err != nil {
			http.Error(w, "the reference page could not be rendered", http.StatusInternalServerError)
			return
		}
		serveBytes("text/html; charset=utf-8", page)(w, r)
	}
}

func serveBytes(contentType string, body []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", contentType)
		_, _ = w.Write(body)
	}
}
