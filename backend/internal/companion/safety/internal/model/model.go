// Package model is the crisis screen's learned scorer: a logistic regression over hashed word
// 1–3-grams, negated words and character 3–5-grams of the normalised text, its training, and
// the compact form its weights are embedded in (one signed byte per bucket and a scale).
package model

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"strings"
)

// Bits is the number of bits of a feature's hash: the model has 1<<Bits weights.
const Bits = 17

const buckets = 1 << Bits

// Features lists the hashed features of normalised text (see text.Normalize), sorted and
// without repeats: word unigrams, bigrams and trigrams, the words in the scope of a negation,
// and character 3-, 4- and 5-grams with the spaces that bound words.
func Features(t string) []uint32 {
	b := []byte(" " + strings.Join(strings.Fields(t), " ") + " ")
	fs := make([]uint32, 0, 4*len(b))
	// Words, pairs and triples of words, and negated words, from the spaces that bound them
	// (b has one space between words, so a pair or a triple is one slice of it).
	prev, prev2 := -1, -1 // starts of the two words before
	scope := 0            // words left in the scope of a negation
	start := 1
	for i := 1; i < len(b); i++ {
		if b[i] != ' ' {
			continue
		}
		if i > start {
			w := b[start:i]
			fs = append(fs, hash('w', w))
			if prev >= 0 {
				fs = append(fs, hash('b', b[prev:i]))
			}
			if Trigrams && prev2 >= 0 {
				fs = append(fs, hash('t', b[prev2:i]))
			}
			if negators[string(w)] {
				scope = NegationScope
			} else if scope > 0 {
				fs = append(fs, hash('n', w))
				scope--
			}
			prev2, prev = prev, start
		}
		start = i + 1
	}
	for n := 3; n <= 5; n++ {
		for i := 0; i+n <= len(b); i++ {
			fs = append(fs, hash('c', b[i:i+n]))
		}
	}
	slices.Sort(fs)
	return slices.Compact(fs)
}

// NegationScope is how many words after a negating word ("not", "never", "dont") are also
// counted as negated words, a feature of their own ("im not suicidal" gives the word
// "suicidal" and the negated word "suicidal"); 0 turns it off. Trigrams adds word trigrams.
// Both were chosen by cross-validation on the tuning half (safety's TestCrossValidation); the
// dev bench may change them, nothing else does, since scorer.bin is trained with these values.
var (
	NegationScope = 3
	Trigrams      = true
)

var negators = map[string]bool{
	"not": true, "never": true, "no": true, "dont": true, "didnt": true, "doesnt": true, "isnt": true,
	"arent": true, "wasnt": true, "wont": true, "cant": true, "cannot": true, "havent": true, "hasnt": true,
	"nothing": true, "nobody": true, "zero": true, "wouldnt": true, "shouldnt": true,
}

// hash is 32-bit FNV-1a of the kind of feature and its bytes, folded to a bucket.
func hash(kind byte, s []byte) uint32 {
	const prime = 16777619
	h := uint32(2166136261)
	h = (h ^ uint32(kind)) * prime
	for _, c := range s {
		h = (h ^ uint32(c)) * prime
	}
	return h & (buckets - 1)
}

// Model is a trained scorer in its compact form.
type Model struct {
	scale float32
	bias  float32
	w     []byte // one weight per bucket: an int8, as its two's-complement byte
}

// Score is the probability, from 0 to 1, that the features show risk. Each feature weighs
// 1/√n, so that long and short texts score on the same footing.
func (m *Model) Score(fs []uint32) float64 {
	if len(fs) == 0 {
		return sigmoid(float64(m.bias))
	}
	var s int64
	for _, f := range fs {
		s += int64(int8(m.w[f])) // #nosec G115 -- the stored byte, reinterpreted as the int8 weight it is
	}
	z := float64(m.bias) + float64(m.scale)*float64(s)/math.Sqrt(float64(len(fs)))
	return sigmoid(z)
}

func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

var magic = []byte("PSS1")

// Encode writes the model: "PSS1", the number of bits, the scale and the bias (little-endian
// float32), then one signed byte per bucket.
func (m *Model) Encode() []byte {
	var b bytes.Buffer
	b.Write(magic)
	binary.Write(&b, binary.LittleEndian, uint32(Bits))
	binary.Write(&b, binary.LittleEndian, m.scale)
	binary.Write(&b, binary.LittleEndian, m.bias)
	b.Write(m.w)
	return b.Bytes()
}

// Decode reads a model written by Encode. The model keeps b's weights rather than a copy (for
// the embedded model, pages of the binary only read once a message is scored), so b must not
// change afterwards.
func Decode(b []byte) (*Model, error) {
	const head = 16
	if len(b) < head || !bytes.Equal(b[:4], magic) {
		return nil, errors.New("model: not a PSS1 model")
	}
	if bits := binary.LittleEndian.Uint32(b[4:]); bits != Bits || len(b) != head+buckets {
		return nil, errors.New("model: wrong size")
	}
	m := &Model{
		scale: math.Float32frombits(binary.LittleEndian.Uint32(b[8:])),
		bias:  math.Float32frombits(binary.LittleEndian.Uint32(b[12:])),
		w:     b[head:],
	}
	return m, nil
}
