// Package memory is what Percolate remembers about a user across sessions: short sentences
// learnt when a session ends (the chat's extraction job calls Save), listed, edited and
// deleted by the user on the profile, and read into later sessions' prompts. At most Max
// are kept per user; a newer fact about the same thing replaces the older one, and the
// oldest go first. Every query is scoped to the user: another user's memory is not found.
//
// Memory texts are the user's data: they are never logged.
package memory

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/store"
	dbgen "github.com/percolate/percolate/gen/db"
	"github.com/percolate/percolate/gen/limits"
)

// Max is the most memories kept per user.
const Max = 50

// Service lists and changes a user's memories.
type Service struct {
	st *store.Store
}

// New returns the memory service.
func New(st *store.Store) *Service { return &Service{st: st} }

// Memory is one thing Percolate remembers about a user.
type Memory struct {
	ID        uuid.UUID
	Text      string
	SessionID *uuid.UUID // the session it was learnt in, when it still exists
	CreatedAt time.Time
	UpdatedAt time.Time
}

func memoryOf(m dbgen.Memory) Memory {
	return Memory{ID: m.ID, Text: m.Text, SessionID: m.SessionID, CreatedAt: m.CreatedAt, UpdatedAt: m.UpdatedAt}
}

// List returns the user's memories, newest first.
func (s *Service) List(ctx context.Context, userID uuid.UUID) ([]Memory, error) {
	rows, err := s.st.Queries().ListMemoriesForUser(ctx, userID)
	if err != nil {
		return nil, fmt.Errorf("list memories: %w", err)
	}
	out := make([]Memory, len(rows))
	for i, m := range rows {
		out[i] = memoryOf(m)
	}
	return out, nil
}

// Update changes the text of the user's memory.
func (s *Service) Update(ctx context.Context, userID, id uuid.UUID, text string) (Memory, error) {
	text = strings.Join(strings.Fields(companion.CleanText(text)), " ")
	if text == "" {
		return Memory{}, apperr.Invalid("text", "Please write what Percolate should remember.")
	}
	if utf8.RuneCountInString(text) > limits.MemoryUpdateTextMaxLength {
		return Memory{}, apperr.Invalid("text", fmt.Sprintf("At most %d characters.", limits.MemoryUpdateTextMaxLength))
	}
	row, err := s.st.Queries().UpdateMemoryForUser(ctx, dbgen.UpdateMemoryForUserParams{Text: text, ID: id, UserID: userID})
	if store.IsNotFound(err) {
		return Memory{}, fmt.Errorf("update memory: %w", apperr.ErrNotFound)
	}
	if err != nil {
		return Memory{}, fmt.Errorf("update memory: %w", err)
	}
	m := memoryOf(row)
	return m, nil
}

// Delete deletes the user's memory.
func (s *Service) Delete(ctx context.Context, userID, id uuid.UUID) error {
	n, err := s.st.Queries().DeleteMemoryForUser(ctx, dbgen.DeleteMemoryForUserParams{ID: id, UserID: userID})
	if err != nil {
		return fmt.Errorf("delete memory: %w", err)
	}
	if n == 0 {
		return fmt.Errorf("delete memory: %w", apperr.ErrNotFound)
	}
	return nil
}

// DeleteAll forgets everything remembered about the user.
func (s *Service) DeleteAll(ctx context.Context, userID uuid.UUID) error {
	if err := s.st.Queries().DeleteMemoriesForUser(ctx, userID); err != nil {
		return fmt.Errorf("delete memories: %w", err)
	}
	return nil
}

// Save stores facts learnt in a session, in the caller's transaction: a fact that replaces
// one of existing (by index) overwrites it, one with the key of an older memory supersedes
// it, and the user's oldest memories beyond Max are dropped. Facts are validated again
// (ValidFact) against the profile p, so that nothing risky or sensitive is stored whatever
// the extractor returned.
func Save(ctx context.Context, tx store.Tx, userID, sessionID uuid.UUID, p companion.Profile, existing []dbgen.Memory, facts []companion.Fact) (int, error) {
	saved := 0
	for _, f := range facts {
		text, ok := companion.ValidFact(f.Text, p)
		if !ok {
			continue
		}
		sid := &sessionID
		if f.Replaces >= 0 && f.Replaces < len(existing) {
			n, err := tx.ReplaceMemoryForUser(ctx, dbgen.ReplaceMemoryForUserParams{Text: text, SessionID: sid, ID: existing[f.Replaces].ID, UserID: userID})
			if err != nil {
				return saved, fmt.Errorf("replace memory: %w", err)
			}
			if n > 0 {
				saved++
				continue
			}
		}
		key := f.Key
		if key == "" {
			key = companion.FactKey(text)
		}
		if r := []rune(key); len(r) > 100 {
			key = string(r[:100])
		}
		if err := tx.UpsertMemory(ctx, dbgen.UpsertMemoryParams{UserID: userID, SessionID: sid, Text: text, Key: &key}); err != nil {
			return saved, fmt.Errorf("store memory: %w", err)
		}
		saved++
	}
	if err := tx.TrimMemoriesForUser(ctx, dbgen.TrimMemoriesForUserParams{UserID: userID, MaxRows: Max}); err != nil {
		return saved, fmt.Errorf("trim memories: %w", err)
	}
	return saved, nil
}
