package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// everydayFiles are the four files of an everyday set (see data/everyday/README.md), each with
// the field that decides its line's half.
var everydayFiles = []struct{ name, key string }{
	{"ordinary_messages.jsonl", "text"},
	{"ordinary_conversations.jsonl", "id"},
	{"risky_messages.jsonl", "text"},
	{"risky_conversations.jsonl", "id"},
}

// splitEveryday splits a blind everyday set written into src (the four files) into dst/tuning
// and dst/heldback, a line's half by the parity of the first byte of the SHA-256 of its key
// field, as the first everyday set was split. Lines are kept as written. It prints counts only.
func splitEveryday(src, dst string, out io.Writer) error {
	for _, half := range []string{"tuning", "heldback"} {
		if err := os.MkdirAll(filepath.Join(dst, half), 0o750); err != nil {
			return err
		}
	}
	fmt.Fprintf(out, "| file | tuning | held-back |\n| --- | ---: | ---: |\n")
	for _, f := range everydayFiles {
		data, err := os.ReadFile(filepath.Join(src, f.name)) // #nosec G304 -- a path the developer names
		if err != nil {
			return err
		}
		var halves [2]bytes.Buffer
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
		for n := 1; sc.Scan(); n++ {
			line := bytes.TrimSpace(sc.Bytes())
			if len(line) == 0 {
				continue
			}
			var row map[string]any
			if err := json.Unmarshal(line, &row); err != nil {
				return fmt.Errorf("%s line %d: not JSON", f.name, n) // never quotes the text
			}
			key, ok := row[f.key].(string)
			if !ok || key == "" {
				return fmt.Errorf("%s line %d: no %q", f.name, n, f.key)
			}
			sum := sha256.Sum256([]byte(key))
			h := &halves[sum[0]%2]
			h.Write(line)
			h.WriteByte('\n')
		}
		if err := sc.Err(); err != nil {
			return err
		}
		for i, half := range []string{"tuning", "heldback"} {
			if err := os.WriteFile(filepath.Join(dst, half, f.name), halves[i].Bytes(), 0o600); err != nil {
				return err
			}
		}
		fmt.Fprintf(out, "| %s | %d | %d |\n", f.name, bytes.Count(halves[0].Bytes(), []byte("\n")), bytes.Count(halves[1].Bytes(), []byte("\n")))
	}
	return nil
}
