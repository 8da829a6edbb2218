package companion

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// starter is the chat page's opening message (chat.StarterMessage); the welcome answers it.
const starter = "Hello! I'd like to start a new conversation."

// converse plays a scripted conversation through the offline engine the way the chat path
// does: the history holds the starter, the welcome and every earlier exchange.
func converse(t *testing.T, prof Profile, msgs ...string) []string {
	t.Helper()
	o := &Offline{}
	hist := []Turn{{RoleUser, starter}, {RoleAssistant, Welcome("Sam", false)}}
	var replies []string
	for _, m := range msgs {
		r, err := o.Stream(context.Background(), Prompt{History: hist, Message: m, Profile: prof}, func(string) error { return nil })
		if err != nil {
			t.Fatal(err)
		}
		replies = append(replies, r.Text)
		hist = append(hist, Turn{RoleUser, m}, Turn{RoleAssistant, r.Text})
	}
	return replies
}

// stockPools are the lines said at most once a session.
func stockPools() map[string][]tmpl {
	pools := map[string][]tmpl{
		"journal": journalPrompts, "question": qGeneric, "event": qEvent, "prepare": qPrepare,
		"person": qPerson, "feeling": qFeeling, "positive": qPositive, "refer": referBack,
		"summary": summaryLines, "summaryQ": summaryQ, "narrow": narrowGeneric,
		"thread": narrowThread, "either": narrowEither, "narrowPerson": narrowPerson, "greeting": greetingQ, "sigh": sighQ, "validate": validateLines,
		"reframe": reframeLines, "offer": offerQ, "adviceQ": adviceQ,
	}
	for cat, p := range stepsByCat {
		pools["steps "+cat] = p
	}
	for f, p := range stepsByFeeling {
		pools["feeling steps "+f] = p
	}
	return pools
}

// checkSession asserts the rules every reply of a session keeps.
func checkSession(t *testing.T, msgs, replies []string) {
	t.Helper()
	seen := map[string]int{}
	for _, s := range splitSentences(Welcome("Sam", false)) {
		seen[sentenceKey(s)] = -1
	}
	userGrams := map[string]int{}
	for i, r := range replies {
		for _, g := range grams(msgs[i]) {
			if _, ok := userGrams[g]; !ok {
				userGrams[g] = i
			}
		}
		if n := len(strings.Fields(r)); n > ReplyWords || n == 0 {
			t.Errorf("reply %d has %d words: %q", i, n, r)
		}
		if n := strings.Count(r, "?"); n > 1 {
			t.Errorf("reply %d asks %d questions: %q", i, n, r)
		}
		for _, g := range grams(r) {
			if j, ok := userGrams[g]; ok {
				t.Errorf("reply %d copies %q from message %d: %q", i, g, j, r)
			}
		}
		for _, s := range splitSentences(r) {
			if j, ok := seen[sentenceKey(s)]; ok {
				t.Errorf("reply %d repeats %q (said in reply %d)", i, s, j)
			}
			seen[sentenceKey(s)] = i
		}
		if strings.Contains(strings.ToLower(r), "therapy") {
			t.Errorf("reply %d says therapy: %q", i, r)
		}
	}
	for name, pool := range stockPools() {
		for _, tp := range pool {
			var in []int
			for i, r := range replies {
				if tp.in(strings.ToLower(r)) {
					in = append(in, i)
				}
			}
			if len(in) > 1 {
				t.Errorf("%s line %q said in replies %v", name, tp.src, in)
			}
		}
	}
}

var cafeScript = []string{
	"I've been working the late shifts at the café with Maya and I'm exhausted.",
	"My statistics midterm is on Tuesday and I haven't even started revising.",
	"Tuesday already feels so heavy, I can't stop worrying about it.",
	"idk",
	"Maya keeps asking me to cover her shifts and I never say no.",
	"yeah",
	"Am I overreacting?",
	"What should I do?",
	"I guess the late shifts just leave me with no energy for anything else.",
	"lol",
	"Why do I always leave everything to the last minute?",
	"I guess I just feel like a failure sometimes, like everyone else has it together.",
	"Are you a real person?",
	"I'll do that",
	"thanks, bye",
}

var scripts = map[string][]string{
	"café and midterm": cafeScript,
	"good news": {
		"I finally finished my history essay and I'm actually proud of myself.",
		"My roommate Priya helped me plan it out at the library.",
		"It felt good to get it done before the deadline for once.",
		"I want to keep this going for my chemistry exam next week.",
		"I'm a bit nervous about it though.",
		"yeah",
		"What should I do?",
		"That sounds doable.",
		"Is it normal to get nervous even when things go well?",
		"Priya says I worry too much.",
		"ok",
		"I think I'll plan the first study block tomorrow.",
		"What do you think?",
		"I'll try that",
		"thank you, good night",
	},
	"short replies": {
		"hey", "idk", "not much", "school I guess", "yeah", "ok", "lol", "my roommate",
		"tired", "no", "maybe", "hmm", "kinda", "sure", "thanks",
	},
	"questions": {
		"Are you a therapist?",
		"Do you remember what I said yesterday?",
		"My boss keeps scheduling me on Sundays and I have an interview on Monday.",
		"Should I ask for the weekend off or just push through?",
		"Will it get better?",
		"Why does everything happen at once?",
		"How are you?",
		"What should I do?",
		"Am I being dramatic?",
		"What do you think?",
		"Is it weird that I'm relieved when shifts get cancelled?",
		"Who are you, really?",
		"How do I deal with this?",
		"Any tips?",
		"bye",
	},
}

func TestOfflineSessionKeepsItsRules(t *testing.T) {
	prof := Profile{FocusAreas: "sleep, confidence", PrimaryConcerns: "exam stress"}
	for name, msgs := range scripts {
		t.Run(name, func(t *testing.T) {
			checkSession(t, msgs, converse(t, prof, msgs...))
		})
	}
}

func TestOfflineNeverCopiesTheUsersWords(t *testing.T) {
	// A user who writes the engine's own lines back gets none of them repeated.
	var own []string
	for _, pool := range [][]tmpl{qGeneric, ackPlain, narrowGeneric, summaryQ, adviceIntro, adviceQ, validateLines, reframeLines, validateQ, thanksLines, goodbyeLines} {
		for _, tp := range pool {
			own = append(own, tp.src)
		}
	}
	msgs := []string{
		strings.Join(own[:12], " "),
		strings.Join(own[12:30], " "),
		"idk " + strings.Join(own[30:], " "),
		"I have a big presentation on Friday at school with my friend Maya and I feel so anxious about my presentation on Friday at school with Maya.",
		"What should I do? " + strings.Join(own, " "),
		"Am I overreacting? " + strings.Join(own, " "),
	}
	checkSession(t, msgs, converse(t, Profile{}, msgs...))
}

func TestOfflineRefersBackToEarlierThreads(t *testing.T) {
	replies := converse(t, Profile{}, cafeScript[:3]...)
	got := replies[2]
	for _, want := range []string{"Maya", "late shifts", "Tuesday"} {
		if !strings.Contains(got, want) {
			t.Errorf("third reply does not bring back %q: %q", want, got)
		}
	}
	if !strings.HasSuffix(got, "?") {
		t.Errorf("the look back is not a question: %q", got)
	}
}

func TestOfflineAnswersWhatShouldIDoWithStepsFromTheSession(t *testing.T) {
	replies := converse(t, Profile{}, cafeScript[0], cafeScript[1], "What should I do?")
	got := replies[2]
	if !strings.Contains(got, "statistics midterm") && !strings.Contains(got, "Maya") && !strings.Contains(got, "late shifts") {
		t.Errorf("the steps are not drawn from the session: %q", got)
	}
	if !strings.Contains(got, "First, ") || !strings.Contains(got, "Then, ") {
		t.Errorf("not two concrete steps: %q", got)
	}
	if strings.Count(got, "?") != 1 || !strings.HasSuffix(got, "?") {
		t.Errorf("the steps do not end with one question: %q", got)
	}
}

func TestOfflineValidatesAndReframes(t *testing.T) {
	for _, ask := range []string{"Am I overreacting?", "am i being too sensitive", "Is it stupid that I care this much?", "Is it normal to feel like this?"} {
		t.Run(ask, func(t *testing.T) {
			got := converse(t, Profile{}, cafeScript[0], cafeScript[1], ask)[2]
			if !startsWithOneOf(got, validateLines) && !startsWithOneOf(got, normalLines) {
				t.Errorf("no validation first: %q", got)
			}
			if !containsOneOf(got, reframeLines) {
				t.Errorf("no reframe: %q", got)
			}
			if containsOneOf(got, answerQ["other"]) || containsOneOf(got, answerLines["other"]) {
				t.Errorf("deflects: %q", got)
			}
		})
	}
}

func TestOfflineShortRepliesGetANarrowerQuestion(t *testing.T) {
	narrow := [][]tmpl{narrowEither, narrowThread, narrowPerson, narrowFeeling, narrowNo, narrowGeneric, qPerson, qGeneric}
	for _, short := range []string{"idk", "yeah", "ok", "lol", "no", "tired", "Maya", "hmm"} {
		t.Run(short, func(t *testing.T) {
			replies := converse(t, Profile{}, cafeScript[0], cafeScript[1], short)
			got := replies[2]
			if n := len(strings.Fields(got)); n > 30 {
				t.Errorf("%d words is not gentle: %q", n, got)
			}
			if !strings.HasSuffix(got, "?") || !containsOneOf(got, narrow...) {
				t.Errorf("no narrow question: %q", got)
			}
			long := len(strings.Fields(replies[1]))
			if len(strings.Fields(got)) >= long+10 {
				t.Errorf("short reply answered at length (%d words vs %d)", len(strings.Fields(got)), long)
			}
		})
	}
}

func TestOfflineSummarisesEveryFewTurns(t *testing.T) {
	msgs := []string{
		"Work has been a lot lately and my manager keeps adding shifts.",
		"My sister is visiting on Saturday and I haven't cleaned anything.",
		"I also have an essay due on Friday that I keep putting off.",
		"I just feel stretched thin all the time.",
		"Last night I only slept four hours.",
		"My sister always notices when I'm stressed.",
		"The essay is about climate policy, which I actually like.",
		"I keep thinking I should quit the job but I need the money.",
		"Everything feels like it's piling up at the same time.",
		"I miss having time to just read for fun.",
		"My manager is nice but doesn't really listen.",
		"I think I need a proper day off.",
	}
	replies := converse(t, Profile{}, msgs...)
	checkSession(t, msgs, replies)
	first := -1
	for i, r := range replies {
		if strings.Contains(r, "So far I'm hearing") {
			if first < 0 {
				first = i
			}
			if !strings.Contains(r, "essay") && !strings.Contains(r, "sister") && !strings.Contains(r, "manager") {
				t.Errorf("summary %d names none of the threads: %q", i, r)
			}
		}
	}
	// A summary comes once there is something to sum up, and at most once in eight
	// replies: more often, it is a formula.
	if first < 0 || first > 9 {
		t.Fatalf("first summary at reply %d", first)
	}
	for start := 0; start+8 <= len(replies); start++ {
		n := 0
		for _, r := range replies[start : start+8] {
			if strings.Contains(r, "So far I'm hearing") {
				n++
			}
		}
		if n > 1 {
			t.Errorf("%d summaries in replies %d–%d", n, start, start+7)
		}
	}
}

func TestOfflineClosingRitual(t *testing.T) {
	for _, bye := range []string{"thanks, bye", "I'll do that", "ok thank you, good night", "thanks"} {
		t.Run(bye, func(t *testing.T) {
			got := converse(t, Profile{}, cafeScript[0], cafeScript[1], cafeScript[2], bye)[3]
			if !strings.Contains(got, "One thing to take with you") && !strings.Contains(got, "If you keep one thing from today") {
				t.Errorf("no takeaway: %q", got)
			}
			// Three short messages are not enough to write about: no journaling yet.
			if containsOneOf(got, journalPrompts) {
				t.Errorf("a journaling prompt before the user is ready: %q", got)
			}
			if strings.Contains(got, "?") {
				t.Errorf("the close asks a question: %q", got)
			}
		})
	}
}

func TestOfflineJournalPromptsFitAndVary(t *testing.T) {
	msgs := append(append([]string(nil), scripts["good news"][:13]...), "I'm worried I'll slip back into old habits.", "I feel calmer already.", "thanks, bye")
	replies := converse(t, Profile{}, msgs...)
	var with []int
	for i, r := range replies {
		if containsOneOf(r, journalPrompts) {
			with = append(with, i)
		}
	}
	if len(with) < 1 || len(with) > 2 {
		t.Fatalf("journaling prompts in replies %v of %d", with, len(replies))
	}
	for k := 1; k < len(with); k++ {
		if with[k]-with[k-1] < 3 {
			t.Errorf("prompts too close together: %v", with)
		}
	}
	checkSession(t, msgs, replies)
}

func TestOfflineNeverRaisesSensitiveTopics(t *testing.T) {
	prof := Profile{FocusAreas: "family, sleep", PrimaryConcerns: "my parents' divorce", SensitiveTopics: "my dad, divorce, family"}
	msgs := []string{
		"My dad called again about the divorce and I couldn't sleep.",
		"Also my chemistry exam is on Thursday.",
		"I keep thinking about my dad and whether it's my fault.",
		"idk",
		"What should I do?",
		"Am I overreacting?",
		"My friend Jo says I should talk to my dad.",
		"thanks, bye",
	}
	replies := converse(t, prof, msgs...)
	checkSession(t, msgs, replies)
	for i, r := range replies {
		if regexp.MustCompile(`(?i)\b(dad|divorce|family|parents)\b`).MatchString(r) {
			t.Errorf("reply %d raises a sensitive topic: %q", i, r)
		}
	}
	if !containsOneOf(replies[0], sensitiveAck) || !containsOneOf(replies[2], sensitiveAck) {
		t.Errorf("the sensitive messages are not acknowledged gently: %q / %q", replies[0], replies[2])
	}
	if !strings.Contains(replies[1], "chemistry exam") {
		t.Errorf("the rest of the session is still heard: %q", replies[1])
	}
}

func TestOfflineNeverQuotesARiskyEarlierTurn(t *testing.T) {
	o := &Offline{}
	hist := []Turn{
		{RoleUser, starter}, {RoleAssistant, Welcome("", false)},
		{RoleUser, "My exam with Mr Patel is on Friday and I'm stressed."},
		{RoleAssistant, o.Compose(Prompt{History: []Turn{{RoleUser, starter}, {RoleAssistant, Welcome("", false)}}, Message: "My exam with Mr Patel is on Friday and I'm stressed."})},
		{RoleUser, "Since the breakup with Jordan I keep thinking I want to kill myself, I've been saving pills in my desk drawer."},
		{RoleAssistant, CrisisReply},
		{RoleUser, "Everyone at the bridge party would be better off without me honestly."},
		{RoleAssistant, CrisisReply},
	}
	msgs := []string{"ok", "I'm just tired of everything.", "idk", "What should I do?", "Am I overreacting?", "lol", "Why do I feel like this?", "yeah", "thanks, bye"}
	for i, m := range msgs {
		reply := o.Compose(Prompt{History: hist, Message: m})
		for _, w := range []string{"Jordan", "breakup", "pills", "drawer", "desk", "bridge", "party", "kill", "without me"} {
			if strings.Contains(strings.ToLower(reply), strings.ToLower(w)) {
				t.Errorf("reply %d brings back %q from a flagged turn: %q", i, w, reply)
			}
		}
		hist = append(hist, Turn{RoleUser, m}, Turn{RoleAssistant, reply})
	}
	// A risky new message gets the fixed reply and nothing of it back.
	if got := o.Compose(Prompt{History: hist, Message: "I want to end it all tonight with the pills"}); got != CrisisReply {
		t.Fatalf("risky message got %q", got)
	}
}

func TestOfflineIsDeterministic(t *testing.T) {
	a := converse(t, Profile{FocusAreas: "sleep"}, cafeScript...)
	b := converse(t, Profile{FocusAreas: "sleep"}, cafeScript...)
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("reply %d differs:\n%q\n%q", i, a[i], b[i])
		}
	}
	// Another session gets other choices for the same message.
	c := converse(t, Profile{}, "My roommate keeps having people over on weeknights.", "I have a chemistry lab report due on Monday.", "idk")
	d := converse(t, Profile{}, "My sister keeps borrowing my car without asking.", "I have a job interview on Monday.", "idk")
	if c[2] == d[2] {
		t.Fatalf("two sessions, one reply: %q", c[2])
	}
}

func TestOfflinePicksUpAThreadFromMemory(t *testing.T) {
	o := &Offline{}
	opening := []Turn{{RoleUser, starter}, {RoleAssistant, Welcome("Sam", false)}}
	cases := []struct {
		name     string
		memories []string
		msg      string
		prof     Profile
		want     string
	}{
		{"event with a day", []string{"Has a statistics midterm on Tuesday", "Works late shifts at a café with Maya"}, "hi",
			Profile{}, "Last time you mentioned that you have a statistics midterm on Tuesday — how did it go?"},
		{"habit", []string{"Works late shifts at a café with Maya"}, "idk",
			Profile{}, "Last time you mentioned that you work late shifts at a café with Maya. How are things with that now?"},
		{"sensitive memory skipped", []string{"Argues with dad every weekend", "Plays football on Saturdays"}, "hey",
			Profile{SensitiveTopics: "dad"}, "Last time you mentioned that you play football on Saturdays. How are things with that now?"},
		{"flagged memory skipped", []string{"Wants to kill myself", "My sister's wedding in June"}, "ok",
			Profile{}, "Last time you mentioned your sister's wedding in June. How has that been going?"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := o.Compose(Prompt{History: opening, Message: c.msg, Memories: c.memories, Profile: c.prof})
			if !strings.Contains(got, c.want) {
				t.Fatalf("reply = %q, want %q", got, c.want)
			}
		})
	}
	// Only the first reply picks up a thread, and a message with content is answered first.
	hist := append(append([]Turn(nil), opening...), Turn{RoleUser, "hi"}, Turn{RoleAssistant, "Hi, it's good to hear from you."})
	if got := o.Compose(Prompt{History: hist, Message: "idk", Memories: cases[0].memories}); strings.Contains(got, "Last time") {
		t.Fatalf("second reply recites a memory: %q", got)
	}
	if got := o.Compose(Prompt{History: opening, Message: "My roommate keeps playing music at 3am.", Memories: cases[0].memories}); strings.Contains(got, "Last time") {
		t.Fatalf("memory instead of the message: %q", got)
	}
	// A welcome that picked up a thread is not followed by a second one.
	mems := []string{"Works late shifts at a café with Maya", "Has a statistics midterm on Tuesday"}
	welcomed := []Turn{{RoleUser, starter}, {RoleAssistant, WelcomeWithThread("Sam", false, Thread(mems, Profile{}))}}
	if got := o.Compose(Prompt{History: welcomed, Message: "ok", Memories: mems}); strings.Contains(got, "Last time") {
		t.Fatalf("the first reply picks up a second thread: %q", got)
	}
}

func TestOfflineAnswersDirectQuestionsHonestly(t *testing.T) {
	answersContain(t, "My statistics midterm is on Tuesday.", table(t, "directQuestions"))
}

// answersContain: each question of cases, asked after opener, gets a reply that holds the
// words it maps to and ends with a question back.
func answersContain(t *testing.T, opener string, cases map[string]string) {
	t.Helper()
	for ask, want := range cases {
		t.Run(ask, func(t *testing.T) {
			got := converse(t, Profile{}, opener, ask)[1]
			if !strings.Contains(got, want) || !strings.HasSuffix(got, "?") {
				t.Errorf("reply = %q, want %q and a question back", got, want)
			}
		})
	}
}

func startsWithOneOf(text string, pool []tmpl) bool {
	for _, tp := range pool {
		if len(tp.keys) == 0 && strings.HasPrefix(text, tp.src) {
			return true
		}
	}
	return false
}

func containsOneOf(text string, pools ...[]tmpl) bool {
	low := strings.ToLower(text)
	for _, pool := range pools {
		for _, tp := range pool {
			if tp.in(low) {
				return true
			}
		}
	}
	return false
}

// Both tiers of the screen, with the previous turn as context: a possible risk gets the
// check-in, a short answer to it the crisis reply, and nothing of either (nor of an answer
// to a check-in that the screen does not find risky) is ever quoted back.
func TestOfflineTiersAndContextNeverMirror(t *testing.T) {
	o := &Offline{}
	hist := []Turn{{RoleUser, starter}, {RoleAssistant, Welcome("", false)}}
	possible := "I can't do this anymore and I just want to disappear"
	if got := o.Compose(Prompt{History: hist, Message: possible}); got != CheckInReply {
		t.Fatalf("possible risk got %q", got)
	}
	checked := append(append([]Turn(nil), hist...), Turn{RoleUser, possible}, Turn{RoleAssistant, CheckInReply})
	if got := o.Compose(Prompt{History: checked, Message: "tonight"}); got != CrisisReply {
		t.Fatalf("\"tonight\" after a check-in got %q", got)
	}
	if got := o.Compose(Prompt{History: hist, Message: "tonight"}); got == CrisisReply || got == CheckInReply {
		t.Fatalf("\"tonight\" on its own got %q", got)
	}
	// An answer the screen finds nothing in: a place and a means, named after the check-in.
	answer := "the old railway bridge behind the Riverside mall, with my mum's sleeping tablets"
	reply := o.Compose(Prompt{History: checked, Message: answer})
	if reply == "" {
		t.Fatal("no reply")
	}
	hist2 := append(append([]Turn(nil), checked...), Turn{RoleUser, answer}, Turn{RoleAssistant, reply})
	for _, m := range []string{"idk", "What should I do?", "I'm just tired.", "ok"} {
		r := o.Compose(Prompt{History: hist2, Message: m})
		reply += " " + r
		hist2 = append(hist2, Turn{RoleUser, m}, Turn{RoleAssistant, r})
	}
	words := " " + strings.Join(strings.FieldsFunc(strings.ToLower(reply), func(r rune) bool { return !unicode.IsLetter(r) }), " ") + " "
	for _, w := range []string{"railway", "bridge", "riverside", "mall", "sleeping", "tablets", "disappear", "mum"} {
		if strings.Contains(words, " "+w+" ") {
			t.Errorf("a reply brings back %q from a risky turn: %q", w, reply)
		}
	}
	// A message that screens clear is never mirrored, whatever came before.
	if got := o.Compose(Prompt{History: hist, Message: "I want to kill myself"}); got != CrisisReply {
		t.Fatalf("clear risk got %q", got)
	}
}

func TestOfflineSummaryNeverQuotesARiskyMessage(t *testing.T) {
	sum := OfflineSummary([]Turn{
		{RoleUser, "I want to kill myself with the pills in the drawer"},
		{RoleAssistant, CrisisReply},
		{RoleUser, Withheld},
		{RoleAssistant, CrisisReply},
		{RoleUser, "My exam is on Friday."},
	})
	for _, w := range []string{"kill", "pills", "drawer", "withheld", "Withheld"} {
		if strings.Contains(sum.Text, w) {
			t.Errorf("summary quotes %q: %q", w, sum.Text)
		}
	}
	if !strings.Contains(sum.Text, "your exam") {
		t.Errorf("summary = %q", sum.Text)
	}
}
