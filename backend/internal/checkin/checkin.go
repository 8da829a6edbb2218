// Package checkin is the quick mood check-in (issue 31, §1): a mood from 1 to 5 and, if the
// user likes, energy, emotions, tags and a note. The note goes through the same crisis screen
// as a chat message; a flagged note is marked on the row (safety) so that nothing downstream
// (memory, the companion) reads it. Three very low check-ins in a row bring a gentle card, at
// most once a week. Every query is scoped to the user: another user's check-in is not found.
//
// Notes are the user's words: they are never logged.
package checkin

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/safety"
	"github.com/percolate/percolate/backend/internal/entitlement"
	"github.com/percolate/percolate/backend/internal/ratelimit"
	"github.com/percolate/percolate/backend/internal/store"
	dbgen "github.com/percolate/percolate/gen/db"
	"github.com/percolate/percolate/gen/limits"
)

// Tags are the contract's tags (CheckinTag), in its order.
var Tags = []string{"sleep", "study", "exams", "friends", "family", "partner", "exercise", "work", "money", "health", "alone time", "outdoors"}

// The contract's bounds.
const (
	MaxEmotions = 5
	MaxTags     = 8
	lowStreak   = 3 // very low check-ins in a row that bring the gentle card
)

// WritesPerHour limits a user's check-in writes (create, change, talk), like other writes.
var WritesPerHour = ratelimit.Rule{Name: "checkin-user", Limit: 120, Window: time.Hour, Message: "That's a lot of check-ins in a short while. Please take a breath and try again in a little while."}

// Checkin is one check-in.
type Checkin struct {
	ID        uuid.UUID
	Mood      int
	Energy    *int
	Emotions  []string
	Tags      []string
	Note      *string
	LocalDate time.Time
	CreatedAt time.Time
	// Safety is the crisis screen's category when the note screened as risky ("" otherwise).
	Safety string
}

// Saved is a stored check-in and what the client must show with it.
type Saved struct {
	Checkin
	// LowStreak: this was the third very low check-in in a row, and the gentle card has not
	// been shown in the last seven days.
	LowStreak bool
	// Repeat: the check-in was stored before, sent with the same client id; nothing new is.
	Repeat bool
}

// Input is a new check-in. LocalDate nil means today in UTC. ClientID, when set, is the
// client's own id for it: sending it again stores it once.
type Input struct {
	Mood      int
	Energy    *int
	Emotions  []string
	Tags      []string
	Note      *string
	LocalDate *time.Time
	ClientID  *uuid.UUID
}

// MsgClientIDReused: a client id came back with other content than its stored check-in.
const MsgClientIDReused = "This check-in was already saved with other details."

// Patch is a change: nil fields stay; an empty note or list clears it.
type Patch struct {
	Mood     *int
	Energy   *int
	Emotions *[]string
	Tags     *[]string
	Note     *string
}

// Service stores and reads check-ins.
type Service struct {
	st      *store.Store
	tiers   entitlement.Table
	limiter *ratelimit.Limiter
	now     func() time.Time
}

// New returns the check-in service; tiers nil means the product's defaults.
func New(st *store.Store, tiers entitlement.Table) *Service {
	if tiers == nil {
		tiers = entitlement.Default()
	}
	return &Service{st: st, tiers: tiers, limiter: ratelimit.New(st.Queries()), now: time.Now}
}

func of(r dbgen.Checkin) Checkin {
	c := Checkin{ID: r.ID, Mood: int(r.Mood), Emotions: r.Emotions, Tags: r.Tags, Note: r.Note, LocalDate: r.LocalDate, CreatedAt: r.CreatedAt}
	if r.Energy != nil {
		c.Energy = new(int(*r.Energy))
	}
	if r.Safety != nil {
		c.Safety = *r.Safety
	}
	if c.Emotions == nil {
		c.Emotions = []string{}
	}
	if c.Tags == nil {
		c.Tags = []string{}
	}
	return c
}

func checkScale(field string, v int) error {
	if v < 1 || v > 5 {
		return apperr.Invalid(field, "Must be a whole number from 1 to 5.")
	}
	return nil
}

func checkEmotions(v []string) error {
	if len(v) > MaxEmotions {
		return apperr.Invalid("emotions", fmt.Sprintf("At most %d emotions.", MaxEmotions))
	}
	for i, e := range v {
		if !slices.Contains(companion.Emotions, e) {
			return apperr.Invalid("emotions", "Must be emotions from the list.")
		}
		if slices.Contains(v[:i], e) {
			return apperr.Invalid("emotions", "Each emotion at most once.")
		}
	}
	return nil
}

func checkTags(v []string) error {
	if len(v) > MaxTags {
		return apperr.Invalid("tags", fmt.Sprintf("At most %d tags.", MaxTags))
	}
	for i, t := range v {
		if !slices.Contains(Tags, t) {
			return apperr.Invalid("tags", "Must be tags from the list.")
		}
		if slices.Contains(v[:i], t) {
			return apperr.Invalid("tags", "Each tag at most once.")
		}
	}
	return nil
}

// cleanNote trims the note; an empty one is none.
func cleanNote(n *string) (*string, error) {
	if n == nil {
		return nil, nil
	}
	t := strings.TrimSpace(companion.CleanText(*n))
	if t == "" {
		return nil, nil
	}
	if utf8.RuneCountInString(t) > limits.CheckinRequestNoteMaxLength {
		return nil, apperr.Invalid("note", fmt.Sprintf("At most %d characters.", limits.CheckinRequestNoteMaxLength))
	}
	return &t, nil
}

// screen is the crisis screen's category for a note, nil when it is not risky.
func screen(note *string) *string {
	if note == nil {
		return nil
	}
	if r := safety.Screen(*note, safety.Context{}); r.Risky() {
		return new(string(r.Category))
	}
	return nil
}

func day(t time.Time) time.Time { return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC) }

// KeptDaysBack is how many days before today (in UTC) a check-in that carries a client id may
// be dated, as the contract says (CheckinRequest.localDate): one kept on a device while it
// was offline (a weekend away, a week without signal) is sent days after it was made, and
// belongs to the day it was made. Without a client id a check-in is made now, so its date is
// at most one day from today (time zones). Never later than one day ahead.
const KeptDaysBack = 7

// localDay checks a caller's own date: at most one day away from today in UTC, or for a
// check-in that carries a client id (kept) up to KeptDaysBack days before it.
func (s *Service) localDay(field string, d *time.Time, kept bool) (time.Time, error) {
	today := day(s.now().UTC())
	if d == nil {
		return today, nil
	}
	v := day(*d)
	back, msg := 1, "Must be today's date on your device."
	if kept {
		back, msg = KeptDaysBack, fmt.Sprintf("Must be a date in the last %d days on your device.", KeptDaysBack)
	}
	if v.Before(today.AddDate(0, 0, -back)) || v.After(today.AddDate(0, 0, 1)) {
		return time.Time{}, apperr.Invalid(field, msg)
	}
	return v, nil
}

func int32p(v *int) *int32 {
	if v == nil {
		return nil
	}
	return new(int32(*v)) // #nosec G115 -- checked to be 1..5
}

// Create validates and stores a check-in.
func (s *Service) Create(ctx context.Context, userID uuid.UUID, in Input) (Saved, error) {
	if err := checkScale("mood", in.Mood); err != nil {
		return Saved{}, err
	}
	if in.Energy != nil {
		if err := checkScale("energy", *in.Energy); err != nil {
			return Saved{}, err
		}
	}
	if err := checkEmotions(in.Emotions); err != nil {
		return Saved{}, err
	}
	if err := checkTags(in.Tags); err != nil {
		return Saved{}, err
	}
	note, err := cleanNote(in.Note)
	if err != nil {
		return Saved{}, err
	}
	date, err := s.localDay("localDate", in.LocalDate, in.ClientID != nil)
	if err != nil {
		return Saved{}, err
	}
	row, err := s.insert(ctx, userID, dbgen.InsertCheckinParams{
		UserID: userID, Mood: int32(in.Mood), Energy: int32p(in.Energy), // #nosec G115 -- checked to be 1..5
		Emotions: nonNil(in.Emotions), Tags: nonNil(in.Tags), Note: note, Safety: screen(note), LocalDate: date,
		ClientID: in.ClientID,
	})
	var limited *apperr.LimitError
	if errors.As(err, &limited) {
		return Saved{}, err
	}
	if store.IsNotFound(err) && in.ClientID != nil {
		return s.repeat(ctx, userID, *in.ClientID, in, note)
	}
	if store.IsForeignKeyViolation(err, "") {
		return Saved{}, fmt.Errorf("create check-in: %w", apperr.ErrUnauthorized) // the account is gone
	}
	if err != nil {
		return Saved{}, fmt.Errorf("create check-in: %w", err)
	}
	out := Saved{Checkin: of(row)}
	if in.Mood == 1 {
		if out.LowStreak, err = s.claimLowStreak(ctx, userID); err != nil {
			return Saved{}, err
		}
	}
	return out, nil
}

// insert counts the write (WritesPerHour) and stores the check-in in one round trip and one
// commit: a batch is one implicit transaction, and its count (HitWithin) fails it over the
// limit, so that nothing is stored. Over the limit the write is then counted with Hit, as
// every refused write is counted, which gives the 429 and how long to wait; should Hit let
// it through (a new window began in between), the check-in is stored after it, on its own.
// A check-in sent again with its client id is counted and stores nothing (pgx.ErrNoRows).
func (s *Service) insert(ctx context.Context, userID uuid.UUID, p dbgen.InsertCheckinParams) (dbgen.Checkin, error) {
	var (
		row    dbgen.Checkin
		rowErr error
	)
	b := store.NewBatch(func(q *dbgen.Queries) {
		rl := ratelimit.New(q)
		rl.Now = s.limiter.Now
		_ = rl.HitWithin(ctx, WritesPerHour, userID.String())
		row, rowErr = q.InsertCheckin(ctx, p)
	})
	err := s.st.Send(ctx, b)
	if store.IsExpectationFailed(err) {
		if err := s.limiter.Hit(ctx, WritesPerHour, userID.String()); err != nil {
			return dbgen.Checkin{}, err
		}
		return s.st.Queries().InsertCheckin(ctx, p)
	}
	if err != nil {
		return dbgen.Checkin{}, err
	}
	return row, rowErr
}

// repeat answers a check-in sent again with the client id of a stored one: the stored
// check-in when the content (mood, energy, emotions, tags, note) is the same, else a conflict.
func (s *Service) repeat(ctx context.Context, userID, clientID uuid.UUID, in Input, note *string) (Saved, error) {
	row, err := s.st.Queries().GetCheckinByClientID(ctx, dbgen.GetCheckinByClientIDParams{UserID: userID, ClientID: &clientID})
	if err != nil {
		return Saved{}, fmt.Errorf("repeated check-in: %w", err)
	}
	c := of(row)
	same := c.Mood == in.Mood && equalPtr(c.Energy, in.Energy) && equalPtr(c.Note, note) &&
		slices.Equal(c.Emotions, nonNil(in.Emotions)) && slices.Equal(c.Tags, nonNil(in.Tags))
	if !same {
		return Saved{}, apperr.New(apperr.ErrConflict, "CHECKIN_CLIENT_ID_REUSED", MsgClientIDReused)
	}
	return Saved{Checkin: c, Repeat: true}, nil
}

func equalPtr[T comparable](a, b *T) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}

// claimLowStreak reports whether the latest check-ins are three very low ones and the gentle
// card was not shown in the last seven days (and records that it is shown now).
func (s *Service) claimLowStreak(ctx context.Context, userID uuid.UUID) (bool, error) {
	moods, err := s.st.Queries().LatestCheckinMoods(ctx, dbgen.LatestCheckinMoodsParams{UserID: userID, MaxRows: lowStreak})
	if err != nil {
		return false, fmt.Errorf("low streak: %w", err)
	}
	if len(moods) < lowStreak || slices.ContainsFunc(moods, func(m int32) bool { return m != 1 }) {
		return false, nil
	}
	n, err := s.st.Queries().ClaimCheckinLowStreak(ctx, userID)
	if err != nil {
		return false, fmt.Errorf("low streak: %w", err)
	}
	return n == 1, nil
}

func nonNil(v []string) []string {
	if v == nil {
		return []string{}
	}
	return v
}

// Get returns one of the user's check-ins.
func (s *Service) Get(ctx context.Context, userID, id uuid.UUID) (Checkin, error) {
	row, err := s.st.Queries().GetCheckin(ctx, dbgen.GetCheckinParams{ID: id, UserID: userID})
	if store.IsNotFound(err) {
		return Checkin{}, fmt.Errorf("get check-in: %w", apperr.ErrNotFound)
	}
	if err != nil {
		return Checkin{}, fmt.Errorf("get check-in: %w", err)
	}
	return of(row), nil
}

// Update changes one of the user's check-ins; a changed note is screened again.
func (s *Service) Update(ctx context.Context, userID, id uuid.UUID, p Patch) (Saved, error) {
	if p.Mood != nil {
		if err := checkScale("mood", *p.Mood); err != nil {
			return Saved{}, err
		}
	}
	if p.Energy != nil {
		if err := checkScale("energy", *p.Energy); err != nil {
			return Saved{}, err
		}
	}
	if p.Emotions != nil {
		if err := checkEmotions(*p.Emotions); err != nil {
			return Saved{}, err
		}
	}
	if p.Tags != nil {
		if err := checkTags(*p.Tags); err != nil {
			return Saved{}, err
		}
	}
	note, err := cleanNote(p.Note)
	if err != nil {
		return Saved{}, err
	}
	if err := s.limiter.Hit(ctx, WritesPerHour, userID.String()); err != nil {
		return Saved{}, err
	}
	var row dbgen.Checkin
	err = s.st.InTx(ctx, func(tx store.Tx) error {
		cur, err := tx.GetCheckin(ctx, dbgen.GetCheckinParams{ID: id, UserID: userID})
		if err != nil {
			return err
		}
		u := dbgen.UpdateCheckinParams{ID: id, UserID: userID, Mood: cur.Mood, Energy: cur.Energy, Emotions: cur.Emotions, Tags: cur.Tags, Note: cur.Note, Safety: cur.Safety}
		if p.Mood != nil {
			u.Mood = int32(*p.Mood) // #nosec G115 -- checked to be 1..5
		}
		if p.Energy != nil {
			u.Energy = int32p(p.Energy)
		}
		if p.Emotions != nil {
			u.Emotions = nonNil(*p.Emotions)
		}
		if p.Tags != nil {
			u.Tags = nonNil(*p.Tags)
		}
		if p.Note != nil {
			u.Note, u.Safety = note, screen(note)
		}
		row, err = tx.UpdateCheckin(ctx, u)
		return err
	})
	if store.IsNotFound(err) {
		return Saved{}, fmt.Errorf("update check-in: %w", apperr.ErrNotFound)
	}
	if err != nil {
		return Saved{}, fmt.Errorf("update check-in: %w", err)
	}
	return Saved{Checkin: of(row)}, nil
}

// Delete deletes one of the user's check-ins.
func (s *Service) Delete(ctx context.Context, userID, id uuid.UUID) error {
	n, err := s.st.Queries().DeleteCheckin(ctx, dbgen.DeleteCheckinParams{ID: id, UserID: userID})
	if err != nil {
		return fmt.Errorf("delete check-in: %w", err)
	}
	if n == 0 {
		return fmt.Errorf("delete check-in: %w", apperr.ErrNotFound)
	}
	return nil
}
