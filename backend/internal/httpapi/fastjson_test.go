package httpapi

import (
	"bytes"
	"math/rand/v2"
	"net/http/httptest"
	"reflect"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/percolate/percolate/gen/api"
)

// tricky are strings whose JSON encoding/json writes with escapes: quotes, control
// characters, HTML, invalid UTF-8, U+2028/U+2029, and multi-byte text.
var tricky = []string{
	"", "plain", `say "hi"\ now`, "tab\there\nnew\rline\b\f\x00\x1f\x7f", "<script>&amp;</script>",
	"bad \xff\xfe utf8 \xc3", "sep \u2028 and \u2029", "héllo wörld 😀 日本語", "\xed\xa0\x80 surrogate",
}

func str(i int) string { return tricky[i%len(tricky)] }

func sampleTime(r *rand.Rand) time.Time {
	zones := []*time.Location{time.UTC, time.FixedZone("x", 5*3600+30*60), time.FixedZone("y", -7*3600)}
	t := time.Unix(r.Int64N(4e9), r.Int64N(1e9)).In(zones[r.IntN(len(zones))])
	if r.IntN(4) == 0 {
		t = t.Truncate(time.Second)
	}
	return t
}

func sampleDetail(r *rand.Rand) api.SessionDetail {
	d := api.SessionDetail{
		IsActive: r.IntN(2) == 0, SessionId: uuid.New(), SessionTokenLimit: r.IntN(1e6) - 10,
		SessionTokensUsed: r.IntN(1e6), Status: api.SessionStatus(str(r.IntN(100))), Title: str(r.IntN(100)),
	}
	if r.IntN(2) == 0 {
		s := str(r.IntN(100))
		d.EndReason = &s
	}
	if r.IntN(2) == 0 {
		v := r.IntN(2) == 0
		d.ReplyInProgress = &v
	}
	if r.IntN(3) > 0 {
		es := []api.Emotion{}
		for range r.IntN(4) {
			es = append(es, api.Emotion(str(r.IntN(100))))
		}
		d.SessionEmotions = &es
	}
	if r.IntN(2) == 0 {
		s := str(r.IntN(100))
		d.SessionSummary = &s
	}
	if r.IntN(2) == 0 {
		d.SafetyPinned = &api.SafetyPinned{Category: str(r.IntN(100))}
	}
	if r.IntN(8) > 0 {
		d.Messages = []api.Message{}
		for range r.IntN(6) {
			m := api.Message{Content: str(r.IntN(100)), Id: uuid.New(), Role: api.ChatRole(str(r.IntN(100))), Timestamp: sampleTime(r), TokenCount: r.IntN(5000)}
			if r.IntN(2) == 0 {
				st := api.MessageStatus(str(r.IntN(100)))
				m.Status = &st
			}
			d.Messages = append(d.Messages, m)
		}
	}
	return d
}

func sampleList(r *rand.Rand) api.ListChatSessions200JSONResponse {
	var out api.ListChatSessions200JSONResponse
	if r.IntN(8) > 0 {
		out.Body = []api.SessionListItem{}
	}
	if out.Body != nil {
		for range r.IntN(6) {
			it := api.SessionListItem{Id: uuid.New(), Status: api.SessionStatus(str(r.IntN(100))), Title: str(r.IntN(100)), UpdatedAt: sampleTime(r)}
			if r.IntN(2) == 0 {
				f := api.ClosingFeeling(str(r.IntN(100)))
				it.ClosingFeeling = &f
			}
			if r.IntN(2) == 0 {
				s := str(r.IntN(100))
				it.LastMessage = &s
			}
			if r.IntN(2) == 0 {
				s := str(r.IntN(100))
				it.SessionSummary = &s
			}
			if r.IntN(3) > 0 {
				it.SessionEmotions = []api.Emotion{}
				for range r.IntN(3) {
					it.SessionEmotions = append(it.SessionEmotions, api.Emotion(str(r.IntN(100))))
				}
			}
			out.Body = append(out.Body, it)
		}
	}
	if r.IntN(2) == 0 {
		l := "</api/chat/sessions?cursor=" + str(r.IntN(100)) + `>; rel="next"`
		out.Headers.Link = &l
	}
	return out
}

// sameAnswer fails unless both recorders hold the same status, headers and body bytes.
func sameAnswer(t *testing.T, i int, want, got *httptest.ResponseRecorder) {
	t.Helper()
	if got.Code != want.Code || !bytes.Equal(got.Body.Bytes(), want.Body.Bytes()) {
		t.Fatalf("case %d: status %d body\n%s\nwant status %d body\n%s", i, got.Code, got.Body.Bytes(), want.Code, want.Body.Bytes())
	}
	for k, v := range want.Header() {
		if g := got.Header().Values(k); len(g) != len(v) || (len(v) > 0 && g[0] != v[0]) {
			t.Fatalf("case %d: header %s = %q, want %q", i, k, g, v)
		}
	}
	if len(got.Header()) != len(want.Header()) {
		t.Fatalf("case %d: headers %v, want %v", i, got.Header(), want.Header())
	}
}

// TestHandWrittenJSONIsEncodingJSONs answers many sessions and pages of sessions, with every
// optional field present or not and strings that need escaping, both through the generated
// answer (encoding/json) and the hand-written one: the bytes and headers are the same.
func TestHandWrittenJSONIsEncodingJSONs(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 2000 {
		sameDetailAnswer(t, i, sampleDetail(r))
		sameListAnswer(t, i, sampleList(r))
		sameCurrentUserAnswer(t, i, sampleCurrentUser(r))
	}
}

func sampleCurrentUser(r *rand.Rand) api.CurrentUser {
	return api.CurrentUser{
		Id: uuid.New(), Email: str(r.IntN(100)), Name: str(r.IntN(100)), Role: api.Role(str(r.IntN(100))), IsStudent: r.IntN(2) == 0,
		Entitlements: api.Entitlements{
			Community: r.IntN(2) == 0, Insights: r.IntN(2) == 0, Memory: r.IntN(2) == 0, Summaries: r.IntN(2) == 0, Voice: r.IntN(2) == 0,
			MessagesPerDay: r.IntN(1000) - 1, SessionTokens: r.IntN(1 << 20), VoicePerDay: r.IntN(100),
		},
	}
}

// sameCurrentUserAnswer is sameDetailAnswer for /api/auth/me.
func sameCurrentUserAnswer(t *testing.T, i int, u api.CurrentUser) {
	t.Helper()
	want, got := httptest.NewRecorder(), httptest.NewRecorder()
	if err := api.GetCurrentUser200JSONResponse(u).VisitGetCurrentUserResponse(want); err != nil {
		t.Fatal(err)
	}
	if err := currentUserJSON(u).VisitGetCurrentUserResponse(got); err != nil {
		t.Fatal(err)
	}
	sameAnswer(t, i, want, got)
}

// sameDetailAnswer writes d through the generated answer and the hand-written one, and fails
// t unless the two are the same.
func sameDetailAnswer(t *testing.T, i int, d api.SessionDetail) {
	t.Helper()
	want, got := httptest.NewRecorder(), httptest.NewRecorder()
	if err := api.GetChatSession200JSONResponse(d).VisitGetChatSessionResponse(want); err != nil {
		t.Fatal(err)
	}
	if err := sessionDetailJSON(d).VisitGetChatSessionResponse(got); err != nil {
		t.Fatal(err)
	}
	sameAnswer(t, i, want, got)
}

// sameListAnswer is sameDetailAnswer for a page of sessions.
func sameListAnswer(t *testing.T, i int, l api.ListChatSessions200JSONResponse) {
	t.Helper()
	want, got := httptest.NewRecorder(), httptest.NewRecorder()
	if err := l.VisitListChatSessionsResponse(want); err != nil {
		t.Fatal(err)
	}
	if err := sessionListJSON(l).VisitListChatSessionsResponse(got); err != nil {
		t.Fatal(err)
	}
	sameAnswer(t, i, want, got)
}

// TestHandWrittenJSONFallsBack gives a time encoding/json refuses: the answer is the generated
// one's, an error.
func TestHandWrittenJSONFallsBack(t *testing.T) {
	far := time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
	d := api.SessionDetail{Messages: []api.Message{{Timestamp: far}}}
	if err := sessionDetailJSON(d).VisitGetChatSessionResponse(httptest.NewRecorder()); err == nil {
		t.Fatal("a message of the year 10000 was written")
	}
	l := api.ListChatSessions200JSONResponse{Body: []api.SessionListItem{{UpdatedAt: far}}}
	if err := sessionListJSON(l).VisitListChatSessionsResponse(httptest.NewRecorder()); err == nil {
		t.Fatal("a session of the year 10000 was written")
	}
}

// FuzzJSONString compares the string encoder with encoding/json's on any text.
func FuzzJSONString(f *testing.F) {
	for _, s := range tricky {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sameDetailAnswer(t, 0, api.SessionDetail{Title: s, Messages: []api.Message{{Content: s}}})
		sameCurrentUserAnswer(t, 0, api.CurrentUser{Email: s, Name: s, Role: api.Role(s)})
	})
}

// fill sets every field of v, recursively: every pointer and slice present (one element),
// strings "x", numbers 1, booleans true, times a fixed instant, uuids random.
func fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem())
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(time.Date(2026, 11, 27, 1, 2, 3, 4, time.UTC)))
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i))
			}
		}
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(v.Index(0))
	case reflect.Array: // uuid.UUID
		id := uuid.New()
		reflect.Copy(v, reflect.ValueOf(id[:]))
	case reflect.String:
		v.SetString("x")
	case reflect.Int, reflect.Int32, reflect.Int64:
		v.SetInt(1)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(1)
	case reflect.Bool:
		v.SetBool(true)
	}
}

// TestHandWrittenJSONKnowsEveryField fills every field of the contract's types by reflection,
// so a field added to openapi.yaml (and so to the generated types) that the hand-written
// encoders do not write makes the two answers differ.
func TestHandWrittenJSONKnowsEveryField(t *testing.T) {
	var d api.SessionDetail
	fill(reflect.ValueOf(&d).Elem())
	sameDetailAnswer(t, 0, d)

	var l api.ListChatSessions200JSONResponse
	fill(reflect.ValueOf(&l).Elem())
	sameListAnswer(t, 0, l)

	var u api.CurrentUser
	fill(reflect.ValueOf(&u).Elem())
	sameCurrentUserAnswer(t, 0, u)
}
