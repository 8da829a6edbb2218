package companion

import "strings"

// The texts of a conversation that goes on after a question about risk or the crisis reply
// (issue 32, §3). The resources themselves are pinned above the composer for the rest of the
// session, so none of these repeats them: each points to them instead.

// FollowUpQuestion is the check-in question asked again, once, in plain words.
const FollowUpQuestion = "Are you having thoughts of hurting yourself or ending your life?"

// FollowUpReply answers an unclear answer to the check-in ("idk", "meh", "maybe?"): it is fine
// not to know, the question once more in plain words, and the conversation offered back. It is
// never the crisis reply, and it names nothing the user said.
const FollowUpReply = "That's okay. It's fine not to know, or not to be sure how to put it. " +
	"I'll ask once more, plainly, because it matters: " + FollowUpQuestion + " " +
	"A yes, a no or an I don't know are all fine answers, and either way we can keep talking about what you were telling me. " +
	"The support lines stay pinned above the message box."

// IsFollowUp reports whether a stored reply was the follow-up (after an AI notice, if one was
// due): the next message is its answer.
func IsFollowUp(reply string) bool { return strings.Contains(reply, FollowUpQuestion) }

// ackOpeners and ackPointers make the short acknowledgement of a new risk later in a session
// whose crisis reply was already given. Each acknowledgement is one sentence of an opener and
// a pointer; their counts are coprime, so the first len(ackOpeners)*len(ackPointers) of a
// session are all different sentences.
var (
	ackOpeners = [...]string{
		"Thank you for telling me this",
		"I'm really glad you said it out loud",
		"That sounds so heavy, and I'm still here with you",
		"I hear you, and what you're feeling matters",
		"Thank you for trusting me with that",
		"It took something to share that, and I'm listening",
	}
	ackPointers = [...]string{
		"if you might act on these thoughts, please call your local emergency number or one of the support lines pinned above right now.",
		"the support lines pinned above the message box can put you in touch with a real person right now, and if you are in danger, your local emergency number can too.",
		"please reach out to one of the lines pinned above, or to your local emergency number if you might hurt yourself soon.",
		"a person on one of the pinned support lines can be with you in this tonight; if you're in immediate danger, call your local emergency number.",
		"you don't have to hold this alone: the pinned lines above are free and there for you now, and emergency services are there if you might act on it.",
	}
)

// CrisisAck is the short acknowledgement of a new risk in a session whose crisis reply was
// given: n is how many crisis replies and acknowledgements the session has had before it
// (1 after the crisis reply alone).
func CrisisAck(n int) string {
	i := max(n-1, 0)
	return ackOpeners[i%len(ackOpeners)] + " — " + ackPointers[i%len(ackPointers)]
}

// isCrisisAck reports whether a stored reply was an acknowledgement (CrisisAck).
func isCrisisAck(reply string) bool {
	for _, p := range ackPointers {
		if strings.Contains(reply, p) {
			return true
		}
	}
	return false
}

// afterCrisisQuestions open the offline engine's first ordinary reply after the crisis reply
// or an acknowledgement: gently, how the user is and whether they have reached someone. Only
// that reply asks, not every one after it.
var afterCrisisQuestions = [...]string{
	"Before anything else: how are you doing right now, and have you been able to reach anyone?",
	"I'm glad you're still talking with me. How are you at this moment, and is there someone, on a line or nearby, you've been able to contact?",
	"I keep thinking about what you shared. How are you feeling now, and has anyone been able to be with you, even by phone?",
	"Thank you for staying with me. Is anyone with you now, or have you managed to talk to someone?",
}

// AfterCrisisQuestion is the gentle question of the first ordinary reply after the n-th
// crisis reply or acknowledgement of a session (n from 1).
func AfterCrisisQuestion(n int) string {
	return afterCrisisQuestions[max(n-1, 0)%len(afterCrisisQuestions)]
}

// AfterCrisisGuidance is added to a model's system prompt in a session whose crisis reply was
// given: the conversation goes on, caring and ordinary, without the crisis text again.
const AfterCrisisGuidance = "Earlier in this conversation the user said something that suggested they may be at risk, " +
	"and was given crisis resources, which stay pinned on their screen. Keep the conversation going warmly and ordinarily. " +
	"Now and then, not in every reply, ask gently how they are doing and whether they have been able to reach someone. " +
	"Do not repeat the crisis resources or any earlier reply word for word, and never name a method, means or place."
