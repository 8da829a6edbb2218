package companion

import (
	"strings"

	"github.com/percolate/percolate/backend/internal/companion/resources"
)

// Where is what a crisis reply needs to know about the user: the country whose lines it
// gives (an ISO 3166-1 alpha-2 code, "" when unknown) and the age (0 when unknown), since a
// child at risk at home needs child-protection lines.
type Where struct {
	Country string
	Age     int
}

// ResourcesFor is the resources text for a country: its emergency number, its crisis line and
// findahelpline.com.
func ResourcesFor(country string) string { return resources.Block(country, resources.Crisis) }

// HasResources reports whether a reply carries the resources, for any country.
func HasResources(text string) bool { return resources.Has(text) }

// aiLimit closes every crisis reply: the companion is not help in an emergency, but stays.
const aiLimit = "I'm an AI, so I can't help in an emergency, but I'm here to keep listening if you want to keep talking."

// CheckInReplyFor answers a message that shows a possible risk: the direct question together
// with the resources of the user's country, whatever a model would say. The next message is
// screened with it as context.
func CheckInReplyFor(w Where) string {
	return "Thank you for telling me how you're feeling. " + CheckInQuestion + " " +
		"It's okay to tell me either way. " + ResourcesFor(w.Country) + " " +
		"I'm an AI, so I can't help in an emergency, but I'm here to keep listening."
}

// CrisisReplyFor is the reply to a clear risk, whatever a model says, for its kind of danger
// and the user's country. Written after the 988 Lifeline's safe-messaging guidance, the
// Samaritans' media guidelines and RAINN's: it believes the person, says help exists and how
// to reach it, and never names a method, a means or a place, nor describes harm. An attempt
// under way puts the emergency number in the first sentence, before anything else.
func CrisisReplyFor(r Risk, w Where) string {
	emergency := "your local emergency number"
	if c, ok := resources.For(w.Country); ok {
		emergency = c.Emergency
	}
	kind, givesEmergency := resources.Crisis, true
	var b strings.Builder
	switch r {
	case RiskAttempt:
		b.WriteString("Please call " + emergency + " now, or ask someone near you to call for you. ")
		b.WriteString("Tell them what has happened, even if you feel all right at the moment: help works best early. ")
		b.WriteString("If you can, unlock the door, stay where someone can reach you, and keep away from anything you could hurt yourself with. ")
		b.WriteString("I'm really glad you told me. You don't have to get through this alone.")
	case RiskSelfHarm:
		kind = resources.SelfHarm
		b.WriteString("Thank you for telling me. Hurting yourself is often a way of coping with pain that feels like too much, and you deserve support with it, without judgement. ")
		b.WriteString("If a wound is bleeding heavily or won't stop, press firmly on it with a clean cloth, keep the pressure on, and call " + emergency + " or go to an emergency department. ")
		b.WriteString("If you're not in danger right now, talking to someone can help with what's underneath.")
	case RiskSexualAssault:
		kind = resources.SexualAssault
		if w.Age > 0 && w.Age < 18 {
			kind = resources.Child
		}
		b.WriteString("I'm so sorry this happened to you. It was not your fault, and you did the right thing by telling someone. ")
		b.WriteString("If you're hurt or not safe now, call " + emergency + ". ")
		b.WriteString("You can also get medical care even if you aren't sure about reporting; what you do next is your choice. ")
		b.WriteString("If the person who hurt you lives with you or can reach you, think about a safe place to go and someone you trust to stay with.")
	case RiskAbuse, RiskChild:
		kind = resources.Abuse
		if r == RiskChild || w.Age > 0 && w.Age < 18 {
			kind = resources.Child
		}
		b.WriteString("Thank you for telling me. No one deserves to be hurt or frightened, and it isn't your fault. ")
		b.WriteString("If you're in danger right now, call " + emergency + ". ")
		if kind == resources.Child {
			b.WriteString("A teacher, a school counsellor or another adult you trust can help you be safe at home too. ")
		} else {
			b.WriteString("When it's safe, think about where you could go and who you could stay with if things get worse. ")
		}
		b.WriteString("If someone else uses this device, you may want to clear this conversation afterwards.")
	case RiskEatingDisorder:
		kind = resources.EatingDisorder
		b.WriteString("Thank you for telling me. What you're going through with food sounds really hard, and you deserve care for it. ")
		b.WriteString("Some signs need a doctor today: fainting or nearly fainting, chest pain, a racing or irregular heartbeat, confusion, or not being able to keep fluids down. ")
		b.WriteString("If any of those are happening, call " + emergency + " or go to an emergency department now.")
	case RiskDanger:
		b.WriteString("Your safety comes first. If you're in danger right now, call " + emergency + " now, and go towards other people if you can. ")
		b.WriteString("I'm here, and what you're feeling makes sense.")
	default:
		givesEmergency = false
		b.WriteString("Thank you for telling me. What you're going through sounds really painful, and you deserve support from a real person right now.")
	}
	lines := resources.LinesText(w.Country, kind)
	if !givesEmergency {
		lines = resources.Block(w.Country, kind)
	}
	return b.String() + " " + lines + " " + aiLimit
}
