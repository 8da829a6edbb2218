package companion

import (
	"strings"

	"github.com/percolate/percolate/backend/internal/lazyre"
)

// callback picks up what the user goes back to: an earlier thread named in the message, or
// the words after "going back to" that were said before.
func (r *reply) callback() bool {
	if p := r.personCalledBack(); p != nil {
		// "going back to what i said about marcus": Marcus, and what was said about him.
		v := r.copyVals()
		v["cb"] = p.name
		if cb := r.callbackThread(); len(cb) > len(p.name) && strings.HasPrefix(strings.ToLower(cb), strings.ToLower(p.name)) {
			// "going back to tilly's dm": what of Tilly's the user goes back to.
			v["cb"] = cb
		}
		v["said"] = p.saidBefore(len(r.s.turns) - 1)
		if w := restated(r.cur.text); w == "" || r.cur.flagged || !r.w.add(keepAck+1, "restated", withWhat(v, w), callbackRestated) {
			r.w.add(keepAck, "callback", v, callbackSaid, callbackLines)
		}
		if len(r.cur.feelings) > 0 {
			r.w.add(keepAck-1, "ack", v, ackFeeling)
		}
		r.w.add(keepQuestion, "callbackQ", v, callbackQ, qGeneric)
		return true
	}
	cb := r.callbackThread()
	if cb == "" {
		return false
	}
	v := r.copyVals()
	v["cb"] = cb
	if w := restated(r.cur.text); w == "" || r.cur.flagged || !r.w.add(keepAck+1, "restated", withWhat(v, w), callbackRestated) {
		r.w.add(keepAck, "callback", v, callbackLines)
	}
	if len(r.cur.feelings) > 0 {
		r.w.add(keepAck-1, "ack", v, ackFeeling)
	}
	r.w.add(keepQuestion, "callbackQ", v, callbackQ, qGeneric)
	return true
}

func (r *reply) callbackThread() string {
	earlier := map[string]bool{}
	for _, u := range r.s.turns[:len(r.s.turns)-1] {
		if !u.flagged {
			for _, w := range strings.Fields(plain(u.text)) {
				earlier[w] = true
			}
		}
	}
	n := plain(r.cur.text)
	if loc := reCallback.FindStringIndex(n); loc != nil {
		if m := reThingCalledBack.Regexp().FindStringSubmatchIndex(n[loc[0]:loc[1]]); m != nil {
			// "the mia thing": what is between "the" and "thing".
			if cb := r.namedAfter(strings.Fields(n[loc[0]+m[2]:loc[0]+m[3]]), earlier); cb != "" {
				return cb
			}
		}
		// "back to the test": the determiner belongs to what follows.
		for _, d := range []string{" the", " my", " what", " your", " him", " her", " that"} {
			if strings.HasSuffix(n[:loc[1]], d) {
				loc[1] -= len(d)
				break
			}
		}
		if cb := r.namedAfter(strings.Fields(n[loc[1]:]), earlier); cb != "" {
			return cb
		}
	}
	// A tracked thread the message names again.
	for _, it := range r.cur.items {
		if it.kind != kindDay && earlier[strings.Fields(it.key)[0]] {
			return it.short
		}
	}
	// "what i said earlier": the latest thread before this message, else the latest.
	now := len(r.s.turns) - 1
	for i := len(r.threads) - 1; i >= 0; i-- {
		if r.threads[i].turn < now {
			return r.threads[i].short
		}
	}
	if n := len(r.threads); n > 0 {
		return r.threads[n-1].short
	}
	return ""
}

// personCalledBack is the person a callback goes back to: named in the few words after the
// callback phrase ("going back to what i said about marcus"), or "he" or "she" there for the
// person mentioned last ("back to what she said"). nil when the callback names no one.
func (r *reply) personCalledBack() *person {
	n := plain(r.cur.text)
	loc := reCallback.FindStringIndex(n)
	if loc == nil {
		return nil
	}
	if m := reThingCalledBack.FindStringSubmatch(n[loc[0]:loc[1]]); m != nil {
		// "you know the mia thing, she messaged me": the thing is what is called back, not
		// whoever "she" was last.
		return r.s.people.find(m[1])
	}
	words := strings.Fields(n[loc[0]:])
	return r.s.people.mentioned(words[:min(len(words), 9)])
}

// reThingCalledBack is the "the mia thing" of a callback.
var reThingCalledBack = lazyre.MustCompile(`\bthe (\w+)(?: \w+)? (?:thing|situation|stuff)\b`)

var callbackSaid = lines(false,
	"Back to {cb}, then. Earlier you said {said}.",
	"Yes, {cb}: you told me {said}, and it sounds like that's still with you.",
	"Coming back to {cb}: earlier you said {said}.",
)

// namedAfter reads what follows "going back to": the first word said earlier in the session
// ("marcus", "the navy photos", "tilly's dm"), or a name right after the phrase.
func (r *reply) namedAfter(words []string, earlier map[string]bool) string {
	for i, w := range words {
		if i > 6 {
			break
		}
		base := w
		possessive := false
		if strings.HasSuffix(w, "s") && !earlier[w] && earlier[strings.TrimSuffix(w, "s")] {
			base, possessive = strings.TrimSuffix(w, "s"), true
		}
		known := earlier[base] || i == 0 && len(base) >= 3
		if len(base) < 3 || !known || notModifiers[base] || determiners[base] || callbackFiller[base] ||
			commonStarters[base] || strings.HasSuffix(base, "ing") || isFeelingWord(base) || isShortWord(base) {
			continue
		}
		// A thread of the session with the word ("back to the driving test" → "your driving
		// test"): named as the session named it.
		for k := len(r.threads) - 1; k >= 0; k-- {
			if th := r.threads[k]; th.kind == kindEvent && strings.Contains(" "+strings.ToLower(th.short)+" ", " "+base+" ") {
				return th.short
			}
		}
		_, _, event := eventLemma(base)
		phrase := []string{base}
		if possessive {
			phrase = []string{capFirst(base) + "'s"}
		}
		if i+1 < len(words) && (earlier[words[i+1]] || possessive) && !notModifiers[words[i+1]] && !callbackFiller[words[i+1]] && !determiners[words[i+1]] {
			phrase = append(phrase, words[i+1])
		}
		if i > 0 && (words[i-1] == "my" || words[i-1] == "the") {
			return strings.Join(append([]string{youForm(words[i-1 : i])[0]}, phrase...), " ")
		}
		if len(phrase) == 1 && !event && !relations[base] && !subjects[base] {
			return capFirst(base)
		}
		return strings.Join(phrase, " ")
	}
	return ""
}

// callbackFiller are words after "going back to" that are not what the user goes back to.
var callbackFiller = setOf("said", "what", "about", "earlier", "before", "thing", "bit", "tho", "though", "like", "yeah", "anyway", "guess", "think", "kinda", "actually", "care", "its", "lol", "tbh", "that", "this", "him", "her", "them", "was", "were", "bad", "good", "fine", "okay", "sure", "true", "honestly", "last", "month", "week", "year")

var (
	// reRestate is a callback that says something again ("like i said, …").
	reRestate        = lazyre.MustCompile(`\b(like i said|as i said|like i mentioned|as i mentioned|i said (earlier|before))\b`)
	callbackRestated = lines(false,
		"Yes, you said that before: {what}.",
		"Right, {what}; you mentioned that earlier.",
		"I remember: {what}.",
	)
)

// restated is what a "like i said" callback says again, in the second person and seven words
// at most ("like i said its not like we're fighting" → "it's not like we're fighting"); ""
// for any other callback.
func restated(text string) string {
	low := strings.ToLower(strings.NewReplacer("’", "'").Replace(text))
	loc := reRestate.FindStringIndex(noApostrophes.Replace(low))
	if loc == nil {
		return ""
	}
	// The match is on the text without apostrophes: find the same place in low.
	rest := low
	for k, skipped := 0, 0; k < len(low); k++ {
		if low[k] == '\'' {
			skipped++
			continue
		}
		if k-skipped == loc[1] {
			rest = low[k:]
			break
		}
	}
	for _, x := range reClauseEnd.Split(rest, -1) {
		var w []string
		for _, f := range strings.Fields(x) {
			if f = strings.Trim(f, "\"()*-"); f != "" {
				w = append(w, f)
			}
		}
		for len(w) > 0 && (w[0] == "earlier" || w[0] == "before") {
			w = w[1:]
		}
		if len(w) == 0 {
			continue
		}
		if w[0] == "about" {
			// "like i said about marcus": a pointer back to what was said, which restates nothing.
			return ""
		}
		if len(w) > 7 {
			w = w[:7]
		}
		for len(w) > 1 && (trailWords[plain(w[len(w)-1])] && w[len(w)-1] != "not" || determiners[w[len(w)-1]] || keptTail[w[len(w)-1]]) {
			w = w[:len(w)-1]
		}
		if len(w) < 2 {
			return ""
		}
		for i, x := range w {
			k := noApostrophes.Replace(x)
			if y, ok := youWords[k]; ok {
				w[i] = y
			} else if a, ok := contractions[k]; ok && k == x {
				w[i] = a
			}
		}
		return strings.Join(w, " ")
	}
	return ""
}

func withWhat(v map[string]string, what string) map[string]string {
	out := make(map[string]string, len(v)+1)
	for k, x := range v {
		out[k] = x
	}
	out["what"] = what
	return out
}
