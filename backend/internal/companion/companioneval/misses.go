package companioneval

import (
	"strings"

	"github.com/percolate/percolate/backend/internal/companion"
)

// Misses names, for each exchange of a run, the figures its reply missed (empty when it met
// every check that applies, or the engine did not write it), so that -v shows where to look.
func Misses(run Run, keywords bool) [][]string {
	out := make([][]string, len(run.Exchanges))
	var topic []string
	seen := map[string]bool{}
	prev := ""
	for i, ex := range run.Exchanges {
		topic = append(topic, content(ex.Turn.User)...)
		if !ex.Engine {
			prev = ""
			continue
		}
		var m []string
		if s := companion.ReplyStructure(ex.Reply); s == prev {
			m = append(m, "structure:"+s)
		} else {
			prev = s
		}
		for _, k := range sentenceKeys(ex.Reply) {
			if seen[k] {
				m = append(m, "repeat:"+k)
			}
			seen[k] = true
		}
		var f Figures
		f.AnsweredByKind = map[string][2]int{}
		f.keywords = keywords
		f.add(Run{Conv: Conversation{}, Exchanges: []Exchange{ex}})
		low, e := strings.ToLower(ex.Reply), ex.Turn.Expect
		if !e.Goodbye && !mentions(low, topic) {
			m = append(m, "generic")
		}
		if want := labelledAct(e); want != "" && companion.MessageAct(ex.Turn.User, keywords) != want {
			m = append(m, "act:"+companion.MessageAct(ex.Turn.User, keywords))
		}
		for _, c := range []struct {
			name string
			n, k int
		}{
			{"answer", f.Questions, f.Answered}, {"callback", f.Callbacks, f.Resolved},
			{"negation", f.Negations, f.Kept}, {"misread", f.Probes, f.Probes - f.Misread},
			{"focus", f.Focus, f.FocusHit}, {"correction", f.Corrections, f.Taken},
			{"goodnews", f.GoodNews, f.MetGood}, {"goodbye", f.Goodbyes, f.SaidBye},
		} {
			if c.k < c.n {
				m = append(m, c.name)
			}
		}
		out[i] = m
	}
	return out
}
