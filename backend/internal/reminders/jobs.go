package reminders

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	webpush "github.com/SherClockHolmes/webpush-go"
	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"github.com/percolate/percolate/backend/internal/mail"
	"github.com/percolate/percolate/backend/internal/queue"
	"github.com/percolate/percolate/backend/internal/store"
	dbgen "github.com/percolate/percolate/gen/db"
)

const (
	// ClaimBatch is how many due reminders one transaction claims (the bench times one claim).
	ClaimBatch = 500
	// staleAfter: a slot found due longer ago than this (every instance was down) is not sent
	// late; next_due just moves on.
	staleAfter = time.Hour
	// CheckinPath is where a reminder leads: the dashboard's check-in card.
	CheckinPath = "/dashboard#checkin"
)

// DispatchArgs is the periodic job that queues the reminders that are due.
type DispatchArgs struct{}

// Kind implements river.JobArgs.
func (DispatchArgs) Kind() string { return "reminders.dispatch" }

// EmailArgs sends one reminder e-mail: the user and the slot (the due instant) it is for.
type EmailArgs struct {
	UserID uuid.UUID `json:"userId"`
	Slot   time.Time `json:"slot"`
}

// Kind implements river.JobArgs.
func (EmailArgs) Kind() string { return "reminders.email" }

// InsertOpts: the mail queue, and one job per user and slot.
func (EmailArgs) InsertOpts() river.InsertOpts {
	o := mail.JobOpts()
	o.UniqueOpts = river.UniqueOpts{ByArgs: true}
	return o
}

// PushArgs sends one reminder to each of a user's devices.
type PushArgs struct {
	UserID uuid.UUID `json:"userId"`
	Slot   time.Time `json:"slot"`
}

// Kind implements river.JobArgs.
func (PushArgs) Kind() string { return "reminders.push" }

// InsertOpts: one job per user and slot; a push is not retried (a device that missed one
// reminder is better than one that gets it twice).
func (PushArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{MaxAttempts: 1, UniqueOpts: river.UniqueOpts{ByArgs: true}}
}

type dispatchWorker struct {
	river.WorkerDefaults[DispatchArgs]
	s *Service
}

func (w *dispatchWorker) Work(ctx context.Context, _ *river.Job[DispatchArgs]) error {
	_, err := w.s.Dispatch(ctx)
	return err
}

type pushWorker struct {
	river.WorkerDefaults[PushArgs]
	s *Service
}

func (w *pushWorker) Work(ctx context.Context, job *river.Job[PushArgs]) error {
	return w.s.sendPush(ctx, job.Args)
}

func (s *Service) registerWorkers(q *queue.Queue) {
	queue.AddWorker(q, &dispatchWorker{s: s})
	queue.AddWorker(q, &pushWorker{s: s})
	queue.AddWorker(q, mail.NewWorker(s.st, s.sender, s.composeEmail))
}

// Dispatch claims the reminders due now, a batch per transaction: each claimed row's
// next_due moves to its next slot and its sending jobs are queued in the same transaction,
// unless the user already checked in or wrote in a chat that local day (or the slot is stale). It returns how many
// reminders it queued.
func (s *Service) Dispatch(ctx context.Context) (int, error) {
	queued := 0
	for {
		n, claimed, err := s.dispatchBatch(ctx)
		queued += n
		if err != nil || claimed < ClaimBatch {
			return queued, err
		}
	}
}

func (s *Service) dispatchBatch(ctx context.Context) (queued, claimed int, err error) {
	now := s.now()
	err = s.st.InTx(ctx, func(tx store.Tx) error {
		rows, err := tx.ClaimDueReminders(ctx, dbgen.ClaimDueRemindersParams{Now: now, Lim: ClaimBatch})
		if err != nil {
			return fmt.Errorf("claim reminders: %w", err)
		}
		claimed = len(rows)
		for _, r := range rows {
			sent, err := s.dispatchOne(ctx, tx, r, now)
			if err != nil {
				return err
			}
			if sent {
				queued++
			}
		}
		return nil
	})
	return queued, claimed, err
}

// dispatchOne advances one claimed reminder and queues its sending; it reports whether it did.
func (s *Service) dispatchOne(ctx context.Context, tx store.Tx, r dbgen.ClaimDueRemindersRow, now time.Time) (bool, error) {
	slot := *r.NextDue
	loc, lerr := loadZone(r.TimeZone)
	hh, mm, cerr := parseClock(r.LocalTime)
	if lerr != nil || cerr != nil { // the zone left Go's database: stop rather than loop
		return false, tx.AdvanceReminder(ctx, dbgen.AdvanceReminderParams{UserID: r.UserID})
	}
	next := NextDue(daysOf(r.Days), hh, mm, loc, now)
	if err := tx.AdvanceReminder(ctx, dbgen.AdvanceReminderParams{UserID: r.UserID, NextDue: next}); err != nil {
		return false, fmt.Errorf("advance reminder: %w", err)
	}
	if now.Sub(slot) > staleAfter {
		return false, nil
	}
	local := slot.In(loc)
	midnight := time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, loc)
	active, err := tx.ActivitySince(ctx, dbgen.ActivitySinceParams{UserID: r.UserID, Since: midnight})
	if err != nil {
		return false, fmt.Errorf("reminder activity: %w", err)
	}
	if active {
		return false, nil
	}
	if r.Email {
		if err := s.q.InsertTx(ctx, tx, EmailArgs{UserID: r.UserID, Slot: slot}); err != nil {
			return false, err
		}
	}
	if r.Push {
		if err := s.q.InsertTx(ctx, tx, PushArgs{UserID: r.UserID, Slot: slot}); err != nil {
			return false, err
		}
	}
	return true, nil
}

// localSlot is the slot in the user's zone (UTC when the zone no longer loads).
func localSlot(slot time.Time, zone string) time.Time {
	if loc, err := loadZone(zone); err == nil {
		return slot.In(loc)
	}
	return slot.UTC()
}

// composeEmail writes the reminder e-mail, unless e-mail reminders were turned off since.
func (s *Service) composeEmail(ctx context.Context, a EmailArgs) (mail.Message, error) {
	q := s.st.Queries()
	r, err := q.GetReminder(ctx, a.UserID)
	if store.IsNotFound(err) || (err == nil && !r.Email) {
		return mail.Message{}, mail.ErrNothingToSend
	}
	if err != nil {
		return mail.Message{}, fmt.Errorf("load reminder: %w", err)
	}
	u, err := q.GetUserByID(ctx, a.UserID)
	if store.IsNotFound(err) {
		return mail.Message{}, mail.ErrNothingToSend
	}
	if err != nil {
		return mail.Message{}, fmt.Errorf("load user: %w", err)
	}
	unsub, err := s.UnsubscribeURL(ctx, a.UserID)
	if err != nil {
		return mail.Message{}, err
	}
	return reminderMail(u.Email, u.Name, s.publicURL+CheckinPath, unsub, localSlot(a.Slot, r.TimeZone)), nil
}

// PushPayload is the JSON the service worker shows as a notification.
type PushPayload struct {
	Title string `json:"title"`
	Body  string `json:"body"`
	URL   string `json:"url"`
}

// sendPush sends the reminder to each of the user's devices; a device whose push service
// answers 404 or 410 has unsubscribed, and its subscription is deleted.
func (s *Service) sendPush(ctx context.Context, a PushArgs) error {
	q := s.st.Queries()
	r, err := q.GetReminder(ctx, a.UserID)
	if store.IsNotFound(err) || (err == nil && !r.Push) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("load reminder: %w", err)
	}
	subs, err := q.ListPushSubscriptions(ctx, a.UserID)
	if err != nil {
		return fmt.Errorf("push subscriptions: %w", err)
	}
	keys, err := s.Keys(ctx)
	if err != nil {
		return err
	}
	local := localSlot(a.Slot, r.TimeZone)
	payload, _ := json.Marshal(PushPayload{Title: pushTitle, Body: Line(local) + " " + PromptOfDay(local), URL: CheckinPath})
	for _, sub := range subs {
		status, err := s.push(ctx, keys, payload, sub)
		switch {
		case err != nil:
			s.logger.WarnContext(ctx, "push reminder not sent", "subscription", sub.ID, "err", withoutURL(err))
		case status == http.StatusNotFound || status == http.StatusGone:
			if err := q.DeletePushSubscriptionByEndpoint(ctx, sub.Endpoint); err != nil {
				return fmt.Errorf("delete gone subscription: %w", err)
			}
			s.logger.InfoContext(ctx, "push subscription gone, deleted", "subscription", sub.ID)
		case status >= 300:
			s.logger.WarnContext(ctx, "push service refused a reminder", "subscription", sub.ID, "status", status)
		}
	}
	return nil
}

// withoutURL drops the request's URL from a failed send's error: a push endpoint is a
// capability that reaches the user's device, and logs never hold one.
func withoutURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return fmt.Errorf("%s: %w", ue.Op, ue.Err)
	}
	return err
}

// push sends one encrypted message (RFC 8291, VAPID per RFC 8292) and returns the status.
func (s *Service) push(ctx context.Context, keys Keys, payload []byte, sub dbgen.PushSubscription) (int, error) {
	resp, err := webpush.SendNotificationWithContext(ctx, payload,
		&webpush.Subscription{Endpoint: sub.Endpoint, Keys: webpush.Keys{P256dh: sub.P256dh, Auth: sub.Auth}},
		&webpush.Options{
			HTTPClient: s.client, Subscriber: s.subject, TTL: 12 * 3600, Urgency: webpush.UrgencyNormal,
			VAPIDPublicKey: keys.VAPIDPublic, VAPIDPrivateKey: keys.VAPIDPrivate,
		})
	if err != nil {
		return 0, err
	}
	_ = resp.Body.Close()
	return resp.StatusCode, nil
}
