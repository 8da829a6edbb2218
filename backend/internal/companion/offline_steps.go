package companion

import (
	"fmt"
	"strings"

	"github.com/percolate/percolate/backend/internal/lazyre"
)

// Next steps: offered once after a summary, and given when the user asks what to do. They
// are drawn from what the user said (the people and events of the session, then its
// feelings and the profile's focus areas) and never given twice in a session.

// stepDue is set on the reply after a summary, unless a step was given since.
func (r *reply) stepDue() bool {
	last := -1
	for i, t := range r.s.replies {
		if isSummary(t) {
			last = i
		}
	}
	if last < 0 {
		return false
	}
	for _, t := range r.s.replies[last+1:] {
		if hasStep(t) {
			return false
		}
	}
	return true
}

func hasStep(reply string) bool {
	low := strings.ToLower(reply)
	for _, pool := range stepsByCat {
		for _, t := range pool {
			if t.in(low) {
				return true
			}
		}
	}
	for _, pool := range stepsByFeeling {
		for _, t := range pool {
			if t.in(low) {
				return true
			}
		}
	}
	for _, t := range planAffirm {
		if t.in(low) {
			return true
		}
	}
	return false
}

// offerStep acknowledges the message and offers one small next step, with a question. It
// reports false, having added nothing, when no step fits that was not given before.
func (r *reply) offerStep() bool {
	frame := stepFrames[r.s.seed%uint64(len(stepFrames))]
	steps := r.steps(1, func(_ int, s string) string { return fmt.Sprintf(frame, s) })
	if len(steps) == 0 {
		return false
	}
	r.ack()
	r.w.addText(keepBody, steps[0])
	if !r.w.add(keepQuestion, "offerQ", r.vals, offerQ) {
		r.question(false)
	}
	return true
}

func (r *reply) advice() {
	r.w.add(keepAck, "adviceIntro", r.vals, adviceIntro)
	frames := []string{"First, %s.", "Then, if you have room, %s."}
	for _, st := range r.steps(2, func(i int, s string) string { return fmt.Sprintf(frames[i], s) }) {
		r.w.addText(keepBody, st)
	}
	if !r.w.add(keepQuestion, "adviceQ", r.vals, adviceQ) {
		r.question(false)
	}
}

// steps picks up to n next steps not given before, drawn from what the user said: the new
// message's people and events first, then earlier ones, then the feelings and focus areas.
// frame renders the i-th step.
func (r *reply) steps(n int, frame func(i int, step string) string) []string {
	type cand struct {
		pool []tmpl
		x    string
	}
	var cands []cand
	conflict := false
	for _, it := range r.threads {
		conflict = conflict || (it.kind == kindEvent && it.cat == catConflict)
	}
	addItem := func(it item) {
		switch {
		case it.kind == kindEvent:
			cands = append(cands, cand{stepsByCat[it.cat], it.short})
		case it.kind == kindPerson && !conflict:
			// After a breakup or a fight, steps about the conflict fit; steps with the
			// person ("plan a walk with…") may not.
			pool := stepsByCat["person"]
			if r.hard(it) {
				pool = stepsByCat["person hard"]
			}
			cands = append(cands, cand{pool, it.short})
		}
	}
	feelings := append(append([]string(nil), r.cur.feelings...), r.s.feelings(3, false)...)
	addFeeling := func(f string) {
		if m, ok := feelingSteps[f]; ok {
			f = m
		}
		cands = append(cands, cand{stepsByFeeling[f], ""})
	}
	// What the message is about comes first, then the main feeling, then earlier threads.
	for _, it := range r.cur.items {
		addItem(it)
	}
	if len(feelings) > 0 {
		addFeeling(feelings[0])
	}
	for i := len(r.threads) - 1; i >= 0; i-- {
		addItem(r.threads[i])
	}
	for _, f := range splitList(r.s.profile.FocusAreas) {
		low := strings.ToLower(f)
		switch {
		case strings.Contains(low, "sleep"):
			cands = append(cands, cand{stepsByCat[catRest], ""})
		case strings.Contains(low, "confiden") || strings.Contains(low, "self-esteem"):
			feelings = append(feelings, "confidence")
		default:
			feelings = append(feelings, DetectEmotions(f, 1)...)
		}
	}
	for _, f := range feelings {
		addFeeling(f)
	}
	cands = append(cands, cand{stepsByFeeling[""], ""})
	var out []string
	for i, c := range cands {
		if len(out) == n {
			break
		}
		vals := map[string]string{"x": c.x}
		wrap := func(s string) string { return frame(len(out), s) }
		if text, ok := r.w.pick(fmt.Sprintf("step%d", i), vals, wrap, c.pool); ok {
			out = append(out, text)
		}
	}
	return out
}

var reHard = lazyre.MustCompile(`\b(keeps|always|never|wont|doesnt|ignor\w*|argu\w*|fight\w*|asks me|expects|yell\w*|mean to me|annoy\w*|broke up|dumped|cheated)\b`)

// hard reports whether things with a person sound strained where the user mentioned
// them: anger or frustration, or someone who keeps doing something. (Missing someone is
// sad, not strained.)
func (r *reply) hard(person item) bool {
	for _, u := range []userTurn{r.s.turns[person.turn], r.cur} {
		for _, f := range u.feelings {
			if f == "anger" || f == "frustration" {
				return true
			}
		}
		if reHard.MatchString(plain(u.text)) {
			return true
		}
	}
	return false
}

func (r *reply) stepGiven() bool {
	for _, t := range r.s.replies {
		if hasStep(t) {
			return true
		}
	}
	return false
}

// stepFrames introduce a step offered on the engine's own initiative.
var stepFrames = []string{
	"One small thing you could try: %s.",
	"Here's a small next step, if it helps: %s.",
	"If you want something concrete, you could %s.",
}

var (
	offerQ = lines(true,
		"Does that feel doable this week, or would you shape it differently?",
		"How does that sound to you?",
		"Would that fit into your week?",
		"What might get in the way of trying it?",
	)
	adviceIntro = lines(true,
		"Going by what you've told me, here's where I'd start.",
		"Here are a couple of small things you could try, based on what you've said.",
		"I can't fix it for you, but these might help, from what you've shared.",
		"Let's keep it small and doable.",
	)
	adviceQ = lines(true,
		"Which of those feels most doable this week?",
		"What might get in the way of trying one of them?",
		"Would either of those fit into your week?",
		"Which one would you want to try first?",
	)
)

// Steps are written to follow "you could": a verb first, lower case. {x} is what they are
// about.
var stepsByCat = map[string][]tmpl{
	catStudy: lines(true,
		"set a 25-minute timer today and work on just one part of {x}, then stop",
		"write down the three things about {x} you feel least sure of, and start with the smallest",
		"send one question about {x} to a classmate or your teacher this week",
		"split tomorrow's work on {x} into two short blocks with a proper break between them",
	),
	catPerform: lines(true,
		"run through the first two minutes of {x} out loud once, just to hear yourself",
		"write the three points you most want to get across in {x} on one card",
		"picture the first minute of {x} going okay, step by step, before you sleep",
	),
	catWork: lines(true,
		"look at your week and mark one evening away from {x} that's only for rest",
		"write two sentences you could say to your manager about {x}, just to have them ready",
	),
	catSocial: lines(true,
		"decide ahead of time how long you'll stay at {x}, so you have an easy way out",
		"think of one person you'd like next to you at {x}, and let them know",
	),
	catConflict: lines(true,
		"give yourself one evening off from replaying {x}, with a film, a walk or a friend",
		"mute or archive whatever keeps pulling you back to {x} for a few days, like a chat or a profile",
		"write down what you'd want the other person to understand about {x}, without sending it",
	),
	catMoney: lines(true,
		"write down the one number about {x} that worries you most, and one place you could ask for advice",
	),
	catRest: lines(true,
		"pick a wind-down time tonight and put your phone across the room half an hour before it",
	),
	catDeadline: lines(true,
		"work backwards from {x} and pick one small piece to finish by tomorrow",
	),
	catOther: lines(true,
		"write down what you need to know before {x}, and who could tell you",
	),
	// People the user finds hard right now, and people they feel fine about.
	"person hard": lines(true,
		"write down what you wish {x} understood, without sending it, to get clear on it first",
		"practise one short, kind sentence you could say to {x} the next time it comes up",
		"decide on one small limit with {x} you'd like to keep this week, and write it down",
	),
	"person": lines(true,
		"send {x} a short, low-pressure message, even just asking how their week is going",
		"plan one easy thing with {x}, like a walk or a coffee",
	),
}

// stepsByFeeling are steps for a feeling, used when nothing more specific fits.
var stepsByFeeling = map[string][]tmpl{
	"anxiety": lines(true,
		"breathe out slowly, longer than you breathe in, five times in a row when the worry spikes",
		"write the worry down with today's date, then look at it again tomorrow and see how it reads",
	),
	"stress": lines(true,
		"write everything on your plate into one list, then circle only the one thing that needs you first",
		"pick one thing you can drop or postpone this week, and let it go on purpose",
	),
	"tiredness": lines(true,
		"protect one early night this week, even if not everything is done",
		"pick a wind-down time tonight and put your phone across the room half an hour before it",
	),
	"loneliness": lines(true,
		"reach out to one person today with a small message; it doesn't need to be a big conversation",
		"spend an hour somewhere with people around, like a library or a café, even without talking",
	),
	"sadness": lines(true,
		"do one gentle thing for yourself today, like a walk outside, a warm meal or a song you love",
	),
	"anger": lines(true,
		"write the angry version down for yourself before you reply to anyone, and keep it",
		"move for ten minutes, like a fast walk, before deciding anything",
	),
	"guilt": lines(true,
		"write down what you'd say to a friend in your place, then read it back to yourself",
	),
	"confusion": lines(true,
		"write the options side by side and notice how you feel reading each one",
	),
	"confidence": lines(true,
		"write down one thing you handled well this week, however small, and keep the list going",
	),
	"": lines(true,
		"take ten minutes to write down what's on your mind, then underline the one part you can act on this week",
		"choose one small kind thing to do for yourself today, like a walk, a proper meal or an early night",
	),
}

// feelingSteps maps emotions that share steps.
var feelingSteps = map[string]string{
	"fear": "anxiety", "overwhelm": "stress", "frustration": "anger", "shame": "guilt",
}

// The user's own plan is the session's small step: it is met as one, not asked about like
// any other message, and the close then names it (takeawayAccepted).
var (
	rePlan     = lazyre.MustCompile(`\b(ill|i will|im gonna|im going to|i could|i might|i should|maybe i can|i can|gonna)( \w+){0,3} (try|message|text|talk|ask|go|start|reply|email|call|say|tell|suggest|book|write|sign|join|apply|speak|meet|send|make|put|plan|practise|practice|sit|sort|finish|check|look into)\b`)
	planAffirm = lines(true,
		"That sounds like a real, doable next step, and it's your own.",
		"A step like that, small and concrete, is often the one that actually happens.",
		"That's a good next step: small enough to do, and it comes from you.",
		"Having one clear thing to try can take a lot of the weight out of it.",
	)
	planQ = lines(true,
		"What would make it easier to actually do it?",
		"When do you think you'll do it?",
		"What might get in the way, and what would help if it does?",
		"How do you think you'll feel once it's done?",
	)
)

// rePlanTail is a plan of the user's own said after a question they answer themselves
// ("25 mins then a break? ok i can try that"): a plan, or taking a step up.
var rePlanTail = lazyre.MustCompile(`^((ok|okay|k|yeah|yea|yes|yep|sure|right|alright|hmm|mm|actually|then|so|and|honestly|tbh|fine|cool|sounds good|that works|that could work|lol|haha)\s+)*` +
	`(i (could|can|might|will|should)|ill|im (gonna|going to)|gonna|maybe (ill|i can|i could)|lets|let me|i think i (can|could|will|might))\b`)

// planAfterQuestion: the message asks something and goes on with a plan of the user's own,
// with no question after it; it is a plan, not a question.
func planAfterQuestion(text string) bool {
	i := strings.LastIndex(text, "?")
	if i < 0 {
		return false
	}
	tail := plain(text[i+1:])
	return tail != "" && (rePlanTail.MatchString(tail) && (rePlan.MatchString(tail) || reAccept.MatchString(tail) || reTryThat.MatchString(tail)))
}

// reTryThat is taking up what was just said ("i can try that", "ill give it a go").
var reTryThat = lazyre.MustCompile(`\b(try|do|give it a (go|try|shot)|manage|start( with)?) (that|this|it|those|them)\b|\bgive it a (go|try|shot)\b`)

// planDue: the new message makes a plan of the user's own ("maybe ill message him first"),
// and the reply before did not give a step.
func (r *reply) planDue() bool {
	if r.k < 2 || !planAfterQuestion(r.cur.text) && (strings.Contains(r.cur.text, "?") || !rePlan.MatchString(plain(r.cur.text))) {
		return false
	}
	// A step taken up in the user's own words after a question ("25 mins then a break? ok i
	// can try that") is met as theirs even after a reply that gave one.
	return len(r.s.replies) == 0 || !hasStep(r.s.replies[len(r.s.replies)-1]) || planAfterQuestion(r.cur.text)
}

// affirmStep meets the user's plan as the session's small step: an acknowledgement, the
// step affirmed, and a question about doing it. It reports false, having added nothing, when
// no affirmation is left to say.
func (r *reply) affirmStep() bool {
	text, ok := r.w.pick("planAffirm", r.vals, nil, planAffirm)
	if !ok {
		return false
	}
	r.ack()
	r.w.addText(keepBody, text)
	if !r.w.add(keepQuestion, "planQ", r.vals, planQ) {
		r.question(false)
	}
	return true
}
