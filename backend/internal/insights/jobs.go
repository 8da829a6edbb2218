package insights

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"github.com/percolate/percolate/backend/internal/mail"
	"github.com/percolate/percolate/backend/internal/queue"
	"github.com/percolate/percolate/backend/internal/store"
)

// ReportsArgs asks for the reports of the last full week (RunOnce). It runs on a schedule
// (package app adds it to the queue's periodic jobs).
type ReportsArgs struct{}

// Kind implements river.JobArgs.
func (ReportsArgs) Kind() string { return "insights.weekly_reports" }

// InsertOpts: a failed run is tried again a few times; the next scheduled run picks up
// whatever is still missing anyway.
func (ReportsArgs) InsertOpts() river.InsertOpts { return river.InsertOpts{MaxAttempts: 3} }

type reportsWorker struct {
	river.WorkerDefaults[ReportsArgs]
	s *Service
}

// Timeout leaves room for a model suggestion per user; a run cut short is finished by the
// next one, as only missing reports are made.
func (*reportsWorker) Timeout(*river.Job[ReportsArgs]) time.Duration { return 10 * time.Minute }

func (w *reportsWorker) Work(ctx context.Context, _ *river.Job[ReportsArgs]) error {
	n, err := w.s.RunOnce(ctx)
	if n > 0 {
		w.s.logger.Info("weekly reports made", "count", n)
	}
	return err
}

// ReportMailArgs asks for a stored report to be mailed to its owner. It carries the
// report's id only; the job reads the report and the address when it runs.
type ReportMailArgs struct {
	ReportID uuid.UUID `json:"reportId"`
}

// Kind implements river.JobArgs.
func (ReportMailArgs) Kind() string { return "insights.report_mail" }

// InsertOpts sends it on the mail queue.
func (ReportMailArgs) InsertOpts() river.InsertOpts { return mail.JobOpts() }

// composeMail writes the mail of a stored report to its owner.
func (s *Service) composeMail(ctx context.Context, a ReportMailArgs) (mail.Message, error) {
	row, err := s.db.Queries().GetWeeklyReportForMail(ctx, a.ReportID)
	if store.IsNotFound(err) {
		return mail.Message{}, mail.ErrNothingToSend // the account was deleted, its reports with it
	}
	if err != nil {
		return mail.Message{}, fmt.Errorf("load weekly report: %w", err)
	}
	var r Report
	if err := json.Unmarshal(row.Content, &r); err != nil {
		return mail.Message{}, river.JobCancel(fmt.Errorf("weekly report %s: %w", a.ReportID, err))
	}
	link := s.publicURL + "/insights"
	country := ""
	if row.Country != nil {
		country = *row.Country
	}
	return mail.Message{To: row.Email, Subject: "Your week with Percolate", Text: mailText(row.Name, country, row.WeekStart, r, link)}, nil
}

// registerWorkers adds the workers of the reports' jobs to the queue.
func (s *Service) registerWorkers(q *queue.Queue) {
	queue.AddWorker(q, &reportsWorker{s: s})
	queue.AddWorker(q, mail.NewWorker(s.db, s.mail, s.composeMail))
}
