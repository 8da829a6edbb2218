package companion

import (
	"strings"

	"github.com/percolate/percolate/backend/internal/lazyre"
)

// A correction ("no wait, it was sophie that said it", "no sorry, not a reading, he asked me
// to be best man") says what the engine, or the user, got wrong, and then what is right. The
// reply takes up what is right, in the user's terms, and says it was heard.

var (
	// reCorrectionLead is what opens a correction before the corrected part.
	reCorrectionLead = lazyre.MustCompile(`^((no|nah|nope|wait|sorry|actually|well|ok|okay|oh|hang on|my bad|i mean|i meant|i got (it|that) wrong|got (it|that) wrong|i said (it|that) wrong|the (real )?(problem|thing|point|issue) is|what i meant (is|was)|its (just |more |really )?that|its (just|more|really)|more that|just that|more like|more about|more|rather|like|just)\b\s*)+`)
	reTheThingIs     = lazyre.MustCompile(`\bthe (real |main |actual )?(thing|problem|point|issue) is\b`)
	reClauseEnd      = lazyre.MustCompile(`[,.;:!?…\n]+`)
	reNotClause      = lazyre.MustCompile(`^(not|its not|it s not|thats not|isnt|wasnt|it isnt|it wasnt|i dont mean|i didnt mean|im not|i m not|i am not|i wasnt|i was not|its less|it s less|less)\b`)
)

// correctedTo returns what a correction says is right, in the second person and seven words
// at most ("it was sophie that said the thing"), or "" when no clause of it says so.
func correctedTo(text string, names map[string]bool) string {
	for _, c := range reClauseEnd.Split(strings.ToLower(text), -1) {
		n := plain(c)
		if loc := reTheThingIs.FindStringIndex(n); loc != nil {
			// "i'm bad at stats but the thing is my mum…": what follows "the thing is" is
			// the correction; what comes before it is an aside.
			n = n[loc[1]:]
		}
		n = reCorrectionLead.ReplaceAllString(strings.TrimSpace(n), "")
		if n == "" || reNotClause.MatchString(n) {
			continue
		}
		w := strings.Fields(n)
		if len(w) > 7 {
			// A long clause is cut at its first link after a few words, else at seven.
			cut := 7
			for i := 2; i < 7; i++ {
				if w[i] == "and" || w[i] == "but" || w[i] == "so" || w[i] == "because" || w[i] == "bc" {
					cut = i
					break
				}
			}
			w = w[:cut]
		}
		for i := 2; i < len(w); i++ {
			// "my sister not my mum": what is right ends where what is not begins.
			if w[i] == "not" && !notModifiers[w[i-1]] && !determiners[w[i-1]] {
				w = w[:i]
				break
			}
		}
		for len(w) > 1 && (trailWords[w[len(w)-1]] || determiners[w[len(w)-1]] || keptTail[w[len(w)-1]]) {
			w = w[:len(w)-1]
		}
		if len(w) < 2 {
			continue
		}
		w = youForm(w)
		for i, x := range w {
			if names[x] && !gistPeople[x] {
				w[i] = capFirst(x)
			} else if a, ok := apostrophes[x]; ok {
				w[i] = a
			} else if a, ok := contractions[x]; ok {
				w[i] = a
			}
		}
		return strings.Join(w, " ")
	}
	return ""
}

// trailWords do not end a phrase said back: they lead on to what was cut.
var trailWords = setOf("and", "or", "but", "so", "because", "bc", "to", "of", "in", "on", "at", "for",
	"with", "about", "from", "by", "as", "into", "that", "which", "who", "if", "when", "than",
	"then", "is", "are", "was", "were", "be", "been", "being", "am", "just", "really", "very",
	"not", "like", "even", "im", "i", "we", "they", "he", "she", "its", "dont", "didnt",
	"hes", "shes", "theyre", "theyve", "hed", "shed", "ive", "id", "ill", "youre", "has", "have", "had")

var contractions = map[string]string{"didnt": "didn't", "dont": "don't", "doesnt": "doesn't", "isnt": "isn't",
	"wasnt": "wasn't", "cant": "can't", "wont": "won't", "its": "it's", "thats": "that's", "youre": "you're"}

var (
	correctionWhat = lines(false,
		"Ah, I had that wrong: {what}.",
		"Thanks for putting me straight: {what}.",
		"Got it, so {what}.",
		"Okay, thanks for correcting me: {what}.",
	)
)

// correction answers a correction that is not a "not X, it's Y" contrast: it says back what
// is right (correctedTo).
func (r *reply) correction() bool {
	v := r.copyVals()
	src := r.cur.text
	if r.cur.kept != "" {
		src = r.cur.kept
	}
	// Nothing of a flagged message is said back.
	if w := correctedTo(src, r.s.people.keys()); w != "" && !r.cur.flagged {
		v["what"] = w
	}
	if r.main != nil {
		v["topic"] = r.main.short
	}
	// With nothing to say back, the correction is left to the reflective dialogue: a
	// thanks for a correction not understood would pretend otherwise.
	if !r.w.add(keepAck, "correction", v, correctionWhat) {
		return false
	}
	r.vals = v
	if r.main != nil {
		r.question(false)
	} else {
		r.w.add(keepQuestion, "contrastQ", v, contrastQ, qGeneric)
	}
	return true
}
