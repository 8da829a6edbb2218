package companion

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/percolate/percolate/backend/internal/companion/safety"
)

// A session that says a good deal first, so that every stage of the arc is open.
var arcOpening = []string{
	"my chemistry exam is on friday and i havent started revising properly",
	"my mum keeps asking how revision is going and it makes it worse because i feel like im letting her down",
	"its mostly the organic chemistry, i just dont get the mechanisms and the practice papers make me panic",
	"my friend jade offered to go through some with me but i keep putting it off",
	"i think its because im embarrassed about how little ive done",
}

// A one-word answer gets a short, light reply: no long reflection, no summary, no exercise,
// and shorter than the replies to the messages with more in them.
func TestOneWordAnswerGetsAShortLightReply(t *testing.T) {
	for _, word := range []string{"yeah", "idk", "kinda", "lol", "ok", "nah"} {
		// After four messages with plenty in them, a summary would be due.
		replies := converse(t, Profile{}, append(slices.Clone(arcOpening[:4]), word)...)
		last := replies[len(replies)-1]
		if n := len(strings.Fields(last)); n > 24 {
			t.Errorf("%q: a reply of %d words: %q", word, n, last)
		}
		for _, m := range ReplyMoves(last) {
			if m == MoveSummary || m == MoveJournal || m == MoveStep {
				t.Errorf("%q: a %s after a one-word answer: %q", word, m, last)
			}
		}
		longest := 0
		for _, r := range replies[:len(replies)-1] {
			longest = max(longest, len(strings.Fields(r)))
		}
		if len(strings.Fields(last)) >= longest {
			t.Errorf("%q: the reply (%q) is no shorter than the replies before it", word, last)
		}
	}
}

// The summary that is due waits while the user answers in a word or two, and comes with the
// next message that says something.
func TestSummaryWaitsForTheUsersPace(t *testing.T) {
	opening := arcOpening[:4]
	msgs := append(slices.Clone(opening), "yeah", "idk", "ugh",
		"its the mechanisms really, they just dont make sense to me and i get so frustrated with it")
	replies := converse(t, Profile{}, msgs...)
	for i, r := range replies[:len(replies)-1] {
		if isSummary(r) {
			t.Errorf("a summary after %q: %q", msgs[i], r)
		}
	}
	if last := replies[len(replies)-1]; !isSummary(last) {
		t.Errorf("no summary once the user says more: %q", last)
	}
}

// No two replies in a row have the same structure, over a long session that mixes long
// messages, one-word answers, questions, good news and a callback.
func TestNoReplyStructureTwiceInARow(t *testing.T) {
	msgs := []string{
		"my flatmate leaves dishes everywhere and never cleans",
		"it's been like this since september",
		"yeah",
		"i tried leaving a note but she ignored it",
		"and now the kitchen smells and i dont want to cook",
		"idk",
		"should i talk to her or just tell the landlord",
		"my other flatmate sam agrees with me",
		"kinda",
		"going back to the note, i think it came across as passive aggressive",
		"i feel bad about it but also annoyed",
		"lol",
		"oh and i got my essay mark back, a first!",
		"i was so worried about it",
		"maybe ill talk to her this weekend when shes less busy",
		"ok",
		"what if she gets defensive",
		"yeah true",
	}
	replies := converse(t, Profile{}, msgs...)
	prev := ""
	for i, r := range replies {
		s := ReplyStructure(r)
		if s == prev {
			t.Errorf("turn %d (%q): the same structure as the reply before, %s: %q / %q", i, msgs[i], s, replies[i-1], r)
		}
		prev = s
	}
	seen := map[string]bool{}
	for _, r := range replies {
		for _, s := range splitSentences(r) {
			if k := sentenceKey(s); seen[k] && len(strings.Fields(k)) >= 3 {
				t.Errorf("said twice: %q", s)
			}
			seen[sentenceKey(s)] = true
		}
	}
}

// The session's close names one thing to take away; after a plan of the user's own, the
// plan is met as the small step, and the close names it.
func TestCloseNamesATakeaway(t *testing.T) {
	replies := converse(t, Profile{}, append(slices.Clone(arcOpening), "ok thanks, i have to go now")...)
	last := replies[len(replies)-1]
	if !slices.Contains(ReplyMoves(last), MoveClose) || !isClosing(last) {
		t.Errorf("the close names no takeaway: %q (%v)", last, ReplyMoves(last))
	}
	if strings.Contains(last, "?") {
		t.Errorf("the close asks a question: %q", last)
	}

	msgs := append(slices.Clone(arcOpening), "maybe ill message jade tonight and ask if we can do tuesday", "thanks, gotta go")
	replies = converse(t, Profile{}, msgs...)
	step := replies[len(replies)-2]
	if !slices.Contains(ReplyMoves(step), MoveStep) || !containsOneOf(strings.ToLower(step), planAffirm) {
		t.Errorf("the user's plan is not met as a step: %q (%v)", step, ReplyMoves(step))
	}
	last = replies[len(replies)-1]
	if !strings.Contains(last, "you've chosen a small next step") {
		t.Errorf("the close does not name the step the user chose: %q", last)
	}
}

// After a check-in the student moved on from, a weak signal is answered as an ordinary
// message, as the send path does (safety.Context.Declined): the engine never says the
// check-in again in its words, and mirrors nothing of the message.
func TestNoCheckInAgainAfterADeclinedOne(t *testing.T) {
	weak := ""
	for _, m := range []string{"gotta go, jas is here", "i want it all to stop", "my best friend jas has been great tho. she came round with pizza last night"} {
		if r := safety.Screen(m, safety.Context{}); r.Level == safety.Possible && r.Weak && !r.Unclear {
			weak = m
			break
		}
	}
	if weak == "" {
		t.Skip("no weak signal among the examples: the screen reads them otherwise now")
	}
	o := &Offline{}
	hist := []Turn{
		{RoleUser, starter}, {RoleAssistant, Welcome("Sam", false)},
		{RoleUser, "my exam is on friday and i havent started"},
		{RoleAssistant, "It sounds like your exam is on your mind. How ready do you feel?"},
		{RoleUser, "i cant do this anymore"},
		{RoleAssistant, CheckInReplyFor(Where{})},
		{RoleUser, "no not like that, i just mean revision is a lot"},
		{RoleAssistant, "Okay, thanks for telling me. What part of revision feels biggest?"},
	}
	r, err := o.Stream(context.Background(), Prompt{History: hist, Message: weak}, func(string) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(r.Text, CheckInQuestion) || HasResources(r.Text) {
		t.Errorf("the check-in again after it was declined: %q", r.Text)
	}
	for _, s := range splitSentences(CheckInReplyFor(Where{})) {
		if strings.Contains(r.Text, s) {
			t.Errorf("a sentence of the check-in said again: %q in %q", s, r.Text)
		}
	}
	for _, w := range strings.Fields(plain(weak)) {
		if len(w) >= 4 && strings.Contains(strings.ToLower(r.Text), w) {
			t.Errorf("the reply mirrors %q of the flagged message: %q", w, r.Text)
		}
	}
	// Not declined: the same message right after the check-in's question is asked about.
	hist = hist[:6]
	if got := o.Compose(Prompt{History: hist, Message: "i want it all to stop"}); !strings.Contains(got, CheckInQuestion) && !HasResources(got) && !IsFollowUp(got) && !isCrisisAck(got) {
		t.Errorf("a risky answer to the check-in is answered as ordinary: %q", got)
	}
}
