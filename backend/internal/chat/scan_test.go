package chat

import (
	"context"
	"reflect"
	"testing"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/store"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
	dbgen "github.com/percolate/percolate/gen/db"
)

// TestHandDecodedRowsMatchGenerated holds the hand decoding of the session list and of a
// session's messages (scan.go) equal to the generated code's rows for the same query, over
// NULLs, empty text, empty and full emotions arrays, non-ASCII text and NULL and zero levels, on a page cut short
// by its limit and on an empty one.
func TestHandDecodedRowsMatchGenerated(t *testing.T) {
	st := pgtest.New(t)
	ctx := context.Background()
	q := st.Queries()
	u, err := q.CreateUser(ctx, dbgen.CreateUserParams{Email: uuid.NewString()[:8] + "@example.com", Name: "Rows"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Pool().Exec(ctx, `
		INSERT INTO chat_sessions (user_id, title, status, summary, emotions, end_reason, last_message, closing_feeling, updated_at, ended_at)
		SELECT $1,
		       CASE i % 3 WHEN 0 THEN '' WHEN 1 THEN 'Séance ' || i || ' — 日本語 🙂' ELSE repeat('long title ', 15) END,
		       CASE WHEN i % 2 = 0 THEN 'ENDED' ELSE 'ACTIVE' END,
		       CASE WHEN i % 2 = 0 THEN 'A summary, "quoted" ' || i ELSE NULL END,
		       CASE i % 4 WHEN 0 THEN '{}'::text[] WHEN 1 THEN ARRAY['calm'] WHEN 2 THEN ARRAY['calm', 'hopeful', 'tired', 'anxious', 'grateful']
		            ELSE ARRAY['', 'naïve'] END,
		       CASE WHEN i % 5 = 0 THEN 'user' ELSE NULL END,
		       CASE WHEN i % 3 = 0 THEN '' ELSE 'last ' || i END,
		       CASE i % 4 WHEN 0 THEN NULL WHEN 1 THEN 'better' WHEN 2 THEN 'same' ELSE 'worse' END,
		       now() - i * interval '1 minute',
		       CASE WHEN i % 2 = 0 THEN now() ELSE NULL END
		FROM generate_series(1, 23) AS i`, u.ID); err != nil {
		t.Fatal(err)
	}
	sid := uuid.New()
	if _, err := st.Pool().Exec(ctx, `INSERT INTO chat_sessions (id, user_id) VALUES ($1, $2)`, sid, u.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Pool().Exec(ctx, `
		INSERT INTO messages (session_id, user_id, role, content, token_count, created_at, status, risk_level, alone_level)
		SELECT $1, $2, CASE WHEN i % 2 = 0 THEN 'user' ELSE 'assistant' END,
		       CASE WHEN i % 3 = 0 THEN 'ünïcode ✓ ' || i ELSE repeat('x', i * 37) END,
		       i, now() - (40 - i) * interval '1 second',
		       CASE WHEN i % 7 = 0 THEN 'interrupted' ELSE 'complete' END, (i % 3)::smallint,
		       CASE WHEN i % 4 = 0 THEN NULL ELSE (i % 3)::smallint END
		FROM generate_series(1, 40) AS i`, sid, u.ID); err != nil {
		t.Fatal(err)
	}

	for _, maxRows := range []int32{51, 10, 1} {
		for _, user := range []uuid.UUID{u.ID, uuid.New()} {
			p := dbgen.ListSessionsPageParams{UserID: user, AfterUpdated: firstPage, AfterID: uuid.Nil, MaxRows: maxRows}
			want, err := q.ListSessionsPage(ctx, p)
			if err != nil {
				t.Fatal(err)
			}
			b := &store.Batch{}
			r := store.QueueRows(b, func(q *dbgen.Queries) error {
				_, err := q.ListSessionsPage(ctx, p)
				return err
			}, decodeSessionsPage(int(maxRows)))
			if err := st.Send(ctx, b); err != nil {
				t.Fatal(err)
			}
			got, err := r.Get()
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("list (max %d): hand-decoded rows differ from the generated ones:\ngot  %+v\nwant %+v", maxRows, got, want)
			}
		}
	}

	for i, user := range []uuid.UUID{u.ID, uuid.New(), u.ID, u.ID, uuid.New()} {
		// The session's messages, and a send's history read (newest first, 1 and 100 rows).
		var want []dbgen.Message
		var err error
		b := &store.Batch{}
		var r *store.Result[[]dbgen.Message]
		if i < 2 {
			p := dbgen.ListMessagesBySessionParams{SessionID: sid, UserID: user}
			want, err = q.ListMessagesBySession(ctx, p)
			r = store.QueueRows(b, func(q *dbgen.Queries) error {
				_, err := q.ListMessagesBySession(ctx, p)
				return err
			}, decodeMessages)
		} else {
			p := dbgen.ListContextMessagesParams{SessionID: sid, UserID: user, MinRows: int32(1 + 99*(i%2))} // #nosec G115 -- 1 or 100
			want, err = q.ListContextMessages(ctx, p)
			r = store.QueueRows(b, func(q *dbgen.Queries) error {
				_, err := q.ListContextMessages(ctx, p)
				return err
			}, decodeMessages)
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Send(ctx, b); err != nil {
			t.Fatal(err)
		}
		got, err := r.Get()
		if err != nil {
			t.Fatal(err)
		}
		for i := range got { // times come back in the local zone either way; compare instants
			if got[i].CreatedAt.Equal(want[i].CreatedAt) {
				got[i].CreatedAt = want[i].CreatedAt
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("messages: hand-decoded rows differ from the generated ones:\ngot  %+v\nwant %+v", got, want)
		}
	}
}
