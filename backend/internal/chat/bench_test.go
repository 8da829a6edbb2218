package chat

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/llmtest"
	"github.com/percolate/percolate/backend/internal/entitlement"
	"github.com/percolate/percolate/backend/internal/queue/queuetest"
	"github.com/percolate/percolate/backend/internal/store"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
)

// BenchmarkTimeToFirstToken measures what the server adds to a reply's first token, with a
// short history, one that just fills the context budget (200 messages) and a 2,000-message
// one (compare them as ratios: past the budget, the length of a session must not matter), in
// two ways:
//
//   - to-model: from the send until the model has the request. This is all the server adds
//     before a real model's own first-token time; the commit runs meanwhile.
//   - to-first-delta: from the send until the first piece of the reply reaches the caller,
//     with a model that answers at once. No piece is shown before the message is committed,
//     so this includes the commit, which a real model's own first-token time hides.
//
// Run: go test -run '^$' -bench TimeToFirstToken -benchtime 500x ./backend/internal/chat/
func BenchmarkTimeToFirstToken(b *testing.B) {
	for _, history := range []int{4, 200, 2000} {
		for _, mode := range []string{"to-model", "to-first-delta"} {
			b.Run(fmt.Sprintf("history=%d/%s", history, mode), func(b *testing.B) {
				benchFirstToken(b, history, mode == "to-model")
			})
		}
	}
}

func benchFirstToken(b *testing.B, history int, toModel bool) {
	st := pgtest.New(b)
	llm := llmtest.New(b)
	lim := DefaultLimits()
	lim.BurstPerMinute = 0
	lim.Tiers = lim.Tiers.With(entitlement.Overrides{MessagesPerDay: map[string]int{"USER": 1 << 30}, SessionTokens: map[string]int{"USER": 1 << 30}})
	svc := New(st, companion.NewOpenAIWithConfig(llm.ClientConfig(), "m", companion.OpenAIOptions{}), Options{Queue: queuetest.New(b, st), Limits: &lim, Logger: quiet})
	ctx := context.Background()
	u := pgtest.User(b, st, "USER")
	res, err := svc.Send(ctx, u.ID, SendInput{Message: StarterMessage}, nil)
	if err != nil || !res.Success {
		b.Fatal(res, err)
	}
	sid := res.SessionID
	// The history: turns of about forty words, an hour ago and older; the user's stored with
	// their level on their own, as a send stores them.
	if _, err := st.Pool().Exec(ctx, `
		INSERT INTO messages (session_id, user_id, role, content, token_count, created_at, alone_level)
		SELECT $1, $2, CASE WHEN i % 2 = 0 THEN 'user' ELSE 'assistant' END,
		       repeat('I keep thinking about the exam next week and whether I prepared enough. ', 3) || i,
		       55, now() - interval '1 hour' - (($3 - i) * interval '1 second'),
		       CASE WHEN i % 2 = 0 THEN 0 END
		FROM generate_series(1, $3) AS i`, sid, u.ID, history-2); err != nil {
		b.Fatal(err)
	}
	var seeded time.Time
	if err := st.Pool().QueryRow(ctx, `SELECT max(created_at) FROM messages WHERE session_id = $1`, sid).Scan(&seeded); err != nil {
		b.Fatal(err)
	}
	reset := func() {
		if _, err := st.Pool().Exec(ctx, `DELETE FROM messages WHERE session_id = $1 AND created_at > $2`, sid, seeded); err != nil {
			b.Fatal(err)
		}
	}

	for b.Loop() {
		b.StopTimer()
		reset()
		var resume chan struct{}
		arrived := make(chan struct{}, 1)
		if toModel {
			resume = make(chan struct{})
			llm.Enqueue(llmtest.Script{Chunks: []string{"Hello", " there."}, PauseAfter: llmtest.PauseImmediately, Resume: resume, Paused: arrived})
		}
		first := make(chan struct{}, 1)
		b.StartTimer()

		turn, err := svc.Begin(ctx, u.ID, SendInput{SessionID: &sid, Message: "How do I stop overthinking before exams?"})
		if err != nil {
			b.Fatal(err)
		}
		if toModel {
			<-arrived
			b.StopTimer()
			close(resume)
		} else {
			go func() {
				_, _ = turn.Follow(ctx, func(string) error {
					select {
					case first <- struct{}{}:
					default:
					}
					return nil
				})
			}()
			<-first
			b.StopTimer()
		}
		if res, err := turn.Follow(ctx, nil); err != nil || !res.Success {
			b.Fatal(res, err)
		}
		b.StartTimer()
	}
}

// seedConversation gives the user a new session of n messages, alternating user and assistant,
// each about 55 tokens, the newest a second ago, and answers its id.
func seedConversation(b *testing.B, st *store.Store, userID uuid.UUID, n int) uuid.UUID {
	b.Helper()
	ctx := context.Background()
	sid := uuid.New()
	if _, err := st.Pool().Exec(ctx, `INSERT INTO chat_sessions (id, user_id) VALUES ($1, $2)`, sid, userID); err != nil {
		b.Fatal(err)
	}
	if _, err := st.Pool().Exec(ctx, `
		INSERT INTO messages (session_id, user_id, role, content, token_count, created_at)
		SELECT $1, $2, CASE WHEN i % 2 = 0 THEN 'user' ELSE 'assistant' END,
		       repeat('I keep thinking about the exam next week and whether I prepared enough. ', 3) || i,
		       55, now() - (($3 - i) * interval '1 second')
		FROM generate_series(1, $3) AS i`, sid, userID, n); err != nil {
		b.Fatal(err)
	}
	return sid
}

// BenchmarkHistoryRead measures the read a continuing send makes before its reply can start
// (the user and the newest page of messages), for a history that just fills the context
// budget and one ten times as long: the two must cost the same.
func BenchmarkHistoryRead(b *testing.B) {
	for _, history := range []int{200, 2000} {
		b.Run(fmt.Sprintf("history=%d", history), func(b *testing.B) {
			st := pgtest.New(b)
			ctx := context.Background()
			u := pgtest.User(b, st, "USER")
			sid := seedConversation(b, st, u.ID, history)
			svc := New(st, nil, Options{Queue: queuetest.New(b, st), Logger: quiet})
			for b.Loop() {
				r := &reads{}
				c, err := st.Acquire(ctx)
				if err != nil {
					b.Fatal(err)
				}
				err = svc.readUserAndHistory(ctx, r, u.ID, sid)(c)
				c.Release()
				if err != nil || len(r.recent) != historyPage {
					b.Fatal(len(r.recent), err)
				}
			}
		})
	}
}

// BenchmarkReads measures the session list (50 sessions, ended with summaries) and a
// session's detail (100 messages) as the handlers read them: compare allocs/op and ns/op
// between builds on the same machine.
//
// Run: go test -run '^$' -bench Reads -benchmem ./backend/internal/chat/
func BenchmarkReads(b *testing.B) {
	st := pgtest.New(b)
	ctx := context.Background()
	u := pgtest.User(b, st, "PREMIUM")
	if _, err := st.Pool().Exec(ctx, `
		INSERT INTO chat_sessions (user_id, title, status, summary, emotions, last_message, context_summary, updated_at, ended_at)
		SELECT $1, 'Session ' || i, 'ENDED', repeat('We talked about the week and what helped. ', 4),
		       ARRAY['calm', 'hopeful'], 'See you next time.', repeat('Earlier: the exam, sleep and a friend. ', 20),
		       now() - i * interval '1 minute', now() - i * interval '1 minute'
		FROM generate_series(1, 50) AS i`, u.ID); err != nil {
		b.Fatal(err)
	}
	sid := seedConversation(b, st, u.ID, 100)
	svc := New(st, nil, Options{Queue: queuetest.New(b, st), Logger: quiet})
	b.Run("list", func(b *testing.B) {
		for b.Loop() {
			if p, err := svc.Sessions(ctx, u.ID, "", 50, ""); err != nil || len(p.Items) != 50 {
				b.Fatal(len(p.Items), err)
			}
		}
	})
	b.Run("detail", func(b *testing.B) {
		for b.Loop() {
			if d, err := svc.Detail(ctx, u.ID, sid); err != nil || len(d.Messages) != 100 {
				b.Fatal(len(d.Messages), err)
			}
		}
	})
}
