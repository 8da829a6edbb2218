package companion

import (
	"strings"
	"sync"

	"github.com/percolate/percolate/backend/internal/encoder"
)

// situation is a kind of thing students go through, read from the session by the encoder
// (its nearest example sentences), so that a message with no word the item tracker knows
// ("he hasnt even opened the doc") is still heard in its situation, not with a line that
// would fit any message.
type situation struct {
	examples []string
	keywords []string
	// topics: the session must use one of them for the situation to be its own (see
	// situationNow).
	topics []string
	// lines reflect the situation in a counsellor's words; again are for a situation already
	// reflected in the session; questions are its own.
	lines, again, questions []tmpl
}

var (
	situationOnce sync.Once
	situationVecs [][]encoder.Vector
)

// situationLines are the lines of the session's situation (see situationNow): its first
// lines, or, once one of them was said, the lines for coming back to it.
func (r *reply) situationLines() []tmpl {
	sit := r.situationNow()
	if sit == nil {
		return nil
	}
	for _, said := range r.s.replies {
		low := strings.ToLower(said)
		for _, t := range sit.lines {
			if t.in(low) {
				// Only the lines for coming back: in one pool with the first-mention lines,
				// the session's order could put a first-mention line first.
				return sit.again
			}
		}
	}
	return sit.lines
}

// situationNow is the session's situation: the nearest to its recent messages (or, with the
// encoder ablated, the first whose keyword they use); nil when no situation is near.
func (r *reply) situationNow() *situation {
	var b strings.Builder
	for i := max(0, len(r.s.turns)-3); i < len(r.s.turns); i++ {
		if u := r.s.turns[i]; !u.flagged && !u.sensitive && !IsStarter(u.text) {
			b.WriteString(plain(u.text) + " ")
		}
	}
	text := b.String()
	if strings.TrimSpace(text) == "" {
		return nil
	}
	if r.keywords {
		for i, s := range situations {
			for _, k := range s.keywords {
				if strings.Contains(" "+text, " "+k) {
					return &situations[i]
				}
			}
		}
		return nil
	}
	situationOnce.Do(func() {
		situationVecs = make([][]encoder.Vector, len(situations))
		for i, s := range situations {
			for _, e := range s.examples {
				situationVecs[i] = append(situationVecs[i], encoder.Embed(e))
			}
		}
	})
	v := encoder.Embed(text)
	session := r.sessionText()
	best, bestSim := -1, situationFloor
	for i, vs := range situationVecs {
		var bonus float32
		switch {
		case usesTopic(text, situations[i].topics):
			// Its word in the recent messages: the situation is what they are about.
			bonus = situationTopicBonus
		case !usesTopic(session, situations[i].topics):
			// Near in shape, about something else: "i feel like im doing everything myself"
			// in a group project is no drifting friendship.
			continue
		}
		for k := range vs {
			if c := encoder.Cosine(&v, &vs[k]) + bonus; c > bestSim {
				best, bestSim = i, c
			}
		}
	}
	if best < 0 {
		return nil
	}
	return &situations[best]
}

// situationFloor is the least similarity of the recent messages to a situation's examples
// for the situation to be the session's.
// situationTopicBonus is added for a situation whose topic word the recent messages use.
const (
	situationFloor      = float32(0.5)
	situationTopicBonus = float32(0.05)
)

// usesTopic: text (plain, space-separated) uses one of the topic words at a word's start.
func usesTopic(text string, topics []string) bool {
	text = " " + text
	for _, k := range topics {
		if strings.Contains(text, " "+k) {
			return true
		}
	}
	return false
}

// sessionText is the session's messages, plain, leaving out flagged and sensitive ones.
func (r *reply) sessionText() string {
	var b strings.Builder
	for _, u := range r.s.turns {
		if !u.flagged && !u.sensitive && !IsStarter(u.text) {
			b.WriteString(plain(u.text) + " ")
		}
	}
	return b.String()
}

// StarterText is the web app's message that opens a new chat (chat.StarterMessage): no
// words of the user's, so no topic ("start" is no procrastination).
const StarterText = "Hello! I'd like to start a new conversation."

// IsStarter says whether text is the starter message.
func IsStarter(text string) bool {
	return strings.EqualFold(strings.TrimSpace(text), StarterText)
}
