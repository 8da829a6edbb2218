package companion

import (
	"context"
	"sort"
	"strings"
	"time"
)

// Offline is the offline engine: deterministic, no network. It holds a reflective dialogue
// over the whole session it is given (see Compose): it tracks what the user mentioned,
// paraphrases instead of echoing, refers back, answers what is asked, summarises every few
// turns, suggests small next steps and closes with a takeaway, with the profile's focus
// areas in mind and steering away from the sensitive topics. It streams its reply word by
// word so the streaming path is the same as with a model.
type Offline struct {
	// WordDelay is waited between streamed words of a paced reply (Prompt.Paced; 0: none).
	WordDelay time.Duration
	// Keywords ablates the sentence encoder: the message's act is read from keyword rules
	// alone (the benchmark's baseline, to show what the encoder adds).
	Keywords bool
}

// NewOffline returns the offline engine with a quick word-by-word stream.
func NewOffline() *Offline { return &Offline{WordDelay: 12 * time.Millisecond} }

var _ Provider = (*Offline)(nil)

// Offline reports true.
func (o *Offline) Offline() bool { return true }

// Stream composes the reply and streams it word by word.
func (o *Offline) Stream(ctx context.Context, p Prompt, onChunk func(string) error) (Reply, error) {
	text := o.Compose(p)
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
	{"loneliness", []string{"lonely", "feel alone", "feeling alone", "felt alone", "so alone", "all alone", "isolated", "left out", "no friends", "nobody", "ignored"}},
	{"anger", []string{"angry", "mad", "furious", "rage", "pissed", "hate"}},
	{"frustration", []string{"frustrated", "frustrating", "annoyed", "annoying", "irritated", "stuck", "fed up"}},
	{"guilt", []string{"guilty", "guilt", "my fault", "sorry", "regret"}},
	{"shame", []string{"ashamed", "shame", "embarrassed", "humiliated", "stupid", "failure", "worthless"}},
	{"confusion", []string{"confused", "confusing", "unsure", "don't know", "dont know", "lost", "torn", "mixed up"}},
	{"fear", []string{"afraid", "scared", "fear", "terrified", "frightened"}},
	{"tiredness", []string{"tired", "exhausted", "drained", "sleepy", "burnt out", "burned out", "worn out", "no energy"}},
	{"joy", []string{"happy", "excited", "great", "glad", "joy", "fun", "amazing", "wonderful", "feel good", "felt good", "feels good", "feeling good", "good day", "great day", "really good", "so good", "pretty good"}},
	{"gratitude", []string{"grateful", "thankful", "thanks", "appreciate", "lucky"}},
	{"hope", []string{"hope", "hopeful", "looking forward", "optimistic", "maybe things"}},
	{"calm", []string{"calm", "calmer", "relaxed", "peaceful", "at ease", "content", "relieved", "relief"}},
	{"pride", []string{"proud", "accomplished", "achieved", "nailed", "managed to", "aced"}},
	{"love", []string{"love", "loved", "care about", "adore"}},
}

// DetectEmotions returns the emotions the lexicon finds in text, most mentioned first, at
// most max (ties in the fixed order of Emotions). A negated word ("not anxious", "don't
// feel lonely") does not count.
func DetectEmotions(text string, max int) []string {
	counts := feelingCounts(text)
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

var feelingPunct = strings.NewReplacer("’", "'", ",", " ", ".", " ", "!", " ", "?", " ")

// feelingCounts counts the lexicon's words in text by emotion, skipping negated ones.
func feelingCounts(text string) map[string]int {
	t := " " + strings.Join(strings.Fields(strings.ToLower(feelingPunct.Replace(text))), " ") + " "
	counts := map[string]int{}
	for _, f := range feelingLexicon {
		for _, w := range f.words {
			needle := " " + w + " "
			for off := 0; off < len(t); {
				i := strings.Index(t[off:], needle)
				if i < 0 {
					break
				}
				at := off + i
				if !negated(t[:at]) {
					counts[f.emotion]++
				}
				off = at + len(needle) - 1
			}
		}
	}
	return counts
}

// negated reports whether one of the two words before a feeling word negates it.
func negated(before string) bool {
	// Two words are never longer than this; looking further back would make long texts slow.
	if len(before) > 48 {
		before = before[len(before)-48:]
	}
	f := strings.Fields(before)
	for k := len(f) - 1; k >= 0 && k >= len(f)-2; k-- {
		switch strings.ReplaceAll(f[k], "'", "") {
		case "not", "never", "no", "isnt", "wasnt", "arent", "dont", "didnt", "nor", "without", "hardly":
			return true
		}
	}
	return false
}

// isFeelingWord reports whether w is one of the lexicon's single feeling words.
func isFeelingWord(w string) bool {
	for _, f := range feelingLexicon {
		for _, x := range f.words {
			if x == w {
				return true
			}
		}
	}
	return false
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
