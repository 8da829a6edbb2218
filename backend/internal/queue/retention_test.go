package queue_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"github.com/percolate/percolate/backend/internal/queue"
	"github.com/percolate/percolate/backend/internal/queue/queuetest"
	"github.com/percolate/percolate/backend/internal/store"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
)

// A finished job's row goes an hour after it finished (River's default is a day): whatever
// its arguments name does not stay in the queue's table.
func TestCompletedJobsAreKeptAnHour(t *testing.T) {
	st := pgtest.New(t)
	q := queuetest.New(t, st)
	queue.AddWorker(q, &noteWorker{})
	ctx := context.Background()
	finished := map[string]time.Duration{"two hours ago": 2 * time.Hour, "half an hour ago": 30 * time.Minute}
	ids := map[string]int64{}
	for note, ago := range finished {
		res, err := q.Client().Insert(ctx, noteArgs{Note: note}, nil)
		if err != nil {
			t.Fatal(err)
		}
		ids[note] = res.Job.ID
		if _, err := st.Pool().Exec(ctx, `UPDATE river_job SET state = 'completed', attempt = 1, attempted_at = now() - $2::interval,
			finalized_at = now() - $2::interval WHERE id = $1`, res.Job.ID, ago.String()); err != nil {
			t.Fatal(err)
		}
	}
	queuetest.Start(t, q) // the job cleaner runs as the queue starts, then every 30 s
	exists := func(id int64) bool {
		var n int
		if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM river_job WHERE id = $1`, id).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n == 1
	}
	deadline := time.Now().Add(20 * time.Second)
	for exists(ids["two hours ago"]) {
		if time.Now().After(deadline) {
			t.Fatal("a job finished two hours ago is still kept")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !exists(ids["half an hour ago"]) {
		t.Error("a job finished half an hour ago was deleted already")
	}
}

// userArgs names a user the way every job about one does.
type userArgs struct {
	UserID uuid.UUID `json:"userId,omitzero"`
	Email  string    `json:"email,omitempty"`
}

func (userArgs) Kind() string { return "test.user" }

type userWorker struct{ river.WorkerDefaults[userArgs] }

func (userWorker) Work(context.Context, *river.Job[userArgs]) error { return nil }

// DeleteUserJobsTx deletes the jobs that name a user by id or by address (in any case),
// finished or waiting, however many, and no one else's.
func TestDeleteUserJobsTxDeletesTheJobsNamingAUser(t *testing.T) {
	st := pgtest.New(t)
	q := queuetest.New(t, st)
	queue.AddWorker(q, userWorker{})
	queue.AddWorker(q, &noteWorker{})
	ctx := context.Background()
	ada, bo := uuid.New(), uuid.New()
	var many []river.InsertManyParams
	for range 1200 { // more than one batch
		many = append(many, river.InsertManyParams{Args: userArgs{UserID: ada}})
	}
	many = append(many,
		river.InsertManyParams{Args: userArgs{Email: "ADA@Example.com"}},
		river.InsertManyParams{Args: userArgs{Email: "ada@example.com"}, InsertOpts: &river.InsertOpts{ScheduledAt: time.Now().Add(time.Hour)}},
		river.InsertManyParams{Args: userArgs{UserID: bo}},
		river.InsertManyParams{Args: userArgs{Email: "bo@example.com"}},
		river.InsertManyParams{Args: noteArgs{Note: ada.String()}},
	)
	if _, err := q.Client().InsertManyFast(ctx, many); err != nil {
		t.Fatal(err)
	}
	// Some of Ada's are finished, as most are when an account goes.
	if _, err := st.Pool().Exec(ctx, `UPDATE river_job SET state = 'completed', attempt = 1, attempted_at = now(), finalized_at = now()
		WHERE id IN (SELECT id FROM river_job WHERE args->>'userId' = $1 LIMIT 600)`, ada.String()); err != nil {
		t.Fatal(err)
	}
	var deleted int
	err := st.InTx(ctx, func(tx store.Tx) error {
		var err error
		deleted, err = q.DeleteUserJobsTx(ctx, tx, ada, "ada@example.com")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if deleted != 1202 {
		t.Errorf("deleted %d jobs, want 1202", deleted)
	}
	var left []string
	rows, err := st.Pool().Query(ctx, `SELECT args::text FROM river_job ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var a string
		if err := rows.Scan(&a); err != nil {
			t.Fatal(err)
		}
		left = append(left, a)
	}
	if rows.Err() != nil {
		t.Fatal(rows.Err())
	}
	if len(left) != 3 {
		t.Fatalf("left %d jobs, want Bo's two and the note: %v", len(left), left)
	}
}
