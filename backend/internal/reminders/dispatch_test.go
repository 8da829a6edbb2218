package reminders

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/mail"
	"github.com/percolate/percolate/backend/internal/queue"
	"github.com/percolate/percolate/backend/internal/queue/queuetest"
	"github.com/percolate/percolate/backend/internal/store"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
	dbgen "github.com/percolate/percolate/gen/db"
)

// outbox records every mail sent, by recipient.
type outbox struct {
	mu   sync.Mutex
	sent []mail.Message
}

func (o *outbox) Send(_ context.Context, m mail.Message) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.sent = append(o.sent, m)
	return nil
}

func (o *outbox) all() []mail.Message {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]mail.Message(nil), o.sent...)
}

func newService(t *testing.T, st *store.Store, q *queue.Queue, sender mail.Sender, cfg Config) *Service {
	t.Helper()
	if cfg.PublicURL == "" {
		cfg.PublicURL = "https://app.test"
	}
	return New(st, q, sender, cfg)
}

// Exactly once: two instances (two River clients on one database, each with the reminders'
// workers) dispatch at once while 1,000 users are due in the same minute; every user gets
// one e-mail, and every next_due moves on.
func TestExactlyOnceAcrossTwoInstances(t *testing.T) {
	st := pgtest.New(t)
	ctx := context.Background()
	box := &outbox{}
	q1 := queuetest.NewWith(t, st, queue.Config{ID: "one"})
	q2 := queuetest.NewWith(t, st, queue.Config{ID: "two"})
	s1 := newService(t, st, q1, box, Config{})
	s2 := newService(t, st, q2, box, Config{})
	const users = 1000
	slot := time.Now().Add(-20 * time.Second).Truncate(time.Minute)
	if _, err := st.Pool().Exec(ctx, `
		WITH u AS (
			INSERT INTO users (email, name)
			SELECT 'due' || g || '@example.com', 'Due ' || g FROM generate_series(1, $1::int) g
			RETURNING id)
		INSERT INTO reminders (user_id, days, local_time, time_zone, email, push, next_due)
		SELECT id, 127, '09:00', 'Asia/Kolkata', true, false, $2 FROM u`, users, slot); err != nil {
		t.Fatal(err)
	}
	queuetest.Start(t, q1)
	queuetest.Start(t, q2)
	var wg sync.WaitGroup
	counts := make([]int, 4)
	for i, s := range []*Service{s1, s2, s1, s2} {
		wg.Go(func() {
			n, err := s.Dispatch(ctx)
			if err != nil {
				t.Error(err)
			}
			counts[i] = n
		})
	}
	// The periodic job's own path as well: a dispatch job on each client.
	for _, q := range []*queue.Queue{q1, q2} {
		if err := q.Insert(ctx, DispatchArgs{}); err != nil {
			t.Fatal(err)
		}
	}
	wg.Wait()
	queuetest.Drain(t, q1)
	queuetest.Drain(t, q2)
	if total := counts[0] + counts[1] + counts[2] + counts[3]; total > users {
		t.Errorf("dispatch queued %d reminders for %d users", total, users)
	}
	sent := box.all()
	per := map[string]int{}
	for _, m := range sent {
		per[m.To]++
	}
	if len(sent) != users || len(per) != users {
		t.Fatalf("%d mails to %d users, want %d each once", len(sent), len(per), users)
	}
	if n, err := st.Queries().CountDueReminders(ctx, time.Now()); err != nil || n != 0 {
		t.Fatalf("%d reminders still due (%v)", n, err)
	}
	m := sent[0]
	if !strings.HasPrefix(m.Headers["List-Unsubscribe"], "<https://app.test/api/public/reminders/unsubscribe?token=") ||
		m.Headers["List-Unsubscribe-Post"] != "List-Unsubscribe=One-Click" {
		t.Errorf("unsubscribe headers: %v", m.Headers)
	}
	for _, body := range []string{m.Text, m.HTML} {
		if !strings.Contains(body, "https://app.test/dashboard#checkin") || !strings.Contains(body, "Today's prompt:") {
			t.Errorf("body lacks the check-in link or the prompt:\n%s", body)
		}
		for _, shaming := range []string{"missed", "streak", "haven't", "forgot"} {
			if strings.Contains(strings.ToLower(body), shaming) {
				t.Errorf("body says %q:\n%s", shaming, body)
			}
		}
	}
}

// A day on which the user already wrote in a chat, or checked in, gets no reminder, and the
// next slot is set.
func TestNoReminderOnADayTheUserWrote(t *testing.T) {
	st := pgtest.New(t)
	ctx := context.Background()
	box := &outbox{}
	q := queuetest.New(t, st)
	s := newService(t, st, q, box, Config{})
	wrote, checkedIn, quiet := pgtest.User(t, st, "USER"), pgtest.User(t, st, "USER"), pgtest.User(t, st, "USER")
	sess, err := st.Queries().CreateSession(ctx, dbgen.CreateSessionParams{UserID: wrote.ID, Title: "Today", TokenLimit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Queries().CreateMessage(ctx, dbgen.CreateMessageParams{SessionID: sess.ID, UserID: wrote.ID, Role: "user", Content: "hello"}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Queries().InsertCheckin(ctx, dbgen.InsertCheckinParams{UserID: checkedIn.ID, Mood: 3, Emotions: []string{}, Tags: []string{}, LocalDate: time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}
	// All are due a minute ago, in UTC, so "today" has begun for each.
	now := time.Now().UTC()
	if now.Hour() == 0 && now.Minute() < 2 {
		t.Skip("too close to midnight UTC for a same-day check")
	}
	slot := now.Add(-time.Minute).Truncate(time.Minute)
	for _, u := range []dbgen.User{wrote, checkedIn, quiet} {
		if _, err := st.Pool().Exec(ctx, `INSERT INTO reminders (user_id, days, local_time, time_zone, email, next_due)
			VALUES ($1, 127, $2, 'UTC', true, $3)`, u.ID, slot.Format("15:04"), slot); err != nil {
			t.Fatal(err)
		}
	}
	queuetest.Start(t, q)
	if n, err := s.Dispatch(ctx); err != nil || n != 1 {
		t.Fatalf("Dispatch queued %d (%v), want 1", n, err)
	}
	queuetest.Drain(t, q)
	sent := box.all()
	if len(sent) != 1 || sent[0].To != quiet.Email {
		t.Fatalf("sent %v, want one mail to the user who has not written today", sent)
	}
	for _, u := range []dbgen.User{wrote, checkedIn} {
		r, err := st.Queries().GetReminder(ctx, u.ID)
		if err != nil || r.NextDue == nil || !r.NextDue.After(now) {
			t.Fatalf("next_due of the skipped reminder: %v (%v)", r.NextDue, err)
		}
	}
}

// Saving settings validates each field, computes next_due, and an unsubscribe link turns
// e-mail off with no sign-in; a forged token is refused on "token".
func TestSettingsAndUnsubscribe(t *testing.T) {
	st := pgtest.New(t)
	ctx := context.Background()
	s := newService(t, st, queuetest.New(t, st), &outbox{}, Config{})
	u := pgtest.User(t, st, "USER")
	_, err := s.Save(ctx, u.ID, Settings{Days: everyDay, Time: "25:00", TimeZone: "Nowhere/Else", Email: true})
	var verr *apperr.ValidationError
	if !errors.As(err, &verr) || verr.Fields["time"] == "" || verr.Fields["timeZone"] == "" {
		t.Fatalf("bad time and zone: %v", err)
	}
	set, err := s.Save(ctx, u.ID, Settings{Days: 1 << time.Monday, Time: "19:30", TimeZone: "Pacific/Chatham", Email: true, Push: true})
	if err != nil || set.NextDue == nil {
		t.Fatalf("Save: %+v %v", set, err)
	}
	if l := set.NextDue.In(zone(t, "Pacific/Chatham")); l.Weekday() != time.Monday || l.Format("15:04") != "19:30" {
		t.Errorf("next due %v is not Monday 19:30 in Chatham", l)
	}
	token, err := s.UnsubscribeToken(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	other := pgtest.User(t, st, "USER")
	forged := []byte(token)
	forged[len(forged)-2] ^= 1
	for _, bad := range []string{string(forged), strings.Replace(token, token[:22], mustToken(t, s, other)[:22], 1), "nonsense", ""} {
		if err := s.UnsubscribeEmail(ctx, bad); !errors.As(err, &verr) || verr.Fields["token"] == "" {
			t.Errorf("forged token %q: %v", bad, err)
		}
	}
	if got, _ := s.Get(ctx, u.ID); !got.Email {
		t.Fatal("a forged token turned e-mail off")
	}
	if err := s.UnsubscribeEmail(ctx, token); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(ctx, u.ID)
	if err != nil || got.Email || !got.Push || got.NextDue == nil {
		t.Fatalf("after unsubscribe: %+v %v (e-mail off, push and its next slot kept)", got, err)
	}
}

func mustToken(t *testing.T, s *Service, u dbgen.User) string {
	t.Helper()
	tok, err := s.UnsubscribeToken(context.Background(), u.ID)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}
