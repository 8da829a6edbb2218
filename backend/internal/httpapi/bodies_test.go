package httpapi

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/percolate/percolate/gen/api"
)

// zeros is a body of n bytes that is never materialised: a 413 decided on the declared
// length reads none of it.
type zeros struct{ left int64 }

func (z *zeros) Read(p []byte) (int, error) {
	if z.left <= 0 {
		return 0, io.EOF
	}
	n := min(int64(len(p)), z.left)
	for i := range p[:n] {
		p[i] = ' '
	}
	z.left -= n
	return int(n), nil
}

// sendSized sends c's request with a body of n bytes, declared or not, as the caller.
func (c contractOp) sendSized(h http.Handler, n int64, declared, signedIn bool) *httptest.ResponseRecorder {
	req := httptest.NewRequest(c.method, c.target(nil), &zeros{left: n})
	req.ContentLength = n
	if !declared {
		req.ContentLength = -1
	}
	req.Header.Set("Content-Type", "application/json")
	if signedIn {
		req.Header.Set("Authorization", "Bearer good")
	}
	for _, p := range c.params("header") {
		req.Header.Set(p.Name, "t=1,v1=00")
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// needsAccount reports whether the contract asks a bearer token for the operation.
func (c contractOp) needsAccount(spec *openapi3.T) bool {
	if c.op.Security != nil {
		return len(*c.op.Security) > 0
	}
	return len(spec.Security) > 0
}

// Issue 33, item 11: every operation of the contract lists 413, and the server answers it
// for each, signed in or not, to a body whose declared length is over the limit the
// contract's description gives that request; a body within it is read only by an
// operation that takes one (otherwise it is ignored: the answer is the one without a body).
func TestEveryOperationAnswers413AsTheContractSays(t *testing.T) {
	h := newGateHandler(t)
	spec := contractSpec(t)
	for _, c := range contractOps(t) {
		t.Run(c.id, func(t *testing.T) {
			if c.op.Responses.Value("413") == nil {
				t.Fatalf("%s %s lists no 413, but the server answers one", c.method, c.path)
			}
			for _, signedIn := range []bool{false, true} {
				limit := int64(maxAnonymousBody)
				switch {
				case c.path == webhookPath:
					limit = maxJSONBody
				case signedIn && c.needsAccount(spec) && c.path == "/api/chat/transcribe":
					limit = maxAudioBody
				case signedIn && c.needsAccount(spec):
					limit = maxJSONBody
				}
				if rec := c.sendSized(h, limit+1, true, signedIn); rec.Code != http.StatusRequestEntityTooLarge {
					t.Errorf("signed in %v: %d bytes declared: status %d, want 413: %.200s", signedIn, limit+1, rec.Code, rec.Body)
				}
				reads := c.op.RequestBody != nil && (signedIn || !c.needsAccount(spec))
				chunked := c.sendSized(h, limit+1, false, signedIn)
				switch {
				case reads && chunked.Code != http.StatusRequestEntityTooLarge:
					t.Errorf("signed in %v: %d bytes chunked: status %d, want 413", signedIn, limit+1, chunked.Code)
				case !reads && chunked.Code == http.StatusRequestEntityTooLarge:
					t.Errorf("signed in %v: a body this operation does not read was read: 413", signedIn)
				}
				if c.op.RequestBody == nil {
					hdr := []string{}
					if signedIn {
						hdr = append(hdr, "Authorization", "Bearer good")
					}
					without := do(h, c.method, c.target(nil), "", hdr...)
					with := do(h, c.method, c.target(nil), `{"x":"\u0000"} garbage`, hdr...)
					if with.Code != without.Code {
						t.Errorf("signed in %v: a small body changed the answer from %d to %d: %.200s", signedIn, without.Code, with.Code, with.Body)
					}
				}
			}
		})
	}
}

func contractSpec(t *testing.T) *openapi3.T {
	t.Helper()
	spec, err := api.GetSpec()
	if err != nil {
		t.Fatal(err)
	}
	return spec
}

// escapedAstral is n characters outside the BMP, each written as an escaped surrogate pair:
// the longest JSON a string of n characters can take (12 bytes a character).
func escapedAstral(n int) string { return strings.Repeat(`\ud83d\ude00`, n) }

// Issue 33, item 6: the limit of a request without an account holds the largest body any
// operation needing no account accepts (every string at its maxLength, every character
// written as an escaped surrogate pair), and not much more; the Stripe webhook, whose size
// Stripe sets, is the exception. The 780 KiB array of the issue is refused before it is read.
func TestAnonymousBodyLimitIsWhatTheLargestAnonymousBodyNeeds(t *testing.T) {
	spec := contractSpec(t)
	largest, largestOp := 0, ""
	for _, c := range contractOps(t) {
		s := c.jsonBody()
		if s == nil || c.needsAccount(spec) || c.path == webhookPath {
			continue
		}
		size := len("{}")
		for name, p := range s.Properties {
			size += len(`"`+name+`":`) + len(`,`)
			switch v := p.Value; {
			case v.Type.Is("string") && v.MaxLength != nil:
				size += len(`""`) + 12*int(*v.MaxLength)
			case v.Type.Is("string"):
				t.Fatalf("%s.%s has no maxLength: the body needs no limit of its own", c.id, name)
			default:
				size += len(mustJSON(t, validValue(v)))
			}
		}
		if size > largest {
			largest, largestOp = size, c.id
		}
	}
	t.Logf("largest body without an account: %s, %d bytes; limit %d", largestOp, largest, maxAnonymousBody)
	if largest > maxAnonymousBody || maxAnonymousBody > 2*largest {
		t.Fatalf("the limit %d does not fit the largest body without an account (%s, %d bytes)", maxAnonymousBody, largestOp, largest)
	}
	if maxAnonymousBody >= maxJSONBody {
		t.Fatalf("the limit without an account is not lower than with one")
	}

	// The contact form at its largest passes the limit; one byte over it does not.
	h := newGateHandler(t)
	big := fmt.Sprintf(`{"name":"%s","email":"ada@example.com","message":"%s","website":"%s"}`,
		escapedAstral(100), escapedAstral(5000), escapedAstral(1000))
	if res := do(h, http.MethodPost, "/api/public/contact", big); res.Code == http.StatusRequestEntityTooLarge || res.Code == http.StatusBadRequest && !strings.Contains(res.Body.String(), "website") {
		t.Fatalf("the largest contact form (%d bytes): %d %.300s", len(big), res.Code, res.Body)
	}
	over := `{"name":"Ada","email":"ada@example.com","message":"` + strings.Repeat("a", maxAnonymousBody) + `"}`
	if res := do(h, http.MethodPost, "/api/public/contact", over); res.Code != http.StatusRequestEntityTooLarge {
		t.Fatalf("a contact form over the limit: %d, want 413", res.Code)
	}
	for _, declared := range []bool{true, false} {
		req := httptest.NewRequest(http.MethodPost, "/api/auth/register", strings.NewReader(anonymousArray("1")))
		req.Header.Set("Content-Type", "application/json")
		if !declared {
			req.ContentLength = -1
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusRequestEntityTooLarge {
			t.Fatalf("the 780 KiB array, length declared %v: %d, want 413", declared, rec.Code)
		}
	}
}

// nested is a value nested depth levels deep: arrays inside one another around a 0.
func nested(depth int) string {
	return strings.Repeat("[", depth) + "0" + strings.Repeat("]", depth)
}

// members is an object of n members.
func members(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf(`"m%d":0`, i)
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// items is an array of n elements.
func items(n int) string {
	return "[" + strings.TrimSuffix(strings.Repeat("0,", n), ",") + "]"
}

// Issue 33, item 6: a body deeper, wider or longer than the caps is refused as a validation
// error naming the object or array, whether or not the caller is signed in; a body at the
// caps is not refused for its shape.
func TestBodyShapeIsCappedNamingTheField(t *testing.T) {
	h := newGateHandler(t)
	deep := "x" + strings.Repeat(".0", maxJSONDepth-1) // the first array too deep
	cases := []struct {
		name, value, field, msg string
	}{
		{"too deep", nested(maxJSONDepth), deep, msgTooDeep},
		{"far too deep", nested(40_000), deep, msgTooDeep},
		{"too many items", items(maxJSONItems + 1), "x", msgTooManyItems},
		{"too many members", members(maxJSONMembers + 1), "x", msgTooManyProps},
		{"too many values", "[" + strings.TrimSuffix(strings.Repeat(items(maxJSONItems)+",", maxJSONValues/maxJSONItems), ",") + "]", bodyField, msgTooManyVals},
		{"deep inside an array", `[1,{"y":` + nested(maxJSONDepth) + `}]`, "x.1.y" + strings.Repeat(".0", maxJSONDepth-3), msgTooDeep},
		{"at the caps", `[` + nested(maxJSONDepth-2) + `,` + items(maxJSONItems-1) + `,` + members(maxJSONMembers) + `]`, "", ""},
	}
	for _, c := range cases {
		for _, op := range []struct{ target, body string }{
			{"/api/auth/login", `{"email":"ada@example.com","password":"secretpass","x":%s}`},
			{"/api/chat/message", `{"message":"hi","x":%s}`},
		} {
			t.Run(c.name+op.target, func(t *testing.T) {
				res := do(h, http.MethodPost, op.target, fmt.Sprintf(op.body, c.value), "Authorization", "Bearer good")
				if c.msg == "" {
					if res.Code == http.StatusBadRequest {
						for f, m := range wantValidationError(t, c.name, res.Code, res.Body.Bytes()).Details {
							if slices.Contains([]string{msgTooDeep, msgTooManyItems, msgTooManyProps, msgTooManyVals}, m) {
								t.Fatalf("refused for its shape at the caps: %s: %s", f, m)
							}
						}
					}
					return
				}
				got := wantValidationError(t, c.name, res.Code, res.Body.Bytes()).Details
				if got[c.field] != c.msg || len(got) != 1 {
					t.Fatalf("details = %v, want only %s: %q", got, c.field, c.msg)
				}
			})
		}
	}
}

// Issue 33, item 10: a member name given twice is refused naming the member, and a lone
// surrogate escape in any text field of any JSON body is refused naming the field, as
// invalid UTF-8 is; a surrogate pair is one character and passes.
func TestDuplicateNamesAndLoneSurrogatesAreRefusedNamingTheField(t *testing.T) {
	h := newGateHandler(t)
	covered := eachTextField(t, func(t *testing.T, c contractOp, s *openapi3.Schema, f string) {
		valid := validBody(s, f, "PLACEHOLDER")
		for _, lone := range []string{`\ud800`, `\udfff`, `ok\ud83dok`, `\ude00\ud83d`, `\ud83d\ud83d\ude00`} {
			body := strings.Replace(mustJSON(t, valid), "PLACEHOLDER", lone, 1)
			c.refusedField(t, c.send(h, c.target(nil), body), f, msgBadText)
		}
		pair := strings.Replace(mustJSON(t, valid), "PLACEHOLDER", `ok\ud83d\ude00`, 1)
		if res := c.send(h, c.target(nil), pair); res.Code == http.StatusBadRequest && strings.Contains(res.Body.String(), msgBadText) {
			t.Fatalf("a surrogate pair was refused: %s", res.Body)
		}
		js := mustJSON(t, validBody(s, f, "ok"))
		twice := js[:len(js)-1] + fmt.Sprintf(`,%q:"again"}`, f)
		c.refusedField(t, c.send(h, c.target(nil), twice), f, msgDuplicate)
	})
	mustCover(t, covered, "login.email", "register.name", "sendChatMessage.message", "sendContactMessage.message", "resetPassword.password", "updateMemory.text")

	// Deeper in the document, the path names it; a bad member name is named by its object.
	for body, field := range map[string]string{
		`{"email":"ada@example.com","password":"secretpass","x":{"a":[1,{"b":1,"b":2}]}}`: "x.a.1.b",
		`{"email":"ada@example.com","password":"secretpass","x":["ok","\udc00"]}`:         "x.1",
		`{"email":"ada@example.com","password":"secretpass","x":{"\ud800":1}}`:            "x",
		`{"email":"ada@example.com","password":"secretpass","x":1,"x":2}`:                 "x",
	} {
		res := do(h, http.MethodPost, "/api/auth/login", body)
		if got := wantValidationError(t, body, res.Code, res.Body.Bytes()).Details; len(got) != 1 || got[field] == "" {
			t.Errorf("%s: details = %v, want one for %s", body, got, field)
		}
	}
}

// Issue 33, item 10: every text field of every JSON body says which text it takes (one-line,
// multi-line, password, email); one-line text refuses every control character and line
// break, multi-line text keeps tab, line feed and carriage return and refuses the other
// control characters, each naming the field; a password takes any character but U+0000.
func TestControlCharactersInTextFieldsFollowTheirFormat(t *testing.T) {
	h := newGateHandler(t)
	lineBreaks := []string{"\t", "\n", "\r", "\r\n"}
	controls := []string{"\x01", "\x08", "\x1b", "\x1f", "\x7f", "\u0080", "\u0085", "\u009f"}
	separators := []string{"\u2028", "\u2029"}
	kinds := map[string][]string{}
	for _, c := range contractOps(t) {
		s := c.jsonBody()
		if s == nil {
			continue
		}
		for _, f := range textFields(s) {
			format := s.Properties[f].Value.Format
			kinds[format] = append(kinds[format], c.id+"."+f)
			if format == "uuid" || format == "date" { // checked as a uuid or a date
				continue
			}
			t.Run(c.id+"/"+f, func(t *testing.T) {
				with := func(ch string) string {
					v := "Ada" + ch + "Lovelace"
					if format == "email" {
						v = "ada" + ch + "@example.com"
					}
					// Long enough for the field, so that the character is what is refused.
					if short := int(s.Properties[f].Value.MinLength) - utf8.RuneCountInString(v); short > 0 { // #nosec G115 -- a small schema bound
						v += strings.Repeat("x", short)
					}
					return mustJSON(t, validBody(s, f, v))
				}
				refused := func(ch, want string) {
					t.Helper()
					c.refusedField(t, c.send(h, c.target(nil), with(ch)), f, want)
				}
				passes := func(ch string) {
					t.Helper()
					res := c.send(h, c.target(nil), with(ch))
					if res.Code == http.StatusBadRequest && (strings.Contains(res.Body.String(), `"`+f+`"`) || c.refusesWithText()) {
						t.Fatalf("%q refused: %s", ch, res.Body)
					}
				}
				switch format {
				case formatOneLine:
					for _, ch := range slices.Concat(lineBreaks, controls, separators) {
						refused(ch, msgOneLine)
					}
				case formatMultiLine:
					for _, ch := range slices.Concat(lineBreaks, separators) {
						passes(ch)
					}
					for _, ch := range controls {
						refused(ch, msgControlChar)
					}
				case "email":
					for _, ch := range slices.Concat(lineBreaks, controls, separators) {
						refused(ch, "")
					}
				case "password":
					for _, ch := range slices.Concat(lineBreaks, controls, separators) {
						passes(ch)
					}
				default:
					t.Fatalf("format %q: every text field of a body says which text it takes (one-line, multi-line, password, email, uuid)", format)
				}
			})
		}
	}
	t.Logf("text fields by format: %v", kinds)
	for _, want := range []string{"register.name", "sendContactMessage.name", "refreshTokens.refreshToken"} {
		if !slices.Contains(kinds[formatOneLine], want) {
			t.Errorf("%s is not one-line", want)
		}
	}
	for _, want := range []string{"sendChatMessage.message", "sendContactMessage.message", "updateMemory.text", "updateProfile.focusAreas"} {
		if !slices.Contains(kinds[formatMultiLine], want) {
			t.Errorf("%s is not multi-line", want)
		}
	}
}

// The format checks themselves, rune by rune over every control character.
func TestTextFormats(t *testing.T) {
	for r := rune(0); r <= 0xA0; r++ {
		s := "a" + string(r) + "b"
		control := r < 0x20 || (r >= 0x7f && r <= 0x9f)
		keep := r == '\t' || r == '\n' || r == '\r'
		if err := (textFormat{oneLine: true}).Validate(s); (err != nil) != control {
			t.Errorf("one-line %U: %v", r, err)
		}
		if err := (textFormat{}).Validate(s); (err != nil) != (control && !keep) {
			t.Errorf("multi-line %U: %v", r, err)
		}
	}
	if (textFormat{oneLine: true}).Validate("a\u2028b") == nil || (textFormat{}).Validate("a\u2028b") != nil {
		t.Error("U+2028 is a line break: refused in one line only")
	}
	if !utf8.ValidString("Ada Lovelace") || (textFormat{oneLine: true}).Validate("Ada Lovelace 😀") != nil {
		t.Error("plain text refused")
	}
}
