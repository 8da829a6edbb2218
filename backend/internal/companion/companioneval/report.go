package companioneval

import (
	"fmt"
	"io"
	"slices"
	"time"
)

// Median is the median engine reply time.
func (f Figures) Median() time.Duration {
	if len(f.Times) == 0 {
		return 0
	}
	t := slices.Clone(f.Times)
	slices.Sort(t)
	return t[len(t)/2]
}

func ofN(k, n int) string {
	if n == 0 {
		return "0 of 0"
	}
	return fmt.Sprintf("%d of %d (%.0f%%)", k, n, 100*float64(k)/float64(n))
}

func mean(sum, n int) float64 { return float64(sum) / float64(max(1, n)) }

// Write prints the figures of one half under a title; it never prints a message.
func (f Figures) Write(w io.Writer, title string) {
	per10 := 0.0
	if f.EngineReplies > 0 {
		per10 = 10 * float64(f.Summaries) / float64(f.EngineReplies)
	}
	rows := [][2]string{
		{"conversations / turns / engine replies", fmt.Sprintf("%d / %d / %d", f.Conversations, f.Turns, f.EngineReplies)},
		{"repeated sentences (per conversation)", fmt.Sprintf("%d (%.2f)", f.RepeatedSentences, float64(f.RepeatedSentences)/float64(max(1, f.Conversations)))},
		{"8+-word echoes", fmt.Sprint(f.Echoes)},
		{"generic replies (no topic word)", ofN(f.Generic, f.EngineReplies)},
	}
	if f.Model {
		rows = append([][2]string{rows[0], {"model replies failed", fmt.Sprint(f.Failed)}}, rows[1:]...)
	} else {
		rows = append(rows, [2]string{"acts read as labelled", ofN(f.ActsRead, f.Acts)})
	}
	rows = append(rows, [2]string{"questions answered", ofN(f.Answered, f.Questions)})
	for _, k := range []string{"opinion", "self", "practical"} {
		if v, ok := f.AnsweredByKind[k]; ok {
			rows = append(rows, [2]string{"  " + k, ofN(v[0], v[1])})
		}
	}
	rows = append(rows,
		[2]string{"callbacks resolved", ofN(f.Resolved, f.Callbacks)},
		[2]string{"negations kept", ofN(f.Kept, f.Negations)},
		[2]string{"misread focus/feeling (probes)", ofN(f.Misread, f.Probes)},
		[2]string{"focus named", ofN(f.FocusHit, f.Focus)},
		[2]string{"corrections taken up", ofN(f.Taken, f.Corrections)},
		[2]string{"good news met as good news", ofN(f.MetGood, f.GoodNews)},
		[2]string{"goodbyes said (no question)", ofN(f.SaidBye, f.Goodbyes)},
		[2]string{"summary reflections per 10 turns", fmt.Sprintf("%.2f", per10)},
		[2]string{"mean reply words: very short turn / other", fmt.Sprintf("%.1f (%d turns) / %.1f", mean(f.ShortWords, f.ShortTurns), f.ShortTurns, mean(f.OtherWords, f.OtherTurns))},
	)
	if !f.Model { // the structure and the arc are read from the engine's own moves
		rows = append(rows,
			[2]string{"same reply structure twice in a row", ofN(f.SameStructure, f.Pairs)},
			[2]string{"arc: sessions reaching a focus (summary)", ofN(f.ReachFocus, f.Conversations)},
			[2]string{"arc: sessions reaching a small step", ofN(f.ReachStep, f.Conversations)},
			[2]string{"arc: goodbyes closed with a takeaway", ofN(f.Closed, f.Closable)},
		)
	}
	rows = append(rows,
		[2]string{"facts kept from fact-rich sessions", fmt.Sprintf("%d from %d sessions", f.Facts, f.FactRich)},
		[2]string{"recalled in the next session", ofN(f.Recalled, f.Followups)},
		[2]string{"median reply time", f.Median().String()},
	)
	fmt.Fprintf(w, "\n%s\n", title)
	for _, r := range rows {
		fmt.Fprintf(w, "  %-44s %s\n", r[0], r[1])
	}
}
