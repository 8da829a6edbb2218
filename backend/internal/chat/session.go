package chat

import (
	"context"
	"fmt"
	"slices"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/store"
	dbgen "github.com/percolate/percolate/gen/db"
)

// Get returns one of the caller's sessions.
func (s *Service) Get(ctx context.Context, userID, sessionID uuid.UUID) (Session, error) {
	q := s.store.Queries()
	u, err := s.user(ctx, q, userID)
	if err != nil {
		return Session{}, err
	}
	row, err := q.GetSessionForUser(ctx, dbgen.GetSessionForUserParams{ID: sessionID, UserID: userID})
	if err != nil {
		return Session{}, notFound("get session", err)
	}
	return view(row, s.limits.Tiers.For(u.Role)), nil
}

// Detail returns one of the caller's sessions with its messages, oldest first.
//
// The caller's role, the session and its messages go out in one round trip; the messages are
// read only when the session's version is not the one this instance has cached (see
// detailcache.go). The database says every time whether the session is the caller's: the
// cache is asked only for what the database has just confirmed.
//
// A chat is read as it is opened, before its first message: when this instance holds neither
// its detail nor a send state of it (sendstate.go), the same round trip also reads what its
// next send needs, so that the first message after opening a chat is written in one round
// trip too. Those reads come after the session's row, so the messages are of its version or
// a later one, which the send's check refuses. Reads of a chat this instance holds add
// nothing: its own replies keep the state.
func (s *Service) Detail(ctx context.Context, userID, sessionID uuid.UUID) (Detail, error) {
	held := s.details.get(sessionID)
	known := int64(-1) // versions start at 0
	if held != nil {
		known = held.version
	}
	var (
		role                     string
		row                      dbgen.ChatSession
		rows                     []dbgen.ListMessagesUnlessVersionRow
		roleErr, rowErr, msgsErr error
		next                     *stateReads
	)
	if held == nil && s.states.wantedFor(sessionID) {
		next = &stateReads{}
	}
	b := store.NewBatch(func(q *dbgen.Queries) {
		role, roleErr = q.GetUserRole(ctx, userID)
		row, rowErr = q.GetSessionForUser(ctx, dbgen.GetSessionForUserParams{ID: sessionID, UserID: userID})
		rows, msgsErr = q.ListMessagesUnlessVersion(ctx, dbgen.ListMessagesUnlessVersionParams{KnownVersion: known, ID: sessionID, UserID: userID})
		if next != nil {
			next.read(ctx, s, q, userID, sessionID)
		}
	})
	if err := s.store.Send(ctx, b); err != nil {
		return Detail{}, fmt.Errorf("read session: %w", err)
	}
	if err := userErr(roleErr); err != nil {
		return Detail{}, err
	}
	if rowErr != nil {
		if store.IsNotFound(rowErr) {
			s.details.evict(sessionID)
			s.states.forget(sessionID)
		}
		return Detail{}, notFound("get session", rowErr)
	}
	if next != nil {
		if st := next.state(s, row); st != nil {
			s.states.keep(st)
		}
	}
	if msgsErr != nil {
		return Detail{}, fmt.Errorf("list messages: %w", msgsErr)
	}
	read := versionedOf(rows)
	var e *detailEntry
	switch decideDetail(known, row.Version, read.version, read.found) {
	case fromCache:
		e = held
	case readAndKeep:
		if e = newDetailEntry(row, read.msgs); !s.details.put(e) {
			e = nil
		}
	case readOnly:
		if !read.found {
			s.details.evict(sessionID)
		}
	}
	if e == nil {
		return Detail{Session: view(row, s.limits.Tiers.For(role)), Messages: read.msgs, ReplyInProgress: s.replyInProgress(row), Version: -1}, nil
	}
	return Detail{
		Session: view(e.row, s.limits.Tiers.For(role)), Messages: e.msgs, ReplyInProgress: s.replyInProgress(e.row), Version: e.version,
	}, nil
}

// versionedMessages is what ListMessagesUnlessVersion read: the session's version as that
// statement saw it, and the session's messages (those the caller sees: the user's and the
// companion's) unless that was the version asked about.
type versionedMessages struct {
	version int64
	found   bool // a row came back: the session is (still) the user's
	msgs    []Message
}

// versionedOf reads ListMessagesUnlessVersion's rows: either one row without a message (its
// id is the nil uuid: the version asked about, or no messages) or one row per message, each
// carrying the version.
func versionedOf(rows []dbgen.ListMessagesUnlessVersionRow) versionedMessages {
	var out versionedMessages
	for _, r := range rows {
		out.found, out.version = true, r.Version
		// Only the user's and the companion's messages are shown.
		if r.ID == uuid.Nil || (r.Role != companion.RoleUser && r.Role != companion.RoleAssistant) {
			continue
		}
		out.msgs = append(out.msgs, Message{
			ID: r.ID, Role: r.Role, Content: r.Content, TokenCount: int(r.TokenCount), CreatedAt: r.CreatedAt, Status: r.Status,
		})
	}
	if out.msgs == nil {
		out.msgs = []Message{}
	}
	return out
}

// Takeaway is one thing to take from one of the caller's sessions (companion.Takeaway): a
// message the safety screen flagged gives nothing to it.
func (s *Service) Takeaway(ctx context.Context, userID, sessionID uuid.UUID) (string, error) {
	q := s.store.Queries()
	u, err := s.user(ctx, q, userID)
	if err != nil {
		return "", err
	}
	if _, err := q.GetSessionForUser(ctx, dbgen.GetSessionForUserParams{ID: sessionID, UserID: userID}); err != nil {
		return "", notFound("takeaway", err)
	}
	rows, err := q.ListMessagesBySession(ctx, dbgen.ListMessagesBySessionParams{SessionID: sessionID, UserID: userID})
	if err != nil {
		return "", fmt.Errorf("list messages: %w", err)
	}
	var turns []companion.Turn
	for _, m := range rows {
		if (m.Role == companion.RoleUser || m.Role == companion.RoleAssistant) && m.Content != StarterMessage {
			turns = append(turns, turnOf(m))
		}
	}
	return companion.Takeaway(turns, profileOf(u)), nil
}

// Delete deletes one of the caller's sessions with its messages.
func (s *Service) Delete(ctx context.Context, userID, sessionID uuid.UUID) error {
	n, err := s.store.Queries().DeleteSessionForUser(ctx, dbgen.DeleteSessionForUserParams{ID: sessionID, UserID: userID})
	if err != nil {
		return fmt.Errorf("delete session: %w", err)
	}
	if n == 0 {
		return fmt.Errorf("delete session: %w", apperr.ErrNotFound)
	}
	// Its messages are gone: this instance keeps no copy of them either (another instance
	// drops its copy at its next read of the session, or as the cache evicts it).
	s.details.evict(sessionID)
	s.states.forget(sessionID)
	return nil
}

// Closing feelings the user may give as a session ends.
var closingFeelings = []string{"better", "same", "worse"}

// End ends one of the caller's sessions (a no-op when it has already ended) and queues its
// summary. feeling, when not empty, is how the user feels as it ends (closingFeelings); it is
// kept with the session, also when the session had already ended.
func (s *Service) End(ctx context.Context, userID, sessionID uuid.UUID, feeling string) (Session, error) {
	if feeling != "" && !slices.Contains(closingFeelings, feeling) {
		return Session{}, apperr.Invalid("feeling", "Must be better, same or worse.")
	}
	var out dbgen.ChatSession
	s.states.forget(sessionID) // an ended session takes no more messages
	err := s.store.InTx(ctx, func(q store.Tx) error {
		row, err := q.GetSessionForUserForUpdate(ctx, dbgen.GetSessionForUserForUpdateParams{ID: sessionID, UserID: userID})
		if err != nil {
			return notFound("end session", err)
		}
		out = row
		if row.Status == statusActive {
			if out, err = s.endSession(ctx, q, row, EndReasonUser); err != nil {
				return err
			}
		}
		if feeling != "" {
			out, err = q.SetClosingFeeling(ctx, dbgen.SetClosingFeelingParams{Feeling: &feeling, ID: sessionID, UserID: userID})
		}
		return err
	})
	if err != nil {
		return Session{}, err
	}
	u, err := s.user(ctx, s.store.Queries(), userID)
	if err != nil {
		return Session{}, err
	}
	return view(out, s.limits.Tiers.For(u.Role)), nil
}
