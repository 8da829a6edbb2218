package chat

import (
	"testing"

	"github.com/percolate/percolate/backend/internal/companion/safety"
)

// doneScreening is a screening whose result is already known.
func doneScreening(msg string, r safety.Result) *screening {
	s := &screening{msg: msg, done: make(chan struct{}), r: r}
	close(s.done)
	return s
}

// An attempt under way gets the crisis reply, whose first line is the emergency number, even
// when the screen is only fairly sure of it and even after an earlier crisis reply; any other
// possible risk gets the check-in, and a later risk of another kind the acknowledgement.
func TestDecideAnswersAnAttemptUnderWayFirst(t *testing.T) {
	for _, c := range []struct {
		name   string
		r      safety.Result
		crises int32
		want   replyKind
	}{
		{"possible attempt", safety.Result{Level: safety.Possible, Category: safety.Attempt}, 0, replyCrisis},
		{"possible attempt after a crisis reply", safety.Result{Level: safety.Possible, Category: safety.Attempt}, 1, replyCrisis},
		{"clear attempt after a crisis reply", safety.Result{Level: safety.Clear, Category: safety.Attempt}, 2, replyCrisis},
		{"possible suicide", safety.Result{Level: safety.Possible, Category: safety.Suicide}, 0, replyCheckIn},
		{"clear suicide after a crisis reply", safety.Result{Level: safety.Clear, Category: safety.Suicide}, 1, replyAck},
	} {
		if _, got := decide(doneScreening("x", c.r), safety.Context{}, false, c.crises); got != c.want {
			t.Errorf("%s: reply kind %d, want %d", c.name, got, c.want)
		}
	}
}

// Once the student has declined a check-in in a session, a weak signal (a possible risk on the
// scorer's word alone, without a strong word) gets an ordinary reply and is stored as showing
// none; a risk with a strong word still gets the check-in, and an attempt the crisis reply.
func TestDecideDoesNotAskAgainOnAWeakSignalAfterADeclinedCheckIn(t *testing.T) {
	weak := safety.Result{Level: safety.Possible, Category: safety.Suicide, Weak: true}
	for _, c := range []struct {
		name string
		r    safety.Result
		ctx  safety.Context
		want replyKind
	}{
		{"weak signal", weak, safety.Context{}, replyCheckIn},
		{"weak signal after a declined check-in", weak, safety.Context{Declined: true}, replyModel},
		{"possible risk after a declined check-in", safety.Result{Level: safety.Possible, Category: safety.Suicide}, safety.Context{Declined: true}, replyCheckIn},
		{"clear risk after a declined check-in", safety.Result{Level: safety.Clear, Category: safety.Suicide}, safety.Context{Declined: true}, replyCrisis},
		{"possible attempt after a declined check-in", safety.Result{Level: safety.Possible, Category: safety.Attempt, Weak: true}, safety.Context{Declined: true}, replyCrisis},
	} {
		got, kind := decide(doneScreening("x", c.r), c.ctx, false, 0)
		if kind != c.want {
			t.Errorf("%s: reply kind %d, want %d", c.name, kind, c.want)
		}
		if kind == replyModel && got.Risky() {
			t.Errorf("%s: answered as ordinary but stored at %v", c.name, got.Level)
		}
	}
}
