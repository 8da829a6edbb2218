package main

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSplitEverydayByTheRule: each line lands in the half the parity of its key's SHA-256 names,
// as written, and the command prints counts, never the text.
func TestSplitEverydayByTheRule(t *testing.T) {
	src, data := t.TempDir(), t.TempDir()
	texts := []string{"exam tmrw lol", "my flatmate ate my cheese", "ngl i'm tired", "we won the match!!", "idk", "paid rent finally"}
	var ordinary strings.Builder
	for _, x := range texts {
		ordinary.WriteString(`{"text": "` + x + `", "topic": "exams"}` + "\n\n") // a blank line is skipped
	}
	files := map[string]string{
		"ordinary_messages.jsonl":      ordinary.String(),
		"ordinary_conversations.jsonl": `{"id": "b-oc-01", "topic": "sport", "turns": ["a", "b"]}` + "\n",
		"risky_messages.jsonl":         `{"text": "the words of a risky message", "danger": "self_harm", "style": "plain"}` + "\n",
		"risky_conversations.jsonl":    `{"id": "b-rc-01", "danger": "self_harm", "first_risky_turn": 1, "turns": ["a", "b"]}` + "\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(src, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	var out, errOut strings.Builder
	if code := run([]string{"-data", data, "-everyday-from", src, "-everyday-to", "everyday9"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	read := func(half, name string) string {
		b, err := os.ReadFile(filepath.Join(data, "everyday9", half, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	tuning, held := read("tuning", "ordinary_messages.jsonl"), read("heldback", "ordinary_messages.jsonl")
	for _, x := range texts {
		line := `{"text": "` + x + `", "topic": "exams"}` + "\n"
		wantTuning := sha256.Sum256([]byte(x))[0]%2 == 0
		if strings.Contains(tuning, line) != wantTuning || strings.Contains(held, line) == wantTuning {
			t.Errorf("%q: not in its half (tuning %v)", x, wantTuning)
		}
	}
	if strings.Count(tuning, "\n")+strings.Count(held, "\n") != len(texts) {
		t.Errorf("ordinary: %d + %d lines, want %d", strings.Count(tuning, "\n"), strings.Count(held, "\n"), len(texts))
	}
	if got := read("tuning", "risky_conversations.jsonl") + read("heldback", "risky_conversations.jsonl"); !strings.Contains(got, `"b-rc-01"`) {
		t.Error("the risky conversation is in neither half")
	}
	for _, x := range append(texts, "the words of a risky message") {
		if strings.Contains(out.String(), x) {
			t.Errorf("the output quotes %q", x)
		}
	}

	if code := run([]string{"-data", data, "-everyday-from", src}, &out, &errOut); code != 2 {
		t.Errorf("-everyday-from alone: exit %d, want 2", code)
	}
}
