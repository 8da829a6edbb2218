package chat

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/queue"
	"github.com/percolate/percolate/backend/internal/store"
	dbgen "github.com/percolate/percolate/gen/db"
)

// summaryAttempts is how often a summary is tried with the model; the last try falls back
// to the offline engine. With River's backoff the tries span about six minutes.
const summaryAttempts = 5

// sessionJob is the argument of each of the chat's background jobs: the session it is about
// and its user. Each job's args are a type of their own on it (for the kind and the options).
type sessionJob struct {
	SessionID uuid.UUID `json:"sessionId"`
	UserID    uuid.UUID `json:"userId"`
}

// SummaryArgs asks for the summary of an ended session.
type SummaryArgs sessionJob

// Kind implements river.JobArgs.
func (SummaryArgs) Kind() string { return SummaryJobKind }

// InsertOpts makes the summary of a session one job, however often it is asked for.
func (SummaryArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{MaxAttempts: summaryAttempts, UniqueOpts: river.UniqueOpts{ByArgs: true}}
}

// registerWorkers adds the workers of the chat's background jobs to the queue.
func (s *Service) registerWorkers(q *queue.Queue) {
	// The timeouts leave room for a slow model.
	queue.AddWorker(q, &sessionWorker[SummaryArgs]{timeout: 5 * time.Minute, work: s.summarize})
	queue.AddWorker(q, &sessionWorker[ContextSummaryArgs]{timeout: 2 * time.Minute, work: s.summarizeEarlier})
	queue.AddWorker(q, &sessionWorker[MemoryArgs]{timeout: 5 * time.Minute, work: s.remember})
}

// sessionWorker runs the jobs of one kind with work, each under timeout.
type sessionWorker[T river.JobArgs] struct {
	river.WorkerDefaults[T]
	timeout time.Duration
	work    func(context.Context, *river.Job[T]) error
}

// Timeout implements river.Worker.
func (w *sessionWorker[T]) Timeout(*river.Job[T]) time.Duration { return w.timeout }

// Work implements river.Worker.
func (w *sessionWorker[T]) Work(ctx context.Context, job *river.Job[T]) error {
	return w.work(ctx, job)
}

// queueSummary queues the summary of an ended session in the transaction that ended it.
func (s *Service) queueSummary(ctx context.Context, tx store.Tx, sess dbgen.ChatSession) error {
	return s.queue.InsertTx(ctx, tx, SummaryArgs{SessionID: sess.ID, UserID: sess.UserID})
}

// summarize writes the summary and emotion labels of an ended session, and records the job
// done in the same transaction. A model failure is retried by the queue; on the last
// attempt the offline engine's summary is written instead, so an ended session always
// gets one.
func (s *Service) summarize(ctx context.Context, job *river.Job[SummaryArgs]) error {
	p := job.Args
	q := s.store.Queries()
	sess, err := q.GetSessionForUser(ctx, dbgen.GetSessionForUserParams{ID: p.SessionID, UserID: p.UserID})
	if store.IsNotFound(err) {
		return nil // deleted meanwhile: nothing to do
	}
	if err != nil {
		return fmt.Errorf("load session: %w", err)
	}
	if sess.Summary != nil {
		return nil
	}
	msgs, err := q.ListMessagesBySession(ctx, dbgen.ListMessagesBySessionParams{SessionID: p.SessionID, UserID: p.UserID})
	if err != nil {
		return fmt.Errorf("load messages: %w", err)
	}
	var transcript []companion.Turn
	for _, m := range msgs {
		if m.Role == companion.RoleUser || m.Role == companion.RoleAssistant {
			transcript = append(transcript, turnOf(m))
		}
	}
	transcript = withoutOpening(transcript)
	sum, err := s.provider.Summarize(ctx, transcript)
	if err != nil {
		if job.Attempt < job.MaxAttempts {
			return err
		}
		s.log.Warn("summary falls back to the offline engine", "session_id", p.SessionID, "error", err.Error())
		sum = companion.OfflineSummary(transcript)
	}
	title := sum.Title
	if sess.Title == riskyTitle {
		title = "" // a session with a risky message keeps its neutral title
	}
	return s.store.InTx(ctx, func(tx store.Tx) error {
		if _, err := tx.SetSessionSummary(ctx, dbgen.SetSessionSummaryParams{Summary: &sum.Text, Emotions: sum.Emotions, Title: title, ID: p.SessionID, UserID: p.UserID}); err != nil {
			return fmt.Errorf("store summary: %w", err)
		}
		return queue.CompleteTx(ctx, tx, job)
	})
}

// withoutOpening drops a session's opening exchange, the app's starter message and the
// welcome that answers it: they are not the user's words, and a summary that quoted them
// ("you opened with: Hello! I'd like to start a new conversation.") would say nothing.
func withoutOpening(transcript []companion.Turn) []companion.Turn {
	if len(transcript) == 0 || transcript[0].Role != companion.RoleUser || !isStarter(transcript[0].Content) {
		return transcript
	}
	transcript = transcript[1:]
	if len(transcript) > 0 && transcript[0].Role == companion.RoleAssistant {
		transcript = transcript[1:]
	}
	return transcript
}
