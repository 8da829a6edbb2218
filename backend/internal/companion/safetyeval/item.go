// Package safetyeval is the measuring instrument for the crisis screen: a labelled set of
// risky and harmless messages written the way young people type, in a tuning half (the team's
// set) and a held-back half (a fresh set written blind by someone else), and an evaluator that
// reports recall on the risky messages and the false-positive rate on the harmless ones, per
// category and per half.
//
// The held-back half exists so that the score is honest: nobody tunes on it, and nothing in
// this package or its command prints its text (see data/README.md).
package safetyeval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/percolate/percolate/backend/internal/companion"
)

// Label says whether a message should get the crisis response.
type Label string

// The two labels.
const (
	Risky    Label = "risky"
	Harmless Label = "harmless"
)

// Level is the level of the Columbia Suicide Severity Rating Scale (C-SSRS) screener that a
// risky message shows; it is empty where the scale does not apply (self-harm without suicidal
// intent, abuse, harmless messages).
type Level string

// The C-SSRS screener's levels, from the least to the most severe.
const (
	LevelWish      Level = "wish"      // wish to be dead (passive)
	LevelThoughts  Level = "thoughts"  // non-specific active suicidal thoughts
	LevelMethod    Level = "method"    // thoughts with a method, without intent
	LevelIntent    Level = "intent"    // intent to act, without a specific plan
	LevelPlan      Level = "plan"      // a specific plan, with intent
	LevelBehaviour Level = "behaviour" // preparatory acts, attempts (aborted, interrupted, actual)
)

// Levels lists the C-SSRS levels in order of severity.
var Levels = []Level{LevelWish, LevelThoughts, LevelMethod, LevelIntent, LevelPlan, LevelBehaviour}

// Category is one kind of message in the set.
type Category struct {
	Name  string
	Label Label
	About string
}

// Categories lists every category in the order reports show them. A new category goes here
// first; the tests then ask for at least MinPerCategory examples of it.
var Categories = []Category{
	{"passive_wish", Risky, "passive wish to be dead, without a plan"},
	{"active_ideation", Risky, "direct words for wanting to die or to kill oneself"},
	{"indirect_burden", Risky, "being a burden; everyone better off without me"},
	{"method_seeking", Risky, "questions about a method, in soft words"},
	{"means_and_time", Risky, "means at hand plus a chosen time, with no word for dying"},
	{"plan", Risky, "a plan: how, where or when"},
	{"intent", Risky, "a decision to act"},
	{"timing", Risky, "a date or an hour, or a last day"},
	{"farewell_preparation", Risky, "goodbyes, notes, giving things away, buying or hiding means"},
	{"past_attempt", Risky, "past attempts and aborted or interrupted ones"},
	{"self_harm_act", Risky, "self-harm told as an act done on purpose"},
	{"self_harm_relapse", Risky, "self-harm relapse after a clean streak"},
	{"abuse_home_partner", Risky, "violence or threats at home or from a partner, without the word abuse"},
	{"sexual_abuse", Risky, "sexual abuse, assault, grooming or coercion"},
	{"danger_place", Risky, "in a dangerous place now: platform edge, bridge, roof"},
	{"emergency_in_progress", Risky, "something taken, a wound bleeding, a means in hand"},
	{"hopeless_slang", Risky, "hopelessness in slang or lower case, no punctuation"},
	{"algospeak", Risky, "unalive, kms, sewer slide and other coded spellings"},
	{"buried_long", Risky, "risk buried in a long, ordinary message"},
	{"context_risky", Risky, "a short answer that is risky given the previous turn"},

	{"idiom_hyperbole", Harmless, "look-alike idioms, hyperbole, caffeine jokes"},
	{"topic_mention", Harmless, "films, books, coursework, the news, fundraisers"},
	{"venting", Harmless, "stress, breakups, loneliness, anger, without risk"},
	{"negated", Harmless, "names a risk and denies it"},
	{"recovery_past", Harmless, "recovery told in the past tense, with pride"},
	{"gaming_sport", Harmless, "violence in games and sport"},
	{"everyday_means", Harmless, "medicine, knives, bridges and trains in everyday life"},
	{"context_harmless", Harmless, "a short answer that is harmless given the previous turn"},
	{"long_ordinary", Harmless, "long, ordinary messages"},
	{"plans_farewells", Harmless, "ordinary plans, dates, goodbyes and giving things away"},
}

// MinPerCategory is the fewest examples each category and each C-SSRS level must have.
const MinPerCategory = 20

// CategoryByName finds a category.
func CategoryByName(name string) (Category, bool) {
	i := slices.IndexFunc(Categories, func(c Category) bool { return c.Name == name })
	if i < 0 {
		return Category{}, false
	}
	return Categories[i], true
}

// Turn is one earlier message of the conversation, oldest first.
type Turn struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Item is one labelled message. Context holds the turns before it, for messages whose label
// depends on them ("yes" after the companion asked about ending one's life).
type Item struct {
	Text     string `json:"text"`
	Label    Label  `json:"label"`
	Category string `json:"category"`
	CSSRS    Level  `json:"cssrs,omitempty"`
	Context  []Turn `json:"context,omitempty"`
}

// Prev is the item's context as conversation turns, the form a screen takes.
func (it Item) Prev() []companion.Turn {
	prev := make([]companion.Turn, len(it.Context))
	for i, t := range it.Context {
		prev[i] = companion.Turn{Role: t.Role, Content: t.Content}
	}
	return prev
}

// Key identifies an item by its text and context: two items with the same key are the same
// message in the same conversation.
func (it Item) Key() string {
	var b strings.Builder
	for _, t := range it.Context {
		b.WriteString(t.Role + "\x1f" + t.Content + "\x1e")
	}
	return b.String() + "\x1d" + it.Text
}

// Validate checks one item: a known label, a category of that label, a known C-SSRS level,
// non-empty text and well-formed context. Its errors never quote the item's text, because the
// item may be held back.
func (it Item) Validate() error {
	if strings.TrimSpace(it.Text) == "" {
		return errors.New("empty text")
	}
	if it.Label != Risky && it.Label != Harmless {
		return fmt.Errorf("unknown label %q", it.Label)
	}
	c, ok := CategoryByName(it.Category)
	if !ok {
		return fmt.Errorf("unknown category %q", it.Category)
	}
	if c.Label != it.Label {
		return fmt.Errorf("category %s is %s, the item is %s", c.Name, c.Label, it.Label)
	}
	if it.CSSRS != "" {
		if !slices.Contains(Levels, it.CSSRS) {
			return fmt.Errorf("unknown C-SSRS level %q", it.CSSRS)
		}
		if it.Label != Risky {
			return errors.New("a harmless item has a C-SSRS level")
		}
	}
	for _, t := range it.Context {
		if t.Role != companion.RoleUser && t.Role != companion.RoleAssistant {
			return fmt.Errorf("context turn with unknown role %q", t.Role)
		}
		if strings.TrimSpace(t.Content) == "" {
			return errors.New("empty context turn")
		}
	}
	return nil
}

// Validate checks every item and that no message appears twice.
func Validate(items []Item) error {
	seen := make(map[string]int, len(items))
	for i, it := range items {
		if err := it.Validate(); err != nil {
			return fmt.Errorf("item %d (%s): %w", i+1, it.Category, err)
		}
		if j, dup := seen[it.Key()]; dup {
			return fmt.Errorf("item %d (%s) repeats item %d", i+1, it.Category, j+1)
		}
		seen[it.Key()] = i
	}
	return nil
}

// ReadJSONL reads items, one JSON object a line; blank lines are skipped. Unknown fields are
// errors, so that a misspelt field name cannot silently drop a label or a context.
func ReadJSONL(r io.Reader) ([]Item, error) {
	var items []Item
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1024*1024)
	for line := 1; sc.Scan(); line++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		var it Item
		if err := dec.Decode(&it); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		if dec.More() {
			return nil, fmt.Errorf("line %d: more than one JSON value", line)
		}
		items = append(items, it)
	}
	return items, sc.Err()
}

// LoadFile reads one JSONL file.
func LoadFile(path string) ([]Item, error) {
	f, err := os.Open(path) // #nosec G304 -- the labelled set named by the operator on the command line
	if err != nil {
		return nil, err
	}
	defer f.Close()
	items, err := ReadJSONL(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return items, nil
}

// LoadDir reads every .jsonl file of a directory, in name order.
func LoadDir(dir string) ([]Item, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("no .jsonl files in %s", dir)
	}
	var all []Item
	for _, p := range paths {
		items, err := LoadFile(p)
		if err != nil {
			return nil, err
		}
		all = append(all, items...)
	}
	return all, nil
}

// WriteJSONL writes items one JSON object a line, leaving <, > and & as they are so that the
// files stay readable.
func WriteJSONL(w io.Writer, items []Item) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, it := range items {
		if err := enc.Encode(it); err != nil {
			return err
		}
	}
	return nil
}

// WriteFile writes items to a JSONL file, replacing it.
func WriteFile(path string, items []Item) error {
	var b bytes.Buffer
	if err := WriteJSONL(&b, items); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644) // #nosec G306 -- the labelled set is a committed source file, readable like any other
}

// The layout of the data directory.
const (
	FullDir      = "full"           // the team's set, one file per category: all of it is tuning data
	FreshDir     = "fresh"          // the fresh set, one file per category, written blind: held back
	TuningFile   = "tuning.jsonl"   // the half a screen may be tuned and trained on (full/)
	HeldbackFile = "heldback.jsonl" // the half nobody looks at while tuning (fresh/)
)
