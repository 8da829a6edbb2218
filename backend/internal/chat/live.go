package chat

import (
	"context"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/apperr"
)

// A reply outlives the request that asked for it. Its text lives in a liveReply on the
// instance that writes it, where any request can follow it (the one that sent the message,
// or a later one re-attaching after a refresh). The database knows only that a reply is in
// progress (chat_sessions.reply_until) and, once stored, the reply. Another instance
// re-attaching waits for the stored reply: it listens on a PostgreSQL channel for the
// "done" notification that storing sends, and re-reads the database every poll interval in
// case a notification was lost while its listening connection was down. A stop reaches the
// writing instance the same way. LISTEN/NOTIFY rather than polling alone, because a stop must
// take effect at once and a waiting client should see the reply as soon as it is stored.

// liveReply is a reply being written on this instance.
type liveReply struct {
	sessionID uuid.UUID
	// ctx is the reply's own: its deadline, cancelled with a cause (errStopped, errShutdown,
	// errDiscarded) when it must end early.
	ctx     context.Context
	cancel  context.CancelCauseFunc
	release context.CancelFunc

	mu        sync.Mutex
	chunks    []string
	changed   chan struct{} // closed and replaced at every change
	done      bool
	result    SendResult
	published bool
}

// append adds text to the reply and wakes its followers. After the first piece it yields the
// processor: the scheduler queues a goroutine it wakes behind the one that woke it, so a
// stream waiting for the first piece would otherwise wait until the writer blocks, which,
// when a model sends its reply in one burst, is once the writer has read and screened all of
// it (the delay measured is in bench/findings.md). Later pieces are not worth a yield each.
func (l *liveReply) append(text string) {
	l.mu.Lock()
	l.chunks = append(l.chunks, text)
	first := len(l.chunks) == 1
	close(l.changed)
	l.changed = make(chan struct{})
	l.mu.Unlock()
	if first {
		runtime.Gosched()
	}
}

func (l *liveReply) finish(res SendResult) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.done, l.result = true, res
	close(l.changed)
	l.changed = make(chan struct{})
}

// follow passes the reply's text to onDelta (may be nil), from the start, as it is written:
// each piece as it came or, with joined, everything written so far as one first piece. flush
// (may be nil) is called each time onDelta has had everything written so far, before
// waiting for more. It returns the result once the reply is stored, or ctx's, onDelta's or
// flush's error when the follower gives up first: the reply goes on.
func (l *liveReply) follow(ctx context.Context, joined bool, onDelta func(string) error, flush func() error) (SendResult, error) {
	next := 0
	for {
		l.mu.Lock()
		pending, done, res, changed := l.chunks[next:], l.done, l.result, l.changed
		l.mu.Unlock()
		next += len(pending)
		if joined && len(pending) > 0 {
			pending = []string{strings.Join(pending, "")}
		}
		joined = false
		for _, p := range pending {
			if onDelta == nil {
				break
			}
			if err := onDelta(p); err != nil {
				return SendResult{}, err
			}
		}
		if done {
			return res, nil
		}
		if flush != nil {
			if err := flush(); err != nil {
				return SendResult{}, err
			}
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return SendResult{}, ctx.Err()
		}
	}
}

// Follow passes the turn's reply to onDelta (may be nil) as it is written and returns it once
// stored. When ctx ends first (the client went away) it returns ctx's error, and the reply is
// written and stored all the same.
func (t *Turn) Follow(ctx context.Context, onDelta func(string) error) (SendResult, error) {
	return t.live.follow(ctx, false, onDelta, nil)
}

// FollowFlushing is Follow, calling flush (may be nil) each time onDelta has had all the text
// written so far, before waiting for more: a stream flushes then, so that the pieces written
// while it waited leave together (with the response's headers, for the first), and none is
// held back while it waits.
func (t *Turn) FollowFlushing(ctx context.Context, onDelta func(string) error, flush func() error) (SendResult, error) {
	return t.live.follow(ctx, false, onDelta, flush)
}

// replies are the live replies of this instance.
type replies struct {
	mu        sync.Mutex
	bySession map[uuid.UUID]*liveReply // published replies, by session
	all       map[*liveReply]struct{}
	waiters   map[uuid.UUID]map[chan string]struct{}
	closing   bool
	wg        sync.WaitGroup

	stopListening func()        // stops the service's own listener, or unsubscribes from the shared one
	unwatch       func()        // stops the send states following the listener
	listening     chan struct{} // closed when the listener has stopped
}

func (r *replies) init() {
	r.bySession = map[uuid.UUID]*liveReply{}
	r.all = map[*liveReply]struct{}{}
	r.waiters = map[uuid.UUID]map[chan string]struct{}{}
}

// add makes the live reply of a turn, refused while the service shuts down.
func (r *replies) add(sessionID uuid.UUID, timeout time.Duration) (*liveReply, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closing {
		return nil, apperr.New(apperr.ErrUnavailable, "UNAVAILABLE", "Percolate is restarting. Please send your message again in a moment.")
	}
	base, cancel := context.WithCancelCause(context.Background())
	ctx, release := context.WithTimeout(base, timeout)
	l := &liveReply{sessionID: sessionID, ctx: ctx, cancel: cancel, release: release, changed: make(chan struct{})}
	r.all[l] = struct{}{}
	r.wg.Add(1)
	return l, nil
}

// publish makes a reply whose message is committed visible to Attach and Stop.
func (r *replies) publish(l *liveReply) {
	r.mu.Lock()
	defer r.mu.Unlock()
	l.published = true
	r.bySession[l.sessionID] = l
}

// unpublish hides a stored reply from Attach and Stop.
func (r *replies) unpublish(l *liveReply) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.bySession[l.sessionID] == l {
		delete(r.bySession, l.sessionID)
	}
}

// finished forgets a stored (or discarded) reply.
func (r *replies) finished(l *liveReply) {
	r.mu.Lock()
	delete(r.all, l)
	if r.bySession[l.sessionID] == l {
		delete(r.bySession, l.sessionID)
	}
	r.mu.Unlock()
	l.release()
	l.cancel(nil)
	r.wg.Done()
}

func (r *replies) local(sessionID uuid.UUID) *liveReply {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.bySession[sessionID]
}

// wait registers for the "done" notifications of a session's reply; the channel also gets
// an empty status when notifications may have been missed.
func (r *replies) wait(sessionID uuid.UUID) (<-chan string, func()) {
	ch := make(chan string, 1)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.waiters[sessionID] == nil {
		r.waiters[sessionID] = map[chan string]struct{}{}
	}
	r.waiters[sessionID][ch] = struct{}{}
	return ch, func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		delete(r.waiters[sessionID], ch)
		if len(r.waiters[sessionID]) == 0 {
			delete(r.waiters, sessionID)
		}
	}
}

// wake tells the waiters of a session (all sessions when all is set) what happened.
func (r *replies) wake(sessionID uuid.UUID, status string, all bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for sid, chans := range r.waiters {
		if !all && sid != sessionID {
			continue
		}
		for ch := range chans {
			select {
			case ch <- status:
			default: // it has a wake-up pending already
			}
		}
	}
}

// NotifyChannel is the channel on which instances announce the stops, stored replies and
// stored context summaries of their chats: a server's shared listener (Options.Listener) must
// listen on it.
const NotifyChannel = notifyChannel

// Start makes the service take part in replies across instances: it listens for the stops
// and stored replies that other instances announce, on Options.Listener or else on a
// listener of its own. Shutdown stops it.
func (s *Service) Start() {
	l := s.listener
	if l == nil {
		l = s.store.NewListener(s.log, NotifyChannel)
	}
	// The send states are kept only while the listener listens, and follow its notifications
	// (see sendstate.go).
	unwatch := s.states.Follow(l, NotifyChannel, s.noteState)
	s.replies.mu.Lock()
	s.replies.unwatch = unwatch
	s.replies.mu.Unlock()
	if s.listener == nil {
		l.Subscribe(NotifyChannel, s.onNotify)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		s.replies.mu.Lock()
		s.replies.stopListening, s.replies.listening = cancel, done
		s.replies.mu.Unlock()
		go func() {
			defer close(done)
			l.Run(ctx)
		}()
	} else {
		unsubscribe := l.Subscribe(NotifyChannel, s.onNotify)
		done := make(chan struct{})
		close(done) // the listener's owner runs and stops it
		s.replies.mu.Lock()
		s.replies.stopListening, s.replies.listening = unsubscribe, done
		s.replies.mu.Unlock()
	}
	// Wait (briefly) until the listener is listening, so that what happens next is heard.
	select {
	case <-l.Ready():
	case <-time.After(5 * time.Second):
	}
}

func (s *Service) onNotify(payload string) {
	if payload == "" {
		// Notifications may have been missed (the send states follow the listener).
		s.replies.wake(uuid.Nil, "", true)
		return
	}
	f, sid, ok := parseNote(payload)
	if !ok {
		return
	}
	switch {
	case f[0] == "stop":
		if l := s.replies.local(sid); l != nil {
			l.cancel(errStopped)
		}
	case f[0] == "done" && len(f) >= 3:
		s.replies.wake(sid, f[2], false)
	}
}

// parseNote splits a notification on the chat channel into its fields and the id in its
// second field ("done <session> <reply> <version>", "user <user>"); ok is false for any other shape.
func parseNote(payload string) (f []string, id uuid.UUID, ok bool) {
	f = strings.Fields(payload)
	if len(f) < 2 {
		return nil, uuid.Nil, false
	}
	id, err := uuid.Parse(f[1])
	return f, id, err == nil
}

// noteState drops the send states a notification shows to be stale.
func (s *Service) noteState(payload string) {
	f, sid, ok := parseNote(payload)
	if !ok {
		return
	}
	switch {
	case f[0] == "done" && len(f) == 4:
		// A state kept before this reply (by this instance, or of a reply another wrote)
		// would only be tried and refused.
		s.forgetStateBefore(sid, f[3])
	case f[0] == "moved" && len(f) == 3:
		// The session's row moved outside a send (a context summary was stored): a state
		// kept before it would only be tried and refused.
		s.forgetStateBefore(sid, f[2])
	case f[0] == "user":
		// The user's row or memories changed (migration 00020); sid is the user's id.
		s.states.forgetUser(sid)
	}
}

// forgetStateBefore drops the session's send state if it was kept before version (a
// notification's field).
func (s *Service) forgetStateBefore(sid uuid.UUID, version string) {
	if v, err := strconv.ParseInt(version, 10, 64); err == nil {
		s.states.forgetOlder(sid, v)
	}
}

// Shutdown lets the replies in progress finish until ctx ends, then stops them: each is
// stored, as interrupted when it was cut short. New sends are refused meanwhile. It returns
// once every reply is stored (or failed to be, within StoreTimeout) and the listener stopped.
func (s *Service) Shutdown(ctx context.Context) {
	r := &s.replies
	r.mu.Lock()
	r.closing = true
	r.mu.Unlock()
	done := make(chan struct{})
	go func() {
		r.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		r.mu.Lock()
		for l := range r.all {
			l.cancel(errShutdown)
		}
		r.mu.Unlock()
		<-done
	}
	r.mu.Lock()
	stop, listening, unwatch := r.stopListening, r.listening, r.unwatch
	r.mu.Unlock()
	if unwatch != nil {
		unwatch()
	}
	if stop != nil {
		stop()
		<-listening
	}
}
