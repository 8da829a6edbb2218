package chat

import (
	"context"
	"runtime"
	"testing"
)

// The first piece of a reply reaches a follower waiting for it before the writer goes on:
// appending it yields to the follower rather than leaving it queued until the writer blocks.
// With one processor, a follower woken without the yield cannot run before the writer's next
// step, so it never has the piece by then; with it, the follower has it almost every time
// (the scheduler now and then runs the yielding goroutine again first, for fairness).
func TestFirstPieceReachesAWaitingFollowerAtOnce(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	const tries = 40
	reached := 0
	for range tries {
		ctx, cancel := context.WithCancel(context.Background())
		l := &liveReply{changed: make(chan struct{})}
		waiting := make(chan struct{}, 1)
		got := make(chan string, 4)
		done := make(chan struct{})
		go func() {
			defer close(done)
			_, _ = l.follow(ctx, false, func(text string) error {
				got <- text
				return nil
			}, func() error {
				select {
				case waiting <- struct{}{}:
				default:
				}
				return nil
			})
		}()
		<-waiting // the follower flushed and is about to wait: it has its channel to wait on
		l.append("first")
		select {
		case text := <-got:
			if text != "first" {
				t.Fatalf("follower got %q", text)
			}
			reached++
		default:
		}
		cancel()
		<-done
	}
	if reached < tries*3/4 {
		t.Fatalf("the first piece reached the waiting follower at once in %d of %d tries", reached, tries)
	}
}
