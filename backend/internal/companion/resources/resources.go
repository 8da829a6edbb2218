// Package resources is the one vetted table of emergency numbers and helplines by country
// that every crisis text reads: the fixed replies, the model's system prompt, the weekly
// report, the public /safety page and the chat's links. Every number in it was read on the
// page named as its source on the date it was checked; a line that could not be verified is
// left out, and a country without an entry (or without a line for a danger) falls back to
// findahelpline.com.
package resources

import (
	"sort"
	"strings"
)

// Kind is the kind of danger a line is for.
type Kind string

// The kinds of line. Crisis is the general suicide and emotional-crisis line; the others are
// specialised lines a reply prefers when the danger is of that kind.
const (
	Crisis         Kind = "crisis"
	SelfHarm       Kind = "self_harm"
	SexualAssault  Kind = "sexual_assault"
	Abuse          Kind = "abuse"
	EatingDisorder Kind = "eating_disorder"
	Child          Kind = "child"
)

// FallbackURL lists free helplines for every country; it is offered everywhere, and alone
// where the table has nothing.
const FallbackURL = "https://findahelpline.com"

// FallbackName is how FallbackURL is written in text.
const FallbackName = "findahelpline.com"

// Line is one helpline.
type Line struct {
	Name string
	Kind Kind
	// Call is the number as it is written in the country ("116 123"); empty when the line
	// takes only texts. Text is the number to text, when texting works.
	Call string
	Text string
	// Hours says when it answers, when that is not round the clock.
	Hours   string
	Source  string
	Checked string // YYYY-MM-DD
}

// Country is the table's entry for one country.
type Country struct {
	Code string // ISO 3166-1 alpha-2
	Name string
	// Emergency is the number for an ambulance or the police in an emergency.
	Emergency       string
	EmergencySource string
	Checked         string // YYYY-MM-DD, the day Emergency was checked
	Lines           []Line
}

// Dial is a number as a tel: or sms: link needs it: its digits only, "+" kept.
func Dial(number string) string {
	var b strings.Builder
	for _, r := range number {
		if r >= '0' && r <= '9' || r == '+' && b.Len() == 0 {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// For returns the entry for an ISO 3166-1 alpha-2 code (any case), and whether the table
// has one.
func For(code string) (Country, bool) {
	c, ok := byCode[strings.ToUpper(strings.TrimSpace(code))]
	return c, ok
}

// Codes lists the countries the table covers, sorted.
func Codes() []string {
	out := make([]string, 0, len(byCode))
	for k := range byCode {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Line returns the country's first line of the kind, and whether it has one.
func (c Country) Line(k Kind) (Line, bool) {
	for _, l := range c.Lines {
		if l.Kind == k {
			return l, true
		}
	}
	return Line{}, false
}

var byCode = func() map[string]Country {
	m := make(map[string]Country, len(table))
	for _, c := range table {
		m[c.Code] = c
	}
	return m
}()
