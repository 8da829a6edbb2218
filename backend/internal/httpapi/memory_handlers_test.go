package httpapi

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/export"
	"github.com/percolate/percolate/backend/internal/memory"
	"github.com/percolate/percolate/backend/internal/store"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
	dbgen "github.com/percolate/percolate/gen/db"
)

type memEnv struct {
	t  *testing.T
	st *store.Store
	h  http.Handler
}

func newMemEnv(t *testing.T) *memEnv {
	st := pgtest.New(t)
	return &memEnv{t: t, st: st, h: newTestHandler(t, Deps{Verifier: userTokens{}, Memory: memory.New(st), Export: export.New(st)})}
}

func (e *memEnv) user(email string) (dbgen.User, []string) {
	e.t.Helper()
	u, err := e.st.Queries().CreateUser(context.Background(), dbgen.CreateUserParams{Email: email, Name: "Name " + email})
	if err != nil {
		e.t.Fatal(err)
	}
	return u, []string{"Authorization", "Bearer token-" + u.ID.String()}
}

func (e *memEnv) remember(userID uuid.UUID, sessionID *uuid.UUID, texts ...string) {
	e.t.Helper()
	for _, text := range texts {
		key := "k:" + text
		if err := e.st.Queries().UpsertMemory(context.Background(), dbgen.UpsertMemoryParams{UserID: userID, SessionID: sessionID, Text: text, Key: &key}); err != nil {
			e.t.Fatal(err)
		}
	}
}

func (e *memEnv) list(auth []string) []map[string]any {
	e.t.Helper()
	res := do(e.h, "GET", "/api/profile/memories", "", auth...)
	if res.Code != http.StatusOK {
		e.t.Fatalf("list: %d %s", res.Code, res.Body)
	}
	var out []map[string]any
	if err := json.Unmarshal(res.Body.Bytes(), &out); err != nil {
		e.t.Fatal(err)
	}
	return out
}

func texts(list []map[string]any) []string {
	var out []string
	for _, m := range list {
		out = append(out, m["text"].(string))
	}
	return out
}

func TestMemoriesOverHTTPAreEachUsersOwn(t *testing.T) {
	e := newMemEnv(t)
	a, authA := e.user("a@example.com")
	b, authB := e.user("b@example.com")
	e.remember(a.ID, nil, "Has a statistics midterm on Tuesday", "Has a friend called Maya")
	e.remember(b.ID, nil, "Plays the cello")

	for _, c := range []struct{ method, target, body string }{
		{"GET", "/api/profile/memories", ""}, {"DELETE", "/api/profile/memories", ""},
		{"PUT", "/api/profile/memories/" + uuid.NewString(), `{"text":"x y"}`}, {"DELETE", "/api/profile/memories/" + uuid.NewString(), ""},
		{"GET", "/api/profile/export", ""},
	} {
		if res := do(e.h, c.method, c.target, c.body); res.Code != http.StatusUnauthorized {
			t.Errorf("%s %s signed out: %d", c.method, c.target, res.Code)
		}
	}

	listA := e.list(authA)
	if got := texts(listA); strings.Join(got, "|") != "Has a friend called Maya|Has a statistics midterm on Tuesday" {
		t.Fatalf("A's memories, newest first: %q", got)
	}
	if listA[0]["sessionId"] != nil || listA[0]["createdAt"] == nil || listA[0]["updatedAt"] == nil || listA[0]["id"] == nil {
		t.Fatalf("memory shape: %v", listA[0])
	}
	maya := listA[0]["id"].(string)
	if got := texts(e.list(authB)); strings.Join(got, "|") != "Plays the cello" {
		t.Fatalf("B sees: %q", got)
	}

	// B can neither change nor delete A's memory.
	if res := do(e.h, "PUT", "/api/profile/memories/"+maya, `{"text":"Hacked"}`, authB...); res.Code != http.StatusNotFound {
		t.Fatalf("B edits A's memory: %d %s", res.Code, res.Body)
	}
	if res := do(e.h, "DELETE", "/api/profile/memories/"+maya, "", authB...); res.Code != http.StatusNotFound {
		t.Fatalf("B deletes A's memory: %d", res.Code)
	}
	if res := do(e.h, "DELETE", "/api/profile/memories", "", authB...); res.Code != http.StatusNoContent {
		t.Fatalf("B forgets everything: %d", res.Code)
	}
	if got := e.list(authA); len(got) != 2 || got[0]["text"] != "Has a friend called Maya" {
		t.Fatalf("A's memories changed by B: %v", got)
	}
	if got := e.list(authB); len(got) != 0 {
		t.Fatalf("B's memories were not forgotten: %v", got)
	}

	// A edits: the text is trimmed; empty or too long is a field error; not a uuid is 400.
	res := do(e.h, "PUT", "/api/profile/memories/"+maya, `{"text":"  Has a friend called Maya   from work "}`, authA...)
	if res.Code != http.StatusOK {
		t.Fatalf("edit: %d %s", res.Code, res.Body)
	}
	var m map[string]any
	_ = json.Unmarshal(res.Body.Bytes(), &m)
	if m["text"] != "Has a friend called Maya from work" || m["id"] != maya {
		t.Fatalf("edited: %v", m)
	}
	for _, body := range []string{`{"text":""}`, `{"text":"   "}`, `{"text":"` + strings.Repeat("a", 201) + `"}`, `{}`, `{"text":"ok ok","x":1}`} {
		if res := do(e.h, "PUT", "/api/profile/memories/"+maya, body, authA...); res.Code != http.StatusBadRequest {
			t.Errorf("%.40s: %d %s", body, res.Code, res.Body)
		}
	}
	if res := do(e.h, "PUT", "/api/profile/memories/nope", `{"text":"a b"}`, authA...); res.Code != http.StatusBadRequest {
		t.Errorf("bad id: %d", res.Code)
	}

	// A deletes one, then everything.
	if res := do(e.h, "DELETE", "/api/profile/memories/"+maya, "", authA...); res.Code != http.StatusNoContent {
		t.Fatalf("delete: %d %s", res.Code, res.Body)
	}
	if res := do(e.h, "DELETE", "/api/profile/memories/"+maya, "", authA...); res.Code != http.StatusNotFound {
		t.Fatalf("delete again: %d", res.Code)
	}
	if got := texts(e.list(authA)); strings.Join(got, "|") != "Has a statistics midterm on Tuesday" {
		t.Fatalf("after delete: %q", got)
	}
	e.remember(b.ID, nil, "Plays the cello")
	if res := do(e.h, "DELETE", "/api/profile/memories", "", authA...); res.Code != http.StatusNoContent {
		t.Fatalf("forget everything: %d", res.Code)
	}
	if got := e.list(authA); len(got) != 0 {
		t.Fatalf("not forgotten: %v", got)
	}
	if got := e.list(authB); len(got) != 1 {
		t.Fatalf("A's forgetting touched B: %v", got)
	}
}

func TestExportIsAZipOfEverythingOfTheCaller(t *testing.T) {
	e := newMemEnv(t)
	ctx := context.Background()
	a, authA := e.user("a@example.com")
	b, _ := e.user("b@example.com")
	q := e.st.Queries()
	open := func(u dbgen.User, title string, at time.Time, msgs ...string) dbgen.ChatSession {
		s, err := q.OpenSession(ctx, dbgen.OpenSessionParams{ID: uuid.New(), UserID: u.ID, Title: title, TokenLimit: 1000})
		if err != nil {
			t.Fatal(err)
		}
		e.exec(`UPDATE chat_sessions SET created_at = $1 WHERE id = $2`, at, s.ID)
		for i, text := range msgs {
			role := "user"
			if i%2 == 1 {
				role = "assistant"
			}
			if _, err := q.InsertMessage(ctx, dbgen.InsertMessageParams{ID: uuid.New(), SessionID: s.ID, UserID: u.ID, Role: role, Content: text, TokenCount: 3, Status: "complete"}); err != nil {
				t.Fatal(err)
			}
		}
		return s
	}
	day := time.Date(2026, 3, 3, 9, 30, 0, 0, time.UTC)
	s1 := open(a, "Midterm / nerves: \"stats\"?", day, "My statistics midterm is on Tuesday.", "That sounds like a lot.")
	open(a, "Midterm / nerves: \"stats\"?", day.Add(time.Hour), "Second one, same title.")
	open(a, "", day.Add(48*time.Hour), "Untitled.")
	open(b, "B's secret", day, "B's words")
	sum := "You talked about your midterm."
	if _, err := q.SetSessionSummary(ctx, dbgen.SetSessionSummaryParams{Summary: &sum, Emotions: []string{"anxiety"}, ID: s1.ID, UserID: a.ID}); err != nil {
		t.Fatal(err)
	}
	e.remember(a.ID, &s1.ID, "Has a statistics midterm on Tuesday")
	e.remember(b.ID, nil, "B's memory")
	if _, err := q.InsertWeeklyReport(ctx, dbgen.InsertWeeklyReportParams{UserID: a.ID, WeekStart: time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC), Content: []byte(`{"sessionCount":3}`)}); err != nil {
		t.Fatal(err)
	}

	res := do(e.h, "GET", "/api/profile/export", "", authA...)
	if res.Code != http.StatusOK || res.Header().Get("Content-Type") != "application/zip" ||
		res.Header().Get("Content-Disposition") != `attachment; filename="percolate-export.zip"` {
		t.Fatalf("export: %d %v", res.Code, res.Header())
	}
	zr, err := zip.NewReader(bytes.NewReader(res.Body.Bytes()), int64(res.Body.Len()))
	if err != nil {
		t.Fatalf("not a zip: %v", err)
	}
	files := map[string]string{}
	var names []string
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(rc)
		rc.Close()
		files[f.Name] = string(b)
		names = append(names, f.Name)
	}
	want := "percolate-export.json|sessions/2026-03-03-midterm-nerves-stats.md|sessions/2026-03-03-midterm-nerves-stats-2.md|sessions/2026-03-05-session.md"
	if strings.Join(names, "|") != want {
		t.Fatalf("files: %q", names)
	}
	var doc struct {
		Profile struct {
			Email         string `json:"email"`
			MemoryEnabled bool   `json:"memoryEnabled"`
		} `json:"profile"`
		Memories []struct {
			Text      string  `json:"text"`
			SessionID *string `json:"sessionId"`
		} `json:"memories"`
		WeeklyReports []struct {
			WeekStart string          `json:"weekStart"`
			Report    json.RawMessage `json:"report"`
		} `json:"weeklyReports"`
		Sessions []struct {
			Title    string   `json:"title"`
			Summary  *string  `json:"summary"`
			Emotions []string `json:"emotions"`
			Messages []struct {
				Role    string `json:"role"`
				Content string `json:"content"`
			} `json:"messages"`
		} `json:"sessions"`
	}
	if err := json.Unmarshal([]byte(files["percolate-export.json"]), &doc); err != nil {
		t.Fatalf("json: %v\n%s", err, files["percolate-export.json"])
	}
	if doc.Profile.Email != "a@example.com" || !doc.Profile.MemoryEnabled || len(doc.Memories) != 1 ||
		doc.Memories[0].Text != "Has a statistics midterm on Tuesday" || doc.Memories[0].SessionID == nil || *doc.Memories[0].SessionID != s1.ID.String() ||
		len(doc.WeeklyReports) != 1 || doc.WeeklyReports[0].WeekStart != "2026-03-02" || string(doc.WeeklyReports[0].Report) != `{"sessionCount":3}` {
		t.Fatalf("export document: %+v", doc)
	}
	if len(doc.Sessions) != 3 || doc.Sessions[0].Summary == nil || *doc.Sessions[0].Summary != sum || doc.Sessions[0].Emotions[0] != "anxiety" ||
		len(doc.Sessions[0].Messages) != 2 || doc.Sessions[0].Messages[1].Role != "assistant" {
		t.Fatalf("sessions: %+v", doc.Sessions)
	}
	journal := files["sessions/2026-03-03-midterm-nerves-stats.md"]
	for _, want := range []string{"# Midterm / nerves: \"stats\"?", "Tuesday, 3 March 2026, 09:30 UTC", "## Summary\n\nYou talked about your midterm.", "**Feelings:** anxiety", "**You** · ", "My statistics midterm is on Tuesday.", "**Percolate** · "} {
		if !strings.Contains(journal, want) {
			t.Errorf("journal lacks %q:\n%s", want, journal)
		}
	}
	for name, body := range files {
		if strings.Contains(body, "B's") {
			t.Errorf("%s holds another user's data", name)
		}
	}
}

func TestExportPagesThroughManySessions(t *testing.T) {
	e := newMemEnv(t)
	a, authA := e.user("a@example.com")
	// 250 sessions: more than two pages of the export's reads.
	e.exec(`INSERT INTO chat_sessions (user_id, title, created_at) SELECT $1, 'Day ' || g, now() - g * interval '1 hour' FROM generate_series(1, 250) g`, a.ID)
	res := do(e.h, "GET", "/api/profile/export", "", authA...)
	zr, err := zip.NewReader(bytes.NewReader(res.Body.Bytes()), int64(res.Body.Len()))
	if err != nil {
		t.Fatalf("%d: %v", res.Code, err)
	}
	if len(zr.File) != 251 {
		t.Fatalf("files: %d", len(zr.File))
	}
}

func TestExportIsLimited(t *testing.T) {
	e := newMemEnv(t)
	_, auth := e.user("a@example.com")
	for i := 0; i < export.PerHour.Limit; i++ {
		if res := do(e.h, "GET", "/api/profile/export", "", auth...); res.Code != http.StatusOK {
			t.Fatalf("export %d: %d", i, res.Code)
		}
	}
	res := do(e.h, "GET", "/api/profile/export", "", auth...)
	if res.Code != http.StatusTooManyRequests || res.Header().Get("Retry-After") == "" {
		t.Fatalf("over the limit: %d %v", res.Code, res.Header())
	}
}

func (e *memEnv) exec(sql string, args ...any) {
	e.t.Helper()
	if _, err := e.st.Pool().Exec(context.Background(), sql, args...); err != nil {
		e.t.Fatal(err)
	}
}
