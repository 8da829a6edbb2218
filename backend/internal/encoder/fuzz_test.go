package encoder

import (
	"strings"
	"sync"
	"testing"

	"golang.org/x/text/unicode/norm"
)

// FuzzTokenize: any text gives ids of the vocabulary (never a reserved one but 0, never two 0 in
// a row); when no character is unknown, the pieces spell the normalised text exactly; and Embed
// is either zero (no text but white space) or of unit length.
func FuzzTokenize(f *testing.F) {
	for _, s := range []string{"", " ", "hey", "i can't sleep :(", "😭😭 lol", "tab\there", "ｆｕｌｌ", "\xff", "  ", "a  b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		ids := Tokenize(text)
		var spelt strings.Builder
		unknown := false
		for i, id := range ids {
			if id < 0 || id >= len(tbl().score) || (id > 0 && id < reserved) {
				t.Fatalf("Tokenize(%q): id %d", text, id)
			}
			if id == 0 {
				unknown = true
				if i > 0 && ids[i-1] == 0 {
					t.Fatalf("Tokenize(%q): two unknowns in a row: %v", text, ids)
				}
			}
			spelt.WriteString(tbl().piece(id))
		}
		if want := "▁" + strings.ReplaceAll(norm.NFKC.String(strings.ToValidUTF8(text, "\uFFFD")), " ", "▁"); text != "" && !unknown && spelt.String() != want {
			t.Fatalf("Tokenize(%q) spells %q, want %q", text, spelt.String(), want)
		}
		v := Embed(text)
		var ss float32
		for _, x := range v {
			ss += x * x
		}
		folded := len(tbl().tokenize(text, new(scratch), true))
		if (folded > 0 && (ss < 0.999 || ss > 1.001)) || (folded == 0 && ss != 0) {
			t.Fatalf("Embed(%q) has squared length %v", text, ss)
		}
	})
}

// TestConcurrentEmbed: many goroutines embedding at once share the table and the scratch pool.
func TestConcurrentEmbed(t *testing.T) {
	var wg sync.WaitGroup
	want := Embed("i feel so alone at uni")
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				if Embed("i feel so alone at uni") != want {
					t.Error("Embed differs between goroutines")
					return
				}
			}
		}()
	}
	wg.Wait()
}
