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

// CrisisResources is part of every reply to a message that screened positive.
const CrisisResources = "If you are in immediate danger, please call your local emergency number now (911 in the US). " +
	"In the US you can call or text 988 to reach the 988 Suicide & Crisis Lifeline, any time, for free. " +
	"You can also text HOME to 741741 to reach the Crisis Text Line. " +
	"Outside the US, findahelpline.com lists free, confidential helplines in your country."

// CrisisReply is the caring reply to a message that screened positive, whatever a model says.
const CrisisReply = "Thank you for telling me. What you're going through sounds really painful, and you deserve support from a real person right now. " +
	CrisisResources + " " +
	"I'm an AI, so I can't help in an emergency, but I'm here to keep listening if you want to keep talking."

// CheckInQuestion is the direct, gentle question asked when a message shows a possible risk.
const CheckInQuestion = "I want to make sure I understand — are you thinking about hurting yourself or ending your life?"

// CheckInReply answers a message that shows a possible risk: the direct question together
// with the resources, whatever a model would say. The next message is screened with it as
// context, so that a short answer ("yes", "tonight") gets the crisis reply.
const CheckInReply = "Thank you for telling me how you're feeling. " + CheckInQuestion + " " +
	"It's okay to tell me either way. " +
	CrisisResources + " " +
	"I'm an AI, so I can't help in an emergency, but I'm here to keep listening."

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
