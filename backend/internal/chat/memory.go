package chat

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/riverqueue/river"

	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/safety"
	"github.com/percolate/percolate/backend/internal/memory"
	"github.com/percolate/percolate/backend/internal/queue"
	"github.com/percolate/percolate/backend/internal/store"
	dbgen "github.com/percolate/percolate/gen/db"
)

// MemoryJobKind is the job that learns the durable facts of an ended session.
const MemoryJobKind = "chat.memory"

// memoryAttempts is how often the facts are asked of the model; the last try falls back to
// the offline extractor, as summaries do.
const memoryAttempts = 5

// MemoryArgs asks for the facts of an ended session to be remembered.
type MemoryArgs sessionJob

// Kind implements river.JobArgs.
func (MemoryArgs) Kind() string { return MemoryJobKind }

// InsertOpts makes the extraction of a session one job, however often it is asked for.
func (MemoryArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{MaxAttempts: memoryAttempts, UniqueOpts: river.UniqueOpts{ByArgs: true}}
}

// queueMemory queues the extraction of an ended session in the transaction that ended it.
// Whether the user has memory on is read when the job runs.
func (s *Service) queueMemory(ctx context.Context, tx store.Tx, sess dbgen.ChatSession) error {
	return s.queue.InsertTx(ctx, tx, MemoryArgs{SessionID: sess.ID, UserID: sess.UserID})
}

// remember extracts the durable facts of an ended session from the user's messages that
// the safety screen passed, with the model when one is configured (structured JSON,
// validated) or the offline extractor, and stores them with the job's completion. With
// memory turned off, nothing is read or stored. Its last attempt never fails on the model's
// account.
func (s *Service) remember(ctx context.Context, job *river.Job[MemoryArgs]) error {
	p := job.Args
	q := s.store.Queries()
	user, err := q.GetUserByID(ctx, p.UserID)
	if store.IsNotFound(err) {
		return nil // the account is gone
	}
	if err != nil {
		return fmt.Errorf("load user: %w", err)
	}
	if !user.MemoryEnabled {
		return nil
	}
	if _, err := q.GetSessionForUser(ctx, dbgen.GetSessionForUserParams{ID: p.SessionID, UserID: p.UserID}); store.IsNotFound(err) {
		return nil // deleted meanwhile: nothing of it is kept
	} else if err != nil {
		return fmt.Errorf("load session: %w", err)
	}
	msgs, err := q.ListMessagesBySession(ctx, dbgen.ListMessagesBySessionParams{SessionID: p.SessionID, UserID: p.UserID})
	if err != nil {
		return fmt.Errorf("load messages: %w", err)
	}
	var transcript []companion.Turn
	var sent time.Time // days said relatively resolve against the session's last message
	for _, m := range msgs {
		sent = m.CreatedAt
		if m.Role == companion.RoleUser || m.Role == companion.RoleAssistant {
			transcript = append(transcript, companion.Turn{Role: m.Role, Content: m.Content})
		}
	}
	texts := memorySources(withoutOpening(transcript))
	if len(texts) == 0 {
		return nil
	}
	existing, err := q.ListMemoriesForUser(ctx, p.UserID)
	if err != nil {
		return fmt.Errorf("load memories: %w", err)
	}
	profile := profileOf(user)
	var facts []companion.Fact
	if ex, ok := s.provider.(companion.MemoryExtractor); ok && !s.provider.Offline() {
		known := make([]string, len(existing))
		for i, m := range existing {
			known[i] = m.Text
		}
		facts, err = ex.ExtractMemories(ctx, texts, known)
		if err != nil {
			if job.Attempt < job.MaxAttempts {
				return err
			}
			s.log.Warn("memory falls back to the offline extractor", "session_id", p.SessionID, "error", err.Error())
			facts = companion.OfflineMemoriesAt(texts, profile, sent)
		}
	} else {
		facts = companion.OfflineMemoriesAt(texts, profile, sent)
	}
	return s.store.InTx(ctx, func(tx store.Tx) error {
		n, err := memory.Save(ctx, tx, p.UserID, p.SessionID, profile, existing, facts)
		if err != nil {
			return err
		}
		s.log.Debug("memories learnt", "session_id", p.SessionID, "count", n)
		return queue.CompleteTx(ctx, tx, job)
	})
}

// memorySources are the user's messages that memory may learn from: each is screened with
// the previous turn as context, and a flagged message is left out together with the user's
// next message (an answer to the check-in or the crisis reply).
func memorySources(transcript []companion.Turn) []string {
	var (
		out       []string
		previous  safety.Level
		checkedIn bool
		skipNext  bool
	)
	for _, t := range transcript {
		if t.Role == companion.RoleAssistant {
			checkedIn = strings.Contains(t.Content, companion.CheckInQuestion)
			continue
		}
		// As in the send path: the previous message's own level, and a reply that asked the
		// check-in question, are the context (see safetyContext).
		r := safety.Screen(t.Content, safety.Context{Previous: previous, CheckedIn: checkedIn})
		previous = safety.Screen(t.Content, safety.Context{}).Level
		switch {
		case r.Risky():
			skipNext = true
		case skipNext:
			skipNext = false
		default:
			out = append(out, t.Content)
		}
	}
	return out
}
