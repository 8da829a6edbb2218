package insights

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/chat"
	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/llmtest"
	"github.com/percolate/percolate/backend/internal/config"
	"github.com/percolate/percolate/backend/internal/mail"
	"github.com/percolate/percolate/backend/internal/queue"
	"github.com/percolate/percolate/backend/internal/queue/queuetest"
	"github.com/percolate/percolate/backend/internal/store"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
	dbgen "github.com/percolate/percolate/gen/db"
)

var quiet = slog.New(slog.DiscardHandler)

func TestWeekStartIsMondayUTC(t *testing.T) {
	cases := map[string]string{
		"2026-11-23T00:00:00Z": "2026-11-23", // Monday
		"2026-11-22T23:59:59Z": "2026-11-16", // Sunday
		"2026-11-25T12:00:00Z": "2026-11-23",
	}
	for in, want := range cases {
		ts, _ := time.Parse(time.RFC3339, in)
		if got := WeekStart(ts).Format("2006-01-02"); got != want {
			t.Errorf("WeekStart(%s) = %s, want %s", in, got, want)
		}
	}
}

func TestBuildCountsEmotionsThemesAndSuggests(t *testing.T) {
	a, b, c := uuid.New(), uuid.New(), uuid.New()
	mon := time.Date(2026, 11, 16, 9, 0, 0, 0, time.UTC)
	r := Build(mon, []dbgen.ListEndedSessionsBetweenRow{
		{Title: "Exam pressure", Summary: new("Worried about exams and sleep."), Emotions: []string{"anxiety", "tiredness"}},
		{Title: "Roommate trouble", Summary: new("Exams again, and a roommate argument."), Emotions: []string{"anxiety", "frustration"}},
		{Title: "A calmer evening", Emotions: []string{"calm"}},
	}, []dbgen.ListUserMessagesOfSessionsEndedBetweenRow{
		{SessionID: a, Content: "My exams start soon and I can't sleep.", CreatedAt: mon},
		{SessionID: b, Content: "Another exam tomorrow, and my roommate kept me up.", CreatedAt: mon.AddDate(0, 0, 1)},
		{SessionID: c, Content: "A quiet walk by the river.", CreatedAt: mon.AddDate(0, 0, 2)},
	}, "")
	if r.SessionCount != 3 || len(r.Emotions) != 4 || r.Emotions[0] != (EmotionCount{"anxiety", 2}) {
		t.Fatalf("emotions: %+v", r)
	}
	if len(r.Themes) != 1 || r.Themes[0] != "exam" {
		t.Errorf("themes: %v (want only 'exam': exam and exams return in two sessions; a word said once is not a theme)", r.Themes)
	}
	if r.Suggestion != suggestion("anxiety", 3, mon) {
		t.Errorf("suggestion: %q", r.Suggestion)
	}
	for _, s := range suggestions {
		if strings.Contains(strings.ToLower(s), "therap") {
			t.Errorf("a suggestion mentions therapy: %q", s)
		}
	}
}

func TestThemesFoldPluralsRankBySessionsAndSkipFillers(t *testing.T) {
	s1, s2, s3 := uuid.New(), uuid.New(), uuid.New()
	mon := time.Date(2026, 11, 16, 9, 0, 0, 0, time.UTC)
	msg := func(s uuid.UUID, day int, text string) dbgen.ListUserMessagesOfSessionsEndedBetweenRow {
		return dbgen.ListUserMessagesOfSessionsEndedBetweenRow{SessionID: s, Content: text, CreatedAt: mon.AddDate(0, 0, day)}
	}
	got := Themes([]dbgen.ListUserMessagesOfSessionsEndedBetweenRow{
		msg(s1, 0, "Hello! I'd like to start a new conversation."),
		msg(s1, 0, "I'm really stressed, honestly I just keep thinking about my classes."),
		msg(s1, 0, "The class on Friday is the worst, and the library is always full."),
		msg(s2, 2, "I went to the library again. My class ran late and I was so tired."),
		msg(s3, 4, "Studies, studies. My study group cancelled. The library closed early."),
		msg(s3, 4, "I need a better plan for my studies."),
	}, "")
	want := []string{"library", "class", "studies"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("themes %v, want %v (library: 3 sessions; class/classes folded: 2 sessions; study/studies: 2 messages, shown as the user wrote it most)", got, want)
	}
}

// A week about exams, a roommate and missing home, talked through with the offline engine,
// whose summaries (in its own words: "You talked about…", "Stress came through most.", "By
// the end…") are stored on the sessions as the app stores
// them. The themes are the user's topics and hold no word of the template, none of the
// assistant's own words, nothing from a message the safety screen flags and nothing from
// the profile's sensitive topics.
func TestWeeklyThemesAreTheUsersTopicsNotTheSummaryTemplate(t *testing.T) {
	st := pgtest.New(t)
	ctx := context.Background()
	q := st.Queries()
	u := pgtest.User(t, st, "PREMIUM")
	if _, err := st.Pool().Exec(ctx, `UPDATE users SET sensitive_topics = 'my family' WHERE id = $1`, u.ID); err != nil {
		t.Fatal(err)
	}
	flagged := "I stood on the bridge again and I want to kill myself."
	if companion.Screen(flagged) == companion.RiskNone {
		t.Fatal("the test's risky message is not flagged by the screen")
	}
	week := [][]string{
		{chat.StarterMessage, "My exams start next week and I feel so anxious about them.", "I share a room with my roommate and she plays music all night before my exams.", "I miss home, my mum's cooking and my dog."},
		{chat.StarterMessage, "I talked to my roommate about the noise but it got awkward.", "My family keeps calling about grades.", flagged},
		{chat.StarterMessage, "Revision for exams is going slowly.", "Honestly I just miss home and my family.", "Maybe I'll call home this weekend.", flagged},
		{chat.StarterMessage, "My roommate apologised today, which was nice.", "Still homesick, I keep looking at photos of home.", "Two more exams on Friday."},
	}
	offline := companion.NewOffline()
	var summaries, assistant, users []string
	for i, msgs := range week {
		day := time.Date(2026, 11, 16+i, 18, 0, 0, 0, time.UTC)
		var sid uuid.UUID
		if err := st.Pool().QueryRow(ctx, `INSERT INTO chat_sessions (user_id, title, status, ended_at) VALUES ($1, 'Session', 'ENDED', $2) RETURNING id`, u.ID, day.Add(time.Hour)).Scan(&sid); err != nil {
			t.Fatal(err)
		}
		var transcript []companion.Turn
		for j, m := range msgs {
			at := day.Add(time.Duration(j) * time.Minute)
			reply := offline.Compose(companion.Prompt{History: transcript, Message: m})
			for _, turn := range []companion.Turn{{Role: companion.RoleUser, Content: m}, {Role: companion.RoleAssistant, Content: reply}} {
				if _, err := st.Pool().Exec(ctx, `INSERT INTO messages (session_id, user_id, role, content, created_at) VALUES ($1, $2, $3, $4, $5)`,
					sid, u.ID, turn.Role, turn.Content, at); err != nil {
					t.Fatal(err)
				}
				transcript = append(transcript, turn)
			}
			users = append(users, m)
			assistant = append(assistant, reply)
		}
		sum, err := offline.Summarize(ctx, transcript[2:]) // without the opening, as the summary job does
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.Pool().Exec(ctx, `UPDATE chat_sessions SET summary = $1, emotions = $2 WHERE id = $3`, sum.Text, sum.Emotions, sid); err != nil {
			t.Fatal(err)
		}
		summaries = append(summaries, sum.Text)
	}

	sender, _ := mail.New(config.Mail{From: "Percolate <no-reply@localhost>"}, t.TempDir(), quiet)
	svc := New(st, queuetest.New(t, st), sender, "http://app.test", nil, quiet)
	svc.Now = func() time.Time { return time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC) }
	if n, err := svc.RunOnce(ctx); err != nil || n != 1 {
		t.Fatalf("run: %d %v", n, err)
	}
	rows, err := q.ListWeeklyReportsForUser(ctx, u.ID)
	if err != nil || len(rows) != 1 {
		t.Fatalf("reports: %v %v", rows, err)
	}
	var r Report
	if err := json.Unmarshal(rows[0].Content, &r); err != nil {
		t.Fatal(err)
	}
	t.Logf("themes: %v", r.Themes)
	if r.SessionCount != 4 {
		t.Errorf("session count %d", r.SessionCount)
	}

	themes := map[string]bool{}
	for _, th := range r.Themes {
		themes[th] = true
	}
	for _, w := range []string{"exams", "roommate", "home"} {
		if !themes[w] {
			t.Errorf("the user's topic %q is not among the themes %v", w, r.Themes)
		}
	}
	if len(r.Themes) < 3 || r.Themes[0] != "exams" && r.Themes[0] != "roommate" && r.Themes[0] != "home" {
		t.Errorf("themes %v do not lead with the user's topics", r.Themes)
	}
	// The words of the bug, and every word of the summaries that the user never wrote.
	userWords := map[string]bool{}
	for _, m := range users {
		for _, w := range words(m) {
			userWords[w] = true
		}
	}
	template := map[string]bool{"came": true, "feelings": true, "messages": true, "opened": true, "said": true}
	for _, s := range summaries {
		for _, w := range words(s) {
			if !userWords[w] {
				template[w] = true
			}
		}
	}
	if !template["talked"] && !template["carry"] {
		t.Fatalf("the summaries are not the offline engine's template: %q", summaries)
	}
	for _, th := range r.Themes {
		if template[strings.ToLower(th)] {
			t.Errorf("theme %q is a word of the summary template, not the user's", th)
		}
		if !userWords[th] {
			t.Errorf("theme %q is not a word the user wrote (assistant replies: %q)", th, assistant)
		}
		for _, w := range []string{"bridge", "kill", "stood", "family"} {
			if th == w {
				t.Errorf("theme %q comes from a flagged message or a sensitive topic", th)
			}
		}
	}
}

func endedSession(t *testing.T, st *store.Store, user uuid.UUID, title string, emotions []string, endedAt time.Time) {
	t.Helper()
	_, err := st.Pool().Exec(context.Background(),
		`INSERT INTO chat_sessions (user_id, title, status, summary, emotions, ended_at) VALUES ($1, $2, 'ENDED', 'A summary.', $3, $4)`,
		user, title, emotions, endedAt)
	if err != nil {
		t.Fatal(err)
	}
}

func TestRunOnceMakesOneReportPerPremiumUserAcrossInstances(t *testing.T) {
	st := pgtest.New(t)
	ctx := context.Background()
	q := st.Queries()
	now := time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC) // Wednesday; last week began Nov 16
	var premium []dbgen.User
	for _, role := range []string{"PREMIUM", "PREMIUM", "BASIC", "USER"} {
		u := pgtest.User(t, st, role)
		endedSession(t, st, u.ID, "Last week", []string{"stress"}, time.Date(2026, 11, 18, 10, 0, 0, 0, time.UTC))
		if role == "PREMIUM" {
			premium = append(premium, u)
		}
	}
	// Outside the week: not counted.
	endedSession(t, st, premium[0].ID, "This week", []string{"joy"}, time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC))

	dir := t.TempDir()
	var wg sync.WaitGroup
	made := make([]int, 2)
	queues := make([]*queue.Queue, 2)
	for i := 0; i < 2; i++ {
		sender, err := mail.New(config.Mail{From: "Percolate <no-reply@localhost>"}, dir, quiet)
		if err != nil {
			t.Fatal(err)
		}
		queues[i] = queuetest.NewWith(t, st, queue.Config{ID: fmt.Sprintf("instance-%d", i)})
		svc := New(st, queues[i], sender, "http://app.test", nil, quiet)
		svc.Now = func() time.Time { return now }
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			n, err := svc.RunOnce(ctx)
			if err != nil {
				t.Error(err)
			}
			made[i] = n
		}(i)
	}
	wg.Wait()
	if made[0]+made[1] != 2 {
		t.Fatalf("instances stored %v reports, want 2 in all", made)
	}
	// Each stored report queued its mail; either instance may send it.
	for _, q := range queues {
		queuetest.Start(t, q)
	}
	queuetest.Drain(t, queues[0])
	if jobs := queuetest.Jobs(t, queues[0], ReportMailArgs{}.Kind()); len(jobs) != 2 {
		t.Fatalf("%d report mails queued, want one per report", len(jobs))
	}
	mails, _ := filepath.Glob(filepath.Join(mail.OutboxDir(dir), "*.eml"))
	if len(mails) != 2 {
		t.Fatalf("%d mails, want one per Premium user", len(mails))
	}
	raw, _ := os.ReadFile(mails[0])
	if !strings.Contains(string(raw), "Your week with Percolate") {
		t.Errorf("mail subject missing")
	}
	if !strings.Contains(string(raw), "http://app.test/insights") {
		t.Errorf("the mail does not link to the insights page")
	}

	reports, err := q.ListWeeklyReportsForUser(ctx, premium[0].ID)
	if err != nil || len(reports) != 1 || reports[0].WeekStart.Format("2006-01-02") != "2026-11-16" {
		t.Fatalf("reports: %+v %v", reports, err)
	}
	var got Report
	if err := json.Unmarshal(reports[0].Content, &got); err != nil {
		t.Fatal(err)
	}
	if got.SessionCount != 1 || len(got.Emotions) != 1 || got.Emotions[0].Emotion != "stress" {
		t.Errorf("content counts sessions outside the week: %+v", got)
	}

	// A second run the same week makes nothing new.
	sender, _ := mail.New(config.Mail{From: "Percolate <no-reply@localhost>"}, dir, quiet)
	svc := New(st, queuetest.New(t, st), sender, "http://app.test", nil, quiet)
	svc.Now = func() time.Time { return now.Add(time.Hour) }
	if n, err := svc.RunOnce(ctx); err != nil || n != 0 {
		t.Fatalf("second run: %d %v", n, err)
	}
}

func TestListIsForPremium(t *testing.T) {
	st := pgtest.New(t)
	ctx := context.Background()
	svc := New(st, queuetest.New(t, st), nil, "http://app.test", nil, quiet)
	u := pgtest.User(t, st, "USER")
	if _, err := svc.List(ctx, u.ID); !errors.Is(err, apperr.ErrForbidden) {
		t.Fatalf("USER: %v", err)
	}
	if _, err := st.Queries().SetUserRoleByEmail(ctx, dbgen.SetUserRoleByEmailParams{Role: "PREMIUM", Email: u.Email}); err != nil {
		t.Fatal(err)
	}
	if r, err := svc.List(ctx, u.ID); err != nil || len(r) != 1 || !r[0].SoFar || r[0].SessionCount != 0 {
		t.Fatalf("PREMIUM: only this week so far, empty: %+v %v", r, err)
	}
}

func TestThemesAreNeverEmptyWhenThereWereSessions(t *testing.T) {
	mon := time.Date(2026, 11, 16, 9, 0, 0, 0, time.UTC)
	a := uuid.New()
	sessions := []dbgen.ListEndedSessionsBetweenRow{{Title: "One chat", Emotions: []string{"calm"}}}
	// Each topic word said once: none returns, so the most used stand.
	r := Build(mon, sessions, []dbgen.ListUserMessagesOfSessionsEndedBetweenRow{
		{SessionID: a, Content: "The football match with my cousin was fun.", CreatedAt: mon},
	}, "")
	if len(r.Themes) == 0 || !strings.Contains(strings.Join(r.Themes, " "), "football") {
		t.Errorf("themes of words said once: %v", r.Themes)
	}
	// Nothing but the starter message: the fallback theme.
	r = Build(mon, sessions, []dbgen.ListUserMessagesOfSessionsEndedBetweenRow{
		{SessionID: a, Content: chat.StarterMessage, CreatedAt: mon},
	}, "")
	if len(r.Themes) != 1 || r.Themes[0] != fallbackTheme {
		t.Errorf("themes with no topic word: %v", r.Themes)
	}
	// A sensitive topic is not a theme, even as a fallback.
	r = Build(mon, sessions, []dbgen.ListUserMessagesOfSessionsEndedBetweenRow{
		{SessionID: a, Content: "My divorce papers.", CreatedAt: mon},
	}, "divorce, papers")
	if strings.Contains(strings.Join(r.Themes, " "), "divorce") || len(r.Themes) == 0 {
		t.Errorf("themes with the sensitive topics: %v", r.Themes)
	}
	if r := Build(mon, nil, nil, ""); len(r.Themes) != 0 {
		t.Errorf("a week without sessions has no themes: %v", r.Themes)
	}
}

func TestSuggestionDiffersWeekToWeekAndStaysWithinAWeek(t *testing.T) {
	mon := time.Date(2026, 11, 16, 0, 0, 0, 0, time.UTC)
	for _, top := range []string{"anxiety", "stress", "unknown-feeling"} {
		seen := map[string]bool{}
		prev := ""
		for w := 0; w < 8; w++ {
			week := mon.AddDate(0, 0, 7*w)
			got := suggestion(top, 2, week)
			if again := suggestion(top, 2, week.Add(80*time.Hour)); again != got {
				t.Errorf("%s week %d: %q then %q within the same week", top, w, got, again)
			}
			if got == prev {
				t.Errorf("%s week %d: the same suggestion as the week before: %q", top, w, got)
			}
			prev = got
			seen[got] = true
		}
		if len(seen) < 3 {
			t.Errorf("%s: only %d suggestions over 8 weeks", top, len(seen))
		}
	}
	if suggestion("anxiety", 2, mon) != suggestions["anxiety"] && suggestion("anxiety", 2, mon.AddDate(0, 0, 7)) != suggestions["anxiety"] &&
		suggestion("anxiety", 2, mon.AddDate(0, 0, 14)) != suggestions["anxiety"] && suggestion("anxiety", 2, mon.AddDate(0, 0, 21)) != suggestions["anxiety"] &&
		suggestion("anxiety", 2, mon.AddDate(0, 0, 28)) != suggestions["anxiety"] && suggestion("anxiety", 2, mon.AddDate(0, 0, 35)) != suggestions["anxiety"] {
		t.Error("the top feeling's own suggestion never comes")
	}
}

func TestListLeadsWithThisWeekSoFar(t *testing.T) {
	st := pgtest.New(t)
	ctx := context.Background()
	u := pgtest.User(t, st, "PREMIUM")
	now := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC) // Thursday
	endedSession(t, st, u.ID, "Monday", []string{"stress"}, time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC))
	endedSession(t, st, u.ID, "Wednesday", []string{"stress", "hope"}, time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC))
	endedSession(t, st, u.ID, "Last week", []string{"joy"}, time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC))
	svc := New(st, queuetest.New(t, st), nil, "http://app.test", nil, quiet)
	svc.Now = func() time.Time { return now }
	r, err := svc.List(ctx, u.ID)
	if err != nil || len(r) != 1 {
		t.Fatalf("list: %+v %v", r, err)
	}
	so := r[0]
	if !so.SoFar || so.WeekStart.Format("2006-01-02") != "2026-11-23" || so.SessionCount != 2 || so.Emotions[0] != (EmotionCount{"stress", 2}) {
		t.Fatalf("this week so far: %+v", so)
	}
	if len(so.Themes) == 0 || so.Suggestion == "" {
		t.Fatalf("so far without themes or suggestion: %+v", so)
	}
	if again, _ := svc.List(ctx, u.ID); again[0].Suggestion != so.Suggestion {
		t.Fatalf("the suggestion changed between loads: %q, %q", so.Suggestion, again[0].Suggestion)
	}
	if rows, _ := st.Queries().ListWeeklyReportsForUser(ctx, u.ID); len(rows) != 0 {
		t.Fatalf("the so-far view was stored: %d rows", len(rows))
	}
}

func TestSuggestionFromTheModelIsCheckedAndFallsBack(t *testing.T) {
	week := time.Date(2026, 11, 16, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		name   string
		script llmtest.Script
		want   string
	}{
		{"model", llmtest.Script{Chunks: []string{"Try a short walk ", "after class each day."}}, "Try a short walk after class each day."},
		{"clinical words refused", llmtest.Script{Chunks: []string{"You should book therapy."}}, suggestion("stress", 1, week)},
		{"model down", llmtest.Script{Fail: 500}, suggestion("stress", 1, week)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := pgtest.New(t)
			ctx := context.Background()
			llm := llmtest.New(t)
			llm.SetDefault(c.script)
			u := pgtest.User(t, st, "PREMIUM")
			endedSession(t, st, u.ID, "Busy week", []string{"stress"}, time.Date(2026, 11, 18, 10, 0, 0, 0, time.UTC))
			sender, _ := mail.New(config.Mail{From: "Percolate <no-reply@localhost>"}, t.TempDir(), quiet)
			svc := New(st, queuetest.New(t, st), sender, "http://app.test", companion.New(config.LLM{BaseURL: llm.URL(), Model: "m"}), quiet)
			svc.Now = func() time.Time { return time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC) }
			if n, err := svc.RunOnce(ctx); err != nil || n != 1 {
				t.Fatalf("run: %d %v", n, err)
			}
			rows, _ := st.Queries().ListWeeklyReportsForUser(ctx, u.ID)
			var r Report
			if err := json.Unmarshal(rows[0].Content, &r); err != nil {
				t.Fatal(err)
			}
			if r.Suggestion != c.want {
				t.Fatalf("suggestion %q, want %q", r.Suggestion, c.want)
			}
			if reqs := llm.Requests(); len(reqs) == 0 || !strings.Contains(reqs[0].Messages[0].Content, "never mention therapy") {
				t.Fatalf("the model was not asked with the non-clinical instruction: %+v", reqs)
			}
		})
	}
}

func TestCheckinsOfCountsTheMoodRangeAndTopTags(t *testing.T) {
	row := func(mood int32, tags ...string) dbgen.ListCheckinMoodsBetweenRow {
		return dbgen.ListCheckinMoodsBetweenRow{Mood: mood, Tags: tags}
	}
	w := CheckinsOf([]dbgen.ListCheckinMoodsBetweenRow{
		row(3, "sleep", "exams"), row(1, "sleep"), row(4, "friends", "exams"), row(2, "sleep", "money"), row(3, "outdoors"),
	})
	want := []TagCount{{"sleep", 3}, {"exams", 2}, {"friends", 1}} // ties in the contract's order
	if w.Count != 5 || w.LowestMood != 1 || w.HighestMood != 4 || fmt.Sprint(w.Tags) != fmt.Sprint(want) {
		t.Fatalf("check-ins: %+v", w)
	}
	if line := w.line(); line != "Check-ins: 5, mood from very low to good; often about sleep (3), exams (2), friends (1)" {
		t.Errorf("mail line: %q", line)
	}
	none := CheckinsOf(nil)
	if none.Count != 0 || none.LowestMood != 0 || none.HighestMood != 0 || none.Tags == nil || none.line() != "" {
		t.Fatalf("no check-ins: %+v %q", none, none.line())
	}
}

// checkinOn stores a check-in of the user dated day (in the user's calendar).
func checkinOn(t *testing.T, st *store.Store, user uuid.UUID, day string, mood int32, tags ...string) {
	t.Helper()
	d, _ := time.Parse(time.DateOnly, day)
	if _, err := st.Queries().InsertCheckin(context.Background(), dbgen.InsertCheckinParams{UserID: user, Mood: mood, Emotions: []string{}, Tags: append([]string{}, tags...), LocalDate: d}); err != nil {
		t.Fatal(err)
	}
}

func TestReportsCarryTheWeeksCheckins(t *testing.T) {
	st := pgtest.New(t)
	ctx := context.Background()
	u := pgtest.User(t, st, "PREMIUM")
	quietUser := pgtest.User(t, st, "PREMIUM")
	now := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC) // Thursday; this week began Nov 23, last week Nov 16
	checkinOn(t, st, u.ID, "2026-11-16", 2, "sleep")
	checkinOn(t, st, u.ID, "2026-11-22", 4, "sleep", "friends") // Sunday: still last week
	checkinOn(t, st, u.ID, "2026-11-23", 1, "exams")
	checkinOn(t, st, u.ID, "2026-11-15", 5, "money") // the week before: not counted
	dir := t.TempDir()
	sender, err := mail.New(config.Mail{From: "Percolate <no-reply@localhost>"}, dir, quiet)
	if err != nil {
		t.Fatal(err)
	}
	jobs := queuetest.New(t, st)
	svc := New(st, jobs, sender, "http://app.test", nil, quiet)
	svc.Now = func() time.Time { return now }
	if n, err := svc.RunOnce(ctx); err != nil || n != 2 {
		t.Fatalf("run: %d %v", n, err)
	}
	r, err := svc.List(ctx, u.ID)
	if err != nil || len(r) != 2 {
		t.Fatalf("list: %+v %v", r, err)
	}
	if c := r[0].Checkins; !r[0].SoFar || c == nil || c.Count != 1 || c.LowestMood != 1 || c.HighestMood != 1 || fmt.Sprint(c.Tags) != "[{exams 1}]" {
		t.Errorf("this week so far: %+v", c)
	}
	if c := r[1].Checkins; c == nil || c.Count != 2 || c.LowestMood != 2 || c.HighestMood != 4 || fmt.Sprint(c.Tags) != "[{sleep 2} {friends 1}]" {
		t.Errorf("last week's stored report: %+v", c)
	}
	none, err := svc.List(ctx, quietUser.ID)
	if err != nil || len(none) != 2 || none[1].Checkins == nil || none[1].Checkins.Count != 0 {
		t.Fatalf("a week without check-ins: %+v %v", none, err)
	}

	queuetest.Start(t, jobs)
	queuetest.Drain(t, jobs)
	mails, _ := filepath.Glob(filepath.Join(mail.OutboxDir(dir), "*.eml"))
	var texts []string
	for _, m := range mails {
		raw, _ := os.ReadFile(m)
		texts = append(texts, string(raw))
	}
	all := strings.Join(texts, "\n")
	if len(mails) != 2 || !strings.Contains(all, "Check-ins: 2, mood from low to good") || strings.Count(all, "Check-ins:") != 1 {
		t.Errorf("the mails do not carry the check-ins once (%d mails)", len(mails))
	}
}
