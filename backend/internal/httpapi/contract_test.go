package httpapi

// Helpers that build requests from the contract itself, so the validation tests cover every
// operation, parameter and body field openapi.yaml has, including ones added later.

import (
	"encoding/json"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/percolate/percolate/gen/api"
)

// contractOp is one operation of the contract.
type contractOp struct {
	id, method, path string
	op               *openapi3.Operation
}

// eachTextField runs check, as a subtest, on every text field f of every JSON body s of the
// contract's operations, and returns the fields it ran on (operation.field).
func eachTextField(t *testing.T, check func(t *testing.T, c contractOp, s *openapi3.Schema, f string)) map[string]bool {
	t.Helper()
	covered := map[string]bool{}
	for _, c := range contractOps(t) {
		s := c.jsonBody()
		if s == nil {
			continue
		}
		for _, f := range textFields(s) {
			covered[c.id+"."+f] = true
			t.Run(c.id+"/"+f, func(t *testing.T) { check(t, c, s, f) })
		}
	}
	return covered
}

func contractOps(t testing.TB) []contractOp {
	t.Helper()
	spec, err := api.GetSpec()
	if err != nil {
		t.Fatal(err)
	}
	var ops []contractOp
	for _, path := range spec.Paths.InMatchingOrder() {
		for method, op := range spec.Paths.Value(path).Operations() {
			// As written in openapi.yaml (the embedded copy's ids start with a capital).
			id := strings.ToLower(op.OperationID[:1]) + op.OperationID[1:]
			ops = append(ops, contractOp{id: id, method: method, path: path, op: op})
		}
	}
	slices.SortFunc(ops, func(a, b contractOp) int { return strings.Compare(a.id, b.id) })
	return ops
}

// jsonBody is the schema of the operation's JSON body, or nil.
func (c contractOp) jsonBody() *openapi3.Schema {
	if c.op.RequestBody == nil || c.op.RequestBody.Value == nil {
		return nil
	}
	mt := c.op.RequestBody.Value.Content.Get("application/json")
	if mt == nil || mt.Schema == nil {
		return nil
	}
	return mt.Schema.Value
}

// params are the operation's parameters of one location ("query", "path", "header").
func (c contractOp) params(in string) []*openapi3.Parameter {
	var out []*openapi3.Parameter
	for _, p := range c.op.Parameters {
		if p.Value.In == in {
			out = append(out, p.Value)
		}
	}
	return out
}

// refusesWithText reports whether the contract documents the operation's 400 as text only.
func (c contractOp) refusesWithText() bool {
	bad := c.op.Responses.Value("400")
	return bad != nil && bad.Value.Content.Get("application/json") == nil && bad.Value.Content.Get("text/plain") != nil
}

// redirectsOnly reports whether the operation's only documented answer is a redirect.
func (c contractOp) redirectsOnly() bool {
	return c.op.Responses.Value("400") == nil && c.op.Responses.Value("302") != nil
}

// validValue is a value the schema accepts.
func validValue(s *openapi3.Schema) any {
	switch {
	case len(s.Enum) > 0:
		return s.Enum[0]
	case s.Type.Is("integer") || s.Type.Is("number"):
		if s.Min != nil {
			return *s.Min
		}
		return 20
	case s.Type.Is("boolean"):
		return true
	case s.Type.Is("array"):
		return []any{}
	case s.Type.Is("object"):
		return validBody(s, "", nil)
	case s.Format == "uuid":
		return "3f2b8c1e-7a4d-4e8b-9c1a-2b3c4d5e6f70"
	case s.Format == "email":
		return "ada@example.com"
	case s.Type.Is("array"):
		return []any{}
	}
	// A field whose meaning the service checks (a time, a key) gives a valid example.
	if ex, ok := s.Example.(string); ok {
		return ex
	}
	n := max(int(s.MinLength), 8)
	if s.MaxLength != nil {
		n = min(n, int(*s.MaxLength))
	}
	return strings.Repeat("a", n)
}

// validBody is an object with the schema's required properties set to valid values, plus
// field set to value when field is not "".
func validBody(s *openapi3.Schema, field string, value any) map[string]any {
	body := map[string]any{}
	for _, name := range s.Required {
		body[name] = validValue(s.Properties[name].Value)
	}
	if field != "" {
		body[field] = value
	}
	if len(body) < int(s.MinProps) {
		names := slices.Sorted(maps.Keys(s.Properties))
		body[names[0]] = validValue(s.Properties[names[0]].Value)
	}
	return body
}

// textFields are the names of the schema's string properties that hold free text (not an
// enum), sorted.
func textFields(s *openapi3.Schema) []string {
	var out []string
	for name, p := range s.Properties {
		if p.Value.Type.Is("string") && len(p.Value.Enum) == 0 && p.Value.Format != "binary" {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// target is the operation's URL with valid path and required query parameters, where
// override (already escaped) replaces or adds query parameters.
func (c contractOp) target(override map[string]string) string {
	path := c.path
	for _, p := range c.params("path") {
		path = strings.ReplaceAll(path, "{"+p.Name+"}", url.PathEscape(validValue(p.Schema.Value).(string)))
	}
	var q []string
	for _, p := range c.params("query") {
		if _, ok := override[p.Name]; !ok && p.Required {
			q = append(q, p.Name+"="+url.QueryEscape(validValue(p.Schema.Value).(string)))
		}
	}
	for name, v := range override {
		q = append(q, name+"="+v)
	}
	slices.Sort(q)
	if len(q) > 0 {
		path += "?" + strings.Join(q, "&")
	}
	return path
}

// send makes the operation's request with a raw body (JSON when not empty), every required
// header and a bearer token that acceptToken("good") accepts.
func (c contractOp) send(h http.Handler, target, body string) response {
	hdr := []string{"Authorization", "Bearer good"}
	for _, p := range c.params("header") {
		hdr = append(hdr, p.Name, "t=1,v1=00")
	}
	return do(h, c.method, target, body, hdr...)
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// refusedField checks that res refuses the request for field in the operation's documented
// form, with message want ("" for any message).
func (c contractOp) refusedField(t *testing.T, res response, field, want string) {
	t.Helper()
	switch {
	case c.redirectsOnly():
		if res.Code != http.StatusFound {
			t.Fatalf("%s: status = %d, want a redirect (302): %s", field, res.Code, res.Body)
		}
		if loc := res.Header().Get("Location"); !strings.HasPrefix(loc, "/login?oauthError=") {
			t.Fatalf("%s: Location = %q, want /login?oauthError=...", field, loc)
		}
	case c.refusesWithText():
		if res.Code != http.StatusBadRequest {
			t.Fatalf("%s: status = %d, want 400: %s", field, res.Code, res.Body)
		}
		if ct := res.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
			t.Fatalf("%s: Content-Type = %q, want text/plain", field, ct)
		}
		if want != "" && res.Body.String() != want {
			t.Fatalf("%s: text = %q, want %q", field, res.Body, want)
		}
	default:
		v := wantValidationError(t, field, res.Code, res.Body.Bytes())
		got, ok := v.Details[field]
		if !ok {
			t.Fatalf("%s: details = %v, want one for %s", field, v.Details, field)
		}
		if want != "" && got != want {
			t.Fatalf("%s: details.%s = %q, want %q", field, field, got, want)
		}
	}
}
