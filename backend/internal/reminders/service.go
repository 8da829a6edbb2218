// Package reminders sends gentle reminders (issue 31 §3): at a local time on the days a user
// chose, by e-mail and/or Web Push, never on a day they already wrote, and never shaming.
//
// Settings live in the reminders table with next_due, the UTC instant of the next reminder
// (NextDue, daylight saving included). A periodic job (DispatchArgs, every minute) locks the
// due rows with SKIP LOCKED, advances next_due and queues the sending jobs in one
// transaction, so each slot is sent once however many instances run it; the sending jobs
// are unique per user and slot as well.
package reminders

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	webpush "github.com/SherClockHolmes/webpush-go"
	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/mail"
	"github.com/percolate/percolate/backend/internal/queue"
	"github.com/percolate/percolate/backend/internal/store"
	dbgen "github.com/percolate/percolate/gen/db"
)

// The refusals of values the contract lets through but that mean nothing here.
const (
	MsgBadTime     = "Enter a time as HH:MM, for example 19:30."
	MsgBadZone     = "Choose a time zone such as Europe/London."
	MsgBadEndpoint = "The push endpoint must be an https URL."
	MsgBadP256dh   = "The p256dh key must be a base64url P-256 public key."
	MsgBadAuth     = "The auth secret must be 16 bytes in base64url."
)

// IsMeaningRefusal tells whether msg is one of the refusals above (for the contract's tests,
// which judge the gate's limits, not what a value means).
func IsMeaningRefusal(msg string) bool {
	switch msg {
	case MsgBadTime, MsgBadZone, MsgBadEndpoint, MsgBadP256dh, MsgBadAuth:
		return true
	}
	return false
}

// Settings are a user's reminder settings.
type Settings struct {
	Days     Days
	Time     string // HH:MM
	TimeZone string // IANA name; empty until saved
	Email    bool
	Push     bool
	NextDue  *time.Time
}

// Device is a browser subscribed to push reminders (its keys stay on the server).
type Device struct {
	ID        uuid.UUID
	Name      string
	CreatedAt time.Time
}

// Subscription is a browser's PushSubscription.
type Subscription struct {
	Endpoint, P256dh, Auth, Device string
}

// Keys are the VAPID key pair and the secret that signs unsubscribe links.
type Keys struct {
	VAPIDPublic, VAPIDPrivate string
	UnsubscribeSecret         []byte
}

// Service keeps reminder settings and subscriptions and sends the reminders.
type Service struct {
	st        *store.Store
	q         *queue.Queue
	sender    mail.Sender
	envKeys   Keys // VAPID keys from the environment, if any
	keysMu    sync.Mutex
	keys      *Keys // loaded on first use
	publicURL string
	subject   string // the VAPID subscriber: the sender's address
	client    webpush.HTTPClient
	logger    *slog.Logger
	now       func() time.Time
}

// Config is what New needs besides the store, queue and mail sender.
type Config struct {
	PublicURL string
	// Subscriber is the contact in the VAPID token (an e-mail address or an https URL).
	Subscriber string
	// VAPIDPublic and VAPIDPrivate, both set, replace the keys stored in the database.
	VAPIDPublic, VAPIDPrivate string
	// HTTPClient sends push messages (default: a client with a 30 s timeout).
	HTTPClient webpush.HTTPClient
	Logger     *slog.Logger
}

// New registers the reminders' workers on q and returns the service; the keys are read (or
// made, once across instances) on first use. Schedule the dispatch with
// q.AddPeriodic(time.Minute, DispatchArgs{}).
func New(st *store.Store, q *queue.Queue, sender mail.Sender, cfg Config) *Service {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Timeout: 30 * time.Second}
	}
	s := &Service{
		st: st, q: q, sender: sender, envKeys: Keys{VAPIDPublic: cfg.VAPIDPublic, VAPIDPrivate: cfg.VAPIDPrivate}, publicURL: strings.TrimRight(cfg.PublicURL, "/"),
		subject: cfg.Subscriber, client: cfg.HTTPClient, logger: cfg.Logger, now: time.Now,
	}
	s.registerWorkers(q)
	return s
}

// Keys returns the reminder keys, reading them (or making them) the first time.
func (s *Service) Keys(ctx context.Context) (Keys, error) {
	s.keysMu.Lock()
	defer s.keysMu.Unlock()
	if s.keys == nil {
		k, err := loadKeys(ctx, s.st.Queries())
		if err != nil {
			return Keys{}, err
		}
		if s.envKeys.VAPIDPublic != "" && s.envKeys.VAPIDPrivate != "" {
			k.VAPIDPublic, k.VAPIDPrivate = s.envKeys.VAPIDPublic, s.envKeys.VAPIDPrivate
		}
		s.keys = &k
	}
	return *s.keys, nil
}

// loadKeys reads the keys, making them first when no instance has.
func loadKeys(ctx context.Context, q *dbgen.Queries) (Keys, error) {
	row, err := q.GetReminderKeys(ctx)
	if store.IsNotFound(err) {
		priv, pub, gerr := webpush.GenerateVAPIDKeys()
		if gerr != nil {
			return Keys{}, fmt.Errorf("reminder keys: %w", gerr)
		}
		secret := make([]byte, 32)
		_, _ = rand.Read(secret)
		if err := q.CreateReminderKeys(ctx, dbgen.CreateReminderKeysParams{VapidPublic: pub, VapidPrivate: priv, UnsubscribeSecret: secret}); err != nil {
			return Keys{}, fmt.Errorf("reminder keys: %w", err)
		}
		row, err = q.GetReminderKeys(ctx)
	}
	if err != nil {
		return Keys{}, fmt.Errorf("reminder keys: %w", err)
	}
	return Keys{VAPIDPublic: row.VapidPublic, VAPIDPrivate: row.VapidPrivate, UnsubscribeSecret: row.UnsubscribeSecret}, nil
}

// VAPIDPublicKey is the applicationServerKey browsers subscribe with.
func (s *Service) VAPIDPublicKey(ctx context.Context) (string, error) {
	k, err := s.Keys(ctx)
	return k.VAPIDPublic, err
}

// Get returns the user's settings (off, with no zone, before they saved any).
func (s *Service) Get(ctx context.Context, userID uuid.UUID) (Settings, error) {
	r, err := s.st.Queries().GetReminder(ctx, userID)
	if store.IsNotFound(err) {
		return Settings{Time: "19:00"}, nil
	}
	if err != nil {
		return Settings{}, fmt.Errorf("reminders: %w", err)
	}
	return settingsOf(r), nil
}

func settingsOf(r dbgen.Reminder) Settings {
	return Settings{Days: daysOf(r.Days), Time: r.LocalTime, TimeZone: r.TimeZone, Email: r.Email, Push: r.Push, NextDue: r.NextDue}
}

// Save validates and stores the user's settings; each bad value is an error naming its field.
func (s *Service) Save(ctx context.Context, userID uuid.UUID, in Settings) (Settings, error) {
	fields := map[string]string{}
	hh, mm, err := parseClock(in.Time)
	if err != nil {
		fields["time"] = MsgBadTime
	}
	loc, err := loadZone(in.TimeZone)
	if err != nil {
		fields["timeZone"] = MsgBadZone
	}
	if len(fields) > 0 {
		return Settings{}, &apperr.ValidationError{Fields: fields}
	}
	var next *time.Time
	if in.Email || in.Push {
		next = NextDue(in.Days, hh, mm, loc, s.now())
	}
	r, err := s.st.Queries().UpsertReminder(ctx, dbgen.UpsertReminderParams{
		UserID: userID, Days: int16(in.Days & 0x7f), LocalTime: in.Time, TimeZone: in.TimeZone,
		Email: in.Email, Push: in.Push, NextDue: next,
	})
	if store.IsUserGone(err) {
		return Settings{}, fmt.Errorf("reminders: %w", apperr.ErrUnauthorized)
	}
	if err != nil {
		return Settings{}, fmt.Errorf("reminders: %w", err)
	}
	return settingsOf(r), nil
}

// loadZone accepts IANA names only: not "Local", and not an empty name (which Go reads as UTC).
func loadZone(name string) (*time.Location, error) {
	if name == "" || name == "Local" || len(name) > 64 {
		return nil, errors.New("no such zone")
	}
	return time.LoadLocation(name)
}

// Devices lists the user's push subscriptions, oldest first.
func (s *Service) Devices(ctx context.Context, userID uuid.UUID) ([]Device, error) {
	rows, err := s.st.Queries().ListPushSubscriptions(ctx, userID)
	if err != nil {
		return nil, fmt.Errorf("push subscriptions: %w", err)
	}
	out := make([]Device, 0, len(rows))
	for _, r := range rows {
		out = append(out, Device{ID: r.ID, Name: r.Device, CreatedAt: r.CreatedAt})
	}
	return out, nil
}

// Subscribe stores a device's push subscription.
func (s *Service) Subscribe(ctx context.Context, userID uuid.UUID, sub Subscription) (Device, error) {
	if !strings.HasPrefix(sub.Endpoint, "https://") {
		return Device{}, apperr.Invalid("endpoint", MsgBadEndpoint)
	}
	if b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(sub.P256dh, "=")); err != nil || len(b) != 65 {
		return Device{}, apperr.Invalid("keys.p256dh", MsgBadP256dh)
	}
	if b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(sub.Auth, "=")); err != nil || len(b) != 16 {
		return Device{}, apperr.Invalid("keys.auth", MsgBadAuth)
	}
	r, err := s.st.Queries().AddPushSubscription(ctx, dbgen.AddPushSubscriptionParams{
		UserID: userID, Endpoint: sub.Endpoint, P256dh: sub.P256dh, Auth: sub.Auth, Device: strings.TrimSpace(sub.Device),
	})
	if store.IsUserGone(err) {
		return Device{}, fmt.Errorf("push subscription: %w", apperr.ErrUnauthorized)
	}
	if err != nil {
		return Device{}, fmt.Errorf("push subscription: %w", err)
	}
	return Device{ID: r.ID, Name: r.Device, CreatedAt: r.CreatedAt}, nil
}

// Unsubscribe removes one of the user's devices; another user's, or an unknown id, is not found.
func (s *Service) Unsubscribe(ctx context.Context, userID, id uuid.UUID) error {
	n, err := s.st.Queries().DeletePushSubscription(ctx, dbgen.DeletePushSubscriptionParams{ID: id, UserID: userID})
	if err != nil {
		return fmt.Errorf("push subscription: %w", err)
	}
	if n == 0 {
		return fmt.Errorf("push subscription %s: %w", id, apperr.ErrNotFound)
	}
	return nil
}

// tokenMAC is the signature of an unsubscribe token for userID.
func tokenMAC(k Keys, userID uuid.UUID) []byte {
	m := hmac.New(sha256.New, k.UnsubscribeSecret)
	m.Write([]byte("percolate reminder unsubscribe\x00"))
	m.Write(userID[:])
	return m.Sum(nil)[:16]
}

// UnsubscribeToken is the signed token of the user's one-click unsubscribe link.
func (s *Service) UnsubscribeToken(ctx context.Context, userID uuid.UUID) (string, error) {
	k, err := s.Keys(ctx)
	if err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(append(userID[:], tokenMAC(k, userID)...)), nil
}

// UnsubscribeURL is the link of the user's reminder e-mails (and their List-Unsubscribe).
func (s *Service) UnsubscribeURL(ctx context.Context, userID uuid.UUID) (string, error) {
	t, err := s.UnsubscribeToken(ctx, userID)
	return s.publicURL + "/api/public/reminders/unsubscribe?token=" + t, err
}

// CheckToken returns the user a token names, or a validation error on "token" for a forged one.
func (s *Service) CheckToken(ctx context.Context, token string) (uuid.UUID, error) {
	k, err := s.Keys(ctx)
	if err != nil {
		return uuid.Nil, err
	}
	b, err := base64.RawURLEncoding.DecodeString(token)
	bad := apperr.Invalid("token", "This unsubscribe link is not valid. You can turn reminders off on your profile.")
	if err != nil || len(b) != 32 {
		return uuid.Nil, bad
	}
	id, _ := uuid.FromBytes(b[:16])
	if !hmac.Equal(b[16:], tokenMAC(k, id)) {
		return uuid.Nil, bad
	}
	return id, nil
}

// UnsubscribeEmail turns e-mail reminders off for the user a valid token names. An account
// deleted since is no error: it gets no mail either way.
func (s *Service) UnsubscribeEmail(ctx context.Context, token string) error {
	id, err := s.CheckToken(ctx, token)
	if err != nil {
		return err
	}
	if _, err := s.st.Queries().UnsubscribeReminderEmail(ctx, id); err != nil && !store.IsNotFound(err) {
		return fmt.Errorf("unsubscribe: %w", err)
	}
	return nil
}
