package httpapi

import (
	"bytes"
	"net/http"
	"sync"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"

	"github.com/percolate/percolate/gen/api"
)

// The two largest reads, a session with its messages and a page of sessions, and the most
// frequent, /api/auth/me, are the reads the bench holds to a target (bench/findings.md): they
// are encoded from the generated types by go-json-experiment/json (the basis of
// encoding/json/v2) rather than by the generated answers' encoding/json. The generated types
// were written for encoding/json, so the options keep what their tags mean there; the rest is
// v2's default.

// jsonOptions are the encoder's options for the generated types:
//   - omitempty as encoding/json reads it (a nil pointer or slice is left out; a pointer to ""
//     or to an empty list is written): a session that has ended with no emotions answers
//     "sessionEmotions":[], while v2's omitempty would leave it out;
//   - text that is not valid UTF-8 is written with U+FFFD, as encoding/json does, rather than
//     failing the answer;
//   - <, >, &, U+2028 and U+2029 escaped, as encoding/json does, so that a text reads the same
//     in these answers as in every other (a session's list item is its whole read's bytes);
//   - v2's own choice otherwise: a nil slice is [] (every list of the contract is an array,
//     never null).
var jsonOptions = json.JoinOptions(
	jsonv1.OmitEmptyWithLegacySemantics(true),
	jsontext.AllowInvalidUTF8(true),
	jsontext.EscapeForHTML(true),
	jsontext.EscapeForJS(true),
)

// jsonBuffers hold an answer while it is encoded, so that it is written in one piece (whole,
// or not at all when encoding fails) without a new buffer each time.
var jsonBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// putJSONBuffer keeps a buffer for the next answer, unless one answer made it very large.
func putJSONBuffer(buf *bytes.Buffer) {
	if buf.Cap() <= 1<<20 {
		buf.Reset()
		jsonBuffers.Put(buf)
	}
}

// encodeJSON appends v's JSON to buf, ended with a newline as the generated answers' are.
func encodeJSON(buf *bytes.Buffer, v any) error {
	if err := json.MarshalWrite(buf, v, jsonOptions); err != nil {
		return err
	}
	buf.WriteByte('\n')
	return nil
}

// writeJSONAnswer writes v as a 200 application/json answer.
func writeJSONAnswer(w http.ResponseWriter, v any) error {
	buf := jsonBuffers.Get().(*bytes.Buffer)
	defer putJSONBuffer(buf)
	if err := encodeJSON(buf, v); err != nil {
		return err
	}
	return writeJSONBytes(w, buf.Bytes())
}

// writeJSONBytes writes b, a JSON document, as a 200 answer.
func writeJSONBytes(w http.ResponseWriter, b []byte) error {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, err := w.Write(b)
	return err
}

// sessionDetailJSON is GET /api/chat/sessions/{id}'s 200 answer.
type sessionDetailJSON api.GetChatSession200JSONResponse

func (r sessionDetailJSON) VisitGetChatSessionResponse(w http.ResponseWriter) error {
	return writeJSONAnswer(w, (*api.SessionDetail)(&r))
}

// currentUserJSON is GET /api/auth/me's 200 answer, the most frequent call of the web app.
type currentUserJSON api.GetCurrentUser200JSONResponse

func (r currentUserJSON) VisitGetCurrentUserResponse(w http.ResponseWriter) error {
	return writeJSONAnswer(w, (*api.CurrentUser)(&r))
}
