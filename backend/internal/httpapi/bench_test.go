package httpapi

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/percolate/percolate/gen/api"
)

// BenchmarkRequestPipeline measures what the middleware stack (ids, logging, headers, body
// limit, auth, OpenAPI validation) adds to a request, against serving a static asset, which
// passes through only the outer middlewares. Compare the two as a ratio.
func BenchmarkRequestPipeline(b *testing.B) {
	h := newTestHandler(b, Deps{})
	body := `{"email":"someone@example.com","password":"correct horse battery"}`
	b.Run("validated-json", func(b *testing.B) {
		for b.Loop() {
			req := httptest.NewRequest(http.MethodPost, "/api/auth/login", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			h.ServeHTTP(httptest.NewRecorder(), req)
		}
	})
	// A read with a bearer token, as the web app sends every call: the caller is verified and
	// the operation found and checked, then the handler answers without the database.
	read := buildHandler(b, Deps{Verifier: chatTokens{}})
	b.Run("authenticated-read", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			req := httptest.NewRequest(http.MethodGet, "/api/public/config", nil)
			req.Header.Set("Authorization", "Bearer 5b0e3c1a-8a7e-4a3c-9a55-0d7c9c3f2b11")
			req.Header.Set("Accept-Encoding", "gzip")
			read.ServeHTTP(httptest.NewRecorder(), req)
		}
	})
	b.Run("static-asset", func(b *testing.B) {
		for b.Loop() {
			req := httptest.NewRequest(http.MethodGet, "/assets/app-1a2b.js", nil)
			req.Header.Set("Accept-Encoding", "gzip")
			h.ServeHTTP(httptest.NewRecorder(), req)
		}
	})
}

// BenchmarkSessionDetailJSON writes a session of 40 messages as GET /api/chat/sessions/{id}
// does, without the database and the middlewares.
func BenchmarkSessionDetailJSON(b *testing.B) {
	text := strings.Repeat("It sounds like the week has been a lot. What felt heaviest, the deadline or "+
		"the conversation with your sister? \"Take your time\" - there's no rush.\n", 4)
	d := sessionDetailJSON{SessionId: uuid.New(), Title: "A long week", Status: api.ACTIVE, IsActive: true}
	for range 40 {
		st := api.Complete
		d.Messages = append(d.Messages, api.Message{Id: uuid.New(), Content: text, Role: api.ChatRoleAssistant, Status: &st, Timestamp: time.Now(), TokenCount: 120})
	}
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		if err := d.VisitGetChatSessionResponse(rec); err != nil {
			b.Fatal(err)
		}
	}
}

// anonymousArray is a JSON array of about 780 KiB made of elem: the body of issue 33's CPU
// amplification, which anyone can send to an operation that needs no account.
func anonymousArray(elem string) string {
	var sb strings.Builder
	sb.WriteByte('[')
	for sb.Len() < 780<<10 {
		sb.WriteString(elem)
		sb.WriteByte(',')
	}
	sb.WriteString(elem)
	sb.WriteByte(']')
	return sb.String()
}

// BenchmarkAnonymousArray sends the 780 KiB array to registration without an account, with
// its length declared and without (chunked): what one such request costs the server. Compare
// against the same benchmark before the body rules (bench/findings.md has the ratio). The
// signed-in case sends it with a valid token to an operation that needs one, whose body limit
// (1 MiB) lets it through: only the caps on the document's shape stop it early.
func BenchmarkAnonymousArray(b *testing.B) {
	h := buildHandler(b, Deps{Verifier: acceptToken("good")})
	signedIn := anonymousArray("1")
	b.Run("signed-in/numbers", func(b *testing.B) {
		b.SetBytes(int64(len(signedIn)))
		for b.Loop() {
			req := httptest.NewRequest(http.MethodPost, "/api/chat/message", strings.NewReader(signedIn))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer good")
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != http.StatusBadRequest {
				b.Fatalf("status %d", rec.Code)
			}
		}
	})
	for _, elem := range []struct{ name, json string }{{"numbers", "1"}, {"objects", `{"a":1}`}} {
		body := anonymousArray(elem.json)
		for _, chunked := range []bool{false, true} {
			name := elem.name + "/declared-length"
			if chunked {
				name = elem.name + "/chunked"
			}
			b.Run(name, func(b *testing.B) {
				b.SetBytes(int64(len(body)))
				for b.Loop() {
					req := httptest.NewRequest(http.MethodPost, "/api/auth/register", strings.NewReader(body))
					req.Header.Set("Content-Type", "application/json")
					if chunked {
						req.ContentLength = -1
					}
					rec := httptest.NewRecorder()
					h.ServeHTTP(rec, req)
					if rec.Code < 400 {
						b.Fatalf("status %d", rec.Code)
					}
				}
			})
		}
	}
}

// BenchmarkCheckJSONBody is the token pass alone over bodies it lets through: a contact form
// and a document at the caps' edge (1,000 items, 256 members). Its allocations do not grow
// with the number of tokens.
func BenchmarkCheckJSONBody(b *testing.B) {
	for name, body := range map[string]string{
		"contact": `{"name":"Ada Lovelace","email":"ada@example.com","message":"` + strings.Repeat("It has been a long week. ", 40) + `","website":""}`,
		"at-caps": `{"a":` + items(maxJSONItems) + `,"b":` + members(maxJSONMembers) + `}`,
	} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				var p decodeProblems
				checkJSONBody([]byte(body), &p)
				if len(p.fields) > 0 {
					b.Fatal(p.fields)
				}
			}
		})
	}
}
