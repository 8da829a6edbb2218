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
