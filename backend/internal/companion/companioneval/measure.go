package companioneval

import (
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/percolate/percolate/backend/internal/companion"
)

// Figures are the automatic figures of a set of runs (issue 34, section 7).
type Figures struct {
	Conversations, Turns, EngineReplies int
	// RepeatedSentences counts engine sentences said before in the same conversation.
	RepeatedSentences int
	// Echoes counts replies that repeat a run of eight or more of the student's words.
	Echoes int
	// Generic counts replies that name no topic word of the conversation so far.
	Generic             int
	Answered, Questions int
	AnsweredByKind      map[string][2]int
	Callbacks, Resolved int
	Negations, Kept     int
	Probes, Misread     int
	Focus, FocusHit     int
	Corrections, Taken  int
	Goodbyes, SaidBye   int
	GoodNews, MetGood   int
	Summaries           int
	// Acts, ActsRead: turns labelled with an act (a question's kind, good news, a goodbye,
	// a callback) and those whose act the engine read the same way.
	Acts, ActsRead      int
	FactRich, Facts     int
	Followups, Recalled int
	// Pairs, SameStructure: two engine replies in a row, and those with the same structure
	// (the engine's own moves, companion.ReplyStructure).
	Pairs, SameStructure int
	// ShortTurns, ShortWords: the student's very short turns (two words or fewer, no
	// question: "yeah", "idk", "lol") and the words of the replies to them; OtherTurns and
	// OtherWords the same for every other turn. Goodbyes are left out of both.
	ShortTurns, ShortWords, OtherTurns, OtherWords int
	// The session arc: conversations whose replies reach a summary (the focus) and a small
	// step, and, of those where the student says goodbye, those closed with a takeaway.
	ReachFocus, ReachStep, Closable, Closed int
	Times                                   []time.Duration
	// Failed counts the replies a model failed to write (left out of every other figure).
	Failed int
	// Model: the replies are a model's; the offline engine's own figures (acts read as
	// labelled, the structure of its moves) do not apply.
	Model    bool
	keywords bool
}

// labelledAct is the act a turn's annotation names, if any.
func labelledAct(e Expect) string {
	switch {
	case e.Answer:
		return e.Kind
	case e.Goodbye:
		return "goodbye"
	case e.Callback != "":
		return "callback"
	case e.GoodNews:
		return "good_news"
	}
	return ""
}

// Measure runs every conversation through engine and measures the replies.
func Measure(convs []Conversation, engine *companion.Offline) Figures {
	runs := make([]Run, len(convs))
	for i, c := range convs {
		runs[i] = Converse(c, engine)
	}
	return Tally(runs, engine.Keywords, false)
}

// Tally measures runs already made: the offline engine's (keywords: with the encoder
// ablated) or, with model, a model's.
func Tally(runs []Run, keywords, model bool) Figures {
	f := Figures{AnsweredByKind: map[string][2]int{}, keywords: keywords, Model: model}
	for _, r := range runs {
		f.add(r)
	}
	return f
}

var (
	reSentence = regexp.MustCompile(`[^.!?]+[.!?]*`)
	reSummary  = regexp.MustCompile(`(?i)so far i'?m hearing|so far you'?ve (told|talked)|to sum up|what i'?m hearing so far`)
	// Deflections are the ways a reply turns a question back without answering it.
	reDeflect  = regexp.MustCompile(`(?i)what'?s your own best guess|i only know what you'?ve told me|i can'?t tell you what to do|only you can (decide|know)`)
	reFarewell = regexp.MustCompile(`(?i)\b(bye|goodbye|take care|see you|talk soon|good luck|go well|come back|here whenever|here when you)\b`)
	reGoodNews = regexp.MustCompile(`(?i)\b(congrat\w*|well done|brilliant|amazing|great news|good news|so glad|glad|proud|wonderful|fantastic|relief|nice one|that'?s great|celebrat\w*)\b`)
)

func (f *Figures) add(run Run) {
	f.Conversations++
	seen := map[string]bool{}
	var grams = map[string]bool{}
	var topic []string
	prev := ""
	focus, step, bye, closed := false, false, false, false
	for i, ex := range run.Exchanges {
		f.Turns++
		for _, g := range ngrams(userWords(ex.Turn.User), 8) {
			grams[g] = true
		}
		topic = append(topic, content(ex.Turn.User)...)
		if ex.Failed {
			f.Failed++
		}
		bye = bye || ex.Turn.Expect.Goodbye
		if !ex.Engine {
			prev = ""
			continue
		}
		f.EngineReplies++
		f.Times = append(f.Times, ex.Elapsed)
		reply, low := ex.Reply, strings.ToLower(ex.Reply)
		moves := companion.ReplyMoves(reply)
		structure := strings.Join(moves, "+")
		if prev != "" {
			f.Pairs++
			if structure == prev {
				f.SameStructure++
			}
		}
		prev = structure
		focus = focus || slices.Contains(moves, companion.MoveSummary)
		step = step || slices.Contains(moves, companion.MoveStep)
		closed = closed || slices.Contains(moves, companion.MoveClose)
		if n := len(strings.Fields(strings.TrimPrefix(reply, companion.Disclosure))); ex.Turn.Expect.Goodbye {
			// A goodbye gets its close, whatever its length.
		} else if shortTurn(ex.Turn.User) {
			f.ShortTurns++
			f.ShortWords += n
		} else {
			f.OtherTurns++
			f.OtherWords += n
		}
		for _, k := range sentenceKeys(reply) {
			if seen[k] {
				f.RepeatedSentences++
			}
			seen[k] = true
		}
		for _, g := range ngrams(userWords(reply), 8) {
			if grams[g] {
				f.Echoes++
				break
			}
		}
		e := ex.Turn.Expect
		if want := labelledAct(e); want != "" && !f.Model {
			f.Acts++
			if companion.MessageAct(ex.Turn.User, f.keywords) == want {
				f.ActsRead++
			}
		}
		if !e.Goodbye && !mentions(low, topic) {
			f.Generic++
		}
		if reSummary.MatchString(reply) {
			f.Summaries++
		}
		if e.Answer {
			f.Questions++
			ok := !reDeflect.MatchString(reply) && statements(reply) >= 2 && mentions(low, content(ex.Turn.User+" "+e.Focus))
			k := f.AnsweredByKind[e.Kind]
			k[1]++
			if ok {
				f.Answered++
				k[0]++
			}
			f.AnsweredByKind[e.Kind] = k
		}
		if e.Callback != "" {
			f.Callbacks++
			if mentions(low, content(e.Callback)) {
				f.Resolved++
			}
		}
		if e.Focus != "" {
			f.Focus++
			if mentions(low, content(e.Focus)) {
				f.FocusHit++
			}
		}
		negOK := keptNegation(low, e)
		if e.NotFocus != "" || e.NotFeeling != "" {
			f.Negations++
			if negOK {
				f.Kept++
			}
		}
		good := reGoodNews.MatchString(reply) || positive(companion.DetectEmotions(reply, 5))
		if e.GoodNews {
			f.GoodNews++
			if good {
				f.MetGood++
			}
		}
		if e.NotFocus != "" || e.NotFeeling != "" || e.GoodNews || e.Feeling != "" {
			f.Probes++
			if !negOK || (e.GoodNews && !good) || flipped(reply, e.Feeling) {
				f.Misread++
			}
		}
		if e.Correction {
			f.Corrections++
			if negOK && (e.Focus == "" || mentions(low, content(e.Focus))) {
				f.Taken++
			}
		}
		if e.Goodbye {
			f.Goodbyes++
			if !strings.Contains(reply, "?") && reFarewell.MatchString(reply) {
				f.SaidBye++
			}
		}
		_ = i
	}
	if focus {
		f.ReachFocus++
	}
	if step {
		f.ReachStep++
	}
	if bye {
		f.Closable++
		if closed {
			f.Closed++
		}
	}
	if len(run.Conv.Facts) >= 5 {
		f.FactRich++
		f.Facts += len(run.Memories)
	}
	if fu := run.Conv.Followup; fu != nil && len(fu.ExpectRecall) > 0 {
		f.Followups++
		if recalledFact(run, fu.ExpectRecall) {
			f.Recalled++
		}
	}
}

// keptNegation: the reply attributes no feeling the student denied, and is not about what
// the student said it is not about (unless it also names what it is about).
func keptNegation(low string, e Expect) bool {
	if e.NotFeeling != "" {
		if mentions(low, content(e.NotFeeling)) {
			return false
		}
		denied := companion.DetectEmotions(e.NotFeeling, 3)
		for _, got := range companion.DetectEmotions(low, 5) {
			if slices.Contains(denied, got) {
				return false
			}
		}
	}
	if e.NotFocus != "" && mentions(low, content(e.NotFocus)) && !mentions(low, content(e.Focus)) {
		return false
	}
	return true
}

var goodLabels = []string{"joy", "gratitude", "hope", "calm", "pride", "love"}

func positive(labels []string) bool {
	for _, l := range labels {
		if slices.Contains(goodLabels, l) {
			return true
		}
	}
	return false
}

// flipped: the reply names only feelings of the other valence than the annotated one.
func flipped(reply, feeling string) bool {
	want := companion.DetectEmotions(feeling, 2)
	got := companion.DetectEmotions(reply, 5)
	if len(want) == 0 || len(got) == 0 {
		return false
	}
	return positive(want) != positive(got) && !slices.ContainsFunc(got, func(g string) bool { return slices.Contains(want, g) })
}

// shortTurn: a student's turn of two words or fewer that asks nothing ("yeah", "idk",
// "kinda", "lol", "not really").
func shortTurn(text string) bool {
	return len(userWords(text)) <= 2 && !strings.Contains(text, "?")
}

// sentenceKeys are the reply's sentences of three words or more, compared as plain words.
func sentenceKeys(reply string) []string {
	var out []string
	for _, s := range reSentence.FindAllString(reply, -1) {
		if k := strings.Join(userWords(s), " "); len(strings.Fields(k)) >= 3 {
			out = append(out, k)
		}
	}
	return out
}

// statements counts a reply's sentences that are not questions.
func statements(reply string) int {
	n := 0
	for _, s := range reSentence.FindAllString(reply, -1) {
		if len(strings.Fields(s)) >= 4 && !strings.HasSuffix(strings.TrimSpace(s), "?") {
			n++
		}
	}
	return n
}

func ngrams(w []string, n int) []string {
	var out []string
	for i := 0; i+n <= len(w); i++ {
		out = append(out, strings.Join(w[i:i+n], " "))
	}
	return out
}

// content returns a text's topic words: no stop words, no fillers, three letters or more,
// cut to a stem of six letters so that "projects" finds "project".
func content(s string) []string {
	var out []string
	for _, w := range userWords(s) {
		if len(w) < 3 || stop[w] {
			continue
		}
		if len(w) > 6 {
			w = w[:6]
		}
		out = append(out, w)
	}
	return out
}

// mentions reports whether the lower-case reply holds a word starting with one of stems.
func mentions(low string, stems []string) bool {
	if len(stems) == 0 {
		return false
	}
	for _, w := range userWords(low) {
		for _, s := range stems {
			if strings.HasPrefix(w, s) {
				return true
			}
		}
	}
	return false
}

var stop = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`about above after again against also always anyway back been before being below
	between both cant cause could couldnt didnt does doesnt doing done dont down during each even ever every from
	further gonna gotta guess had hadnt have havent having here hers herself himself hmmm however idk ill im into isnt
	itself ive just keep kind kinda know like literally lol make maybe more most much must myself never next ngl
	nothing okay only other ought ours ourselves over own really right said same says shall shes should shouldnt
	since some something still such sure tbh than thank thanks that thats their theirs them themselves then there
	theres these they theyre thing things think this those though through thing too under until very want wanted
	wants wasnt well were werent what whats when where which while whom whose will with wont would wouldnt yeah
	your youre yours yourself yourselves going getting actually basically honestly probably feel feeling feels felt
	hiii heyy hey hello time times today good okay anything everything someone something because yeah also still
	tell told talk talking week though pretty stuff lots even tho bit much many
	the and you but was got for are not its can did had has her him his how its lot may now off one our out own
	she too two way who why yes yet all any ask bad big day get let man new old put say see set try use wow yep
	omg aww tho bcs coz cos gon lmao haha hmm okk`) {
		m[w] = true
	}
	return m
}()

// recalledFact: the next session's welcome picks up a remembered fact with an expected word,
// the word being in the thread the memories gave and in a memory itself. The welcome's own
// words ("sort through your thoughts") recall nothing: with no memories nothing is recalled.
func recalledFact(run Run, expect []string) bool {
	thread := strings.ToLower(run.Thread)
	kept := strings.ToLower(strings.Join(run.Memories, " "))
	if thread == "" || kept == "" {
		return false
	}
	for _, s := range content(strings.Join(expect, " ")) {
		if mentions(thread, []string{s}) && mentions(kept, []string{s}) {
			return true
		}
	}
	return false
}
