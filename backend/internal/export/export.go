// Package export writes everything of a user's account as a zip archive: percolate-export.json
// (the profile, every session with its messages, summary and emotions, the memories, the
// weekly reports, the check-ins, and the reminder settings with the push devices, without
// their keys) and one Markdown file per session, sessions/YYYY-MM-DD-title.md, readable as a
// journal, with checkins.md, one line per check-in. The archive is written to the response as
// it is made: sessions are read a page at a time (twice: once for the JSON, once for the
// journal), so an account with thousands of sessions never sits in memory at once.
package export

import (
	"archive/zip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/ratelimit"
	"github.com/percolate/percolate/backend/internal/store"
	dbgen "github.com/percolate/percolate/gen/db"
)

// FileName is the name the archive is downloaded as.
const FileName = "percolate-export.zip"

// pageSize is how many sessions one read takes.
const pageSize = 100

// PerHour limits exports per user: each reads the whole account.
var PerHour = ratelimit.Rule{Name: "export-user", Limit: 5, Window: time.Hour, Message: "You've downloaded your data a few times already. Please try again in a little while."}

// Service writes exports.
type Service struct {
	st      *store.Store
	limiter *ratelimit.Limiter
	now     func() time.Time
}

// New returns the export service.
func New(st *store.Store) *Service {
	return &Service{st: st, limiter: ratelimit.New(st.Queries()), now: time.Now}
}

// Begin checks the caller's export limit and that the account exists; a nil error means
// Write may start the response.
func (s *Service) Begin(ctx context.Context, userID uuid.UUID) error {
	if _, err := s.st.Queries().GetUserByID(ctx, userID); store.IsNotFound(err) {
		return fmt.Errorf("export: %w", apperr.ErrUnauthorized)
	} else if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	return s.limiter.Hit(ctx, PerHour, userID.String())
}

// Export file shapes. Times are RFC 3339 in UTC.
type (
	fileProfile struct {
		Name            string    `json:"name"`
		Email           string    `json:"email"`
		Role            string    `json:"role"`
		Age             *int32    `json:"age"`
		FocusAreas      string    `json:"focusAreas"`
		PrimaryConcerns string    `json:"primaryConcerns"`
		SensitiveTopics string    `json:"sensitiveTopics"`
		MemoryEnabled   bool      `json:"memoryEnabled"`
		CreatedAt       time.Time `json:"createdAt"`
	}
	fileMemory struct {
		ID        uuid.UUID  `json:"id"`
		Text      string     `json:"text"`
		SessionID *uuid.UUID `json:"sessionId"`
		CreatedAt time.Time  `json:"createdAt"`
		UpdatedAt time.Time  `json:"updatedAt"`
	}
	fileReminders struct {
		Days     []string         `json:"days"`
		Time     string           `json:"time"`
		TimeZone string           `json:"timeZone"`
		Email    bool             `json:"email"`
		Push     bool             `json:"push"`
		Devices  []filePushDevice `json:"pushDevices"`
	}
	// filePushDevice is a device subscribed to push reminders, without its endpoint and keys.
	filePushDevice struct {
		Device    string    `json:"device"`
		CreatedAt time.Time `json:"createdAt"`
	}
	fileReport struct {
		ID        uuid.UUID       `json:"id"`
		WeekStart string          `json:"weekStart"`
		CreatedAt time.Time       `json:"createdAt"`
		Report    json.RawMessage `json:"report"`
	}
	fileMessage struct {
		ID        uuid.UUID `json:"id"`
		Role      string    `json:"role"`
		Content   string    `json:"content"`
		Status    string    `json:"status"`
		CreatedAt time.Time `json:"createdAt"`
	}
	fileSession struct {
		ID         uuid.UUID     `json:"id"`
		Title      string        `json:"title"`
		Status     string        `json:"status"`
		CreatedAt  time.Time     `json:"createdAt"`
		EndedAt    *time.Time    `json:"endedAt"`
		EndReason  *string       `json:"endReason"`
		TokensUsed int32         `json:"tokensUsed"`
		Summary    *string       `json:"summary"`
		Emotions   []string      `json:"emotions"`
		CheckinID  *uuid.UUID    `json:"checkinId"`
		Messages   []fileMessage `json:"messages"`
	}
)

// Write writes the user's archive to w. An error part-way leaves a truncated archive (the
// response has started); the caller logs it.
func (s *Service) Write(ctx context.Context, userID uuid.UUID, w io.Writer) error {
	q := s.st.Queries()
	zw := zip.NewWriter(w)
	now := s.now().UTC()
	create := func(name string) (io.Writer, error) {
		return zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: now})
	}
	f, err := create("percolate-export.json")
	if err != nil {
		return err
	}
	if err := s.writeJSON(ctx, q, userID, now, f); err != nil {
		return err
	}
	if f, err = create(CheckinsFile); err != nil {
		return err
	}
	if err := writeCheckinsJournal(ctx, q, userID, f); err != nil {
		return err
	}
	names := map[string]bool{}
	err = s.eachSession(ctx, q, userID, func(sess dbgen.ChatSession, msgs []dbgen.Message) error {
		f, err := create("sessions/" + fileName(sess, names))
		if err != nil {
			return err
		}
		return writeJournal(f, sess, msgs)
	})
	if err != nil {
		return err
	}
	return zw.Close()
}

// writeJSON writes percolate-export.json, one session at a time.
func (s *Service) writeJSON(ctx context.Context, q *dbgen.Queries, userID uuid.UUID, now time.Time, w io.Writer) error {
	u, err := q.GetUserByID(ctx, userID)
	if err != nil {
		return fmt.Errorf("export profile: %w", err)
	}
	mems, err := q.ListMemoriesForExport(ctx, userID)
	if err != nil {
		return fmt.Errorf("export memories: %w", err)
	}
	reports, err := q.ListWeeklyReportsForUser(ctx, userID)
	if err != nil {
		return fmt.Errorf("export reports: %w", err)
	}
	part := func(v any) error {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	}
	raw := func(s string) error { _, err := io.WriteString(w, s); return err }
	if err := raw(`{"format":"percolate-export","version":1,"exportedAt":`); err != nil {
		return err
	}
	if err := part(now); err != nil {
		return err
	}
	if err := raw(`,"profile":`); err != nil {
		return err
	}
	if err := part(fileProfile{
		Name: u.Name, Email: u.Email, Role: u.Role, Age: u.Age, FocusAreas: u.FocusAreas,
		PrimaryConcerns: u.PrimaryConcerns, SensitiveTopics: u.SensitiveTopics, MemoryEnabled: u.MemoryEnabled,
		CreatedAt: u.CreatedAt.UTC(),
	}); err != nil {
		return err
	}
	fm := make([]fileMemory, 0, len(mems))
	for _, m := range mems {
		fm = append(fm, fileMemory{ID: m.ID, Text: m.Text, SessionID: m.SessionID, CreatedAt: m.CreatedAt.UTC(), UpdatedAt: m.UpdatedAt.UTC()})
	}
	if err := raw(`,"memories":`); err != nil {
		return err
	}
	if err := part(fm); err != nil {
		return err
	}
	fr := make([]fileReport, 0, len(reports))
	for _, r := range reports {
		fr = append(fr, fileReport{ID: r.ID, WeekStart: r.WeekStart.Format(time.DateOnly), CreatedAt: r.CreatedAt.UTC(), Report: r.Content})
	}
	if err := raw(`,"weeklyReports":`); err != nil {
		return err
	}
	if err := part(fr); err != nil {
		return err
	}
	if err := writeCheckinsJSON(ctx, q, userID, raw, part); err != nil {
		return err
	}
	rem, err := reminders(ctx, q, userID)
	if err != nil {
		return err
	}
	if err := raw(`,"reminders":`); err != nil {
		return err
	}
	if err := part(rem); err != nil {
		return err
	}
	if err := raw(`,"sessions":[`); err != nil {
		return err
	}
	first := true
	err = s.eachSession(ctx, q, userID, func(sess dbgen.ChatSession, msgs []dbgen.Message) error {
		if !first {
			if err := raw(","); err != nil {
				return err
			}
		}
		first = false
		fs := fileSession{
			ID: sess.ID, Title: sess.Title, Status: sess.Status, CreatedAt: sess.CreatedAt.UTC(), EndedAt: utc(sess.EndedAt),
			EndReason: sess.EndReason, TokensUsed: sess.TokensUsed, Summary: sess.Summary, Emotions: sess.Emotions,
			CheckinID: sess.CheckinID, Messages: make([]fileMessage, 0, len(msgs)),
		}
		for _, m := range msgs {
			fs.Messages = append(fs.Messages, fileMessage{ID: m.ID, Role: m.Role, Content: m.Content, Status: m.Status, CreatedAt: m.CreatedAt.UTC()})
		}
		return part(fs)
	})
	if err != nil {
		return err
	}
	return raw("]}\n")
}

// eachSession calls fn for each of the user's sessions, oldest first, with its messages,
// reading the sessions a page at a time (and the page's messages in one query).
func (s *Service) eachSession(ctx context.Context, q *dbgen.Queries, userID uuid.UUID, fn func(dbgen.ChatSession, []dbgen.Message) error) error {
	after, afterID := time.Time{}, uuid.Nil
	for {
		page, err := q.ListSessionsForExport(ctx, dbgen.ListSessionsForExportParams{UserID: userID, AfterCreated: after, AfterID: afterID, MaxRows: pageSize})
		if err != nil {
			return fmt.Errorf("export sessions: %w", err)
		}
		ids := make([]uuid.UUID, len(page))
		for i, sess := range page {
			ids[i] = sess.ID
		}
		rows, err := q.ListMessagesForSessions(ctx, dbgen.ListMessagesForSessionsParams{UserID: userID, SessionIds: ids})
		if err != nil {
			return fmt.Errorf("export messages: %w", err)
		}
		bySession := make(map[uuid.UUID][]dbgen.Message, len(page))
		for _, m := range rows {
			bySession[m.SessionID] = append(bySession[m.SessionID], m)
		}
		for _, sess := range page {
			if err := fn(sess, bySession[sess.ID]); err != nil {
				return err
			}
		}
		if len(page) < pageSize {
			return nil
		}
		last := page[len(page)-1]
		after, afterID = last.CreatedAt, last.ID
	}
}

// fileName is a session's journal file: its day and a title safe on every file system
// (lower-case letters and digits joined by hyphens), unique within the archive.
func fileName(sess dbgen.ChatSession, used map[string]bool) string {
	base := sess.CreatedAt.UTC().Format(time.DateOnly) + "-" + slug(sess.Title)
	name := base + ".md"
	for n := 2; used[name]; n++ {
		name = fmt.Sprintf("%s-%d.md", base, n)
	}
	used[name] = true
	return name
}

// slug makes a title safe as part of a file name: letters and digits (any script) in lower
// case, everything else a single hyphen, at most 60 characters; "session" when nothing is left.
func slug(title string) string {
	var b strings.Builder
	hyphen := false
	n := 0
	for _, r := range title {
		if n >= 60 {
			break
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if hyphen && b.Len() > 0 {
				b.WriteByte('-')
				n++
			}
			hyphen = false
			b.WriteRune(unicode.ToLower(r))
			n++
			continue
		}
		hyphen = true
	}
	if b.Len() == 0 {
		return "session"
	}
	return b.String()
}

// writeJournal writes one session as Markdown.
func writeJournal(w io.Writer, sess dbgen.ChatSession, msgs []dbgen.Message) error {
	var b strings.Builder
	title := strings.TrimSpace(sess.Title)
	if title == "" {
		title = "Session"
	}
	fmt.Fprintf(&b, "# %s\n\n", oneLine(title))
	fmt.Fprintf(&b, "_%s_", sess.CreatedAt.UTC().Format("Monday, 2 January 2006, 15:04 UTC"))
	if sess.EndedAt != nil {
		fmt.Fprintf(&b, " · ended %s", sess.EndedAt.UTC().Format("15:04 UTC"))
	}
	b.WriteString("\n\n")
	if sess.Summary != nil && strings.TrimSpace(*sess.Summary) != "" {
		fmt.Fprintf(&b, "## Summary\n\n%s\n\n", strings.TrimSpace(*sess.Summary))
	}
	if len(sess.Emotions) > 0 {
		fmt.Fprintf(&b, "**Feelings:** %s\n\n", strings.Join(sess.Emotions, ", "))
	}
	b.WriteString("## Conversation\n")
	for _, m := range msgs {
		who := "You"
		if m.Role != "user" {
			who = "Percolate"
		}
		fmt.Fprintf(&b, "\n**%s** · %s\n\n%s\n", who, m.CreatedAt.UTC().Format("15:04"), strings.TrimSpace(m.Content))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// reminders is the user's reminder settings and push devices, or nil when never set.
func reminders(ctx context.Context, q *dbgen.Queries, userID uuid.UUID) (*fileReminders, error) {
	subs, err := q.ListPushSubscriptions(ctx, userID)
	if err != nil {
		return nil, fmt.Errorf("export push subscriptions: %w", err)
	}
	r, err := q.GetReminder(ctx, userID)
	if store.IsNotFound(err) && len(subs) == 0 {
		return nil, nil
	} else if err != nil && !store.IsNotFound(err) {
		return nil, fmt.Errorf("export reminders: %w", err)
	}
	out := &fileReminders{Days: []string{}, Time: r.LocalTime, TimeZone: r.TimeZone, Email: r.Email, Push: r.Push, Devices: []filePushDevice{}}
	for w := range 7 {
		if r.Days&(1<<w) != 0 {
			out.Days = append(out.Days, strings.ToLower(time.Weekday(w).String()[:3]))
		}
	}
	for _, sub := range subs {
		out.Devices = append(out.Devices, filePushDevice{Device: sub.Device, CreatedAt: sub.CreatedAt.UTC()})
	}
	return out, nil
}
