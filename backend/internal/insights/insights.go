// Package insights makes the weekly insight report for Premium users: emotion trends across
// the week's ended sessions, recurring themes, and one gentle, non-clinical suggestion. The
// reports are made by an hourly job of the queue (ReportsArgs). A report is stored once per
// user and week (a unique key), and its mail is a job queued in the same transaction, so
// however many instances make reports, each is stored and mailed once.
package insights

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/checkin"
	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/resources"
	"github.com/percolate/percolate/backend/internal/entitlement"
	"github.com/percolate/percolate/backend/internal/mail"
	"github.com/percolate/percolate/backend/internal/queue"
	"github.com/percolate/percolate/backend/internal/store"
	dbgen "github.com/percolate/percolate/gen/db"
)

// Report is the content of one weekly report.
type Report struct {
	SessionCount int            `json:"sessionCount"`
	Emotions     []EmotionCount `json:"emotions"`
	Themes       []string       `json:"themes"`
	Suggestion   string         `json:"suggestion"`
	// Checkins is the week's check-ins; nil in reports stored before check-ins existed.
	Checkins *WeekCheckins `json:"checkins,omitempty"`
}

// WeekCheckins is what a week's check-ins add to its report: how many, the mood range (0
// with none) and up to maxCheckinTags most frequent tags, most frequent first.
type WeekCheckins struct {
	Count       int        `json:"count"`
	LowestMood  int        `json:"lowestMood,omitempty"`
	HighestMood int        `json:"highestMood,omitempty"`
	Tags        []TagCount `json:"tags"`
}

// TagCount is how many of the week's check-ins carried a tag.
type TagCount struct {
	Tag   string `json:"tag"`
	Count int    `json:"count"`
}

// maxCheckinTags is how many of the week's most frequent check-in tags a report names.
const maxCheckinTags = 3

// EmotionCount is how many of the week's sessions carried an emotion.
type EmotionCount struct {
	Emotion string `json:"emotion"`
	Count   int    `json:"count"`
}

// Service builds, stores, mails and lists reports.
type Service struct {
	db        *store.Store
	jobs      *queue.Queue
	mail      mail.Sender
	model     companion.Provider // nil or offline: the built-in suggestions
	publicURL string
	logger    *slog.Logger
	Now       func() time.Time
}

// New returns the weekly report service. With a model provider the week's suggestion is
// written by the model (and checked); otherwise, or when that fails, it comes from the
// offline engine's list. New registers the workers of its jobs: build it before the queue
// starts.
func New(db *store.Store, jobs *queue.Queue, sender mail.Sender, publicURL string, model companion.Provider, logger *slog.Logger) *Service {
	s := &Service{db: db, jobs: jobs, mail: sender, model: model, publicURL: strings.TrimRight(publicURL, "/"), logger: logger, Now: time.Now}
	s.registerWorkers(jobs)
	return s
}

// tiers says which roles include weekly reports (features are fixed per tier, so the
// product's table is read once); insightRoles lists them for the query of due users.
var (
	tiers        = entitlement.Default()
	insightRoles = tiers.RolesWhere(func(e entitlement.Entitlements) bool { return e.Insights })
)

// WeekStart returns the Monday (UTC) that starts the week holding t.
func WeekStart(t time.Time) time.Time {
	t = t.UTC()
	day := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	offset := (int(day.Weekday()) + 6) % 7 // Monday = 0
	return day.AddDate(0, 0, -offset)
}

// RunOnce makes the reports of the last full week for every Premium user who has none yet.
// It returns how many reports this call stored.
func (s *Service) RunOnce(ctx context.Context) (int, error) {
	week := WeekStart(s.Now()).AddDate(0, 0, -7)
	made := 0
	for {
		users, err := s.db.Queries().ListUsersDueWeeklyReport(ctx, dbgen.ListUsersDueWeeklyReportParams{Roles: insightRoles, WeekStart: week, MaxUsers: 100})
		if err != nil {
			return made, fmt.Errorf("list users due a report: %w", err)
		}
		stored := 0
		for _, u := range users {
			ok, err := s.makeReport(ctx, u.ID, week)
			if err != nil {
				return made, err
			}
			if ok {
				stored++
			}
		}
		made += stored
		if len(users) < 100 || stored == 0 {
			return made, nil
		}
	}
}

func (s *Service) makeReport(ctx context.Context, userID uuid.UUID, week time.Time) (bool, error) {
	from, to := week, week.AddDate(0, 0, 7)
	sessions, err := s.db.Queries().ListEndedSessionsBetween(ctx, dbgen.ListEndedSessionsBetweenParams{UserID: userID, FromTime: &from, ToTime: &to})
	if err != nil {
		return false, fmt.Errorf("sessions of the week: %w", err)
	}
	messages, err := s.db.Queries().ListUserMessagesOfSessionsEndedBetween(ctx, dbgen.ListUserMessagesOfSessionsEndedBetweenParams{UserID: userID, FromTime: &from, ToTime: &to})
	if err != nil {
		return false, fmt.Errorf("messages of the week: %w", err)
	}
	u, err := s.db.Queries().GetUserByID(ctx, userID)
	if err != nil {
		return false, fmt.Errorf("owner of the report: %w", err)
	}
	r := Build(week, sessions, messages, u.SensitiveTopics)
	if r.Checkins, err = s.weekCheckins(ctx, userID, week); err != nil {
		return false, err
	}
	if r.SessionCount > 0 {
		r.Suggestion = s.modelSuggestion(ctx, r)
	}
	content, err := json.Marshal(r)
	if err != nil {
		return false, err
	}
	err = s.db.InTx(ctx, func(tx store.Tx) error {
		id, err := tx.InsertWeeklyReport(ctx, dbgen.InsertWeeklyReportParams{UserID: userID, WeekStart: week, Content: content})
		if err != nil {
			return err
		}
		return s.jobs.InsertTx(ctx, tx, ReportMailArgs{ReportID: id})
	})
	if store.IsNotFound(err) {
		return false, nil // another instance stored it first
	}
	if err != nil {
		return false, fmt.Errorf("store weekly report: %w", err)
	}
	return true, nil
}

// WeeklyReport is one stored report, as the caller sees it.
type WeeklyReport struct {
	ID        uuid.UUID
	WeekStart time.Time
	CreatedAt time.Time
	SoFar     bool // the current week, made on read and not stored (see soFar)
	Report
}

// List returns the caller's reports; they are a Premium feature.
func (s *Service) List(ctx context.Context, userID uuid.UUID) ([]WeeklyReport, error) {
	u, err := s.db.Queries().GetUserByID(ctx, userID)
	if store.IsNotFound(err) {
		return nil, fmt.Errorf("list weekly reports: %w", apperr.ErrUnauthorized) // the account is gone
	}
	if err != nil {
		return nil, err
	}
	if !tiers.For(u.Role).Insights {
		return nil, apperr.New(apperr.ErrForbidden, "PREMIUM_ONLY", "Weekly insight reports are part of the Premium plan.")
	}
	rows, err := s.db.Queries().ListWeeklyReportsForUser(ctx, userID)
	if err != nil {
		return nil, err
	}
	now := s.Now()
	soFar, err := s.soFar(ctx, userID, u.SensitiveTopics, now)
	if err != nil {
		return nil, err
	}
	out := make([]WeeklyReport, 0, len(rows)+1)
	out = append(out, soFar)
	for _, row := range rows {
		w := WeeklyReport{ID: row.ID, WeekStart: row.WeekStart, CreatedAt: row.CreatedAt}
		if err := json.Unmarshal(row.Content, &w.Report); err != nil {
			return nil, fmt.Errorf("decode weekly report %s: %w", row.ID, err)
		}
		out = append(out, w)
	}
	return out, nil
}

// soFar is the report of the current week until now ("this week so far"), made on every read
// from the offline engine (no model call per page load) and never stored: its week's report
// is made on the Monday after.
func (s *Service) soFar(ctx context.Context, userID uuid.UUID, sensitiveTopics string, now time.Time) (WeeklyReport, error) {
	week := WeekStart(now)
	from, to := week, now
	sessions, err := s.db.Queries().ListEndedSessionsBetween(ctx, dbgen.ListEndedSessionsBetweenParams{UserID: userID, FromTime: &from, ToTime: &to})
	if err != nil {
		return WeeklyReport{}, fmt.Errorf("sessions of this week: %w", err)
	}
	messages, err := s.db.Queries().ListUserMessagesOfSessionsEndedBetween(ctx, dbgen.ListUserMessagesOfSessionsEndedBetweenParams{UserID: userID, FromTime: &from, ToTime: &to})
	if err != nil {
		return WeeklyReport{}, fmt.Errorf("messages of this week: %w", err)
	}
	r := Build(week, sessions, messages, sensitiveTopics)
	if r.Checkins, err = s.weekCheckins(ctx, userID, week); err != nil {
		return WeeklyReport{}, err
	}
	return WeeklyReport{WeekStart: week, CreatedAt: now, SoFar: true, Report: r}, nil
}

// maxWeekCheckins bounds the check-ins a week's report reads (far more than anyone makes).
const maxWeekCheckins = 1000

// weekCheckins reads the check-ins dated in the week that starts on week (days in the user's
// own calendar, as the mood page counts them) and sums them up (see CheckinsOf).
func (s *Service) weekCheckins(ctx context.Context, userID uuid.UUID, week time.Time) (*WeekCheckins, error) {
	rows, err := s.db.Queries().ListCheckinMoodsBetween(ctx, dbgen.ListCheckinMoodsBetweenParams{UserID: userID, FromDate: week, ToDate: week.AddDate(0, 0, 6), MaxRows: maxWeekCheckins})
	if err != nil {
		return nil, fmt.Errorf("check-ins of the week: %w", err)
	}
	return CheckinsOf(rows), nil
}

// CheckinsOf sums up a week's check-ins: how many, the lowest and highest mood, and the
// most frequent tags (ties in the contract's order of tags).
func CheckinsOf(rows []dbgen.ListCheckinMoodsBetweenRow) *WeekCheckins {
	w := &WeekCheckins{Count: len(rows), Tags: []TagCount{}}
	counts := map[string]int{}
	for i, r := range rows {
		m := int(r.Mood)
		if i == 0 || m < w.LowestMood {
			w.LowestMood = m
		}
		w.HighestMood = max(w.HighestMood, m)
		for _, t := range r.Tags {
			counts[t]++
		}
	}
	for _, t := range checkin.Tags {
		if counts[t] > 0 {
			w.Tags = append(w.Tags, TagCount{Tag: t, Count: counts[t]})
		}
	}
	sort.SliceStable(w.Tags, func(i, j int) bool { return w.Tags[i].Count > w.Tags[j].Count })
	if len(w.Tags) > maxCheckinTags {
		w.Tags = w.Tags[:maxCheckinTags]
	}
	return w
}

// Build summarises a week's ended sessions: their emotions, and the themes of the user's own
// messages in them (see Themes; sensitiveTopics is the profile's list of topics to avoid).
// When there were sessions the themes are never empty: with no word that returns, the most
// used topic words stand, and with none of those, fallbackTheme. The suggestion depends on
// the week (see suggestion).
func Build(week time.Time, sessions []dbgen.ListEndedSessionsBetweenRow, messages []dbgen.ListUserMessagesOfSessionsEndedBetweenRow, sensitiveTopics string) Report {
	counts := map[string]int{}
	for _, s := range sessions {
		for _, e := range s.Emotions {
			counts[e]++
		}
	}
	r := Report{SessionCount: len(sessions), Emotions: []EmotionCount{}, Themes: Themes(messages, sensitiveTopics)}
	if len(sessions) > 0 && len(r.Themes) == 0 {
		r.Themes = rankThemes(messages, sensitiveTopics, false)
		if len(r.Themes) > maxThemes {
			r.Themes = r.Themes[:maxThemes]
		}
		if len(r.Themes) == 0 {
			r.Themes = []string{fallbackTheme}
		}
	}
	for e, n := range counts {
		r.Emotions = append(r.Emotions, EmotionCount{Emotion: e, Count: n})
	}
	sort.Slice(r.Emotions, func(i, j int) bool {
		if r.Emotions[i].Count != r.Emotions[j].Count {
			return r.Emotions[i].Count > r.Emotions[j].Count
		}
		return r.Emotions[i].Emotion < r.Emotions[j].Emotion
	})
	top := ""
	if len(r.Emotions) > 0 {
		top = r.Emotions[0].Emotion
	}
	r.Suggestion = suggestion(top, len(sessions), week)
	return r
}

// fallbackTheme is the theme of a week whose sessions named no topic word of their own.
const fallbackTheme = "checking in with yourself"

// suggestions are gentle, practical and non-clinical: never advice about treatment.
var suggestions = map[string]string{
	"anxiety":     "When worry builds this week, try writing down one thing you can control and one you can let wait.",
	"stress":      "Pick one small pause each day — a short walk, a cup of something warm — and keep it like an appointment.",
	"overwhelm":   "Try breaking the biggest thing on your mind into the very next small step, and only that step.",
	"sadness":     "Consider reaching out to someone you trust this week, even with a short message.",
	"loneliness":  "A small connection counts: a message to a friend, a class chat, or a walk somewhere with people around.",
	"anger":       "Next time the heat rises, try naming what felt unfair before deciding what to do about it.",
	"frustration": "Notice one thing that went a little better than expected this week, and what helped it.",
	"guilt":       "Try writing to yourself the way you would write to a friend who felt the same.",
	"shame":       "Try writing to yourself the way you would write to a friend who felt the same.",
	"confusion":   "A short list of what you know, what you don't, and what you could find out might bring some clarity.",
	"fear":        "Try naming the fear as specifically as you can; vague fears often feel bigger than named ones.",
	"tiredness":   "Protect a little rest this week, and notice which evenings leave you most refreshed.",
	"joy":         "Write down what made the good moments good, so you can find your way back to them.",
	"gratitude":   "Keep a three-line note each evening of things you're glad about.",
	"hope":        "Pick one hopeful thought from this week and turn it into a small, concrete next step.",
	"calm":        "Notice what helped you feel calm, and plan a little more of it next week.",
	"pride":       "Take a moment to write down what you did that you're proud of, and how you did it.",
	"love":        "Consider telling someone who matters to you what they mean to you.",
}

// weeklyIdeas are the general suggestions that take turns with the top feeling's own, one a week.
var weeklyIdeas = []string{
	"Take a few minutes this week to look back on your conversations and notice what has shifted.",
	"Choose one evening this week to put your phone away an hour before bed and see how you sleep.",
	"Try a five-minute walk between classes or tasks, and notice how you feel before and after.",
	"Write three lines at the end of each day: what happened, how it felt, and one thing you'd keep.",
	"Plan one small thing to look forward to this week, and put it in your calendar.",
}

// suggestion picks the week's suggestion: deterministic per week (the same on every load), and
// different from the week before, since the choices (the top feeling's own and the general
// ideas) take turns by the week's number.
func suggestion(top string, sessions int, week time.Time) string {
	if sessions == 0 {
		return "When you have a quiet moment this week, a short conversation or a few lines of journaling can help you notice how you're doing."
	}
	choices := weeklyIdeas
	if s, ok := suggestions[top]; ok {
		choices = append([]string{s}, weeklyIdeas...)
	}
	n := int(WeekStart(week).Unix() / (7 * 24 * 3600))
	return choices[((n%len(choices))+len(choices))%len(choices)]
}

// line is the check-ins' line of the report's mail ("" with none: a week without check-ins
// is not remarked on).
func (w *WeekCheckins) line() string {
	if w == nil || w.Count == 0 {
		return ""
	}
	text := fmt.Sprintf("Check-ins: %d, mood %s", w.Count, checkin.MoodWord(w.LowestMood))
	if w.HighestMood != w.LowestMood {
		text = fmt.Sprintf("Check-ins: %d, mood from %s to %s", w.Count, checkin.MoodWord(w.LowestMood), checkin.MoodWord(w.HighestMood))
	}
	var tags []string
	for _, t := range w.Tags {
		tags = append(tags, fmt.Sprintf("%s (%d)", t.Tag, t.Count))
	}
	if len(tags) > 0 {
		text += "; often about " + strings.Join(tags, ", ")
	}
	return text
}

func mailText(name, country string, week time.Time, r Report, link string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Hi %s,\n\nHere is a gentle look back at the week of %s.\n\n", name, week.Format("January 2"))
	fmt.Fprintf(&b, "Conversations you finished: %d\n", r.SessionCount)
	if len(r.Emotions) > 0 {
		var parts []string
		for _, e := range r.Emotions {
			parts = append(parts, fmt.Sprintf("%s (%d)", e.Emotion, e.Count))
		}
		fmt.Fprintf(&b, "Feelings that came up: %s\n", strings.Join(parts, ", "))
	}
	if len(r.Themes) > 0 {
		fmt.Fprintf(&b, "Themes that returned: %s\n", strings.Join(r.Themes, ", "))
	}
	if line := r.Checkins.line(); line != "" {
		b.WriteString(line + "\n")
	}
	fmt.Fprintf(&b, "\nOne idea for the week ahead: %s\n\nSee your report in Percolate: %s\n\n", r.Suggestion, link)
	b.WriteString("Percolate is an AI companion for reflection, not a substitute for professional care. ")
	b.WriteString("If you are in crisis: " + resources.Summary(country) + "\n")
	return b.String()
}

// suggestionPrompt asks the model for one gentle, practical, non-clinical idea.
const suggestionPrompt = `You write one short, gentle, practical suggestion for the week ahead for a student who ` +
	`uses a reflective journaling companion. One or two sentences, second person, warm and plain. Never diagnose, ` +
	`never mention therapy, therapists, medication or treatment, never promise outcomes. Reply with the suggestion only.`

// modelSuggestion asks the model for the week's suggestion and keeps the offline one when there
// is no model, it fails, or its text is not fit to send.
func (s *Service) modelSuggestion(ctx context.Context, r Report) string {
	if s.model == nil || s.model.Offline() {
		return r.Suggestion
	}
	var parts []string
	for _, e := range r.Emotions {
		parts = append(parts, fmt.Sprintf("%s (%d)", e.Emotion, e.Count))
	}
	msg := fmt.Sprintf("This week: %d finished conversations. Feelings noted: %s. Themes that returned: %s.",
		r.SessionCount, strings.Join(parts, ", "), strings.Join(r.Themes, ", "))
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	reply, err := s.model.Stream(ctx, companion.Prompt{System: suggestionPrompt, Message: msg}, func(string) error { return nil })
	if err != nil {
		s.logger.Warn("weekly suggestion from the model failed; using the offline one", "error", err.Error())
		return r.Suggestion
	}
	text := strings.TrimSpace(companion.CleanText(reply.Text))
	lower := strings.ToLower(text)
	if text == "" || len([]rune(text)) > 400 || strings.Contains(lower, "therap") || strings.Contains(lower, "diagnos") ||
		strings.Contains(lower, "medication") || companion.Screen(text) != companion.RiskNone {
		return r.Suggestion
	}
	return text
}
