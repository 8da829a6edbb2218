package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/chat"
)

// FuzzReplyEvents writes a reply of any text, cut into any pieces, as server-sent events:
// the stream is always well framed (each event one "event:" and one "data:" line, then a
// blank line), every data line is JSON, the deltas join up to the text (for valid UTF-8;
// JSON turns invalid bytes into U+FFFD), and the last event is "done", or "error" for a
// failed reply. The seed corpus is in testdata/fuzz/FuzzReplyEvents.
func FuzzReplyEvents(f *testing.F) {
	f.Add("Hello there.", uint8(3), true)
	f.Add("line one\n\nevent: done\ndata: {}\n\n", uint8(1), true)
	f.Add("\r\n\u2028\u2029\x00\xff", uint8(2), false)
	f.Add("", uint8(0), true)
	f.Fuzz(func(t *testing.T, text string, cut uint8, ok bool) {
		var pieces []string
		step := int(cut%16) + 1
		// Cut at character boundaries, as the model's chunks (decoded JSON strings) and the
		// offline engine's words always are.
		for rest := []rune(text); len(rest) > 0; {
			n := min(step, len(rest))
			pieces = append(pieces, string(rest[:n]))
			rest = rest[n:]
		}
		sid := uuid.MustParse("6f1c1d3e-8a55-4c3b-9d1e-2b7f0e6a9c41")
		ev := replyEvents{ctx: context.Background(), follow: func(ctx context.Context, onDelta func(string) error, flush func() error) (chat.SendResult, error) {
			for i, p := range pieces {
				if err := onDelta(p); err != nil {
					return chat.SendResult{}, err
				}
				if i%2 == 0 {
					if err := flush(); err != nil {
						return chat.SendResult{}, err
					}
				}
			}
			if !ok {
				return chat.SendResult{SessionID: sid, Error: chat.MsgModelFailed}, nil
			}
			return chat.SendResult{Success: true, SessionID: sid, AIResponse: text, Status: chat.StatusComplete}, nil
		}}
		rec := httptest.NewRecorder()
		if err := ev.write(rec); err != nil {
			t.Fatal(err)
		}
		if ct := rec.Header().Get("Content-Type"); ct != "text/event-stream" {
			t.Fatalf("content type %q", ct)
		}
		body := rec.Body.String()
		if !strings.HasSuffix(body, "\n\n") {
			t.Fatalf("stream does not end with a blank line: %q", body)
		}
		var joined strings.Builder
		events := strings.Split(strings.TrimSuffix(body, "\n\n"), "\n\n")
		for i, e := range events {
			lines := strings.Split(e, "\n")
			if len(lines) != 2 || !strings.HasPrefix(lines[0], "event: ") || !strings.HasPrefix(lines[1], "data: ") {
				t.Fatalf("event %d is not framed: %q", i, e)
			}
			name, data := strings.TrimPrefix(lines[0], "event: "), strings.TrimPrefix(lines[1], "data: ")
			var v map[string]any
			if err := json.Unmarshal([]byte(data), &v); err != nil {
				t.Fatalf("event %d data is not JSON: %q", i, data)
			}
			last := i == len(events)-1
			switch {
			case name == "delta" && !last:
				s, _ := v["text"].(string)
				joined.WriteString(s)
			case last && ok && name == "done", last && !ok && name == "error":
			default:
				t.Fatalf("event %d of %d is %q", i, len(events), name)
			}
		}
		if utf8.ValidString(text) && joined.String() != text {
			t.Fatalf("deltas join to %q, want %q", joined.String(), text)
		}
	})
}

// FuzzCheckDecoding runs the request-decoding step on any JSON body and query: it never
// panics; a body that is valid UTF-8 with no \u0000 escape, no lone surrogate escape, no
// member name twice in one object and within the caps on its shape (depth, members, items,
// values), with a clean query, passes; a body whose decoded strings hold U+0000, that is
// valid JSON with invalid UTF-8, or that breaks any of those rules (see bodyFlaw, written
// apart from the decoder) is refused; and so is a query whose decoded value holds U+0000 or
// invalid UTF-8. The seed corpus is in testdata/fuzz/FuzzCheckDecoding.
func FuzzCheckDecoding(f *testing.F) {
	f.Add([]byte(`{"email":"a@example.com","password":"pw"}`), "q=hello")
	f.Add([]byte(`{"message":"hi\u0000there"}`), "")
	f.Add([]byte("{\"message\":\"\xff\"}"), "q=%ff")
	f.Add([]byte(`{"a":[1,{"b\u0000":"c"}],"a":"x"}`), "q=%00&x=1")
	f.Add([]byte(`{"message":"\\u0000 is fine"}garbage`), "")
	f.Add([]byte(`{"a":1,"b":{"c":2,"c":3}}`), "")
	f.Add([]byte(`{"message":"\ud800"}`), "")
	f.Add([]byte(`{"message":"\udc00\ud800"}`), "")
	f.Add([]byte(`{"message":"\ud83d\ude00 \\ud800"}`), "")
	f.Add([]byte(strings.Repeat("[", maxJSONDepth+1)+strings.Repeat("]", maxJSONDepth+1)), "")
	f.Add([]byte(strings.Repeat(`{"a":`, maxJSONDepth)+"1"+strings.Repeat("}", maxJSONDepth)), "")
	f.Add([]byte("["+strings.Repeat("0,", maxJSONItems)+"0]"), "")
	f.Fuzz(func(t *testing.T, body []byte, query string) {
		r := httptest.NewRequest(http.MethodPost, "/api/chat/send", bytes.NewReader(body))
		r.URL.RawQuery = query
		r.Header.Set("Content-Type", "application/json")
		p, err := checkDecoding(r, parseQuery(r), map[string]string{}, true)
		if err != nil {
			t.Fatal(err)
		}
		q, _ := url.ParseQuery(query)
		queryClean := true
		for k, vs := range q {
			queryClean = queryClean && cleanText(k)
			for _, v := range vs {
				queryClean = queryClean && cleanText(v)
			}
		}
		if !queryClean && len(p.fields) == 0 {
			t.Fatalf("query %q with NUL or invalid UTF-8 passed", query)
		}
		if !json.Valid(body) {
			if len(bytes.TrimSpace(body)) > 0 && !p.badBody {
				t.Fatalf("malformed body %q passed", body)
			}
			return
		}
		flaw := bodyFlaw(body)
		if queryClean && utf8.Valid(body) && !bytes.Contains(body, []byte(`\u0000`)) && flaw == "" && len(p.fields) != 0 {
			t.Fatalf("clean body %q refused: %v", body, p.fields)
		}
		if flaw != "" && (len(p.fields) == 0 || !p.badBody) {
			t.Fatalf("body %q with %s passed: %v", body, flaw, p.fields)
		}
		if !utf8.Valid(body) && len(p.fields) == 0 {
			t.Fatalf("body %q with invalid UTF-8 passed", body)
		}
		var v any
		if json.Unmarshal(body, &v) == nil && holdsNUL(v) && len(p.fields) == 0 {
			t.Fatalf("body %q with U+0000 passed", body)
		}
		if got, _ := readAll(r); !bytes.Equal(got, body) {
			t.Fatalf("the body was not left readable")
		}
	})
}

func readAll(r *http.Request) ([]byte, error) {
	var b bytes.Buffer
	_, err := b.ReadFrom(r.Body)
	return b.Bytes(), err
}

// holdsNUL reports whether a decoded JSON value has U+0000 in any key or string.
func holdsNUL(v any) bool {
	switch v := v.(type) {
	case string:
		return strings.ContainsRune(v, 0)
	case []any:
		for _, e := range v {
			if holdsNUL(e) {
				return true
			}
		}
	case map[string]any:
		for k, e := range v {
			if strings.ContainsRune(k, 0) || holdsNUL(e) {
				return true
			}
		}
	}
	return false
}

// bodyFlaw is what is wrong with a well-formed JSON body beyond its text: a member name twice
// in one object, a lone surrogate escape, or a shape over the caps; "" when nothing is. It
// walks the document with encoding/json's tokens, apart from the decoder under test.
func bodyFlaw(body []byte) string {
	if loneSurrogate(body) {
		return "a lone surrogate"
	}
	type frame struct {
		object    bool
		names     map[string]bool
		n         int
		expectKey bool
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	var stack []*frame
	values := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return ""
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			if len(stack) > 0 && stack[len(stack)-1].object {
				stack[len(stack)-1].expectKey = true
			}
			continue
		}
		if top != nil && top.object && top.expectKey {
			name := tok.(string)
			if top.names[name] {
				return "a member name twice"
			}
			top.names[name] = true
			if top.n++; top.n > maxJSONMembers {
				return "too many members"
			}
			top.expectKey = false
			continue
		}
		if values++; values > maxJSONValues {
			return "too many values"
		}
		if top != nil && !top.object {
			if top.n++; top.n > maxJSONItems {
				return "too many items"
			}
		}
		if top != nil && top.object {
			top.expectKey = true
		}
		if d, ok := tok.(json.Delim); ok {
			stack = append(stack, &frame{object: d == '{', names: map[string]bool{}, expectKey: d == '{'})
			if len(stack) > maxJSONDepth {
				return "too deep a nesting"
			}
		}
	}
}

// loneSurrogate reports whether a well-formed JSON text escapes half of a surrogate pair
// alone. Outside strings such a text has no backslash, so its escapes are walked in turn.
func loneSurrogate(body []byte) bool {
	high := false // the escape just before was a high surrogate
	for i := 0; i < len(body); i++ {
		if body[i] != '\\' {
			if high {
				return true
			}
			continue
		}
		i++
		if i >= len(body) || body[i] != 'u' || i+4 >= len(body) {
			if high {
				return true
			}
			continue
		}
		v, err := strconv.ParseUint(string(body[i+1:i+5]), 16, 16)
		i += 4
		if err != nil {
			continue
		}
		switch {
		case v >= 0xD800 && v <= 0xDBFF:
			if high {
				return true
			}
			high = true
		case v >= 0xDC00 && v <= 0xDFFF:
			if !high {
				return true
			}
			high = false
		default:
			if high {
				return true
			}
		}
	}
	return high
}
