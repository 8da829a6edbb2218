package httpapi

import (
	"net/http"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/percolate/percolate/gen/api"
)

// The two largest reads, a session with its messages and a page of sessions, and the most
// frequent, /api/auth/me, write their JSON by hand: encoding/json's reflection was most of
// their cost after the database. The
// bytes are exactly encoding/json's (json.Encoder, HTML escaped, with its final newline);
// fastjson_test.go compares them. A time encoding/json would refuse falls back to it, and so
// answers as before.

// sessionDetailJSON is GET /api/chat/sessions/{id}'s 200 answer.
type sessionDetailJSON api.GetChatSession200JSONResponse

func (r sessionDetailJSON) VisitGetChatSessionResponse(w http.ResponseWriter) error {
	buf := jsonBuffers.Get().(*[]byte)
	defer putJSONBuffer(buf)
	b, ok := appendSessionDetail((*buf)[:0], (*api.SessionDetail)(&r))
	*buf = b
	if !ok {
		return api.GetChatSession200JSONResponse(r).VisitGetChatSessionResponse(w)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, err := w.Write(b)
	return err
}

// sessionListJSON is GET /api/chat/sessions's 200 answer.
type sessionListJSON api.ListChatSessions200JSONResponse

func (r sessionListJSON) VisitListChatSessionsResponse(w http.ResponseWriter) error {
	buf := jsonBuffers.Get().(*[]byte)
	defer putJSONBuffer(buf)
	b, ok := appendSessionList((*buf)[:0], r.Body)
	*buf = b
	if !ok {
		return api.ListChatSessions200JSONResponse(r).VisitListChatSessionsResponse(w)
	}
	w.Header().Set("Content-Type", "application/json")
	if r.Headers.Link != nil {
		w.Header().Set("Link", *r.Headers.Link)
	}
	w.WriteHeader(http.StatusOK)
	_, err := w.Write(b)
	return err
}

// currentUserJSON is GET /api/auth/me's 200 answer, the most frequent call of the web app.
type currentUserJSON api.GetCurrentUser200JSONResponse

func (r currentUserJSON) VisitGetCurrentUserResponse(w http.ResponseWriter) error {
	buf := jsonBuffers.Get().(*[]byte)
	defer putJSONBuffer(buf)
	b := appendCurrentUser((*buf)[:0], (*api.CurrentUser)(&r))
	*buf = b
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, err := w.Write(b)
	return err
}

func appendCurrentUser(b []byte, u *api.CurrentUser) []byte {
	e := &u.Entitlements
	b = append(b, `{"email":`...)
	b = appendJSONString(b, u.Email)
	b = append(b, `,"entitlements":{"community":`...)
	b = strconv.AppendBool(b, e.Community)
	b = append(b, `,"insights":`...)
	b = strconv.AppendBool(b, e.Insights)
	b = append(b, `,"memory":`...)
	b = strconv.AppendBool(b, e.Memory)
	b = append(b, `,"messagesPerDay":`...)
	b = strconv.AppendInt(b, int64(e.MessagesPerDay), 10)
	b = append(b, `,"moodPatterns":`...)
	b = strconv.AppendBool(b, e.MoodPatterns)
	b = append(b, `,"sessionTokens":`...)
	b = strconv.AppendInt(b, int64(e.SessionTokens), 10)
	b = append(b, `,"summaries":`...)
	b = strconv.AppendBool(b, e.Summaries)
	b = append(b, `,"voice":`...)
	b = strconv.AppendBool(b, e.Voice)
	b = append(b, `,"voicePerDay":`...)
	b = strconv.AppendInt(b, int64(e.VoicePerDay), 10)
	b = append(b, `},"id":`...)
	b = appendUUID(b, u.Id)
	b = append(b, `,"isStudent":`...)
	b = strconv.AppendBool(b, u.IsStudent)
	b = append(b, `,"name":`...)
	b = appendJSONString(b, u.Name)
	b = append(b, `,"role":`...)
	b = appendJSONString(b, string(u.Role))
	return append(b, "}\n"...)
}

var jsonBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 32<<10); return &b }}

// putJSONBuffer keeps a buffer for the next answer, unless one answer made it very large.
func putJSONBuffer(b *[]byte) {
	if cap(*b) <= 1<<20 {
		jsonBuffers.Put(b)
	}
}

func appendSessionDetail(b []byte, d *api.SessionDetail) ([]byte, bool) {
	b = append(b, '{')
	if d.EndReason != nil {
		b = append(b, `"endReason":`...)
		b = appendJSONString(b, *d.EndReason)
		b = append(b, ',')
	}
	b = append(b, `"isActive":`...)
	b = strconv.AppendBool(b, d.IsActive)
	b = append(b, `,"messages":`...)
	if d.Messages == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range d.Messages {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = appendMessage(b, &d.Messages[i]); !ok {
				return b, false
			}
		}
		b = append(b, ']')
	}
	if d.ReplyInProgress != nil {
		b = append(b, `,"replyInProgress":`...)
		b = strconv.AppendBool(b, *d.ReplyInProgress)
	}
	if d.SafetyPinned != nil {
		b = append(b, `,"safetyPinned":{"category":`...)
		b = appendJSONString(b, d.SafetyPinned.Category)
		b = append(b, '}')
	}
	if d.SessionEmotions != nil {
		b = append(b, `,"sessionEmotions":`...)
		b = appendEmotions(b, *d.SessionEmotions)
	}
	b = append(b, `,"sessionId":`...)
	b = appendUUID(b, d.SessionId)
	if d.SessionSummary != nil {
		b = append(b, `,"sessionSummary":`...)
		b = appendJSONString(b, *d.SessionSummary)
	}
	b = append(b, `,"sessionTokenLimit":`...)
	b = strconv.AppendInt(b, int64(d.SessionTokenLimit), 10)
	b = append(b, `,"sessionTokensUsed":`...)
	b = strconv.AppendInt(b, int64(d.SessionTokensUsed), 10)
	b = append(b, `,"status":`...)
	b = appendJSONString(b, string(d.Status))
	b = append(b, `,"title":`...)
	b = appendJSONString(b, d.Title)
	b = append(b, "}\n"...)
	return b, true
}

func appendMessage(b []byte, m *api.Message) ([]byte, bool) {
	b = append(b, `{"content":`...)
	b = appendJSONString(b, m.Content)
	b = append(b, `,"id":`...)
	b = appendUUID(b, m.Id)
	b = append(b, `,"role":`...)
	b = appendJSONString(b, string(m.Role))
	if m.Status != nil {
		b = append(b, `,"status":`...)
		b = appendJSONString(b, string(*m.Status))
	}
	b = append(b, `,"timestamp":`...)
	var ok bool
	if b, ok = appendTime(b, m.Timestamp); !ok {
		return b, false
	}
	b = append(b, `,"tokenCount":`...)
	b = strconv.AppendInt(b, int64(m.TokenCount), 10)
	return append(b, '}'), true
}

func appendSessionList(b []byte, items []api.SessionListItem) ([]byte, bool) {
	if items == nil {
		return append(b, "null\n"...), true
	}
	b = append(b, '[')
	for i := range items {
		if i > 0 {
			b = append(b, ',')
		}
		it := &items[i]
		b = append(b, '{')
		if it.ClosingFeeling != nil {
			b = append(b, `"closingFeeling":`...)
			b = appendJSONString(b, string(*it.ClosingFeeling))
			b = append(b, ',')
		}
		b = append(b, `"id":`...)
		b = appendUUID(b, it.Id)
		b = append(b, `,"lastMessage":`...)
		b = appendNullableString(b, it.LastMessage)
		b = append(b, `,"sessionEmotions":`...)
		b = appendEmotions(b, it.SessionEmotions)
		b = append(b, `,"sessionSummary":`...)
		b = appendNullableString(b, it.SessionSummary)
		b = append(b, `,"status":`...)
		b = appendJSONString(b, string(it.Status))
		b = append(b, `,"title":`...)
		b = appendJSONString(b, it.Title)
		b = append(b, `,"updatedAt":`...)
		var ok bool
		if b, ok = appendTime(b, it.UpdatedAt); !ok {
			return b, false
		}
		b = append(b, '}')
	}
	return append(b, "]\n"...), true
}

func appendEmotions(b []byte, es []api.Emotion) []byte {
	if es == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, e := range es {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, string(e))
	}
	return append(b, ']')
}

func appendNullableString(b []byte, s *string) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	return appendJSONString(b, *s)
}

// appendUUID writes a UUID as its text form (uuid.UUID is a TextMarshaler).
func appendUUID(b []byte, id uuid.UUID) []byte {
	var s [36]byte
	// uuid.UUID.MarshalText writes these same 36 bytes, which need no escaping.
	encodeUUID(s[:], id)
	b = append(b, '"')
	b = append(b, s[:]...)
	return append(b, '"')
}

const hexDigits = "0123456789abcdef"

func encodeUUID(dst []byte, id uuid.UUID) {
	j := 0
	for i, c := range id {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			dst[j] = '-'
			j++
		}
		dst[j], dst[j+1] = hexDigits[c>>4], hexDigits[c&0xF]
		j += 2
	}
}

// appendTime writes t as time.Time.MarshalJSON does; false where MarshalJSON fails (a year
// outside 0–9999 or a zone offset of a day or more).
func appendTime(b []byte, t time.Time) ([]byte, bool) {
	if y := t.Year(); y < 0 || y > 9999 {
		return b, false
	}
	if _, off := t.Zone(); off <= -24*3600 || off >= 24*3600 {
		return b, false
	}
	b = append(b, '"')
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"'), true
}

// plainASCII is the ASCII that appendJSONString writes as it is: one look-up per byte,
// rather than six comparisons, in the loop over every text of an answer.
var plainASCII = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// appendJSONString writes s as encoding/json does with HTML escaping (json.Encoder's
// default): <, > and & as \u00XX, invalid UTF-8 as \ufffd, U+2028 and U+2029 escaped.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if plainASCII[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
