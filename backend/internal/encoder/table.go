package encoder

import (
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sync"
	"unicode/utf8"
)

//go:generate go run ./gen

// tableBytes is the distilled model, written by ./gen (make generate). Its format, all little-endian:
//
//	"PCENC1\0\0"                    magic
//	uint32 n, uint32 dim            pieces (8,000) and dimensions (256)
//	n times: float64 score,         the piece's score in the model's vocabulary (its unigram
//	         float32 logp,          log-probability; 0 for the seven colon pieces whose score is
//	         uint8 len, len bytes   null there), the log-probability its weight uses, the piece
//	float32 scale[dim]              each dimension's quantisation step
//	int8 vec[n][dim]                the pieces' PCA coordinates / scale
//
//go:embed table.bin
var tableBytes []byte

// table is tableBytes decoded, once, on first use.
type table struct {
	pieces  map[string]int32 // a piece, or a proper prefix of one (then -1), to its id
	score   []float64        // Viterbi score of each id
	runes   []int32          // each piece's length in characters (the JS tokenizer steps back by it)
	weight  []float32        // each id's weight in the mean (smooth inverse frequency)
	vec     []byte           // n x Dim int8 coordinates, in the embedded bytes themselves
	scale   [Dim]float32     // each dimension's quantisation step
	maxRune int // the longest piece, in characters
}

// Dim is the number of dimensions of a Vector.
const Dim = 256

// sifA is the smooth-inverse-frequency constant: a piece of unigram probability p weighs
// sifA / (sifA + p), so frequent pieces ("▁the", ".") count for little and rare ones for ~1.
const sifA = 1e-3

var (
	loadOnce sync.Once
	loaded   *table
)

func tbl() *table {
	loadOnce.Do(func() {
		t, err := decode(tableBytes)
		if err != nil {
			panic("encoder: " + err.Error()) // the embedded table is written and checked by make generate
		}
		loaded = t
	})
	return loaded
}

var errTable = errors.New("table.bin is truncated or malformed")

func decode(b []byte) (*table, error) {
	if len(b) < 16 || string(b[:8]) != "PCENC1\x00\x00" {
		return nil, errTable
	}
	le := binary.LittleEndian
	n, dim := int(le.Uint32(b[8:])), int(le.Uint32(b[12:]))
	if dim != Dim || n <= 0 || n > 1<<20 {
		return nil, fmt.Errorf("table.bin has %d pieces of %d dimensions, want %d", n, dim, Dim)
	}
	t := &table{
		pieces: make(map[string]int32, 2*n),
		score:  make([]float64, n),
		runes:  make([]int32, n),
		weight: make([]float32, n),
	}
	off := 16
	logp := make([]float32, n)
	for i := 0; i < n; i++ {
		if off+13 > len(b) {
			return nil, errTable
		}
		t.score[i] = math.Float64frombits(le.Uint64(b[off:]))
		logp[i] = math.Float32frombits(le.Uint32(b[off+8:]))
		l := int(b[off+12])
		off += 13
		if off+l > len(b) {
			return nil, errTable
		}
		p := string(b[off : off+l])
		off += l
		t.runes[i] = int32(utf8.RuneCountInString(p)) // #nosec G115 -- at most 255
		t.maxRune = max(t.maxRune, int(t.runes[i]))
		// The model's tokenizer leaves the reserved ids (0-5) out of its trie, and a piece listed
		// twice keeps its last id.
		if i < reserved {
			continue
		}
		for j := range p {
			if j > 0 {
				if _, ok := t.pieces[p[:j]]; !ok {
					t.pieces[p[:j]] = -1
				}
			}
		}
		t.pieces[p] = int32(i) // #nosec G115 -- n < 2^20
	}
	if off+4*Dim+n*Dim != len(b) {
		return nil, errTable
	}
	for k := 0; k < Dim; k++ {
		t.scale[k] = math.Float32frombits(le.Uint32(b[off+4*k:]))
	}
	off += 4 * Dim
	t.vec = b[off:]
	for i := range t.weight {
		t.weight[i] = float32(sifA / (sifA + math.Exp(float64(logp[i]))))
	}
	return t, nil
}
