package chat

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/jobs"
	"github.com/percolate/percolate/backend/internal/store"
	dbgen "github.com/percolate/percolate/gen/db"
)

type summaryJob struct {
	SessionID uuid.UUID `json:"sessionId"`
	UserID    uuid.UUID `json:"userId"`
}

// JobHandlers are the background jobs of the chat, for a jobs.Worker.
func (s *Service) JobHandlers() map[string]jobs.Handler {
	return map[string]jobs.Handler{SummaryJobKind: s.runSummaryJob}
}

// runSummaryJob writes the summary and emotion labels of an ended session. A model failure
// is retried by the queue; on the last attempt the offline engine's summary is written
// instead, so an ended session always gets one.
func (s *Service) runSummaryJob(ctx context.Context, job jobs.Job) error {
	var p summaryJob
	if err := json.Unmarshal(job.Payload, &p); err != nil {
		return fmt.Errorf("summary job payload: %w", err)
	}
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
			transcript = append(transcript, companion.Turn{Role: m.Role, Content: m.Content})
		}
	}
	transcript = withoutOpening(transcript)
	sum, err := s.provider.Summarize(ctx, transcript)
	if err != nil {
		if !job.LastAttempt() {
			return err
		}
		s.log.Warn("summary falls back to the offline engine", "session_id", p.SessionID, "error", err.Error())
		sum = companion.OfflineSummary(transcript)
	}
	if _, err := q.SetSessionSummary(ctx, dbgen.SetSessionSummaryParams{Summary: &sum.Text, Emotions: sum.Emotions, ID: p.SessionID, UserID: p.UserID}); err != nil {
		return fmt.Errorf("store summary: %w", err)
	}
	return nil
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
