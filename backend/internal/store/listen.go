package store

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// Listener receives the PostgreSQL notifications of one channel (sent with the Notify query
// by any instance on the database) over a connection of its own, outside the pool, and hands
// every payload to its subscribers. It reconnects after a lost connection; notifications sent
// meanwhile are lost, so subscribers that must not miss an event also look at the database
// now and then (Reconnected tells them when it matters most).
type Listener struct {
	store   *Store
	channel string
	log     *slog.Logger

	mu    sync.Mutex
	subs  map[int]func(payload string)
	next  int
	ready chan struct{} // closed once the first LISTEN took effect
}

// NewListener returns a listener for channel; Run starts it.
func (s *Store) NewListener(channel string, logger *slog.Logger) *Listener {
	if logger == nil {
		logger = slog.Default()
	}
	return &Listener{store: s, channel: channel, log: logger, subs: map[int]func(string){}, ready: make(chan struct{})}
}

// Subscribe calls fn with each payload until the returned function is called. fn runs on the
// listener's goroutine: it must not block.
func (l *Listener) Subscribe(fn func(payload string)) (unsubscribe func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	id := l.next
	l.next++
	l.subs[id] = fn
	return func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		delete(l.subs, id)
	}
}

// Ready is closed once the listener first listens, so that a test can send a notification
// knowing it will be heard.
func (l *Listener) Ready() <-chan struct{} { return l.ready }

// Run listens until ctx ends, reconnecting after failures (with a pause that grows to 5 s).
// After a reconnection it sends subscribers an empty payload, meaning "something may have
// been missed".
func (l *Listener) Run(ctx context.Context) {
	pause := 100 * time.Millisecond
	for ctx.Err() == nil {
		err := l.listen(ctx)
		if ctx.Err() != nil {
			return
		}
		l.log.Warn("notification listener lost its connection; reconnecting", "channel", l.channel, "error", err.Error())
		t := time.NewTimer(pause)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		pause = min(pause*2, 5*time.Second)
	}
}

// ListenConfig is the pool's connection settings for a connection of its own that only
// LISTENs and waits: it prepares nothing, so it keeps no statement or description cache (each
// a map made for 512 statements).
func (s *Store) ListenConfig() *pgx.ConnConfig {
	c := s.pool.Config().ConnConfig.Copy()
	c.StatementCacheCapacity, c.DescriptionCacheCapacity = 0, 0
	c.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	return c
}

func (l *Listener) listen(ctx context.Context) error {
	conn, err := pgx.ConnectConfig(ctx, l.store.ListenConfig())
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{l.channel}.Sanitize()); err != nil {
		return err
	}
	select {
	case <-l.ready:
		l.dispatch("") // listening again after a gap
	default:
		close(l.ready)
	}
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		l.dispatch(n.Payload)
	}
}

func (l *Listener) dispatch(payload string) {
	l.mu.Lock()
	fns := make([]func(string), 0, len(l.subs))
	for _, fn := range l.subs {
		fns = append(fns, fn)
	}
	l.mu.Unlock()
	for _, fn := range fns {
		fn(payload)
	}
}
