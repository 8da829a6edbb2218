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
	"github.com/percolate/percolate/gen/api"
	"github.com/percolate/percolate/gen/apiclient"
	dbgen "github.com/percolate/percolate/gen/db"
)

type memEnv struct {
	t   *testing.T
	st  *store.Store
	h   http.Handler
	api *apiclient.ClientWithResponses // the typed client of h
}

func newMemEnv(t *testing.T) *memEnv {
	st := pgtest.New(t)
	h := newTestHandler(t, Deps{Verifier: userTokens{}, Memory: memory.New(st), Export: export.New(st)})
	return &memEnv{t: t, st: st, h: h, api: apiClient(t, h, "192.0.2.1")}
}

func (e *memEnv) user(email string) (dbgen.User, apiclient.RequestEditorFn) {
	e.t.Helper()
	u, err := e.st.Queries().CreateUser(context.Background(), dbgen.CreateUserParams{Email: email, Name: "Name " + email})
	if err != nil {
		e.t.Fatal(err)
	}
	return u, bearer("token-" + u.ID.String())
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

func (e *memEnv) list(auth apiclient.RequestEditorFn) []api.Memory {
	e.t.Helper()
	res, err := e.api.ListMemoriesWithResponse(context.Background(), auth)
	wantStatus(e.t, res, err, http.StatusOK)
	return *res.JSON200
}

func texts(list []api.Memory) string {
	var out []string
	for _, m := range list {
		out = append(out, m.Text)
	}
	return strings.Join(out, "|")
}

func TestMemoriesOverHTTPAreEachUsersOwn(t *testing.T) {
	ctx := context.Background()
	e := newMemEnv(t)
	a, authA := e.user("a@example.com")
	b, authB := e.user("b@example.com")
	e.remember(a.ID, nil, "Has a statistics midterm on Tuesday", "Has a friend called Maya")
	e.remember(b.ID, nil, "Plays the cello")

	anyID := uuid.New()
	for _, c := range []struct {
		op   string
		call func() (answer, error)
	}{
		{"ListMemories", func() (answer, error) { return e.api.ListMemoriesWithResponse(ctx) }},
		{"DeleteAllMemories", func() (answer, error) { return e.api.DeleteAllMemoriesWithResponse(ctx) }},
		{"UpdateMemory", func() (answer, error) {
			return e.api.UpdateMemoryWithResponse(ctx, anyID, api.MemoryUpdate{Text: "x y"})
		}},
		{"DeleteMemory", func() (answer, error) { return e.api.DeleteMemoryWithResponse(ctx, anyID) }},
		{"ExportData", func() (answer, error) { return e.api.ExportDataWithResponse(ctx) }},
	} {
		res, err := c.call()
		if err != nil {
			t.Errorf("%s signed out: %v", c.op, err)
			continue
		}
		if res.StatusCode() != http.StatusUnauthorized {
			t.Errorf("%s signed out: %d, want 401: %s", c.op, res.StatusCode(), bodyOf(res))
		}
	}

	listA := e.list(authA)
	if got := texts(listA); got != "Has a friend called Maya|Has a statistics midterm on Tuesday" {
		t.Fatalf("A's memories, newest first: %q", got)
	}
	if listA[0].SessionId != nil {
		t.Errorf("memory: sessionId = %s, want null", *listA[0].SessionId)
	}
	if listA[0].CreatedAt.IsZero() {
		t.Errorf("memory: createdAt is zero")
	}
	if listA[0].UpdatedAt.IsZero() {
		t.Errorf("memory: updatedAt is zero")
	}
	maya := listA[0].Id
	if maya == uuid.Nil {
		t.Fatalf("memory: id is the nil uuid")
	}
	if got := texts(e.list(authB)); got != "Plays the cello" {
		t.Fatalf("B sees: %q", got)
	}

	// B can neither change nor delete A's memory.
	edit, err := e.api.UpdateMemoryWithResponse(ctx, maya, api.MemoryUpdate{Text: "Hacked"}, authB)
	wantStatus(t, edit, err, http.StatusNotFound)
	del, err := e.api.DeleteMemoryWithResponse(ctx, maya, authB)
	wantStatus(t, del, err, http.StatusNotFound)
	all, err := e.api.DeleteAllMemoriesWithResponse(ctx, authB)
	wantStatus(t, all, err, http.StatusNoContent)
	if got := texts(e.list(authA)); got != "Has a friend called Maya|Has a statistics midterm on Tuesday" {
		t.Fatalf("A's memories changed by B: %q", got)
	}
	if got := e.list(authB); len(got) != 0 {
		t.Fatalf("B's memories were not forgotten: %q", texts(got))
	}

	// A edits: the text is trimmed; empty or too long is a field error; not a uuid is 400.
	edit, err = e.api.UpdateMemoryWithResponse(ctx, maya, api.MemoryUpdate{Text: "  Has a friend called Maya   from work "}, authA)
	wantStatus(t, edit, err, http.StatusOK)
	if got := edit.JSON200.Text; got != "Has a friend called Maya from work" {
		t.Errorf("edited: text = %q, want it trimmed", got)
	}
	if edit.JSON200.Id != maya {
		t.Errorf("edited: id = %s, want %s", edit.JSON200.Id, maya)
	}
	for _, text := range []string{"", "   ", strings.Repeat("a", 201)} {
		edit, err := e.api.UpdateMemoryWithResponse(ctx, maya, api.MemoryUpdate{Text: text}, authA)
		wantStatus(t, edit, err, http.StatusBadRequest)
		if _, ok := edit.JSON400.Details["text"]; !ok {
			t.Errorf("text %.40q: details = %v, want one for text", text, edit.JSON400.Details)
		}
	}
	// Bodies the contract's type cannot hold: no text, an unknown field.
	for _, body := range []string{`{}`, `{"text":"ok ok","x":1}`} {
		edit, err := e.api.UpdateMemoryWithBodyWithResponse(ctx, maya, "application/json", strings.NewReader(body), authA)
		wantStatus(t, edit, err, http.StatusBadRequest)
		if edit.JSON400.Code != api.VALIDATIONERROR {
			t.Errorf("%s: code = %s, want VALIDATION_ERROR", body, edit.JSON400.Code)
		}
	}
	// A memory id that is not a uuid (the typed client only sends uuids).
	res := do(e.h, "PUT", "/api/profile/memories/nope", `{"text":"a b"}`, "Authorization", "Bearer token-"+a.ID.String())
	if res.Code != http.StatusBadRequest {
		t.Errorf("bad id: %d, want 400: %s", res.Code, res.Body)
	} else if v := chatDecode[api.ValidationErrorResponse](t, "the bad id's answer", res.Body.Bytes()); v.Code != api.VALIDATIONERROR {
		t.Errorf("bad id: code = %s, want VALIDATION_ERROR", v.Code)
	}

	// A deletes one, then everything.
	del, err = e.api.DeleteMemoryWithResponse(ctx, maya, authA)
	wantStatus(t, del, err, http.StatusNoContent)
	del, err = e.api.DeleteMemoryWithResponse(ctx, maya, authA)
	wantStatus(t, del, err, http.StatusNotFound)
	if got := texts(e.list(authA)); got != "Has a statistics midterm on Tuesday" {
		t.Fatalf("after delete: %q", got)
	}
	e.remember(b.ID, nil, "Plays the cello")
	all, err = e.api.DeleteAllMemoriesWithResponse(ctx, authA)
	wantStatus(t, all, err, http.StatusNoContent)
	if got := e.list(authA); len(got) != 0 {
		t.Fatalf("not forgotten: %q", texts(got))
	}
	if got := e.list(authB); len(got) != 1 {
		t.Fatalf("A's forgetting touched B: %q", texts(got))
	}
}

// export is the caller's export through the typed client; it must answer 200.
func (e *memEnv) export(auth apiclient.RequestEditorFn) *apiclient.ExportDataAnswer {
	e.t.Helper()
	res, err := e.api.ExportDataWithResponse(context.Background(), auth)
	wantStatus(e.t, res, err, http.StatusOK)
	return res
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
	for _, c := range []dbgen.InsertCheckinParams{
		{UserID: a.ID, Mood: 2, Energy: new(int32(1)), Emotions: []string{"tiredness"}, Tags: []string{"sleep", "exams"}, Note: new("Barely slept\nbefore stats"), LocalDate: day.Truncate(24 * time.Hour)},
		{UserID: a.ID, Mood: 4, Emotions: []string{}, Tags: []string{}, LocalDate: day.Truncate(24*time.Hour).AddDate(0, 0, 1)},
		{UserID: b.ID, Mood: 5, Emotions: []string{}, Tags: []string{}, Note: new("B's check-in"), LocalDate: day.Truncate(24 * time.Hour)},
	} {
		row, err := q.InsertCheckin(ctx, c)
		if err != nil {
			t.Fatal(err)
		}
		e.exec(`UPDATE checkins SET created_at = $1 WHERE id = $2`, c.LocalDate.Add(14*time.Hour+2*time.Minute), row.ID)
	}

	res := e.export(authA)
	if ct := res.HTTPResponse.Header.Get("Content-Type"); ct != "application/zip" {
		t.Errorf("export: Content-Type = %q, want application/zip", ct)
	}
	if cd := res.HTTPResponse.Header.Get("Content-Disposition"); cd != `attachment; filename="percolate-export.zip"` {
		t.Errorf("export: Content-Disposition = %q, want an attachment named percolate-export.zip", cd)
	}
	zr, err := zip.NewReader(bytes.NewReader(res.Body), int64(len(res.Body)))
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
	want := "percolate-export.json|checkins.md|sessions/2026-03-03-midterm-nerves-stats.md|sessions/2026-03-03-midterm-nerves-stats-2.md|sessions/2026-03-05-session.md"
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
		Checkins []struct {
			Mood      int      `json:"mood"`
			Energy    *int     `json:"energy"`
			Tags      []string `json:"tags"`
			Note      *string  `json:"note"`
			LocalDate string   `json:"localDate"`
		} `json:"checkins"`
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
	if doc.Profile.Email != "a@example.com" {
		t.Errorf("profile.email = %q, want a@example.com", doc.Profile.Email)
	}
	if !doc.Profile.MemoryEnabled {
		t.Errorf("profile.memoryEnabled = false, want true")
	}
	if len(doc.Memories) != 1 {
		t.Errorf("%d memories, want 1: %+v", len(doc.Memories), doc.Memories)
	} else {
		if m := doc.Memories[0]; m.Text != "Has a statistics midterm on Tuesday" {
			t.Errorf("memories[0].text = %q, want the midterm", m.Text)
		}
		if m := doc.Memories[0]; m.SessionID == nil || *m.SessionID != s1.ID.String() {
			t.Errorf("memories[0].sessionId = %s, want %s", chatShow(m.SessionID), s1.ID)
		}
	}
	if len(doc.WeeklyReports) != 1 {
		t.Errorf("%d weekly reports, want 1: %+v", len(doc.WeeklyReports), doc.WeeklyReports)
	} else {
		if r := doc.WeeklyReports[0]; r.WeekStart != "2026-03-02" {
			t.Errorf("weeklyReports[0].weekStart = %q, want 2026-03-02", r.WeekStart)
		}
		if r := doc.WeeklyReports[0]; string(r.Report) != `{"sessionCount":3}` {
			t.Errorf("weeklyReports[0].report = %s, want the stored report", r.Report)
		}
	}
	if len(doc.Checkins) != 2 || doc.Checkins[0].Mood != 2 || *doc.Checkins[0].Energy != 1 || *doc.Checkins[0].Note != "Barely slept\nbefore stats" ||
		doc.Checkins[0].LocalDate != "2026-03-03" || len(doc.Checkins[0].Tags) != 2 || doc.Checkins[1].Note != nil || doc.Checkins[1].Tags == nil {
		t.Errorf("checkins: %+v", doc.Checkins)
	}
	wantLines := "# Check-ins\n\n- 2026-03-03 (14:02 UTC): mood 2/5, low · energy 1/5 · tiredness · sleep, exams · “Barely slept before stats”\n" +
		"- 2026-03-04 (14:02 UTC): mood 4/5, good\n"
	if files["checkins.md"] != wantLines {
		t.Errorf("checkins.md:\n%s\nwant:\n%s", files["checkins.md"], wantLines)
	}
	if len(doc.Sessions) != 3 {
		t.Fatalf("%d sessions, want 3: %+v", len(doc.Sessions), doc.Sessions)
	}
	first := doc.Sessions[0]
	if got := chatShow(first.Summary); got != sum {
		t.Errorf("sessions[0].summary = %s, want %q", got, sum)
	}
	if len(first.Emotions) == 0 || first.Emotions[0] != "anxiety" {
		t.Errorf("sessions[0].emotions = %q, want anxiety", first.Emotions)
	}
	if len(first.Messages) != 2 {
		t.Fatalf("sessions[0]: %d messages, want 2", len(first.Messages))
	}
	if first.Messages[1].Role != "assistant" {
		t.Errorf("sessions[0].messages[1].role = %q, want assistant", first.Messages[1].Role)
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

// exportedJSON is the percolate-export.json of an export's zip, decoded into doc too.
func exportedJSON(t *testing.T, zipped []byte, doc any) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(zipped), int64(len(zipped)))
	if err != nil {
		t.Fatalf("not a zip: %v", err)
	}
	f, err := zr.Open("percolate-export.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	raw, err := io.ReadAll(f)
	if err == nil {
		err = json.Unmarshal(raw, doc)
	}
	if err != nil {
		t.Fatalf("percolate-export.json: %v", err)
	}
	return raw
}

func TestExportPagesThroughManySessions(t *testing.T) {
	e := newMemEnv(t)
	a, authA := e.user("a@example.com")
	// 250 sessions: more than two pages of the export's reads.
	e.exec(`INSERT INTO chat_sessions (user_id, title, created_at) SELECT $1, 'Day ' || g, now() - g * interval '1 hour' FROM generate_series(1, 250) g`, a.ID)
	e.exec(`INSERT INTO checkins (user_id, mood, local_date, created_at) SELECT $1, 1 + g % 5, current_date, now() - g * interval '1 minute' FROM generate_series(1, 250) g`, a.ID)
	res := e.export(authA)
	zr, err := zip.NewReader(bytes.NewReader(res.Body), int64(len(res.Body)))
	if err != nil {
		t.Fatalf("not a zip: %v", err)
	}
	if len(zr.File) != 252 || zr.File[1].Name != "checkins.md" {
		t.Fatalf("files: %d", len(zr.File))
	}
	rc, err := zr.File[1].Open()
	if err != nil {
		t.Fatal(err)
	}
	lines, _ := io.ReadAll(rc)
	if n := strings.Count(string(lines), "\n- "); n != 250 {
		t.Fatalf("checkins.md: %d lines of check-ins, want 250", n)
	}
}

func TestExportIsLimited(t *testing.T) {
	e := newMemEnv(t)
	_, auth := e.user("a@example.com")
	for i := 0; i < export.PerHour.Limit; i++ {
		e.export(auth)
	}
	res, err := e.api.ExportDataWithResponse(context.Background(), auth)
	wantStatus(t, res, err, http.StatusTooManyRequests)
	if res.HTTPResponse.Header.Get("Retry-After") == "" {
		t.Fatalf("over the limit: no Retry-After header")
	}
}

func (e *memEnv) exec(sql string, args ...any) {
	e.t.Helper()
	if _, err := e.st.Pool().Exec(context.Background(), sql, args...); err != nil {
		e.t.Fatal(err)
	}
}
