package companion

import (
	"fmt"
	"strings"
	"time"
)

// DisclosureInterval is how long a session may go on before the AI notice is repeated.
const DisclosureInterval = 3 * time.Hour

// Disclosure is said at the start of every session and again after every three hours of
// continuing use.
const Disclosure = "Just so you know: I'm an AI, not a person or a therapist."

// BreakReminder follows a repeated disclosure for users under 18.
const BreakReminder = "We've been talking for a while. This could be a good moment to take a break, stretch, drink some water or check in with someone you trust."

// CrisisResources, CrisisReply and CheckInReply are the texts for a user whose country is not
// known (see ResourcesFor, CrisisReplyFor and CheckInReplyFor, which every reply uses).
var (
	CrisisResources = ResourcesFor("")
	CrisisReply     = CrisisReplyFor(RiskSuicide, Where{})
	CheckInReply    = CheckInReplyFor(Where{})
)

// CheckInQuestion is the direct, gentle question asked when a message shows a possible risk.
const CheckInQuestion = "I want to make sure I understand — are you thinking about hurting yourself or ending your life?"

// Withheld stands in for a user's message that screened risky wherever the conversation is
// handed on (a model's prompt, a session summary): the message is never quoted back, so
// nothing downstream is given the words to mirror (a method, a means, a place).
const Withheld = "[A message is withheld here: it suggested the user may be at risk, and the companion answered with a check-in and crisis resources. Do not guess at it, quote it or name any method, means or place.]"

// CheckInOpening is the check-in's remembering part, said before the companion's reply when a
// session after a positive screen is opened with the student's own words.
const CheckInOpening = "Last time we talked, things sounded really hard. I've been hoping you're doing a bit better."

// CheckIn opens the next session after a positive screen.
const CheckIn = CheckInOpening + " How are you feeling today?"

// Welcome is the first reply of a new session. checkIn adds the gentle check-in after a
// positive safety screen in an earlier session.
func Welcome(name string, checkIn bool) string { return WelcomeWithThread(name, checkIn, "") }

// WelcomeWithThread is the welcome that, instead of the open question, picks up a thread
// from an earlier session (see Thread) when there is one and no check-in is due.
func WelcomeWithThread(name string, checkIn bool, thread string) string {
	var b strings.Builder
	if name = strings.TrimSpace(name); name != "" {
		fmt.Fprintf(&b, "Hi %s, welcome to Percolate. ", firstWord(name))
	} else {
		b.WriteString("Hi, welcome to Percolate. ")
	}
	b.WriteString(Disclosure)
	b.WriteString(" I'm a reflective companion: a calm space to slow down, sort through your thoughts and notice how you feel.")
	switch {
	case checkIn:
		b.WriteString(" " + CheckIn)
	case strings.TrimSpace(thread) != "":
		b.WriteString(" " + strings.TrimSpace(thread))
	default:
		b.WriteString(" What's on your mind today?")
	}
	return b.String()
}

// RepeatedDisclosure is said after DisclosureInterval of continuing use, with the
// take-a-break reminder for users under 18 (age 0 means unknown).
func RepeatedDisclosure(age int) string {
	if age > 0 && age < 18 {
		return Disclosure + " " + BreakReminder
	}
	return Disclosure
}

func firstWord(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return s
}
