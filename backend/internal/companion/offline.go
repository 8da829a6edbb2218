package companion

import (
	"context"
	"fmt"
	"hash/fnv"
	"sort"
	"strings"
	"time"
)

// Offline is the offline engine: deterministic, no network. It listens reflectively —
// mirrors the user's words, names the feelings it detects, asks exactly one open question
// and offers a journaling prompt — with the profile's focus areas in mind, steering away
// from the sensitive topics. It streams its reply word by word so the streaming path is the
// same as with a model.
type Offline struct {
	// WordDelay is waited between streamed words of a paced reply (Prompt.Paced; 0: none).
	WordDelay time.Duration
}

// NewOffline returns the offline engine with a quick word-by-word stream.
func NewOffline() *Offline { return &Offline{WordDelay: 12 * time.Millisecond} }

var _ Provider = (*Offline)(nil)

// Offline reports true.
func (o *Offline) Offline() bool { return true }

// Stream composes the reply and streams it word by word.
func (o *Offline) Stream(ctx context.Context, p Prompt, onChunk func(string) error) (Reply, error) {
	text := o.Compose(p.Message, p.Profile)
	words := strings.SplitAfter(text, " ")
	for i, w := range words {
		if err := ctx.Err(); err != nil {
			return Reply{}, err
		}
		if i > 0 && o.WordDelay > 0 && p.Paced {
			t := time.NewTimer(o.WordDelay)
			select {
			case <-ctx.Done():
				t.Stop()
				return Reply{}, ctx.Err()
			case <-t.C:
			}
		}
		if err := onChunk(w); err != nil {
			return Reply{}, err
		}
	}
	prompt := EstimateTokens(p.System) + EstimateTokens(p.Message)
	for _, t := range p.History {
		prompt += EstimateTokens(t.Content)
	}
	return Reply{Text: text, Usage: Usage{PromptTokens: prompt, CompletionTokens: EstimateTokens(text)}}, nil
}

// feelingLexicon maps word stems to the emotion they suggest.
var feelingLexicon = []struct {
	emotion string
	words   []string
}{
	{"anxiety", []string{"anxious", "anxiety", "nervous", "worried", "worry", "worrying", "panic", "panicking", "uneasy", "on edge", "overthinking", "overthink"}},
	{"stress", []string{"stress", "stressed", "stressful", "pressure", "deadline", "deadlines", "exam", "exams", "finals", "busy"}},
	{"overwhelm", []string{"overwhelmed", "overwhelming", "too much", "drowning", "can't keep up", "cant keep up", "swamped"}},
	{"sadness", []string{"sad", "down", "unhappy", "cry", "crying", "cried", "depressed", "low", "heartbroken", "miss", "missing", "grief", "lost"}},
	{"loneliness", []string{"lonely", "alone", "isolated", "left out", "no friends", "nobody", "ignored"}},
	{"anger", []string{"angry", "mad", "furious", "rage", "pissed", "hate"}},
	{"frustration", []string{"frustrated", "frustrating", "annoyed", "annoying", "irritated", "stuck", "fed up"}},
	{"guilt", []string{"guilty", "guilt", "my fault", "sorry", "regret"}},
	{"shame", []string{"ashamed", "shame", "embarrassed", "humiliated", "stupid", "failure", "worthless"}},
	{"confusion", []string{"confused", "confusing", "unsure", "don't know", "dont know", "lost", "torn", "mixed up"}},
	{"fear", []string{"afraid", "scared", "fear", "terrified", "frightened"}},
	{"tiredness", []string{"tired", "exhausted", "drained", "sleepy", "burnt out", "burned out", "worn out", "no energy"}},
	{"joy", []string{"happy", "excited", "great", "glad", "joy", "fun", "amazing", "wonderful"}},
	{"gratitude", []string{"grateful", "thankful", "thanks", "appreciate", "lucky"}},
	{"hope", []string{"hope", "hopeful", "looking forward", "optimistic", "maybe things"}},
	{"calm", []string{"calm", "relaxed", "peaceful", "at ease", "content"}},
	{"pride", []string{"proud", "accomplished", "achieved", "nailed", "managed to"}},
	{"love", []string{"love", "loved", "care about", "adore"}},
}

// DetectEmotions returns the emotions the lexicon finds in text, most mentioned first, at
// most max (ties in the fixed order of Emotions).
func DetectEmotions(text string, max int) []string {
	t := " " + strings.Join(strings.Fields(strings.ToLower(strings.NewReplacer("’", "'", ",", " ", ".", " ", "!", " ", "?", " ").Replace(text))), " ") + " "
	counts := map[string]int{}
	for _, f := range feelingLexicon {
		for _, w := range f.words {
			counts[f.emotion] += strings.Count(t, " "+w+" ")
		}
	}
	var found []string
	for _, e := range Emotions {
		if counts[e] > 0 {
			found = append(found, e)
		}
	}
	sort.SliceStable(found, func(i, j int) bool { return counts[found[i]] > counts[found[j]] })
	if len(found) > max {
		found = found[:max]
	}
	return found
}

var openQuestions = []string{
	"What feels most important to you about this right now?",
	"What do you think is sitting underneath that feeling?",
	"How would you like things to feel instead?",
	"What has helped you, even a little, when you felt like this before?",
	"What would you say to a friend who told you the same thing?",
	"What part of this is weighing on you the most?",
}

var journalPrompts = []string{
	"If you'd like to journal, try finishing this sentence for five minutes without editing: \"Right now I notice…\"",
	"A journaling prompt, if it helps: write down three things on your mind, then circle the one you can act on today.",
	"For your journal: describe this moment as if you were writing to yourself a year from now.",
	"A journaling idea: list what you can control here and what you can't, and notice how each list feels.",
	"If you want to write it out: start with \"What I really want to say is…\" and keep going for a few minutes.",
}

var pronounSwaps = map[string]string{
	"i": "you", "i'm": "you're", "im": "you're", "i've": "you've", "ive": "you've", "i'd": "you'd",
	"i'll": "you'll", "me": "you", "my": "your", "mine": "yours", "myself": "yourself",
	"am": "are", "was": "were", "we": "you", "our": "your", "us": "you",
	"you": "I", "your": "my", "yours": "mine", "you're": "I'm",
}

// mirror reflects the user's words back in the second person.
func mirror(msg string) string {
	s := firstSentence(msg, 200)
	s = strings.TrimRight(s, ".!?… ")
	words := strings.Fields(s)
	if len(words) > 25 {
		words = words[:25]
	}
	for i, w := range words {
		lw := strings.ToLower(strings.NewReplacer("’", "'").Replace(w))
		if sw, ok := pronounSwaps[lw]; ok {
			words[i] = sw
		} else if i == 0 {
			words[i] = lw
		}
	}
	return strings.Join(words, " ")
}

// mentionsAny reports whether text contains one of the comma- or semicolon-separated topics.
func mentionsAny(text, topics string) bool {
	t := strings.ToLower(text)
	for _, topic := range splitList(topics) {
		if strings.Contains(t, strings.ToLower(topic)) {
			return true
		}
	}
	return false
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ';' || r == '\n' }) {
		if p = strings.TrimSpace(p); len([]rune(p)) >= 3 {
			out = append(out, p)
		}
	}
	return out
}

func pick(list []string, key string) string {
	h := fnv.New32a()
	_, _ = h.Write([]byte(key))
	return list[int(h.Sum32()%uint32(len(list)))]
}

// Compose returns the offline reply to msg: a mirror, the feelings heard, a note on the
// focus areas, exactly one open question and a journaling prompt.
func (o *Offline) Compose(msg string, p Profile) string {
	var parts []string
	sensitive := p.SensitiveTopics != "" && mentionsAny(msg, p.SensitiveTopics)
	m := mirror(msg)
	switch {
	case sensitive:
		parts = append(parts, "Thank you for sharing that with me. I'll keep to what feels comfortable for you and won't dig into the details you'd rather leave aside.")
	case m != "":
		parts = append(parts, fmt.Sprintf("It sounds like %s.", m))
	}
	if feelings := DetectEmotions(msg, 3); len(feelings) > 0 {
		parts = append(parts, fmt.Sprintf("I'm hearing %s in what you wrote, and that makes sense.", joinAnd(feelings)))
	} else {
		parts = append(parts, "I'm not sure yet how this sits with you, and that's okay.")
	}
	if focus := splitList(p.FocusAreas); len(focus) > 0 && !sensitive {
		f := focus[0]
		if !mentionsAny(f, p.SensitiveTopics) {
			parts = append(parts, fmt.Sprintf("You mentioned wanting to focus on %s, so it may help to notice how this connects to it.", strings.ToLower(f)))
		}
	}
	parts = append(parts, pick(openQuestions, msg))
	parts = append(parts, pick(journalPrompts, msg+p.FocusAreas))
	return strings.Join(parts, " ")
}

func joinAnd(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	default:
		return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
	}
}

// Summarize writes a short summary and the emotions heard, from the user's messages.
func (o *Offline) Summarize(_ context.Context, transcript []Turn) (Summary, error) {
	return OfflineSummary(transcript), nil
}

// OfflineSummary is the summary of the offline engine (also the fallback for labels a
// model did not give).
func OfflineSummary(transcript []Turn) Summary {
	var userText []string
	var firstTopic, lastTopic string
	n := 0
	for _, t := range transcript {
		if t.Role != RoleUser {
			continue
		}
		n++
		userText = append(userText, t.Content)
		s := firstSentence(t.Content, 140)
		if firstTopic == "" {
			firstTopic = s
		}
		lastTopic = s
	}
	emotions := DetectEmotions(strings.Join(userText, "\n"), 5)
	if len(emotions) == 0 {
		emotions = []string{"calm"}
	}
	var sentences []string
	if n == 0 {
		sentences = append(sentences, "This was a short session without messages from you.", "There is nothing to summarise yet.")
	} else {
		sentences = append(sentences, endSentence(fmt.Sprintf("In this session you shared %d message%s and opened with: %q", n, plural(n), strings.TrimRight(firstTopic, " ")), firstTopic))
		if lastTopic != firstTopic {
			sentences = append(sentences, endSentence(fmt.Sprintf("Toward the end you said: %q", lastTopic), lastTopic))
		}
		sentences = append(sentences, fmt.Sprintf("The feelings that came through most were %s.", joinAnd(emotions)))
	}
	return Summary{Text: strings.Join(sentences, " "), Emotions: emotions}
}

// endSentence closes a sentence that ends with a quotation: the quote's own full stop,
// question or exclamation mark ends it, otherwise a full stop is added.
func endSentence(sentence, quoted string) string {
	if q := strings.TrimSpace(quoted); q != "" && strings.ContainsAny(q[len(q)-1:], ".!?") {
		return sentence
	}
	return sentence + "."
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
