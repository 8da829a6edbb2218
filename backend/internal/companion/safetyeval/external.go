package safetyeval

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// ExternalDir holds the outside test sets (data/external/README.md): never trained or tuned on,
// only reported.
const ExternalDir = "external"

// ExternalItem is a message of an outside test set and whether it shows risk.
type ExternalItem struct {
	Text  string
	Risky bool
}

// ExternalSet is one outside test set.
type ExternalSet struct {
	Name, About string
	Items       []ExternalItem
}

// LoadExternal reads the outside test sets from dir (data/external). Its errors never quote
// the text.
func LoadExternal(dir string) ([]ExternalSet, error) {
	var sst []struct{ Text string }
	if err := loadLines(filepath.Join(dir, "simplesafetytests", "selfharm.jsonl"), &sst); err != nil {
		return nil, err
	}
	s1 := ExternalSet{Name: "SimpleSafetyTests", About: "the 20 suicide, self-harm and eating-disorder items, all risky"}
	for _, it := range sst {
		s1.Items = append(s1.Items, ExternalItem{Text: it.Text, Risky: true})
	}
	path := filepath.Join(dir, "openai-moderation", "samples.jsonl.gz")
	f, err := os.Open(path) // #nosec G304 -- a data file of the repository, named by the caller
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	s2 := ExternalSet{Name: "OpenAI moderation", About: "the samples with a self-harm label: risky if self-harm, harmless otherwise"}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		var it struct {
			Text     string `json:"text"`
			SelfHarm bool   `json:"self_harm"`
		}
		if err := json.Unmarshal(sc.Bytes(), &it); err != nil {
			return nil, fmt.Errorf("%s:%d: not a JSON object of the expected shape", path, n)
		}
		s2.Items = append(s2.Items, ExternalItem{Text: it.Text, Risky: it.SelfHarm})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return []ExternalSet{s1, s2}, nil
}

// ExternalResult is what a screen decided on an outside set's risky and harmless messages.
type ExternalResult struct{ Risky, Harmless Tally }

// EvaluateExternal screens each message of the set on its own.
func EvaluateExternal(s ExternalSet, screen Screener) ExternalResult {
	var r ExternalResult
	for _, it := range s.Items {
		t := &r.Harmless
		if it.Risky {
			t = &r.Risky
		}
		t.add(screen(nil, it.Text))
	}
	return r
}

// Write writes the counts, never a message.
func (r ExternalResult) Write(w io.Writer) {
	if r.Risky.N > 0 {
		fmt.Fprintf(w, "  risky flagged:    %s, %d with the crisis reply\n", Count{r.Risky.Flagged, r.Risky.N}, r.Risky.Clear)
	}
	if r.Harmless.N > 0 {
		fmt.Fprintf(w, "  harmless flagged: %s, %d with the crisis reply\n", Count{r.Harmless.Flagged, r.Harmless.N}, r.Harmless.Clear)
	}
}
