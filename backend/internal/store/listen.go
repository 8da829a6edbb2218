package store

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// Listener receives the PostgreSQL notifications of its channels (sent with the Notify query
// by any instance on the database) over one connection of its own, outside the pool, and
// hands every payload to the subscribers of its channel. One listener serves a whole
// instance, so it holds one connection (and one PostgreSQL backend) however many services
// listen. It reconnects after a lost connection; notifications sent meanwhile are lost, so
// subscribers that must not miss an event also look at the database now and then, or watch
// whether it listens (Watch).
type Listener struct {
	store    *Store
	channels []string
	log      *slog.Logger

	mu        sync.Mutex
	subs      []subscription // in the order they were added
	next      int
	listening bool          // as the watchers were last told
	ready     chan struct{} // closed once the first LISTEN took effect
}

// subscription is a channel's payload handler, or (channel "") a watcher of the connection.
type subscription struct {
	id      int
	channel string
	payload func(payload string)
	watch   func(listening bool)
}

// NewListener returns a listener for channels; Run starts it.
func (s *Store) NewListener(logger *slog.Logger, channels ...string) *Listener {
	if logger == nil {
		logger = slog.Default()
	}
	return &Listener{store: s, channels: channels, log: logger, ready: make(chan struct{})}
}

// Subscribe calls fn with each payload sent on channel, one of the listener's, until the
// returned function is called. After a reconnection fn gets an empty payload, meaning
// "something may have been missed". fn runs on the listener's goroutine: it must not block.
func (l *Listener) Subscribe(channel string, fn func(payload string)) (unsubscribe func()) {
	if channel == "" || !slices.Contains(l.channels, channel) {
		panic("store: Subscribe to " + channel + ", which the listener does not listen on")
	}
	return l.add(subscription{channel: channel, payload: fn})
}

// Watch calls fn with true each time the listener starts listening on its channels, and with
// false when it stops (a lost connection, or the end of Run), until the returned function is
// called; when the listener listens already, Watch calls fn(true) itself before it returns, so
// that a watcher added to a running listener does not wait for a reconnection. Watchers are
// called in the order they were added. fn runs on the listener's goroutine (or Watch's): it
// must not block, nor call the listener.
func (l *Listener) Watch(fn func(listening bool)) (unwatch func()) {
	return l.add(subscription{watch: fn})
}

func (l *Listener) add(s subscription) func() {
	l.mu.Lock()
	defer l.mu.Unlock()
	s.id = l.next
	l.next++
	l.subs = append(l.subs, s)
	if s.watch != nil && l.listening {
		// Under mu, so that a change the watchers are told next comes after this.
		s.watch(true)
	}
	return func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.subs = slices.DeleteFunc(l.subs, func(e subscription) bool { return e.id == s.id })
	}
}

// Ready is closed once the listener first listens, so that a test can send a notification
// knowing it will be heard.
func (l *Listener) Ready() <-chan struct{} { return l.ready }

// Run listens until ctx ends, reconnecting after failures (with a pause that grows to 5 s).
func (l *Listener) Run(ctx context.Context) {
	pause := 100 * time.Millisecond
	for ctx.Err() == nil {
		err := l.listen(ctx)
		l.watchers(false)
		if ctx.Err() != nil {
			return
		}
		l.log.Warn("notification listener lost its connection; reconnecting", "channels", strings.Join(l.channels, ","), "error", err.Error())
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
	for _, ch := range l.channels {
		if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{ch}.Sanitize()); err != nil {
			return err
		}
	}
	l.watchers(true)
	select {
	case <-l.ready:
		for _, ch := range l.channels {
			l.dispatch(ch, "") // listening again after a gap
		}
	default:
		close(l.ready)
	}
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		l.dispatch(n.Channel, n.Payload)
	}
}

// current returns the subscriptions to channel, or (channel "") the watchers, in the order
// they were added.
func (l *Listener) current(channel string) []subscription {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.currentLocked(channel)
}

func (l *Listener) currentLocked(channel string) []subscription {
	subs := make([]subscription, 0, len(l.subs))
	for _, s := range l.subs {
		if s.channel == channel {
			subs = append(subs, s)
		}
	}
	return subs
}

func (l *Listener) dispatch(channel, payload string) {
	for _, s := range l.current(channel) {
		s.payload(payload)
	}
}

func (l *Listener) watchers(listening bool) {
	l.mu.Lock()
	l.listening = listening
	subs := l.currentLocked("")
	l.mu.Unlock()
	for _, s := range subs {
		s.watch(listening)
	}
}
