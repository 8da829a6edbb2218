package httpapi

// What a request body may be before anything decodes it: how large, by operation and caller,
// and what shape a JSON body may have. A body of the wrong shape is refused after one pass
// over its tokens, so that kin-openapi and the handler, which build a Go value of the whole
// document, only ever see a document of bounded size and shape: otherwise a large JSON array
// sent without an account costs far more CPU than any request should (bench/findings.md).

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/routers"
	"github.com/go-json-experiment/json/jsontext"
)

// Body limits (the contract's description states them).
const (
	// maxAnonymousBody is what any request may send that is not a signed-in caller's request
	// to an operation that needs one. The largest body an operation needing no account
	// accepts is the contact form's: 6,354 characters of text, at most 12 bytes each when
	// written as \u escapes (a surrogate pair), so 76.3 KB; 96 KiB holds it with white space.
	maxAnonymousBody = 96 << 10
	// maxJSONBody is what a signed-in caller may send to an operation that needs an account,
	// and what Stripe may send to the webhook (its events are Stripe's to size).
	maxJSONBody = 1 << 20
	// maxAudioBody is a signed-in caller's recording for transcription (up to 5 MB of audio).
	maxAudioBody = 6 << 20
)

// The shape of a JSON body. The operations' own bodies are flat objects of a few members;
// the Stripe webhook's events are the largest and deepest documents the server takes (about
// ten levels, objects of up to about a hundred members, lists of at most ten embedded items).
const (
	maxJSONDepth   = 32
	maxJSONMembers = 256
	maxJSONItems   = 1000
	maxJSONValues  = 10_000
)

// Field messages of the body's shape and text.
const (
	msgTooDeep      = "This value nests too deeply: at most 32 levels."
	msgTooManyItems = "Must have at most 1000 items."
	msgTooManyProps = "Must have at most 256 fields."
	msgTooManyVals  = "The body holds too many values: at most 10000."
	msgDuplicate    = "This field is given more than once."
)

// needsCaller reports whether the operation needs a signed-in caller (the contract's global
// bearer requirement, unless the operation clears it with `security: []`).
func needsCaller(route *routers.Route) bool {
	if s := route.Operation.Security; s != nil {
		return len(*s) > 0
	}
	return len(route.Spec.Security) > 0
}

// bodyLimit is the most a request to route may send: the limit of a signed-in caller's
// request to an operation that needs one, of the Stripe webhook, or of any other request.
func bodyLimit(route *routers.Route, hasCaller bool) int64 {
	switch {
	case route.Path == webhookPath:
		return maxJSONBody
	case !hasCaller || !needsCaller(route):
		return maxAnonymousBody
	case route.Path == "/api/chat/transcribe":
		return maxAudioBody
	}
	return maxJSONBody
}

// limitBody applies route's body limit to r. A declared length over the limit is refused
// (false) before anything is read. A body the operation will not read (it takes none, or it
// needs a caller and has none, so it answers 401) is set aside unread; any other body is
// cut at the limit while it is read.
func limitBody(w http.ResponseWriter, r *http.Request, route *routers.Route) bool {
	_, hasCaller := CallerFrom(r.Context())
	limit := bodyLimit(route, hasCaller)
	if r.ContentLength > limit {
		writeError(w, http.StatusRequestEntityTooLarge, "PAYLOAD_TOO_LARGE", msgTooLarge)
		return false
	}
	if r.Body == nil || r.Body == http.NoBody {
		return true
	}
	if route.Operation.RequestBody == nil || (needsCaller(route) && !hasCaller) {
		r.Body = http.NoBody
		return true
	}
	r.Body = http.MaxBytesReader(w, r.Body, limit)
	return true
}

// bodyDecoders are reused: a decoder keeps its buffers and its stack of names.
var bodyDecoders = sync.Pool{New: func() any { return jsontext.NewDecoder(emptyBody) }}

var emptyBody = bytes.NewReader(nil)

// checkJSONBody reads a JSON body once, token by token, and reports the first problem of its
// shape or syntax (which ends the pass and sets badBody: the document cannot be decoded as
// the client meant it) and every string that holds U+0000. The decoder refuses duplicate
// member names, invalid UTF-8 and lone surrogate escapes itself. Strings are looked at in
// their raw form, so a pass allocates nothing per token.
func checkJSONBody(body []byte, p *decodeProblems) {
	dec := bodyDecoders.Get().(*jsontext.Decoder)
	defer func() {
		dec.Reset(emptyBody) // drop the body
		bodyDecoders.Put(dec)
	}()
	dec.Reset(bytes.NewBuffer(body))
	fail := func(field, msg string) {
		p.add(field, msg)
		p.badBody = true
	}
	values := 0
	for {
		depth := dec.StackDepth()
		if depth == 0 {
			if _, n := dec.StackIndex(0); n > 0 {
				// The document has ended: nothing but white space may follow.
				if _, err := dec.ReadToken(); err != io.EOF {
					fail(bodyField, msgMalformedJSON)
				}
				return
			}
		}
		var err error
		parent := depth // the container that holds what is read next
		switch dec.PeekKind() {
		case '}', ']':
			_, err = dec.ReadToken()
			if err == nil {
				continue
			}
		case '{', '[':
			if _, err = dec.ReadToken(); err == nil && dec.StackDepth() > maxJSONDepth {
				fail(pointerField(dec.StackPointer()), msgTooDeep)
				return
			}
		case 0:
			_, err = dec.ReadToken() // the end of the input, or what is wrong with it
		default:
			var v jsontext.Value
			if v, err = dec.ReadValue(); err == nil && v[0] == '"' && escapesNUL(v) {
				p.add(pointerField(dec.StackPointer()), msgBadText)
			}
		}
		if err != nil {
			fail(syntaxProblem(body, err))
			return
		}
		if parent > 0 {
			kind, n := dec.StackIndex(parent)
			switch {
			case kind == '{' && n%2 == 1: // a member name: not a value
				if (n+1)/2 > maxJSONMembers {
					fail(pointerField(dec.StackPointer().Parent()), msgTooManyProps)
					return
				}
				continue
			case kind == '[' && n > maxJSONItems:
				fail(pointerField(dec.StackPointer().Parent()), msgTooManyItems)
				return
			}
		}
		if values++; values > maxJSONValues {
			fail(bodyField, msgTooManyVals)
			return
		}
	}
}

// syntaxProblem names what the decoder refused: a member name given twice, text that is not
// valid UTF-8 (a lone surrogate escape included) in a document that is otherwise well
// formed, or a body that is not JSON.
func syntaxProblem(body []byte, err error) (string, string) {
	var se *jsontext.SyntacticError
	if !errors.As(err, &se) {
		return bodyField, msgMalformedJSON
	}
	switch {
	case errors.Is(err, jsontext.ErrDuplicateName):
		return pointerField(se.JSONPointer), msgDuplicate
	case jsontext.Value(body).IsValid(jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true)):
		// Well formed once bad text is let through: the first problem was the text at the
		// pointer (a string, or a member name of the object there).
		return pointerField(se.JSONPointer), msgBadText
	}
	return bodyField, msgMalformedJSON
}

// escapesNUL reports whether a raw JSON string holds the escape \u0000. Every backslash in
// a well-formed string starts an escape, so escapes are walked one after another.
func escapesNUL(raw []byte) bool {
	for i := 0; ; {
		j := bytes.IndexByte(raw[i:], '\\')
		if j < 0 || i+j+1 >= len(raw) {
			return false
		}
		i += j + 1
		if raw[i] == 'u' && i+5 <= len(raw) && string(raw[i+1:i+5]) == "0000" {
			return true
		}
		i++
	}
}

// pointerField names the value at a JSON pointer as the validation errors do: member names
// and array indexes joined by dots ("a.b.0"), or "body" for the document itself.
func pointerField(ptr jsontext.Pointer) string {
	if ptr == "" {
		return bodyField
	}
	var sb strings.Builder
	for tok := range ptr.Tokens() {
		if sb.Len() > 0 {
			sb.WriteByte('.')
		}
		sb.WriteString(printable(tok))
	}
	return sb.String()
}
