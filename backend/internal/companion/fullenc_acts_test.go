package companion

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/percolate/percolate/backend/internal/encoder"
	"github.com/percolate/percolate/backend/internal/encoder/fullmodel"
)

// TestActsFullEncoder is a bench run by hand with COMPANION_FULLENC=1 (it needs node and
// frontend's npm packages): does the full USE-lite model (encoder/fullmodel) read a message's
// act by its nearest labelled example (actExamples, as readAct does) better than the
// distilled table? On the companion benchmark's tuning half only (never the held-back half),
// over the turns whose annotation names an act (see companioneval's labelledAct) and the turns
// with no annotation at all (read as sharing):
//   - questions labelled opinion, practical or self: is the nearest example of the right act?
//   - the same questions against the unannotated questions: does the best similarity to an
//     opinion, practical or self example tell them apart (ROC AUC, and accuracy at readAct's
//     0.6 cut-off for the table; the full model's cut-off is its best one)?
//   - good news against the other statements: the best similarity to a good-news example
//     (readAct's second use of the encoder), as an AUC.
//
// The table embeds the message as readAct does (plain text); the full model gets it as typed.
func TestActsFullEncoder(t *testing.T) {
	if os.Getenv("COMPANION_FULLENC") == "" {
		t.Skip("COMPANION_FULLENC not set")
	}
	type turn struct {
		text, label string
		question    bool
		// toEncoder: readAct leaves the question to the encoder (no rule reads it).
		toEncoder bool
	}
	f, err := os.Open("companioneval/data/tuning.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var turns []turn
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var c struct {
			Turns []struct {
				User   string
				Expect struct {
					Answer     bool
					Kind       string
					Goodbye    bool
					Callback   string
					GoodNews   bool `json:"good_news"`
					Correction bool
				}
			}
		}
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		for _, tu := range c.Turns {
			e, label := tu.Expect, ""
			switch {
			case e.Answer:
				label = e.Kind
			case e.Goodbye:
				label = "goodbye"
			case e.Callback != "":
				label = "callback"
			case e.GoodNews:
				label = "good_news"
			case e.Correction:
				label = "correction"
			default:
				label = "share"
			}
			n := plain(tu.User)
			q := reLeadFiller.ReplaceAllString(n, "")
			question := strings.Contains(tu.User, "?") || reQuestionStart.MatchString(q)
			turns = append(turns, turn{tu.User, label, question, question && MessageAct(tu.User, true) == "share"})
		}
	}
	type ex struct {
		a    act
		text string
	}
	var exs []ex
	for _, a := range []act{actOpinion, actPractical, actSelf, actGoodNews} {
		for _, s := range actExamples[a] {
			exs = append(exs, ex{a, s})
		}
	}
	var texts []string
	for _, e := range exs {
		texts = append(texts, e.text)
	}
	for _, tu := range turns {
		texts = append(texts, tu.text)
	}
	full, timing, err := fullmodel.Vectors(texts)
	if err != nil {
		t.Fatal(err)
	}
	if timing != "" {
		t.Log("full model: " + timing)
	}
	fullOf := map[string][]float32{}
	for i, s := range texts {
		fullOf[s] = full[i]
	}
	sims := map[string]func(msg string) []float32{
		"table": func(msg string) []float32 {
			v := encoder.Embed(plain(msg))
			out := make([]float32, len(exs))
			for i, e := range exs {
				w := encoder.Embed(e.text)
				out[i] = encoder.Cosine(&v, &w)
			}
			return out
		},
		"full": func(msg string) []float32 {
			v := fullOf[msg]
			out := make([]float32, len(exs))
			for i, e := range exs {
				w := fullOf[e.text]
				for d := range v {
					out[i] += v[d] * w[d]
				}
			}
			return out
		},
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d turns, %d labelled examples\n", len(turns), len(exs))
	for _, name := range []string{"table", "full"} {
		sim := sims[name]
		// best is the nearest example's act among acts, and its similarity.
		best := func(s []float32, acts ...act) (act, float32) {
			ba, bs := actShare, float32(-2)
			for i, e := range exs {
				if slices.Contains(acts, e.a) && s[i] > bs {
					ba, bs = e.a, s[i]
				}
			}
			return ba, bs
		}
		var right, asked, encRight, encAsked int
		var pos, neg, gnPos, gnNeg []float32
		for _, tu := range turns {
			s := sim(tu.text)
			a, sq := best(s, actOpinion, actPractical, actSelf)
			switch {
			case tu.question && (tu.label == "opinion" || tu.label == "practical" || tu.label == "self"):
				asked++
				if actNames[a] == tu.label {
					right++
				}
				if tu.toEncoder {
					encAsked++
					if actNames[a] == tu.label {
						encRight++
					}
				}
				pos = append(pos, sq)
			case tu.question && tu.label == "share":
				neg = append(neg, sq)
			}
			if !tu.question && (tu.label == "good_news" || tu.label == "share") {
				_, sg := best(s, actGoodNews)
				if tu.label == "good_news" {
					gnPos = append(gnPos, sg)
				} else {
					gnNeg = append(gnNeg, sg)
				}
			}
		}
		cut, acc := bestCut(pos, neg)
		fmt.Fprintf(&b, "%s: labelled questions read as their act %d/%d (of those no rule reads, %d/%d); question vs unannotated question AUC %.3f (%d vs %d), "+
			"at 0.6 %d/%d right, best cut %.2f %d/%d; good news vs other statements AUC %.3f (%d vs %d)\n",
			name, right, asked, encRight, encAsked, auc(pos, neg), len(pos), len(neg), atCut(pos, neg, 0.6), len(pos)+len(neg), cut, acc, len(pos)+len(neg),
			auc(gnPos, gnNeg), len(gnPos), len(gnNeg))
	}
	t.Log("\n" + b.String())
}

// auc is the probability that a random positive scores above a random negative (ties half).
func auc(pos, neg []float32) float64 {
	var s float64
	for _, p := range pos {
		for _, n := range neg {
			switch {
			case p > n:
				s++
			case p == n:
				s += 0.5
			}
		}
	}
	return s / float64(len(pos)*len(neg))
}

// atCut counts the positives at or above cut and the negatives below it.
func atCut(pos, neg []float32, cut float32) int {
	n := 0
	for _, p := range pos {
		if p >= cut {
			n++
		}
	}
	for _, q := range neg {
		if q < cut {
			n++
		}
	}
	return n
}

// bestCut is the cut-off (among the scores) that gets most right, and how many.
func bestCut(pos, neg []float32) (float32, int) {
	var bc float32
	bn := -1
	for _, c := range append(slices.Clone(pos), neg...) {
		if n := atCut(pos, neg, c); n > bn {
			bc, bn = c, n
		}
	}
	return bc, bn
}
