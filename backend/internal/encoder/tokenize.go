package encoder

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// reserved is the number of ids the model's tokenizer never gives out, except 0 for a character
// no piece starts with: 0 "�" (unknown), 1 <s>, 2 </s>, 3-5 extra tokens.
const reserved = 6

// scratch holds one tokenisation's working arrays; it is pooled so Embed allocates nothing.
type scratch struct {
	buf   []byte    // the normalised text
	pos   []int32   // byte offset of each character of buf, and len(buf)
	best  []float64 // best[i]: the best score of a segmentation of the first i characters
	words []int32   // words[i]: the last piece of that segmentation
	ids   []int32
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// putScratch returns s to the pool unless a very long text grew it: the pool keeps no large arrays.
func putScratch(s *scratch) {
	if cap(s.buf) <= 1<<16 {
		scratchPool.Put(s)
	}
}

// Tokenize splits text into the ids of the model's vocabulary pieces exactly as the model's own
// tokenizer does (@energetic-ai/embeddings 0.2.0; testdata/tokens.golden is its output):
//
//   - NFKC normalisation, and no lower-casing: the vocabulary is cased;
//   - "▁" (U+2581) before the text and in place of every ASCII space (tabs and newlines stay);
//   - a unigram Viterbi over the pieces' scores (log-probabilities) that keeps the best total
//     score, a later start winning a tie; a character that no piece starts with becomes the
//     unknown id 0 with score 0, and a run of unknowns one 0.
//
// It also copies the JS code's quirks: a position whose best score is exactly 0 counts as
// unreached, and the seven colon pieces with a null score in the vocabulary score 0.
func Tokenize(text string) []int {
	s := scratchPool.Get().(*scratch)
	defer putScratch(s)
	ids := tbl().tokenize(text, s, false)
	out := make([]int, len(ids))
	for i, id := range ids {
		out[i] = int(id)
	}
	return out
}

// tokenize returns the ids of text in s.ids (valid until s is reused). With fold, every run of
// white space (tabs and newlines too) is one word boundary, and the text is trimmed first.
func (t *table) tokenize(text string, s *scratch, fold bool) []int32 {
	s.ids = s.ids[:0]
	if !utf8.ValidString(text) || norm.NFKC.QuickSpanString(text) != len(text) {
		text = norm.NFKC.String(text) // invalid bytes become U+FFFD
	}
	if fold {
		text = strings.TrimSpace(text)
	}
	if text == "" {
		return s.ids
	}
	s.buf = append(s.buf[:0], "▁"...)
	s.pos = s.pos[:0]
	s.pos = append(s.pos, 0)
	space := false
	for _, r := range text {
		if fold && unicode.IsSpace(r) {
			if space {
				continue
			}
			r = ' '
		}
		space = r == ' '
		s.pos = append(s.pos, int32(len(s.buf))) // #nosec G115 -- a message is far below 2 GB
		if r == ' ' {
			s.buf = append(s.buf, "▁"...)
		} else {
			s.buf = utf8.AppendRune(s.buf, r)
		}
	}
	s.pos = append(s.pos, int32(len(s.buf))) // #nosec G115 -- as above
	n := len(s.pos) - 1                      // characters
	s.best = append(s.best[:0], make([]float64, n+1)...)
	s.words = append(s.words[:0], make([]int32, n+1)...)
	best, words := s.best, s.words

	// Forward: each start in order relaxes the ends of the pieces that begin there, so every end
	// sees its candidates in the order of their starts, as the JS code's loop over ends does.
	relax := func(end int, score float64, id int32) {
		if best[end] == 0 || score >= best[end] {
			best[end], words[end] = score, id
		}
	}
	for i := 0; i < n; i++ {
		matched := false
		node, j := int32(0), i
		for off := int(s.pos[i]); off < len(s.buf); off++ {
			if node = t.child(node, s.buf[off]); node < 0 {
				break
			}
			if id := t.nodeID[node]; id >= 0 { // a piece ends here, so at a character's end
				for int(s.pos[j]) <= off {
					j++
				}
				matched = true
				relax(j, t.score[id]+best[i], id)
			}
		}
		if !matched {
			relax(i+1, best[i], 0)
		}
	}
	// Backward from the end, stepping back by each piece's length; then reverse, merging runs of 0.
	for i := n; i > 0; {
		id := words[i]
		if id != 0 || len(s.ids) == 0 || s.ids[len(s.ids)-1] != 0 {
			s.ids = append(s.ids, id)
		}
		i -= int(t.runes[id])
	}
	for a, b := 0, len(s.ids)-1; a < b; a, b = a+1, b-1 {
		s.ids[a], s.ids[b] = s.ids[b], s.ids[a]
	}
	return s.ids
}
