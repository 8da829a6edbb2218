package fullmodel

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// TestVectorsFromCache: a text already in the cache is answered from it, without Node, and
// the record's layout (16 bytes of the text's SHA-256, then 512 float32 little-endian) is the
// one Vectors reads.
func TestVectorsFromCache(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("FULLENC_CACHE", dir)
	texts := []string{"first text", "second text"}
	var b []byte
	for i, s := range texts {
		k := key(s)
		b = append(b, k[:]...)
		for d := range Dim {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(i*Dim+d)))
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "cache.bin"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	vecs, timing, err := Vectors([]string{"second text", "first text", "second text"})
	if err != nil {
		t.Fatal(err)
	}
	if timing != "" {
		t.Fatalf("Node ran (%q) for cached texts", timing)
	}
	for i, want := range []int{1, 0, 1} {
		if len(vecs[i]) != Dim || vecs[i][0] != float32(want*Dim) || vecs[i][Dim-1] != float32(want*Dim+Dim-1) {
			t.Fatalf("vector %d: got %v...", i, vecs[i][:3])
		}
	}
}

func TestScriptExists(t *testing.T) {
	if _, err := os.Stat(Script()); err != nil {
		t.Fatal(err)
	}
}
