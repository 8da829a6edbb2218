package companion

import (
	"encoding/json"
	"os"
	"testing"
)

// table is one of the input → expected tables of testdata/phrases.json: for each message of a
// test, what the engine should read from it or say back (gist, choice, days, directQuestions,
// classify, acts).
func table(t *testing.T, name string) map[string]string {
	t.Helper()
	raw, err := os.ReadFile("testdata/phrases.json")
	if err != nil {
		t.Fatal(err)
	}
	var tables map[string]map[string]string
	if err := json.Unmarshal(raw, &tables); err != nil {
		t.Fatalf("testdata/phrases.json: %v", err)
	}
	if len(tables[name]) == 0 {
		t.Fatalf("testdata/phrases.json has no table %q", name)
	}
	return tables[name]
}
