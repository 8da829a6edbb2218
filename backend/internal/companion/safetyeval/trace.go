package safetyeval

import (
	"fmt"
	"io"
	"strings"

	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/safety"
)

// WriteEverydayDecisions lists, for the TUNING half of the everyday set only, every decision
// that missed a goal: an ordinary message or conversation turn interrupted, a risky message
// answered as ordinary, an attempt in progress without the emergency instruction first; each
// with the layer that decided and the scorer's scores. Never call it on the held-back half.
func WriteEverydayDecisions(w io.Writer, e Everyday) {
	outcome := [...]string{"answered", "check-in", "CRISIS", "ack"}
	line := func(kind string, out Outcome, x safety.Explanation, msg string) {
		fmt.Fprintf(w, "  %-9s %-8s %-8s %-15s %-8s whole=%.2f window=%.2f | %s\n", kind, outcome[out], x.Level,
			x.Category, x.Layer, x.Whole, x.Window, strings.Join(strings.Fields(msg), " "))
	}
	// trace runs one conversation and reports each turn with the context it was screened in.
	trace := func(turns []string, report func(i int, out Outcome, x safety.Explanation, reply string)) {
		engine := companion.NewOffline()
		var s Sender
		for i, msg := range turns {
			c := s.c
			x := safety.Explain(msg, safety.Context{})
			if c.FollowsRisk() {
				x = safety.Explain(msg, c)
			}
			out, reply := s.Send(msg, engine.Compose)
			report(i, out, x, reply)
		}
	}
	fmt.Fprintln(w, "\n  everyday TUNING half, decisions that missed a goal (outcome, level, category, layer, scores):")
	for _, m := range e.Ordinary {
		trace([]string{opener, m.Text}, func(i int, out Outcome, x safety.Explanation, _ string) {
			if i == 1 && out != Answered {
				line("ordinary", out, x, m.Text)
			}
		})
	}
	for _, cv := range e.Conversations {
		trace(cv.Turns, func(i int, out Outcome, x safety.Explanation, _ string) {
			if out != Answered {
				line("conv"+cv.ID, out, x, cv.Turns[i])
			}
		})
	}
	for _, m := range e.Risky {
		trace([]string{opener, m.Text}, func(i int, out Outcome, x safety.Explanation, reply string) {
			switch {
			case i != 1:
			case out == Answered:
				line("missed", out, x, m.Danger+"/"+m.Style+": "+m.Text)
			case m.Danger == "attempt_in_progress" && !emergencyFirst(reply):
				line("noEmerg", out, x, m.Text)
			}
		})
	}
}
