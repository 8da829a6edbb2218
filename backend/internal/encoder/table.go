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
	// A byte trie of the pieces (ids from reserved on, as the model's tokenizer has it): node 0 is
	// the root; the edge (node, byte) → child is in an open-addressing hash table.
	edgeKey []uint32 // (node+1)<<8 | byte, 0 for an empty slot
	edgeTo  []int32
	nodeID  []int32   // the piece that ends at each node, or -1
	score   []float64 // Viterbi score of each id
	runes   []int32   // each piece's length in characters (the JS tokenizer steps back by it)
	text    []uint32  // each piece's offset in the embedded bytes (its length byte first)
	weight  []float32 // each id's weight in the mean (smooth inverse frequency)
	vec     []byte    // n x Dim int8 coordinates, in the embedded bytes themselves
	scale   [Dim]float32
	raw     []byte
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
		score:  make([]float64, n),
		runes:  make([]int32, n),
		text:   make([]uint32, n),
		weight: make([]float32, n),
		nodeID: []int32{-1},
		raw:    b,
	}
	off := 16
	logp := make([]float32, n)
	// The pieces' bytes bound the trie's edges; the hash table gets at least twice as many slots.
	size, pieceBytes := 1, len(b)-off-13*n-4*Dim-n*Dim
	for size < 2*pieceBytes {
		size <<= 1
	}
	if pieceBytes <= 0 {
		return nil, errTable
	}
	t.edgeKey, t.edgeTo = make([]uint32, size), make([]int32, size)
	for i := 0; i < n; i++ {
		if off+13 > len(b) {
			return nil, errTable
		}
		t.score[i] = math.Float64frombits(le.Uint64(b[off:]))
		logp[i] = math.Float32frombits(le.Uint32(b[off+8:]))
		t.text[i] = uint32(off + 12) // #nosec G115 -- the table is a few MB
		l := int(b[off+12])
		off += 13
		if off+l > len(b) || l == 0 {
			return nil, errTable
		}
		p := b[off : off+l]
		off += l
		t.runes[i] = int32(utf8.RuneCount(p)) // #nosec G115 -- at most 255
		// The model's tokenizer leaves the reserved ids (0-5) out of its trie, and a piece listed
		// twice keeps its last id.
		if i < reserved {
			continue
		}
		node := int32(0)
		for _, c := range p {
			node = t.addChild(node, c)
		}
		t.nodeID[node] = int32(i) // #nosec G115 -- n < 2^20
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

func (t *table) slot(key uint32) int {
	return int((key * 0x9E3779B1) >> 7 & uint32(len(t.edgeKey)-1)) // #nosec G115 -- masked
}

// child is the trie node reached from node by byte c, or -1.
func (t *table) child(node int32, c byte) int32 {
	key := uint32(node+1)<<8 | uint32(c) // #nosec G115 -- node >= 0
	for h := t.slot(key); ; h = (h + 1) & (len(t.edgeKey) - 1) {
		switch t.edgeKey[h] {
		case key:
			return t.edgeTo[h]
		case 0:
			return -1
		}
	}
}

// addChild returns the child of node by byte c, adding it if it is not there yet.
func (t *table) addChild(node int32, c byte) int32 {
	key := uint32(node+1)<<8 | uint32(c) // #nosec G115 -- node >= 0
	h := t.slot(key)
	for ; t.edgeKey[h] != 0; h = (h + 1) & (len(t.edgeKey) - 1) {
		if t.edgeKey[h] == key {
			return t.edgeTo[h]
		}
	}
	child := int32(len(t.nodeID)) // #nosec G115 -- fewer nodes than the table's bytes
	t.nodeID = append(t.nodeID, -1)
	t.edgeKey[h], t.edgeTo[h] = key, child
	return child
}

// piece is the text of the piece id.
func (t *table) piece(id int) string {
	off := int(t.text[id])
	return string(t.raw[off+1 : off+1+int(t.raw[off])])
}
