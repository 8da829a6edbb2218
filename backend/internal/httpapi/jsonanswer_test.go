package httpapi

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/chat"
	"github.com/percolate/percolate/gen/api"
)

// The answers jsonanswer.go writes are checked against the contract (contractChecked) and
// against the generated answers' encoding/json, which the generated types were written for:
// the same JSON values, with nil lists as [].

// tricky are texts that need escapes or care: quotes, control characters, HTML, invalid
// UTF-8, U+2028/U+2029, and multi-byte text.
var tricky = []string{
	"", "plain", `say "hi"\ now`, "tab\there\nnew\rline\b\f\x00\x1f\x7f", "<script>&amp;</script>",
	"bad \xff\xfe utf8 \xc3", "sep \u2028 and \u2029", "héllo wörld 😀 日本語", "\xed\xa0\x80 surrogate",
}

func text(r *rand.Rand) string { return tricky[r.IntN(len(tricky))] }

func pick[T any](r *rand.Rand, vs ...T) T { return vs[r.IntN(len(vs))] }

func sampleTime(r *rand.Rand) time.Time {
	zone := pick(r, time.UTC, time.FixedZone("x", 5*3600+30*60), time.FixedZone("y", -7*3600))
	t := time.Unix(r.Int64N(4e9), r.Int64N(1e9)).In(zone)
	if r.IntN(4) == 0 {
		t = t.Truncate(time.Second)
	}
	return t
}

func sampleEmotions(r *rand.Rand) []api.Emotion {
	es := []api.Emotion{}
	for range r.IntN(4) {
		es = append(es, pick(r, api.Calm, api.Stress, api.Hope))
	}
	return es
}

// sampleDetail is a session's detail as the handler builds one (its lists are never nil),
// with every optional field present or not.
func sampleDetail(r *rand.Rand) api.SessionDetail {
	d := api.SessionDetail{
		IsActive: r.IntN(2) == 0, SessionId: uuid.New(), SessionTokenLimit: r.IntN(1e6) - 10,
		SessionTokensUsed: r.IntN(1e6), Status: pick(r, api.ACTIVE, api.ENDED), Title: text(r), Messages: []api.Message{},
	}
	if r.IntN(2) == 0 {
		s := text(r)
		d.EndReason = &s
	}
	if r.IntN(2) == 0 {
		v := r.IntN(2) == 0
		d.ReplyInProgress = &v
	}
	if r.IntN(3) > 0 {
		es := sampleEmotions(r)
		d.SessionEmotions = &es
	}
	if r.IntN(2) == 0 {
		s := text(r)
		d.SessionSummary = &s
	}
	if r.IntN(2) == 0 {
		d.SafetyPinned = &api.SafetyPinned{Category: pick(r, "suicide", "self_harm", "abuse")}
	}
	for range r.IntN(6) {
		m := api.Message{Content: text(r), Id: uuid.New(), Role: pick(r, api.ChatRoleUser, api.ChatRoleAssistant), Timestamp: sampleTime(r), TokenCount: r.IntN(5000)}
		if r.IntN(2) == 0 {
			st := pick(r, api.Complete, api.Interrupted, api.Stopped)
			m.Status = &st
		}
		d.Messages = append(d.Messages, m)
	}
	return d
}

func sampleList(r *rand.Rand) api.ListChatSessions200JSONResponse {
	out := api.ListChatSessions200JSONResponse{Body: []api.SessionListItem{}}
	for range r.IntN(6) {
		it := api.SessionListItem{Id: uuid.New(), Status: pick(r, api.ACTIVE, api.ENDED), Title: text(r), UpdatedAt: sampleTime(r), SessionEmotions: sampleEmotions(r)}
		if r.IntN(2) == 0 {
			f := pick(r, api.Better, api.Same, api.Worse)
			it.ClosingFeeling = &f
		}
		if r.IntN(2) == 0 {
			s := text(r)
			it.LastMessage = &s
		}
		if r.IntN(2) == 0 {
			s := text(r)
			it.SessionSummary = &s
		}
		out.Body = append(out.Body, it)
	}
	if r.IntN(2) == 0 {
		l := `</api/chat/sessions?cursor=abc>; rel="next"`
		out.Headers.Link = &l
	}
	return out
}

func sampleCurrentUser(r *rand.Rand) api.CurrentUser {
	return api.CurrentUser{
		Id: uuid.New(), Email: text(r), Name: text(r), Role: pick(r, api.RoleUSER, api.RoleBASIC, api.RolePREMIUM, api.RoleADMIN), IsStudent: r.IntN(2) == 0,
		Entitlements: api.Entitlements{
			Community: r.IntN(2) == 0, Insights: r.IntN(2) == 0, Memory: r.IntN(2) == 0, Summaries: r.IntN(2) == 0, Voice: r.IntN(2) == 0,
			MessagesPerDay: r.IntN(1000) - 1, SessionTokens: r.IntN(1 << 20), VoicePerDay: r.IntN(100),
		},
	}
}

// checkedAnswer writes an answer as the handler of GET path would, through the contract check.
func checkedAnswer(t *testing.T, path string, visit func(http.ResponseWriter) error) response {
	t.Helper()
	h := contractChecked(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if err := visit(w); err != nil {
			t.Errorf("GET %s: %v", path, err)
		}
	}), false)
	return do(h, http.MethodGet, path, "")
}

// sameValue fails t unless the library's answer and encoding/json's hold the same status,
// headers and JSON value.
func sameValue(t *testing.T, what string, want *httptest.ResponseRecorder, got response) {
	t.Helper()
	if got.Code != want.Code || !equalHeaders(got.Header(), want.Header()) {
		t.Fatalf("%s: %d %v, want %d %v", what, got.Code, got.Header(), want.Code, want.Header())
	}
	var g, w any
	if err := json.Unmarshal(got.Body.Bytes(), &g); err != nil {
		t.Fatalf("%s: not JSON: %v: %q", what, err, got.Body.String())
	}
	if err := json.Unmarshal(want.Body.Bytes(), &w); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Fatalf("%s:\n%s\nwant the value of\n%s", what, got.Body.Bytes(), want.Body.Bytes())
	}
}

func sameDetail(t *testing.T, d api.SessionDetail) {
	t.Helper()
	want := httptest.NewRecorder()
	if err := api.GetChatSession200JSONResponse(d).VisitGetChatSessionResponse(want); err != nil {
		t.Fatal(err)
	}
	sameValue(t, "detail", want, checkedAnswer(t, "/api/chat/sessions/"+d.SessionId.String(), sessionDetailJSON(d).VisitGetChatSessionResponse))
}

func sameList(t *testing.T, l api.ListChatSessions200JSONResponse) {
	t.Helper()
	want := httptest.NewRecorder()
	if err := l.VisitListChatSessionsResponse(want); err != nil {
		t.Fatal(err)
	}
	// listAnswer's encoding, from the generated items rather than the chat service's page.
	got := func(w http.ResponseWriter) error {
		if l.Headers.Link != nil {
			w.Header().Set("Link", *l.Headers.Link)
		}
		return writeKept(w, nil, "", nil, func(buf *bytes.Buffer) error { return encodeJSON(buf, l.Body) })
	}
	sameValue(t, "list", want, checkedAnswer(t, "/api/chat/sessions", got))
}

func sameCurrentUser(t *testing.T, u api.CurrentUser) {
	t.Helper()
	want := httptest.NewRecorder()
	if err := api.GetCurrentUser200JSONResponse(u).VisitGetCurrentUserResponse(want); err != nil {
		t.Fatal(err)
	}
	sameValue(t, "me", want, checkedAnswer(t, "/api/auth/me", currentUserJSON(u).VisitGetCurrentUserResponse))
}

// TestJSONAnswersAreTheGeneratedOnes answers many sessions, pages and users, with every
// optional field present or not and texts that need escaping: each answer keeps the contract
// and is the JSON value encoding/json writes from the same generated type.
func TestJSONAnswersAreTheGeneratedOnes(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		sameDetail(t, sampleDetail(r))
		sameList(t, sampleList(r))
		sameCurrentUser(t, sampleCurrentUser(r))
	}
}

// fill sets every field of v, recursively: every pointer and slice present (one element),
// enums their first value, other strings "x", numbers 1, booleans true, times a fixed instant.
func fill(v reflect.Value) {
	enums := map[reflect.Type]any{
		reflect.TypeFor[api.SessionStatus](): api.ACTIVE, reflect.TypeFor[api.ChatRole](): api.ChatRoleUser,
		reflect.TypeFor[api.MessageStatus](): api.Complete, reflect.TypeFor[api.Emotion](): api.Calm,
		reflect.TypeFor[api.ClosingFeeling](): api.Better, reflect.TypeFor[api.Role](): api.RoleUSER,
	}
	if e, ok := enums[v.Type()]; ok {
		v.Set(reflect.ValueOf(e))
		return
	}
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
	case reflect.Bool:
		v.SetBool(true)
	}
}

// TestJSONAnswersKnowEveryField fills every field of the contract's types, so a field added to
// openapi.yaml (and so to the generated types) that the library's options would write
// differently from encoding/json, or off the contract, fails here.
func TestJSONAnswersKnowEveryField(t *testing.T) {
	var d api.SessionDetail
	fill(reflect.ValueOf(&d).Elem())
	sameDetail(t, d)
	var l api.ListChatSessions200JSONResponse
	fill(reflect.ValueOf(&l).Elem())
	sameList(t, l)
	var u api.CurrentUser
	fill(reflect.ValueOf(&u).Elem())
	sameCurrentUser(t, u)
}

// TestJSONAnswersOmitAndNullAsTheContractSays: which fields are left out, which are null,
// which lists are [] (also from a nil slice, which encoding/json would write as null, off the
// contract), and how a time is written.
func TestJSONAnswersOmitAndNullAsTheContractSays(t *testing.T) {
	id := uuid.MustParse("5b0e3c1a-8a7e-4a3c-9a55-0d7c9c3f2b11")
	at := time.Date(2026, 11, 27, 1, 2, 3, 400, time.FixedZone("", 5*3600+30*60))
	inProgress, summary := false, ""
	noEmotions := []api.Emotion{}
	detail := checkedAnswer(t, "/api/chat/sessions/"+id.String(), sessionDetailJSON{
		SessionId: id, Status: api.ENDED, Messages: nil, ReplyInProgress: &inProgress,
		SessionSummary: &summary, SessionEmotions: &noEmotions,
	}.VisitGetChatSessionResponse).Body.String()
	for _, want := range []string{`"messages":[]`, `"replyInProgress":false`, `"sessionSummary":""`, `"sessionEmotions":[]`, `"title":""`} {
		if !strings.Contains(detail, want) {
			t.Errorf("detail %s has no %s", detail, want)
		}
	}
	for _, absent := range []string{"endReason", "safetyPinned"} {
		if strings.Contains(detail, absent) {
			t.Errorf("detail %s has %s, which is nil", detail, absent)
		}
	}
	withMessage := checkedAnswer(t, "/api/chat/sessions/"+id.String(), sessionDetailJSON{
		SessionId: id, Status: api.ACTIVE, Messages: []api.Message{{Id: id, Role: api.ChatRoleUser, Content: "<b>&</b>", Timestamp: at}},
	}.VisitGetChatSessionResponse).Body.String()
	for _, want := range []string{`"timestamp":"2026-11-27T01:02:03.0000004+05:30"`, `"content":"\u003cb\u003e\u0026\u003c/b\u003e"`} {
		if !strings.Contains(withMessage, want) {
			t.Errorf("detail %s has no %s", withMessage, want)
		}
	}
	for _, absent := range []string{"replyInProgress", "sessionEmotions", "sessionSummary", `"status":null`, `"status":""`} {
		if strings.Contains(withMessage, absent) {
			t.Errorf("detail %s has %s, which is nil or absent", withMessage, absent)
		}
	}

	if got := checkedAnswer(t, "/api/chat/sessions", listAnswer{}.VisitListChatSessionsResponse).Body.String(); got != "[]\n" {
		t.Errorf("an empty page is %q, want []", got)
	}
	link := `</api/chat/sessions?cursor=abc>; rel="next"`
	page := checkedAnswer(t, "/api/chat/sessions", listAnswer{
		page: chat.Page{Items: []chat.Session{{ID: id, Status: "ACTIVE", UpdatedAt: at.UTC()}}},
		link: &link,
	}.VisitListChatSessionsResponse)
	want := `[{"id":"5b0e3c1a-8a7e-4a3c-9a55-0d7c9c3f2b11","lastMessage":null,"sessionEmotions":[],"sessionSummary":null,` +
		`"status":"ACTIVE","title":"","updatedAt":"2026-11-26T19:32:03.0000004Z"}]` + "\n"
	if got := page.Body.String(); got != want {
		t.Errorf("page\n%s\nwant\n%s", got, want)
	}
	if page.Header().Get("Link") != link || page.Header().Get("Content-Type") != "application/json" {
		t.Errorf("page headers %v", page.Header())
	}
}

// TestJSONAnswerRefusedWritesNothing: a time encoding/json refuses too (the year 10000) fails
// the answer before any byte of it is written, so the error handler still answers.
func TestJSONAnswerRefusedWritesNothing(t *testing.T) {
	far := time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
	rec := httptest.NewRecorder()
	if err := sessionDetailJSON(api.SessionDetail{Messages: []api.Message{{Timestamp: far}}}).VisitGetChatSessionResponse(rec); err == nil {
		t.Fatal("a message of the year 10000 was written")
	}
	if rec.Body.Len() != 0 || rec.Header().Get("Content-Type") != "" {
		t.Fatalf("a refused answer wrote %q %v", rec.Body.String(), rec.Header())
	}
}

func equalHeaders(a, b http.Header) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !reflect.DeepEqual(v, b[k]) {
			return false
		}
	}
	return true
}
