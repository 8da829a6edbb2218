// Package fullmodel gives the full Universal Sentence Encoder-lite's sentence vectors (the
// 2-layer, 512-d model the encoder's table is distilled from), run by Node over
// ../gen/embed-texts.mjs with frontend's npm packages. It is for experiments and tests that
// compare the table with the model (bench/findings.md), never for the binary: nothing but
// tests imports it.
//
// Vectors are cached in a folder (default $TMPDIR/fullenc), one record a text: the first 16
// bytes of the text's SHA-256, then its 512 float32 coordinates, little-endian. Only texts not
// cached yet go to Node. The cache holds vectors, not texts; it is never committed.
package fullmodel

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// Dim is the model's output dimension.
const Dim = 512

// CacheDir is the cache's folder: $FULLENC_CACHE, or fullenc in the temporary folder.
func CacheDir() string {
	if d := os.Getenv("FULLENC_CACHE"); d != "" {
		return d
	}
	return filepath.Join(os.TempDir(), "fullenc")
}

// Vectors returns each text's vector (unit length; a text with no pieces gets the unknown
// piece's), in order, and Node's timing line when it had to run.
func Vectors(texts []string) (vecs [][]float32, timing string, err error) {
	dir := CacheDir()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, "", err
	}
	cache := filepath.Join(dir, "cache.bin")
	const rec = 16 + 4*Dim
	byKey := map[[16]byte][]float32{}
	if b, err := os.ReadFile(cache); err == nil { // #nosec G304 -- the cache's own file
		for i := 0; i+rec <= len(b); i += rec {
			byKey[[16]byte(b[i:i+16])] = decode(b[i+16 : i+rec])
		}
	}
	var missing []string
	seen := map[[16]byte]bool{}
	for _, s := range texts {
		if k := key(s); byKey[k] == nil && !seen[k] {
			seen[k] = true
			missing = append(missing, s)
		}
	}
	if len(missing) > 0 {
		timing, err = embed(dir, missing, byKey, cache)
		if err != nil {
			return nil, "", err
		}
	}
	vecs = make([][]float32, len(texts))
	for i, s := range texts {
		vecs[i] = byKey[key(s)]
	}
	return vecs, timing, nil
}

func key(s string) [16]byte {
	h := sha256.Sum256([]byte(s))
	return [16]byte(h[:16])
}

func decode(b []byte) []float32 {
	v := make([]float32, Dim)
	for d := range v {
		v[d] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*d:]))
	}
	return v
}

// Script is the path of embed-texts.mjs, found from this source file's place.
func Script() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "gen", "embed-texts.mjs")
}

// embed runs Node over texts, adds their vectors to byKey and appends them to the cache.
func embed(dir string, texts []string, byKey map[[16]byte][]float32, cache string) (string, error) {
	var in bytes.Buffer
	for _, s := range texts {
		j, err := json.Marshal(s)
		if err != nil {
			return "", err
		}
		in.Write(j)
		in.WriteByte('\n')
	}
	inPath, outPath := filepath.Join(dir, "missing.jsonl"), filepath.Join(dir, "missing.f32")
	defer os.Remove(inPath)
	defer os.Remove(outPath)
	if err := os.WriteFile(inPath, in.Bytes(), 0o600); err != nil {
		return "", err
	}
	cmd := exec.Command("node", Script(), inPath, outPath) // #nosec G204 -- our own script and files
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("embed-texts.mjs: %w\n%s", err, stderr.String())
	}
	b, err := os.ReadFile(outPath) // #nosec G304 -- our own output file
	if err != nil {
		return "", err
	}
	if len(b) != len(texts)*4*Dim {
		return "", fmt.Errorf("embed-texts.mjs wrote %d bytes for %d texts", len(b), len(texts))
	}
	f, err := os.OpenFile(cache, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600) // #nosec G304 -- the cache's own file
	if err != nil {
		return "", err
	}
	for i, s := range texts {
		k := key(s)
		row := b[4*i*Dim : 4*(i+1)*Dim]
		byKey[k] = decode(row)
		if _, err := f.Write(append(k[:], row...)); err != nil {
			_ = f.Close()
			return "", err
		}
	}
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	return lines[len(lines)-1], f.Close()
}
