package companion

import "strings"

// choiceLeads are the ways a question starts that choiceOf can put in a few words.
var choiceLeads = []string{"do you think i should ", "what should i ", "should i ", "is it ", "would it be ",
	"am i ", "how do i ", "how can i ", "how should i ", "any tips for ", "tips for ", "how do people ",
	"how do you ", "do you think ", "what do i ", "what would i ", "what can i ", "does that ",
	"would that ", "can i ", "could i ", "will i ", "is that ",
	// Practical questions the way students type them: "hw do i", "whats the best way to".
	"hw do i ", "how do u ", "how would i ", "how am i meant to ", "how am i supposed to ",
	"whats the best way to ", "what is the best way to ", "best way to ", "idk how to ",
	"not sure how to ", "is there a way to ", "any tips on ", "tips on ", "where do i ",
	"where can i ", "who do i ", "who should i "}

// choiceOf is what a question asks about, in the second person and a few words: "should i
// email the lecturer or is that snitching" is "emailing the lecturer or not" → "whether to
// email the lecturer". It is "this" when no short clause can be found.
func choiceOf(text string) string {
	if i := strings.Index(text, "?"); i > 0 {
		text = text[:i] // what follows the question is not part of it
	}
	n := plain(text)
	// The lead that starts first, the longest of those: "how should i" before "should i".
	lead, i := "", -1
	for _, l := range choiceLeads {
		if k := strings.Index(n, l); k >= 0 && (i < 0 || k < i || k == i && len(l) > len(lead)) {
			lead, i = l, k
		}
	}
	if rest := strings.Fields(n[max(i, 0)+len(lead):]); i >= 0 && len(rest) > 0 {
		// Stop at a second clause ("or is that snitching"), keeping a short one ("mean") to
		// say as the other side of the choice.
		other := ""
		for k, w := range rest {
			if k > 0 && (w == "or" || w == "but" || w == "because" || w == "bc") && k+1 < len(rest) && (rest[k+1] == "is" || rest[k+1] == "would" || rest[k+1] == "am" || rest[k+1] == "does") {
				if tail := rest[k+1:]; w == "or" && len(tail) >= 3 && len(tail) <= 4 && (tail[1] == "that" || tail[1] == "it") {
					other = strings.Join(tail[2:], " ")
				}
				rest = rest[:k]
				break
			}
		}
		if len(rest) > 7 {
			rest = rest[:7]
			// A cut phrase does not end on a word that leads on ("…at dinner or just").
			for len(rest) > 2 && (notModifiers[rest[len(rest)-1]] || determiners[rest[len(rest)-1]]) {
				rest = rest[:len(rest)-1]
			}
		}
		if lead == "do you think " && len(rest) > 1 && (rest[0] == "you" || rest[0] == "u") {
			// "do you think you can learn it": a general "you", said as it is.
			rest[0] = "people"
		}
		phrase := strings.Join(youForm(rest), " ")
		switch lead {
		case "do you think ":
			return "whether " + phrase
		case "what do i ", "what would i ", "what can i ":
			return "what to " + strings.TrimPrefix(phrase, "even ")
		case "does that ", "would that ":
			return "whether that would " + phrase
		case "can i ", "could i ", "will i ":
			return "whether you " + strings.TrimSuffix(lead[:len(lead)-3], " ") + " " + phrase
		case "is that ":
			return "whether that's " + phrase
		case "should i ", "do you think i should ":
			if other != "" && len(rest) <= 5 {
				return "whether to " + phrase + ", or whether that's " + other
			}
			return "whether to " + phrase
		case "how do i ", "how can i ", "how should i ", "hw do i ", "how do u ", "how would i ",
			"how am i meant to ", "how am i supposed to ", "whats the best way to ", "what is the best way to ",
			"best way to ", "idk how to ", "not sure how to ", "is there a way to ":
			return "how to " + phrase
		case "any tips on ", "tips on ":
			return phrase
		case "where do i ", "where can i ":
			return "where to " + phrase
		case "who do i ", "who should i ":
			return "who to " + phrase
		case "what should i ":
			return "what to " + phrase
		case "am i ":
			return "whether you're " + strings.TrimPrefix(phrase, "being ")
		case "any tips for ", "tips for ":
			return phrase
		case "how do people ", "how do you ":
			return "how to " + strings.TrimPrefix(strings.TrimPrefix(phrase, "even "), "actually ")
		}
		return "whether it's " + phrase
	}
	return "this"
}

var youWords = map[string]string{"i": "you", "im": "you're", "me": "you", "my": "your", "mine": "yours", "myself": "yourself", "ive": "you've", "id": "you'd", "ill": "you'll", "am": "are", "you": "them", "your": "their"}

func youForm(words []string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		if y, ok := youWords[w]; ok {
			w = y
		}
		out[i] = w
	}
	return out
}

// selfLeads are the ways a question about the companion starts.
var selfLeads = []string{"do you ever ", "do you ", "are you ", "can you ", "will you ", "did you ", "would you ", "have you "}

// selfWords turn the user's words about the companion into the companion's own.
var selfWords = map[string]string{"you": "I", "u": "I", "your": "my", "ur": "my", "yourself": "myself",
	"me": "you", "i": "you", "my": "your", "im": "you're", "myself": "yourself"}

// selfChoice is what a question about the companion asks, in its own words and a few of
// them: "do you ever get tired of people" → "whether I ever get tired of people"; "" when
// the question does not start the way such questions do.
func selfChoice(text string) string {
	if i := strings.Index(text, "?"); i > 0 {
		text = text[:i]
	}
	n := reLeadFiller.ReplaceAllString(plain(text), "")
	for _, l := range selfLeads {
		if !strings.HasPrefix(n, l) {
			continue
		}
		rest := strings.Fields(n[len(l):])
		if len(rest) == 0 {
			return ""
		}
		if len(rest) > 7 {
			rest = rest[:7]
		}
		for len(rest) > 1 && (notModifiers[rest[len(rest)-1]] && rest[len(rest)-1] != "you" || determiners[rest[len(rest)-1]]) {
			rest = rest[:len(rest)-1]
		}
		for i, w := range rest {
			if s, ok := selfWords[w]; ok {
				rest[i] = s
			}
		}
		verb := map[string]string{"do you ever ": "I ever", "do you ": "I", "are you ": "I'm", "can you ": "I can",
			"will you ": "I will", "did you ": "I did", "would you ": "I would", "have you ": "I have"}[l]
		return "whether " + verb + " " + strings.Join(rest, " ")
	}
	return ""
}
