package encoder

import (
	"bufio"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
)

type golden struct {
	Text string `json:"text"`
	IDs  []int  `json:"ids"`
}

func loadGolden(t testing.TB) []golden {
	t.Helper()
	f, err := os.Open("testdata/tokens.golden")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []golden
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var g golden
		if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
			t.Fatal(err)
		}
		out = append(out, g)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) < 200 {
		t.Fatalf("tokens.golden has %d sentences", len(out))
	}
	return out
}

// TestTokenizeMatchesModel: the Go tokenizer gives the model's own tokenizer's pieces (written by
// the generator's Node script) on every reference sentence.
func TestTokenizeMatchesModel(t *testing.T) {
	for _, g := range loadGolden(t) {
		if got := Tokenize(g.Text); !slices.Equal(got, g.IDs) {
			t.Errorf("Tokenize(%q)\n got %v %q\nwant %v %q", g.Text, got, pieceText(got), g.IDs, pieceText(g.IDs))
		}
	}
}

func pieceText(ids []int) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = tbl().piece(id)
	}
	return out
}

func TestTokenizeEdges(t *testing.T) {
	for _, c := range []struct {
		text string
		want int // pieces, or -1: any
	}{{"", 0}, {" ", -1}, {"\xff\xfe bad bytes", -1}, {"😭😭😭", 2}, {strings.Repeat("a", 5000), -1}} {
		got := Tokenize(c.text)
		if c.want >= 0 && len(got) != c.want {
			t.Errorf("Tokenize(%q) = %v, want %d pieces", c.text, got, c.want)
		}
		v := Embed(c.text)
		if c.text == "" && v != (Vector{}) {
			t.Errorf("Embed(\"\") is not zero")
		}
	}
	if got := Tokenize("😭😭😭"); got[1] != 0 {
		t.Errorf("a run of unknown characters: %v, want one 0 after the word mark", got)
	}
}

func TestEmbedIsNormalisedAndDeterministic(t *testing.T) {
	a, b := Embed("i can't sleep at night"), Embed("i can't sleep at night")
	if a != b {
		t.Fatal("Embed is not deterministic")
	}
	if c := Cosine(&a, &b); c < 0.9999 || c > 1.0001 {
		t.Errorf("Cosine(v, v) = %v", c)
	}
	var z Vector
	if Cosine(&a, &z) != 0 {
		t.Error("Cosine with a zero vector is not 0")
	}
}

func TestEmbedFoldsWhiteSpace(t *testing.T) {
	want := Embed("i can't sleep at night")
	for _, s := range []string{"  i can't sleep\nat night ", "i can't\tsleep   at\r\nnight", "i can't sleep at night\u3000"} {
		if Embed(s) != want {
			t.Errorf("Embed(%q) differs from Embed of the same words with single spaces", s)
		}
	}
	if Embed(" \n\t ") != (Vector{}) {
		t.Error("Embed of white space alone is not zero")
	}
}

func TestEmbedAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under the race detector")
	}
	Embed("warm up")
	if n := testing.AllocsPerRun(100, func() { Embed("ngl this semester is kinda rough, exams are killing me 😭") }); n != 0 {
		t.Errorf("Embed allocates %v times a call", n)
	}
}

func TestDecodeRejectsBrokenTables(t *testing.T) {
	for _, b := range [][]byte{nil, []byte("PCENC1\x00\x00"), tableBytes[:len(tableBytes)-1], append([]byte("XXXXXXXX"), tableBytes[8:]...)} {
		if _, err := decode(b); err == nil {
			t.Errorf("decode accepted a broken table of %d bytes", len(b))
		}
	}
}

// sample is a spread of student messages, short and long, for the benchmark.
var sample = []string{
	"hey",
	"idk what im doing anymore",
	"i have an exam tmrw and i havent started studying",
	"ngl this semester is kinda rough, exams are literally killing me lol 😭",
	"my roommate keeps eating my food and i dont know how to bring it up without it being awkward",
	"i'm fine. i'm always fine.",
	"Ich habe Angst vor der Prüfung",
	"I've been feeling really down for a few weeks now. I can't focus in lectures, I don't want to see anyone, and I keep sleeping through my alarms. My parents think I'm doing great and I don't know how to tell them.",
}

// BenchmarkEmbed: one message embedded (tokenisation included); the messages of sample in turn.
func BenchmarkEmbed(b *testing.B) {
	Embed("warm up")
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		Embed(sample[i%len(sample)])
		i++
	}
}

// BenchmarkTokenize: the tokenizer alone, on the same messages.
func BenchmarkTokenize(b *testing.B) {
	Tokenize("warm up")
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		Tokenize(sample[i%len(sample)])
		i++
	}
}

// BenchmarkDecode: the one-time cost of the first Embed or Tokenize (decoding the embedded table).
func BenchmarkDecode(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decode(tableBytes); err != nil {
			b.Fatal(err)
		}
	}
}
