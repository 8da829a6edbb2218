package companion

import "strings"

// takeawayCue is the user's side of the closing the takeaway is drawn from.
const takeawayCue = "Thanks, that's all for today. Bye."

// Takeaway is one thing to take from a conversation, for the closing moment of End Session:
// the offline engine's closing takeaway for the session's turns (a withheld or risky message
// gives nothing to it), without a model. It is "" for a conversation with nothing to go on.
func Takeaway(history []Turn, p Profile) string {
	hasUser := false
	for _, t := range history {
		if t.Role == RoleUser && t.Content != Withheld && !flagged(t.Content) {
			hasUser = true
			break
		}
	}
	if !hasUser {
		return ""
	}
	text := NewOffline().Compose(Prompt{History: history, Message: takeawayCue, Profile: p})
	for _, lead := range []string{"One thing to take with you: ", "If you keep one thing from today, let it be this: "} {
		i := strings.Index(text, lead)
		if i < 0 {
			continue
		}
		rest := text[i+len(lead):]
		if end := strings.IndexAny(rest, ".!"); end >= 0 {
			rest = rest[:end+1]
		}
		rest = strings.TrimSpace(rest)
		if rest == "" {
			return ""
		}
		return strings.ToUpper(rest[:1]) + rest[1:]
	}
	return ""
}
