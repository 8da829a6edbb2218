package voice

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/chat"
	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/llmtest"
	"github.com/percolate/percolate/backend/internal/config"
	"github.com/percolate/percolate/backend/internal/queue/queuetest"
	"github.com/percolate/percolate/backend/internal/store"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
)

// A voice message sent while its account is deleted either goes through before the
// deletion or is refused as signed out (401). Before the send locked the user row first, the
// two locked each other's rows in opposite orders (the session, then the user; the user,
// then the session) and PostgreSQL broke the deadlock after a second by failing one of them:
// a 500 for the message, or a failed deletion.
func TestVoiceSendWhileTheAccountIsDeleted(t *testing.T) {
	st := pgtest.New(t)
	svc, _ := newVoice(t, st, nil)
	for i := 0; i < 20; i++ {
		u := pgtest.User(t, st, "BASIC").ID
		// A first message makes the session and the day's counter rows, so the second one
		// locks the session before it touches anything that checks the user's row.
		res, _, err := svc.Send(context.Background(), u, chat.SendInput{Message: "Hello! I'd like to start a new conversation."}, "sage")
		if err != nil {
			t.Fatal(err)
		}
		sid := res.SessionID
		var wg sync.WaitGroup
		var sendErr, delErr error
		wg.Add(2)
		go func() {
			defer wg.Done()
			_, _, sendErr = svc.Send(context.Background(), u, chat.SendInput{SessionID: &sid, Message: "I had a long day at work"}, "sage")
		}()
		go func() {
			defer wg.Done()
			_, delErr = st.Queries().DeleteUser(context.Background(), u)
		}()
		wg.Wait()
		if sendErr != nil && !errors.Is(sendErr, apperr.ErrUnauthorized) {
			t.Fatalf("round %d: the send failed with %v (deadlock: %v), not as signed out", i, sendErr, store.IsDeadlock(sendErr))
		}
		if delErr != nil {
			t.Fatalf("round %d: the deletion failed: %v", i, delErr)
		}
	}
}

// An account deleted while its voice reply is being written: the reply cannot be stored, and
// the request is answered as signed out, not as a failed reply.
func TestVoiceReplyAfterTheAccountIsDeletedIsSignedOut(t *testing.T) {
	st := pgtest.New(t)
	llm := llmtest.New(t)
	chatSvc := chat.New(st, companion.New(config.LLM{BaseURL: llm.URL(), Model: "m"}), chat.Options{Queue: queuetest.New(t, st), Logger: quiet})
	svc := NewService(chatSvc, st, nil, nil, nil, quiet)
	u := pgtest.User(t, st, "BASIC").ID
	res, _, err := svc.Send(context.Background(), u, chat.SendInput{Message: "Hello! I'd like to start a new conversation."}, "sage")
	if err != nil {
		t.Fatal(err)
	}
	resume, paused := make(chan struct{}), make(chan struct{}, 1)
	llm.Enqueue(llmtest.Script{Chunks: []string{"That", " sounds", " hard."}, PauseAfter: 1, Resume: resume, Paused: paused})
	done := make(chan error, 1)
	go func() {
		_, _, err := svc.Send(context.Background(), u, chat.SendInput{SessionID: &res.SessionID, Message: "I had a long day at work"}, "sage")
		done <- err
	}()
	<-paused
	if _, err := st.Queries().DeleteUser(context.Background(), u); err != nil {
		t.Fatalf("delete: %v", err)
	}
	close(resume)
	if err := <-done; !errors.Is(err, apperr.ErrUnauthorized) {
		t.Fatalf("send after deletion: %v", err)
	}
}
