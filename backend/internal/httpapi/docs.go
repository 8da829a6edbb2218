package httpapi

import (
	"bytes"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
)

// The docs page is a readable reference of openapi.yaml as one static HTML page: no scripts,
// nothing fetched from elsewhere, so it works offline and under the strict CSP. writeDocs
// writes it by hand, not html/template: executing a template looks methods up by a name known
// only at run time, so the linker must keep every exported method of every type that may sit
// in an interface, the whole Stripe client's among them. That was a large part of the binary
// and of its itabs, which the runtime registers at start, reading type data from all over
// the binary: idle RSS (the figures are in bench/findings.md).
// TestDocsPageIsTheTemplates holds the page equal to the template's; TestNoMethodLookupByName
// (backend/cmd/percolate) fails when anything reachable looks a method up by name again.
const docsStyle = `<style>
body{font-family:system-ui,sans-serif;margin:0;background:#FBF6EF;color:#2B1D14;line-height:1.55}
main{max-width:960px;margin:0 auto;padding:24px}
h1{font-family:Georgia,serif}
section{background:#FFFDF9;border:1px solid #e8dccd;border-radius:10px;padding:12px 16px;margin:12px 0}
.m{display:inline-block;min-width:64px;font-weight:700;color:#6F4E37}
code{font-size:.95em}
.muted{color:#7A6555}
table{border-collapse:collapse}td{padding:2px 10px 2px 0;vertical-align:top}
a{color:#6F4E37}
</style>`

type docsOp struct {
	ID, Method, Path, Summary, Description, Body string
	Public                                       bool
	Params, Responses                            []string
}

// renderDocs builds the docs page (once, on its first request: see serveDocs).
func renderDocs(spec *openapi3.T) []byte {
	var b bytes.Buffer
	writeDocs(&b, spec.Info.Title, spec.Info.Version, spec.Info.Description, docsOps(spec))
	return b.Bytes()
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

// writeDocs writes the page, escaping every value as html/template does in its place (text,
// a double-quoted attribute, the title: all with the same table).
func writeDocs(b *bytes.Buffer, title, version, description string, ops []docsOp) {
	b.WriteString("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>")
	escapeHTML(b, title)
	b.WriteString(" · reference</title>\n")
	b.WriteString(docsStyle)
	b.WriteString("</head><body><main>\n<h1>")
	escapeHTML(b, title)
	b.WriteString(` <span class="muted">`)
	escapeHTML(b, version)
	b.WriteString("</span></h1>\n<p>The machine-readable contract is <a href=\"/api/openapi.yaml\">/api/openapi.yaml</a>.</p>\n<pre class=\"muted\">")
	escapeHTML(b, description)
	b.WriteString("</pre>\n")
	for _, op := range ops {
		b.WriteString(`<section id="`)
		escapeHTML(b, op.ID)
		b.WriteString("\">\n<div><span class=\"m\">")
		escapeHTML(b, op.Method)
		b.WriteString("</span> <code>")
		escapeHTML(b, op.Path)
		b.WriteString("</code> ")
		if op.Public {
			b.WriteString(`<span class="muted">(no sign-in)</span>`)
		}
		b.WriteString("</div>\n")
		if op.Summary != "" {
			b.WriteString("<p>")
			escapeHTML(b, op.Summary)
			b.WriteString("</p>")
		}
		b.WriteString("\n")
		if op.Description != "" {
			b.WriteString(`<pre class="muted">`)
			escapeHTML(b, op.Description)
			b.WriteString("</pre>")
		}
		b.WriteString("\n")
		if len(op.Params) > 0 {
			b.WriteString("<table>")
			writeRows(b, op.Params)
			b.WriteString("</table>")
		}
		b.WriteString("\n")
		if op.Body != "" {
			b.WriteString(`<p class="muted">Body: <code>`)
			escapeHTML(b, op.Body)
			b.WriteString("</code></p>")
		}
		b.WriteString("\n<table>")
		writeRows(b, op.Responses)
		b.WriteString("</table>\n</section>")
	}
	b.WriteString("\n</main></body></html>\n")
}

func writeRows(b *bytes.Buffer, cells []string) {
	for _, c := range cells {
		b.WriteString("<tr><td><code>")
		escapeHTML(b, c)
		b.WriteString("</code></td></tr>")
	}
}

// escapeHTML writes s as html/template writes a string in text, RCDATA and quoted attribute
// values: NUL becomes U+FFFD, and " & ' + < > become references; nothing else changes.
func escapeHTML(b *bytes.Buffer, s string) {
	last := 0
	for i := 0; i < len(s); i++ {
		var r string
		switch s[i] {
		case 0:
			r = "\uFFFD"
		case '"':
			r = "&#34;"
		case '&':
			r = "&amp;"
		case '\'':
			r = "&#39;"
		case '+':
			r = "&#43;"
		case '<':
			r = "&lt;"
		case '>':
			r = "&gt;"
		default:
			continue
		}
		b.WriteString(s[last:i])
		b.WriteString(r)
		last = i + 1
	}
	b.WriteString(s[last:])
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
	render := sync.OnceValue(func() []byte { return renderDocs(spec) })
	return func(w http.ResponseWriter, r *http.Request) {
		serveBytes("text/html; charset=utf-8", render())(w, r)
	}
}

func serveBytes(contentType string, body []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", contentType)
		_, _ = w.Write(body)
	}
}
