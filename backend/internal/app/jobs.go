package app

import (
	"log/slog"
	"time"

	"github.com/percolate/percolate/backend/internal/insights"
	"github.com/percolate/percolate/backend/internal/queue"
	"github.com/percolate/percolate/backend/internal/reminders"
	"github.com/percolate/percolate/backend/internal/store"
)

// schedule registers the jobs that run on a schedule rather than because something
// happened, every one of them listed here. River's elected leader inserts them, each once
// per interval across all instances (and once at start), and any instance runs them.
//
// The workers of the other jobs are registered by the services that queue them (chat,
// account, contact, insights), when they are built.
func schedule(q *queue.Queue, st *store.Store, logger *slog.Logger) {
	// Spent rate-limit windows, ended logins and used e-mail links are deleted hourly.
	queue.AddWorker(q, &housekeepingWorker{q: st.Queries(), logger: logger})
	q.AddPeriodic(time.Hour, HousekeepingArgs{})
	// Weekly insight reports for Premium users: an hourly run makes the reports of the
	// last full week that are still missing, so a new week's are made within the hour.
	q.AddPeriodic(time.Hour, insights.ReportsArgs{})
	// Gentle reminders: every minute, the reminders that are due are claimed and queued
	// (their workers are registered by reminders.New).
	q.AddPeriodic(time.Minute, reminders.DispatchArgs{})
}
