package companion

import (
	"hash/fnv"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/percolate/percolate/backend/internal/lazyre"
)

// copyRun is the shortest run of a user's words the engine never repeats: it paraphrases.
const copyRun = 8

// tmpl is a sentence template: text with {placeholders} filled from the session.
type tmpl struct {
	src  string
	keys []string
	// frags are its fixed pieces of text, lower case, in order.
	frags []string
	// stock templates (questions, prompts, steps, and any line with four fixed words or
	// more) are said at most once a session, whatever fills them.
	stock bool
}

var placeholder = lazyre.MustCompile(`\{(\w+)\}`)

func parseTmpl(src string, stock bool) tmpl {
	t := tmpl{src: src}
	for _, m := range placeholder.FindAllStringSubmatch(src, -1) {
		t.keys = append(t.keys, m[1])
	}
	fixed := 0
	for _, f := range placeholder.Split(src, -1) {
		f = strings.ToLower(strings.TrimSpace(f))
		if strings.ContainsFunc(f, unicode.IsLetter) {
			t.frags = append(t.frags, f)
			fixed += len(strings.Fields(f))
		}
	}
	t.stock = stock || fixed >= 4
	return t
}

// lines parses a pool of templates; stock says that every one of them is a stock line.
// wording is the source of every line the engine can say. Its replies are not screened as
// if the user had written them; instead, a test checks at build time that none of its own
// words reads as risk (TestEngineWordingIsNotRisky), and it never quotes a flagged message.
var wording []string

func lines(stock bool, src ...string) []tmpl {
	wording = append(wording, src...)
	out := make([]tmpl, len(src))
	for i, s := range src {
		out[i] = parseTmpl(s, stock)
	}
	return out
}

func (t tmpl) fits(vals map[string]string) bool {
	for _, k := range t.keys {
		if vals[k] == "" {
			return false
		}
	}
	for _, k := range nounSlots {
		// A broken phrase ("your phone without") makes no line.
		if v, ok := vals[k]; ok && v != "" && slices.Contains(t.keys, k) && !endsOnNoun(v) {
			return false
		}
	}
	return true
}

func (t tmpl) render(vals map[string]string) string {
	return placeholder.ReplaceAllStringFunc(t.src, func(m string) string { return vals[m[1:len(m)-1]] })
}

// in reports whether text (lower case) holds the template's fixed pieces in order.
func (t tmpl) in(text string) bool {
	if len(t.frags) == 0 {
		return false
	}
	for _, f := range t.frags {
		i := strings.Index(text, f)
		if i < 0 {
			return false
		}
		text = text[i+len(f):]
	}
	return true
}

// part is one piece of a reply; keep orders what goes first when a reply is too long.
type part struct {
	text string
	keep int
}

// How much each kind of part matters when a reply must be shortened.
const (
	keepExtra    = 10 // focus-area and concern links
	keepJournal  = 20
	keepAck      = 40
	keepBody     = 70 // the answer, the summary, a step, the takeaway
	keepQuestion = 90
)

// writer assembles a reply from templates, keeping the session's rules: no sentence or
// stock line twice, no run of eight of the user's words, nothing about a sensitive topic.
type writer struct {
	said  []string        // earlier assistant turns, lower case
	used  map[string]bool // sentences said in the session, and in this reply so far
	grams map[string]bool // every run of copyRun words of the user's messages
	avoid string          // the sensitive topics
	seed  uint64
	parts []part
	taken []tmpl
}

func newWriter(s *session, userTexts []string) *writer {
	w := &writer{used: map[string]bool{}, grams: map[string]bool{}, avoid: s.profile.SensitiveTopics, seed: s.seed}
	for _, t := range s.said {
		w.said = append(w.said, strings.ToLower(t))
		for _, sen := range splitSentences(t) {
			w.used[sentenceKey(sen)] = true
		}
	}
	for _, u := range userTexts {
		for _, g := range grams(u) {
			w.grams[g] = true
		}
	}
	return w
}

// order sorts a pool: the lines that use more of the session first, then by a hash of the
// session and the slot, so that the same session always gives the same choice and another
// session another one.
func (w *writer) order(slot string, pool []tmpl) []tmpl {
	out := append([]tmpl(nil), pool...)
	key := func(t tmpl) uint64 {
		h := fnv.New64a()
		_, _ = h.Write([]byte(strconv.FormatUint(w.seed, 16) + slot + t.src))
		return h.Sum64()
	}
	sort.SliceStable(out, func(i, j int) bool {
		if len(out[i].keys) != len(out[j].keys) {
			return len(out[i].keys) > len(out[j].keys)
		}
		return key(out[i]) < key(out[j])
	})
	return out
}

// usedTmpl reports whether a stock template was said before in the session or this reply.
func (w *writer) usedTmpl(t tmpl) bool {
	if !t.stock {
		return false
	}
	for _, s := range w.said {
		if t.in(s) {
			return true
		}
	}
	for _, x := range w.taken {
		if x.src == t.src {
			return true
		}
	}
	return false
}

// fresh reports whether text may be said: no sentence of it was said before, it copies no
// run of the user's words and it names no sensitive topic.
func (w *writer) fresh(text string) bool {
	for _, s := range splitSentences(text) {
		if w.used[sentenceKey(s)] {
			return false
		}
	}
	return !w.copies(text) && !mentionsAny(text, w.avoid)
}

func (w *writer) copies(text string) bool {
	for _, g := range grams(text) {
		if w.grams[g] {
			return true
		}
	}
	return false
}

// pick renders the first template of the groups (each in the session's order) that fits
// the values and may be said; wrap (may be nil) frames the rendered text. It reports false
// when none can.
func (w *writer) pick(slot string, vals map[string]string, wrap func(string) string, groups ...[]tmpl) (string, bool) {
	for _, g := range groups {
		for _, t := range w.order(slot, g) {
			if !t.fits(vals) || w.usedTmpl(t) {
				continue
			}
			text := t.render(vals)
			if wrap != nil {
				text = wrap(text)
			}
			text = capSentences(text)
			if !w.fresh(text) {
				continue
			}
			w.taken = append(w.taken, t)
			for _, s := range splitSentences(text) {
				w.used[sentenceKey(s)] = true
			}
			return text, true
		}
	}
	return "", false
}

// add picks a line (see pick) and adds it to the reply.
func (w *writer) add(keep int, slot string, vals map[string]string, groups ...[]tmpl) bool {
	text, ok := w.pick(slot, vals, nil, groups...)
	if ok {
		w.parts = append(w.parts, part{text, keep})
	}
	return ok
}

func (w *writer) addText(keep int, text string) {
	if text != "" {
		w.parts = append(w.parts, part{text, keep})
	}
}

// text joins the parts into the reply. When the reply is too long, or its sentences put
// together repeat a run of the user's words, the parts that matter least go first; if
// nothing is left, a short line of a few words is said instead.
func (w *writer) text() string {
	parts := w.parts
	for len(parts) > 0 {
		t := joinParts(parts)
		if len(strings.Fields(t)) <= ReplyWords && !w.copies(t) {
			return t
		}
		low := 0
		for i, p := range parts {
			if p.keep < parts[low].keep || (p.keep == parts[low].keep && i > low) {
				low = i
			}
		}
		parts = append(parts[:low:low], parts[low+1:]...)
	}
	if t, ok := w.pick("fallback", nil, nil, fallbackLines); ok {
		return t
	}
	return "I'm listening."
}

func joinParts(parts []part) string {
	texts := make([]string, len(parts))
	for i, p := range parts {
		texts[i] = p.text
	}
	return strings.Join(texts, " ")
}

// splitSentences splits the engine's own text into sentences.
func splitSentences(text string) []string {
	var out []string
	var b strings.Builder
	r := []rune(text)
	for i := 0; i < len(r); i++ {
		b.WriteRune(r[i])
		if !strings.ContainsRune(".!?…", r[i]) {
			continue
		}
		for i+1 < len(r) && strings.ContainsRune(".!?…\"”’)", r[i+1]) {
			i++
			b.WriteRune(r[i])
		}
		if i+1 == len(r) || unicode.IsSpace(r[i+1]) {
			if s := strings.TrimSpace(b.String()); s != "" {
				out = append(out, s)
			}
			b.Reset()
		}
	}
	if s := strings.TrimSpace(b.String()); s != "" {
		out = append(out, s)
	}
	return out
}

// sentenceKey is how sentences are compared: case, spacing and end punctuation aside.
func sentenceKey(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(strings.TrimRight(s, ".!?…\"”’) "))), " ")
}

// grams returns every run of copyRun words of text, compared without case or punctuation.
func grams(text string) []string {
	words := strings.Fields(plain(text))
	var out []string
	for i := 0; i+copyRun <= len(words); i++ {
		out = append(out, strings.Join(words[i:i+copyRun], " "))
	}
	return out
}

// capSentences upper-cases the first letter of each sentence.
func capSentences(text string) string {
	var b strings.Builder
	start := true
	for i, r := range text {
		if start && unicode.IsLetter(r) {
			b.WriteString(capFirst(text[i : i+utf8.RuneLen(r)]))
			start = false
			continue
		}
		if strings.ContainsRune(".!?", r) {
			start = true
		} else if !unicode.IsSpace(r) && !strings.ContainsRune("\"“”'‘’", r) {
			start = false
		}
		b.WriteRune(r)
	}
	return b.String()
}
