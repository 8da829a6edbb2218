package chat

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/store"
	dbgen "github.com/percolate/percolate/gen/db"
)

// With a model, the earlier part of a long session is summarised by the model: once a
// reply's prompt leaves turns out of the context budget, a job asks the model for a summary
// of everything before the budget's window and stores it on the session. Later prompts carry
// that summary in place of the turns it covers (and the quick summary built without a model
// for any older turns it does not cover yet). The reply itself never waits for the model's
// summary, so a long session costs no time to first token.

// ContextSummaryJobKind is the River kind of the job that summarises a long session's
// earlier part.
const ContextSummaryJobKind = "chat.context_summary"

// maxContextSummaryRunes bounds the stored summary, so that it never crowds the prompt.
const maxContextSummaryRunes = 1200

// ContextSummaryArgs asks for the summary of a session's earlier part.
type ContextSummaryArgs sessionJob

// Kind implements river.JobArgs.
func (ContextSummaryArgs) Kind() string { return ContextSummaryJobKind }

// InsertOpts makes one job per session while one waits or runs; a finished one does not stop
// the next, which covers more of the session.
func (ContextSummaryArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{MaxAttempts: 3, UniqueOpts: river.UniqueOpts{ByArgs: true, ByState: []rivertype.JobState{
		rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRunning,
		rivertype.JobStateRetryable, rivertype.JobStateScheduled,
	}}}
}

// uncovered leaves out of the newest-first messages those the session's stored summary
// covers.
func uncovered(sess dbgen.ChatSession, newestFirst []dbgen.Message) []dbgen.Message {
	if sess.ContextSummaryThrough == nil {
		return newestFirst
	}
	for i, m := range newestFirst {
		if !m.CreatedAt.After(*sess.ContextSummaryThrough) {
			return newestFirst[:i]
		}
	}
	return newestFirst
}

// earlier is what a reply's prompt knows of the session's earlier part, taken when the turn
// reads the session (the reply runs beside the rest of the send, which rewrites t.session).
type earlier struct {
	sessionID uuid.UUID
	summary   string // the model's summary of the turns the history leaves out
	wanted    bool   // the prompt left out turns the summary does not cover
}

func earlierOf(sess dbgen.ChatSession) earlier {
	return earlier{sessionID: sess.ID, summary: sess.ContextSummary}
}

// earlierPart is the summary of what the prompt leaves out: the model's stored summary, then
// the quick summary of older turns it does not cover. When turns are left out that the
// stored summary does not cover and a model is configured, the turn notes that a new summary
// is wanted; it is queued once the reply is stored (see queueContextSummary), never before the
// model is asked.
func (t *Turn) earlierPart(quick string) string {
	t.earlier.wanted = quick != "" && !t.s.provider.Offline()
	return strings.TrimSpace(strings.TrimSpace(t.earlier.summary) + "\n" + quick)
}

// queueContextSummary queues the summary a reply's prompt wanted, after the reply is stored
// (outside its transaction, which a failed insert must not abort). A failure only means the
// next reply asks again.
func (t *Turn) queueContextSummary(ctx context.Context) {
	if !t.earlier.wanted {
		return
	}
	if err := t.s.queue.Insert(ctx, ContextSummaryArgs{SessionID: t.earlier.sessionID, UserID: t.user.ID}); err != nil {
		t.s.log.Warn("queue context summary", "session_id", t.earlier.sessionID, "error", err.Error())
	}
}

// summaryRole names the stored summary in the transcript of a running summary.
const summaryRole = "summary of the conversation before"

// summarizeEarlier summarises the session's messages before the context budget's window
// with the model and stores the summary. The summary is a running one: the model is given
// the stored summary and the turns after it that left the window, not the whole session
// again, so a job reads and sends the same however long the session is. A session that no
// longer needs one, or is gone, is left alone.
func (s *Service) summarizeEarlier(ctx context.Context, job *river.Job[ContextSummaryArgs]) error {
	p := job.Args
	q := s.store.Queries()
	sess, err := q.GetSessionForUser(ctx, dbgen.GetSessionForUserParams{ID: p.SessionID, UserID: p.UserID})
	if store.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("load session: %w", err)
	}
	msgs, err := q.ListMessagesAfter(ctx, dbgen.ListMessagesAfterParams{SessionID: p.SessionID, UserID: p.UserID, After: sess.ContextSummaryThrough})
	if err != nil {
		return fmt.Errorf("load messages: %w", err)
	}
	var turns []companion.Turn
	var kept []dbgen.Message
	for _, m := range msgs {
		if m.Role == companion.RoleUser || m.Role == companion.RoleAssistant {
			turns = append(turns, companion.Turn{Role: m.Role, Content: m.Content})
			kept = append(kept, m)
		}
	}
	// The newest turns that fit the budget stay in the prompts; the summary covers the rest,
	// leaving room for the next turns so that the job is not needed again at once.
	window, _ := companion.TrimHistory(turns, s.limits.ContextBudget*3/4)
	older := len(turns) - len(window)
	if older <= 0 {
		return nil
	}
	through := kept[older-1].CreatedAt
	transcript := turns[:older]
	if prev := strings.TrimSpace(sess.ContextSummary); prev != "" && sess.ContextSummaryThrough != nil {
		transcript = append([]companion.Turn{{Role: summaryRole, Content: prev}}, transcript...)
	}
	sum, err := s.provider.Summarize(ctx, transcript)
	if err != nil {
		return fmt.Errorf("summarise the earlier part: %w", err)
	}
	text := strings.Join(strings.Fields(sum.Text), " ")
	if r := []rune(text); len(r) > maxContextSummaryRunes {
		text = string(r[:maxContextSummaryRunes]) + "…"
	}
	if text == "" {
		return nil
	}
	_, err = q.SetContextSummary(ctx, dbgen.SetContextSummaryParams{Channel: notifyChannel, Summary: text, Through: &through, ID: sess.ID, UserID: sess.UserID})
	return err
}
