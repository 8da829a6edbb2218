// Package companioneval is the companion's conversation benchmark (issue 34, section 7): it
// runs blind-written, annotated conversations through the send path's decisions and the
// offline engine, and measures what the replies did with each turn.
package companioneval

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Expect is what a good reply to a turn must do (see data/README.md).
type Expect struct {
	Focus      string `json:"focus"`
	NotFocus   string `json:"not_focus"`
	Feeling    string `json:"feeling"`
	NotFeeling string `json:"not_feeling"`
	Answer     bool   `json:"answer"`
	Kind       string `json:"kind"`
	Callback   string `json:"callback"`
	GoodNews   bool   `json:"good_news"`
	Goodbye    bool   `json:"goodbye"`
	Correction bool   `json:"correction"`
}

// Turn is one scripted student message with its annotation.
type Turn struct {
	User   string `json:"user"`
	Expect Expect `json:"expect"`
}

// Fact is a durable fact a good companion keeps for a later session.
type Fact struct {
	Fact string `json:"fact"`
	When string `json:"when"`
}

// Followup is a later session's first message and what its reply should recall.
type Followup struct {
	User         string   `json:"user"`
	ExpectRecall []string `json:"expect_recall"`
}

// Conversation is one scripted conversation.
type Conversation struct {
	ID       string    `json:"id"`
	Topic    string    `json:"topic"`
	Turns    []Turn    `json:"turns"`
	Facts    []Fact    `json:"facts"`
	Followup *Followup `json:"followup"`
}

// Half names a file of the data directory.
const (
	Tuning   = "tuning.jsonl"
	Heldback = "heldback.jsonl"
)

// Load reads one half of the data directory.
func Load(dir, half string) ([]Conversation, error) {
	f, err := os.Open(filepath.Join(dir, half)) // #nosec G304 -- the benchmark's own data directory
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	var out []Conversation
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var c Conversation
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			return nil, fmt.Errorf("%s line %d: %w", half, n, err)
		}
		out = append(out, c)
	}
	return out, sc.Err()
}
