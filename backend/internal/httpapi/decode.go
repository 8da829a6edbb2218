package httpapi

// The request-decoding step that every operation goes through before the contract's schemas
// are checked. JSON Schema cannot say "no U+0000" or "valid UTF-8" once for the whole
// contract, and PostgreSQL refuses both in text, so they are refused here, for every
// parameter and every string of every JSON body, whatever the operation. A handler added
// later gets the same protection without doing anything.

import (
	"bytes"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
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
// included). It leaves r.Body readable again. A body over the size limit is returned as the
// *http.MaxBytesError it caused.
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
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return p, err
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	if len(bytes.TrimSpace(body)) == 0 {
		return p, nil // the schema check says whether a body is required
	}
	if !json.Valid(body) {
		p.add(bodyField, msgMalformedJSON)
		p.badBody = true
		return p, nil
	}
	checkJSONText(body, &p)
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

// jsonFrame is one open object or array while walking a document.
type jsonFrame struct {
	object    bool
	key       string // the current member's name (objects)
	index     int    // the current element's index (arrays)
	expectKey bool
}

// checkJSONText walks a well-formed JSON document and reports every key or string value
// that holds U+0000 (written \u0000) or invalid UTF-8, under the field path the schema
// errors use ("a.b.0").
//
// encoding/json replaces invalid UTF-8 with U+FFFD while decoding, so it is found in the raw
// bytes instead: every byte between two tokens is an ASCII delimiter or space, so invalid
// UTF-8 between the end of one token and the end of the next belongs to that token.
func checkJSONText(body []byte, p *decodeProblems) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var stack []jsonFrame
	prev := int64(0)
	// next moves the innermost container past the value that just ended.
	next := func() {
		if n := len(stack); n > 0 {
			if stack[n-1].object {
				stack[n-1].expectKey = true
			} else {
				stack[n-1].index++
			}
		}
	}
	for {
		tok, err := dec.Token()
		if err != nil {
			return // io.EOF; json.Valid has ruled out anything else
		}
		end := dec.InputOffset()
		raw := body[prev:end]
		prev = end
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{':
				stack = append(stack, jsonFrame{object: true, expectKey: true})
			case '[':
				stack = append(stack, jsonFrame{})
			default:
				stack = stack[:len(stack)-1]
				next()
			}
		case string:
			bad := strings.ContainsRune(v, 0) || !utf8.Valid(raw)
			if n := len(stack); n > 0 && stack[n-1].object && stack[n-1].expectKey {
				stack[n-1].key = v
				stack[n-1].expectKey = false
				if bad {
					p.add(jsonPath(stack), msgBadText)
				}
				continue
			}
			if bad {
				p.add(jsonPath(stack), msgBadText)
			}
			next()
		default:
			next()
		}
	}
}

// jsonPath names the current value: member names and array indexes joined by dots, or
// "body" for the document itself.
func jsonPath(stack []jsonFrame) string {
	parts := make([]string, 0, len(stack))
	for _, f := range stack {
		if f.object {
			parts = append(parts, printable(f.key))
		} else {
			parts = append(parts, strconv.Itoa(f.index))
		}
	}
	if len(parts) == 0 {
		return bodyField
	}
	return strings.Join(parts, ".")
}
