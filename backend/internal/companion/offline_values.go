package companion

import (
	"slices"
	"sort"
	"strings"
	"unicode"
)

// feelingWords are the ways the engine names an emotion: as a noun ("anxiety"), how the
// user feels ("anxious"), what the situation sounds like ("nerve-racking") and how a day
// or a thing weighs ("tense").
type feelingWords struct {
	noun, adj, situation, weight string
	positive                     bool
}

var feelingTalk = map[string]feelingWords{
	"anxiety":     {"anxiety", "anxious", "nerve-racking", "tense", false},
	"stress":      {"stress", "stressed", "stressful", "heavy", false},
	"overwhelm":   {"overwhelm", "overwhelmed", "like a lot", "heavy", false},
	"sadness":     {"sadness", "sad", "painful", "heavy", false},
	"loneliness":  {"loneliness", "lonely", "lonely", "lonely", false},
	"anger":       {"anger", "angry", "infuriating", "frustrating", false},
	"frustration": {"frustration", "frustrated", "frustrating", "frustrating", false},
	"guilt":       {"guilt", "guilty", "heavy", "heavy", false},
	"shame":       {"self-doubt", "down on yourself", "hard", "hard", false},
	"confusion":   {"confusion", "unsure", "confusing", "confusing", false},
	"fear":        {"fear", "scared", "scary", "scary", false},
	"tiredness":   {"tiredness", "worn out", "draining", "draining", false},
	"joy":         {"joy", "happy", "good", "good", true},
	"gratitude":   {"gratitude", "grateful", "meaningful", "good", true},
	"hope":        {"hope", "hopeful", "hopeful", "hopeful", true},
	"calm":        {"calm", "calm", "steadier", "steady", true},
	"pride":       {"pride", "proud", "worth being proud of", "good", true},
	"love":        {"love", "cared for", "meaningful", "good", true},
}

func setFeeling(v map[string]string, label string) {
	f, ok := feelingTalk[label]
	if !ok {
		return
	}
	v["feeling"], v["fadj"], v["situation"], v["weight"] = f.noun, f.adj, f.situation, f.weight
}

func be(plural bool) string {
	if plural {
		return "are"
	}
	return "is"
}

// values fills the placeholders from the session.
func (r *reply) values() {
	v := map[string]string{}
	r.vals = v
	for _, it := range r.s.tracked() {
		if it.kind == kindEvent || it.kind == kindPerson {
			r.threads = append(r.threads, it)
		}
	}
	r.main = mainItem(r.cur.items)
	if (r.main == nil || r.main.kind == kindDay) && len(r.s.turns) > 1 {
		// A message with nothing new to name ("it's due Friday") stays with the thread
		// of the message before, with its day if it gives one.
		if prev := mainItem(r.s.turns[len(r.s.turns)-2].items); prev != nil && (prev.kind == kindEvent || prev.kind == kindPerson) &&
			!slices.ContainsFunc(r.cur.denied, func(d item) bool { return d.key == prev.key }) {
			// (Not what the new message says it is not about.)
			m := *prev
			if r.main != nil && prev.kind == kindEvent && !strings.Contains(m.full, r.main.on) {
				m.full = m.short + " " + r.main.on
			}
			r.main, r.cont = &m, true
		}
	}
	if m := r.main; m != nil && (m.kind == kindEvent || m.kind == kindPerson) {
		v["topic"], v["topicFull"], v["be"] = m.short, m.full, be(m.plural)
	}
	for _, it := range r.cur.items {
		switch {
		case it.kind == kindPerson && v["person"] == "":
			v["person"] = it.short
		case it.kind == kindPlace && v["place"] == "":
			v["place"] = it.short
		case it.kind == kindDay && v["day"] == "":
			v["day"], v["dayOn"] = it.short, it.on
			if isWeekday(it.short) && !strings.HasSuffix(it.short, "s") {
				v["morning"] = it.on + " morning"
			} else if it.short == "tomorrow" {
				v["morning"] = "tomorrow morning"
			}
		}
	}
	if len(r.cur.feelings) > 0 {
		setFeeling(v, r.cur.feelings[0])
		r.positive = feelingTalk[r.cur.feelings[0]].positive
		var named []string
		for _, f := range r.cur.feelings[:min(2, len(r.cur.feelings))] {
			if feelingTalk[f].positive == r.positive {
				named = append(named, feelingTalk[f].noun)
			}
		}
		v["curFeelings"] = joinAnd(named)
	}
	var nouns, adjs []string
	for _, f := range r.s.feelings(2, false) {
		nouns = append(nouns, feelingTalk[f].noun)
		adjs = append(adjs, feelingTalk[f].adj)
	}
	v["feelings"], v["fadjs"] = joinAnd(nouns), joinAnd(adjs)

	// The session's threads, the three most recently mentioned, in order of mention.
	recent := append([]item(nil), r.threads...)
	if len(recent) > 3 {
		recent = latest(recent, 3)
	}
	var fulls []string
	for _, it := range recent {
		fulls = append(fulls, it.full)
	}
	switch len(recent) {
	case 0:
	case 1:
		v["one"], v["oneBe"] = recent[0].full, be(recent[0].plural)
	default:
		v["list"], v["listBe"] = joinAnd(fulls), "are"
	}
	// What the user is carrying: events, not people.
	var burden []string
	for _, it := range recent {
		if it.kind == kindEvent {
			burden = append(burden, it.full)
		}
	}
	v["burden"] = joinAnd(burden)
	if n := len(r.threads); n > 0 {
		last := r.threads[n-1]
		if n > 1 {
			v["either"], v["or"] = r.threads[n-2].short, last.short
		}
		for i := n - 1; i >= 0; i-- {
			key := "thread"
			if r.threads[i].kind == kindPerson {
				key = "threadPerson"
			}
			if v[key] == "" {
				v[key] = r.threads[i].short
			}
		}
	}
	r.earlier(v)
	r.profileValues(v)
	if line, ok := r.memoryClause(); ok {
		for k, x := range line {
			v[k] = x
		}
	}
}

// latest returns the n items mentioned last, in order of first mention.
func latest(items []item, n int) []item {
	idx := make([]int, len(items))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return items[idx[a]].turn > items[idx[b]].turn })
	keep := append([]int(nil), idx[:n]...)
	sort.Ints(keep)
	out := make([]item, len(keep))
	for i, k := range keep {
		out[i] = items[k]
	}
	return out
}

// mainItem is what a message is mainly about: its first event, else person, else place,
// else day.
func mainItem(items []item) *item {
	for _, kind := range []itemKind{kindEvent, kindPerson, kindPlace, kindDay} {
		for i := range items {
			if items[i].kind == kind && !(kind == kindDay && items[i].attached) {
				return &items[i]
			}
		}
	}
	return nil
}

// earlier sets {earlier}: up to two threads last mentioned at least two messages ago and
// not in the new message, with {now} (what the new message is about) to link them to.
func (r *reply) earlier(v map[string]string) {
	curIdx := len(r.s.turns) - 1
	inCur := map[string]bool{}
	for _, it := range r.cur.items {
		inCur[kindKey(it)] = true
	}
	var picks []string
	for i := len(r.threads) - 1; i >= 0 && len(picks) < 2; i-- {
		it := r.threads[i]
		if it.turn <= curIdx-2 && !inCur[kindKey(it)] {
			picks = append([]string{it.full}, picks...)
		}
	}
	if len(picks) == 0 {
		return
	}
	v["earlier"] = joinAnd(picks)
	now := ""
	plural := false
	for _, it := range r.cur.items {
		if it.kind == kindDay {
			now = it.short
			break
		}
	}
	if now == "" && r.main != nil {
		now, plural = r.main.short, r.main.plural
	}
	if now == "" {
		return
	}
	v["now"], v["feels"] = now, "feels"
	if plural {
		v["feels"] = "feel"
	}
	if v["weight"] == "" {
		v["weight"] = "heavy"
		if f := r.s.feelings(1, false); len(f) > 0 {
			v["weight"] = feelingTalk[f[0]].weight
		}
	}
}

// profileValues sets {focus} (the first focus area) and {concern} (a primary concern the
// new message touches and no reply has named yet); neither when it is a sensitive topic.
func (r *reply) profileValues(v map[string]string) {
	p := r.s.profile
	for _, f := range splitList(p.FocusAreas) {
		if len(strings.Fields(f)) <= 4 && !mentionsAny(f, p.SensitiveTopics) {
			v["focus"] = strings.ToLower(oneLine(f))
			break
		}
	}
	msg := strings.Fields(plain(r.cur.text))
	for _, c := range splitList(p.PrimaryConcerns) {
		if len(strings.Fields(c)) > 5 || mentionsAny(c, p.SensitiveTopics) || r.saidAnywhere(c) {
			continue
		}
		for _, cw := range strings.Fields(plain(c)) {
			if len(cw) < 4 || notModifiers[cw] {
				continue
			}
			for _, mw := range msg {
				if len(mw) >= 4 && (strings.HasPrefix(mw, cw) || strings.HasPrefix(cw, mw)) {
					v["concern"] = strings.ToLower(oneLine(c))
					return
				}
			}
		}
	}
}

// Verbs a remembered sentence may start with ("Has a midterm on Tuesday"), in the third
// person, with how they read after "you".
var memoryVerbs = map[string]string{
	"has": "have", "is": "are", "was": "were", "does": "do", "goes": "go", "had": "had",
	"went": "went", "got": "got", "lost": "lost", "left": "left", "felt": "felt",
	"made": "made", "began": "began", "broke": "broke", "won": "won", "took": "took",
}

// memoryClause turns a memory into the values of a line that picks up its thread (see
// memoryValues). It is offered once, in the first reply, unless the welcome already picked
// up a thread.
func (r *reply) memoryClause() (map[string]string, bool) {
	if r.k != 1 {
		return nil, false
	}
	for _, said := range r.s.said {
		if strings.Contains(said, "Last time you mentioned") {
			return nil, false
		}
	}
	return memoryValues(r.s.memories, r.s.profile.SensitiveTopics)
}

// memoryValues turns the best memory to pick up (memories are newest first; the newest
// that names an event with a day, else the newest usable one) into the values of a line
// that picks up its thread: {memEvent} for an event with a day ("how did it go?"),
// {memory} when it starts with a verb, {memNoun} otherwise.
func memoryValues(memories []string, sensitive string) (map[string]string, bool) {
	var first map[string]string
	for _, m := range memories {
		v, ok := memoryValue(m, sensitive)
		switch {
		case !ok:
		case v["memEvent"] != "":
			return v, true
		case first == nil:
			first = v
		}
	}
	return first, first != nil
}

// memoryValue is the values of one memory, or false when it does not read well after
// "you", is too long, or touches on risk or a sensitive topic.
func memoryValue(m, sensitive string) (map[string]string, bool) {
	m = strings.TrimRight(oneLine(CleanText(m)), ".!?… ")
	words := strings.Fields(m)
	if len(words) < 2 || len(words) > 16 || flagged(m) || mentionsAny(m, sensitive) {
		return nil, false
	}
	for i, w := range words[1:] {
		// Remembered sentences speak of the user as "they": said back, "your".
		switch strings.ToLower(w) {
		case "their":
			words[i+1] = "your"
		case "themselves":
			words[i+1] = "yourself"
		}
	}
	first := strings.ToLower(words[0])
	verb, ok := memoryVerbs[first]
	switch {
	case ok:
	case strings.HasSuffix(first, "ed") && len(first) > 4:
		verb, ok = first, true
	case strings.HasSuffix(first, "ies") && len(first) > 4:
		verb, ok = strings.TrimSuffix(first, "ies")+"y", true
	case strings.HasSuffix(first, "s") && !strings.HasSuffix(first, "ss") && len(first) > 3 && unicode.IsUpper([]rune(words[0])[0]) && !subjects[first]:
		verb, ok = strings.TrimSuffix(first, "s"), true
	}
	if !ok {
		if first == "my" || first == "their" {
			words[0] = "your" // "Their boyfriend is in the army" → "your boyfriend is…"
		}
		return map[string]string{"memNoun": strings.Join(words, " ")}, true
	}
	clause := "you " + verb + " " + strings.Join(words[1:], " ")
	hasDay, hasEvent := false, false
	for _, it := range extractItems(m) {
		hasDay = hasDay || it.kind == kindDay
		hasEvent = hasEvent || it.kind == kindEvent
	}
	if hasDay && hasEvent {
		return map[string]string{"memEvent": clause}, true
	}
	return map[string]string{"memory": clause}, true
}

// memoryThread is the line that picks up a thread from an earlier session.
func (r *reply) memoryThread() (string, bool) {
	return r.w.pick("memory", r.vals, nil, memoryLines...)
}

// withSessionFeeling returns the values with the session's main feeling when the new
// message names none.
func (r *reply) withSessionFeeling() map[string]string {
	v := r.copyVals()
	if v["feeling"] == "" {
		if f := r.s.feelings(1, false); len(f) > 0 {
			setFeeling(v, f[0])
		}
	}
	return v
}

func (r *reply) copyVals() map[string]string {
	v := make(map[string]string, len(r.vals))
	for k, x := range r.vals {
		v[k] = x
	}
	return v
}
