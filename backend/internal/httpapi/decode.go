package httpapi

// The request-decoding step that every operation goes through before the contract's schemas
// are checked. JSON Schema cannot say "no U+0000" or "valid UTF-8" once for the whole
// contract, and PostgreSQL refuses both in text, so they are refused here, for every
// parameter and every string of every JSON body, whatever the operation. A handler added
// later gets the same protection without doing anything.

import (
	"bytes"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"
)

// Field messages of the decoding step.
const (
	msgBadText = "This text contains a character that isn't allowed."
	// bodyField names the whole body in a validation error's details.
	bodyField = "body"
)

// decodeProblems is what the decoding step found wrong, by field.
type decodeProblems struct {
	fields map[string]string
	// badBody is set when the body is not one well-formed JSON value, so the schema check of
	// the body is skipped (its errors would only repeat this one).
	badBody bool
}

func (p *decodeProblems) add(field, msg string) {
	if p.fields == nil {
		p.fields = map[string]string{}
	}
	setOnce(p.fields, field, msg)
}

// checkDecoding reads the request's query (parsed: see parseQuery), path parameters and,
// when the operation takes one (hasBody), its JSON body, and reports every value that holds
// U+0000 or invalid UTF-8, and a body that is not exactly one JSON value (trailing bytes
// included) or not of the shape every body must have (see checkJSONBody). It leaves r.Body
// readable again. A body over the size limit is returned as the *http.MaxBytesError it
// caused.
func checkDecoding(r *http.Request, query url.Values, pathParams map[string]string, hasBody bool) (decodeProblems, error) {
	var p decodeProblems
	for name, values := range query {
		bad := !cleanText(name)
		for _, v := range values {
			bad = bad || !cleanText(v)
		}
		if bad {
			p.add(printable(name), msgBadText)
		}
	}
	for name, v := range pathParams {
		if !cleanText(v) {
			p.add(name, msgBadText)
		}
	}
	if !hasBody || r.Body == nil || r.Body == http.NoBody || !isJSON(r.Header.Get("Content-Type")) {
		return p, nil
	}
	// A declared length is within the body limit (see limitBody): read into one buffer of
	// that size rather than growing one as io.ReadAll does.
	var buf bytes.Buffer
	if r.ContentLength > 0 {
		buf.Grow(int(r.ContentLength) + bytes.MinRead)
	}
	if _, err := buf.ReadFrom(r.Body); err != nil {
		return p, err
	}
	body := buf.Bytes()
	r.Body = io.NopCloser(bytes.NewReader(body))
	if len(bytes.TrimSpace(body)) == 0 {
		return p, nil // the schema check says whether a body is required
	}
	checkJSONBody(body, &p)
	return p, nil
}

// parseQuery is r's query as the decoding step and the schema check both read it.
// ParseQuery keeps every pair it could decode (as URL.Query does); a malformed escape is
// left to the schema check, which then misses a required parameter or sees none.
func parseQuery(r *http.Request) url.Values {
	q, _ := url.ParseQuery(r.URL.RawQuery)
	return q
}

// cleanText reports whether s can be stored as text: valid UTF-8 without U+0000.
func cleanText(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsRune(s, 0)
}

// printable makes a field name safe to echo back in details.
func printable(s string) string {
	s = strings.ToValidUTF8(strings.ReplaceAll(s, "\x00", ""), "\uFFFD")
	if s == "" {
		return "request"
	}
	return s
}

func isJSON(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json"))
}
