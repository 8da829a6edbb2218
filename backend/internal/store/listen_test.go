package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/percolate/percolate/backend/internal/store/pgtest"
	dbgen "github.com/percolate/percolate/gen/db"
)

// TestListenerSharesOneConnection: one listener hears several channels over one connection
// (one PostgreSQL backend), hands each payload to its own channel's subscribers only, and
// tells its watchers when it stops listening (a lost connection) and when it listens again,
// when the subscribers also hear that something may have been missed. A watcher added while
// it listens is told so at once, not at the next reconnection.
func TestListenerSharesOneConnection(t *testing.T) {
	st := pgtest.New(t)
	ctx := context.Background()
	l := st.NewListener(nil, "percolate_a", "percolate_b")
	got := map[string]chan string{"a": make(chan string, 8), "b": make(chan string, 8)}
	l.Subscribe("percolate_a", func(p string) { got["a"] <- p })
	l.Subscribe("percolate_b", func(p string) { got["b"] <- p })
	watched := make(chan bool, 8)
	l.Watch(func(listening bool) { watched <- listening })
	rctx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); l.Run(rctx) }()
	defer func() { stop(); <-done }()

	expect := func(what string, ch <-chan string, want string) {
		t.Helper()
		select {
		case p := <-ch:
			if p != want {
				t.Fatalf("%s: payload %q, want %q", what, p, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: no payload", what)
		}
	}
	expectWatched := func(want bool) {
		t.Helper()
		select {
		case w := <-watched:
			if w != want {
				t.Fatalf("watcher told listening = %v, want %v", w, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("watcher not told listening = %v", want)
		}
	}
	notify := func(channel, payload string) {
		t.Helper()
		if err := st.Queries().Notify(ctx, dbgen.NotifyParams{Channel: channel, Payload: payload}); err != nil {
			t.Fatal(err)
		}
	}

	expectWatched(true)
	<-l.Ready()
	late := make(chan bool, 8)
	l.Watch(func(listening bool) { late <- listening })
	if len(late) != 1 || !<-late {
		t.Fatal("a watcher added to a listening listener was not told it listens")
	}
	var listeners int
	if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'`).Scan(&listeners); err != nil {
		t.Fatal(err)
	}
	if listeners != 1 {
		t.Fatalf("%d connections listen, want 1 for both channels", listeners)
	}
	notify("percolate_b", "to b")
	expect("b", got["b"], "to b")
	notify("percolate_a", "to a")
	expect("a", got["a"], "to a")
	if len(got["b"]) != 0 {
		t.Fatalf("b heard a's notification: %q", <-got["b"])
	}

	if _, err := st.Pool().Exec(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'`); err != nil {
		t.Fatal(err)
	}
	expectWatched(false)
	expectWatched(true)
	for _, want := range []bool{false, true} {
		select {
		case w := <-late:
			if w != want {
				t.Fatalf("the late watcher told listening = %v, want %v", w, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("the late watcher not told listening = %v", want)
		}
	}
	expect("a after the reconnection", got["a"], "")
	expect("b after the reconnection", got["b"], "")
	notify("percolate_a", "again")
	expect("a again", got["a"], "again")
}
