package encoder

import (
	"encoding/binary"
	"math"
	"os"
	"sort"
	"strings"
	"testing"
)

// reference is the full model's vector of one reference sentence (testdata/reference.bin, by
// the generator): full is the model's own 512-d output, proj its projection into the table's
// 256-d space (centred on the pieces' mean, on the same principal components).
type reference struct {
	text string
	full []float32
	proj Vector
}

// loadReference reads testdata/reference.bin: uint32 n, 512, 256, then for each sentence of
// tokens.golden in order a float32 scale and 512 int8, then a float32 scale and 256 int8.
func loadReference(t testing.TB) []reference {
	t.Helper()
	gs := loadGolden(t)
	b, err := os.ReadFile("testdata/reference.bin")
	if err != nil {
		t.Fatal(err)
	}
	le := binary.LittleEndian
	n, full, dim := int(le.Uint32(b)), int(le.Uint32(b[4:])), int(le.Uint32(b[8:]))
	if n != len(gs) || dim != Dim || len(b) != 12+n*(8+full+dim) {
		t.Fatalf("reference.bin: %d sentences of %d/%d dims in %d bytes; tokens.golden has %d", n, full, dim, len(b), len(gs))
	}
	off := 12
	row := func(out []float32) {
		s := math.Float32frombits(le.Uint32(b[off:]))
		off += 4
		for k := range out {
			out[k] = s * float32(int8(b[off+k]))
		}
		off += len(out)
	}
	refs := make([]reference, n)
	for i := range refs {
		refs[i] = reference{text: gs[i].Text, full: make([]float32, full)}
		row(refs[i].full)
		row(refs[i].proj[:])
	}
	return refs
}

func cos(a, b []float32) float64 {
	var d, na, nb float64
	for k := range a {
		d += float64(a[k]) * float64(b[k])
		na += float64(a[k]) * float64(a[k])
		nb += float64(b[k]) * float64(b[k])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return d / math.Sqrt(na*nb)
}

// spearman is the rank correlation of x and y (average ranks for ties).
func spearman(x, y []float64) float64 {
	rank := func(v []float64) []float64 {
		idx := make([]int, len(v))
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(a, b int) bool { return v[idx[a]] < v[idx[b]] })
		r := make([]float64, len(v))
		for i := 0; i < len(idx); {
			j := i
			for j+1 < len(idx) && v[idx[j+1]] == v[idx[i]] {
				j++
			}
			for k := i; k <= j; k++ {
				r[idx[k]] = float64(i+j) / 2
			}
			i = j + 1
		}
		return r
	}
	rx, ry := rank(x), rank(y)
	return cos(center(rx), center(ry))
}

func center(v []float64) []float32 {
	var m float64
	for _, x := range v {
		m += x
	}
	m /= float64(len(v))
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(x - m)
	}
	return out
}

// TestDistilledFollowsFullModel measures how closely the distilled table follows the full model
// on the reference sentences (figures in bench/findings.md; run with -v to see them):
//   - the mean cosine of Embed(s) and the full model's vector of s in the table's space;
//   - the rank agreement (Spearman) of all pairs' similarities, the full model's (512-d, as the
//     model is used) against the distilled table's: do they order pairs alike?
func TestDistilledFollowsFullModel(t *testing.T) {
	refs := loadReference(t)
	var sum float64
	var n int
	embs := make([]Vector, len(refs))
	for i, r := range refs {
		embs[i] = Embed(r.text)
		if embs[i] == (Vector{}) {
			continue
		}
		sum += cos(embs[i][:], r.proj[:])
		n++
	}
	var full, dist []float64
	for i := range refs {
		for j := i + 1; j < len(refs); j++ {
			full = append(full, cos(refs[i].full, refs[j].full))
			dist = append(dist, float64(Cosine(&embs[i], &embs[j])))
		}
	}
	meanCos, rho := sum/float64(n), spearman(full, dist)
	t.Logf("%d reference sentences: mean cosine to the full model (table space) %.3f; rank agreement of %d pairs' similarities (Spearman) %.3f",
		n, meanCos, len(full), rho)
	// Floors well under the measured figures: they catch a broken table or tokenizer, not noise.
	if meanCos < 0.35 || rho < 0.4 {
		t.Errorf("the distilled table no longer follows the full model: mean cosine %.3f, Spearman %.3f", meanCos, rho)
	}
}

// TestParaphrasesAreCloser: in at least 90% of the triples of testdata/triples.tsv, an anchor is
// closer to its paraphrase than to an unrelated message in the same register. The full model's
// own score on the same triples is logged beside it.
func TestParaphrasesAreCloser(t *testing.T) {
	raw, err := os.ReadFile("testdata/triples.tsv")
	if err != nil {
		t.Fatal(err)
	}
	full := map[string][]float32{}
	for _, r := range loadReference(t) {
		full[r.text] = r.full
	}
	var total, ok, okFull int
	for _, line := range strings.Split(string(raw), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			t.Fatalf("triples.tsv: %q has %d fields", line, len(f))
		}
		a, p, u := Embed(f[0]), Embed(f[1]), Embed(f[2])
		total++
		if Cosine(&a, &p) > Cosine(&a, &u) {
			ok++
		} else {
			t.Logf("missed: %q ~ %q (%.3f) vs %q (%.3f)", f[0], f[1], Cosine(&a, &p), f[2], Cosine(&a, &u))
		}
		if cos(full[f[0]], full[f[1]]) > cos(full[f[0]], full[f[2]]) {
			okFull++
		}
	}
	t.Logf("paraphrase closer than unrelated: distilled %d/%d, full model %d/%d", ok, total, okFull, total)
	if total < 40 || float64(ok) < 0.9*float64(total) {
		t.Errorf("paraphrase closer in %d of %d triples, want at least 90%%", ok, total)
	}
}
