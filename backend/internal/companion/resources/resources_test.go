package resources

import (
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
)

var iso = regexp.MustCompile(`^[A-Z]{2}$`)

// Every entry must be usable in a hard moment and traceable: an emergency number, a source
// that was read, the day it was checked, a valid code, and numbers a phone can dial.
func TestTableShape(t *testing.T) {
	if len(table) < 20 {
		t.Errorf("the table has %d countries, want at least 20", len(table))
	}
	seen := map[string]bool{}
	checkNumber := func(where, n string) {
		if n == "" {
			return
		}
		d := Dial(n)
		if len(d) < 3 || strings.Trim(d, "0123456789") != "" {
			t.Errorf("%s: %q dials as %q, want digits only", where, n, d)
		}
	}
	checkSource := func(where, src, day string) {
		u, err := url.Parse(src)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			t.Errorf("%s: source %q is not a page address", where, src)
		}
		if _, err := time.Parse("2006-01-02", day); err != nil {
			t.Errorf("%s: checked %q is not a date", where, day)
		}
	}
	for _, c := range table {
		if !iso.MatchString(c.Code) || seen[c.Code] {
			t.Errorf("code %q is not a distinct ISO 3166-1 alpha-2 code", c.Code)
		}
		seen[c.Code] = true
		if c.Name == "" || c.Emergency == "" {
			t.Errorf("%s: no name or emergency number", c.Code)
		}
		checkNumber(c.Code+" emergency", c.Emergency)
		checkSource(c.Code+" emergency", c.EmergencySource, c.Checked)
		for _, l := range c.Lines {
			where := c.Code + " " + l.Name
			if l.Name == "" || l.Kind == "" || l.Call == "" && l.Text == "" {
				t.Errorf("%s: a line needs a name, a kind and a number", where)
			}
			checkNumber(where, l.Call)
			checkNumber(where, l.Text)
			checkSource(where, l.Source, l.Checked)
		}
	}
	for _, want := range []string{"US", "CA", "GB", "IE", "AU", "NZ", "IN", "DE", "FR", "ES", "IT", "NL", "SE", "JP", "KR", "CN", "HK", "SG", "ZA", "BR", "MX"} {
		if !seen[want] {
			t.Errorf("no entry for %s", want)
		}
	}
}

func TestForResolvesAnyCase(t *testing.T) {
	for _, code := range []string{"gb", "GB", " Gb "} {
		c, ok := For(code)
		if !ok || c.Emergency != "999" {
			t.Errorf("For(%q) = %v, %v", code, c.Emergency, ok)
		}
	}
	if _, ok := For("ZZ"); ok {
		t.Error("an unknown code resolved")
	}
	if _, ok := For(""); ok {
		t.Error("no code resolved")
	}
}

func TestBlockGivesTheCountrysLinesAndAlwaysTheFallback(t *testing.T) {
	gb := Block("GB", Crisis)
	for _, want := range []string{"call 999 now", "116 123", "Samaritans", Closing} {
		if !strings.Contains(gb, want) {
			t.Errorf("GB block %q lacks %q", gb, want)
		}
	}
	if strings.Contains(gb, "988") {
		t.Errorf("the GB block names a US number: %q", gb)
	}
	// The line for the danger comes before the crisis line.
	child := Block("GB", Child)
	if i, j := strings.Index(child, "0800 1111"), strings.Index(child, "116 123"); i < 0 || j < 0 || i > j {
		t.Errorf("GB child block %q: Childline should come first", child)
	}
	us := Block("US", Crisis)
	if !strings.Contains(us, "call or text 988") || !strings.Contains(us, "call 911 now") {
		t.Errorf("US block %q", us)
	}
	none := Block("ZZ", Crisis)
	if !strings.Contains(none, "local emergency number") || !Has(none) {
		t.Errorf("fallback block %q", none)
	}
	for _, code := range append(Codes(), "", "ZZ") {
		if !Has(Block(code, SexualAssault)) {
			t.Errorf("%s: the block lacks the closing", code)
		}
	}
}

func TestDial(t *testing.T) {
	for in, want := range map[string]string{"116 123": "116123", "1-800-422-4453": "18004224453", "+44 20 7946 0000": "+442079460000", "0800 111 0 111": "08001110111"} {
		if got := Dial(in); got != want {
			t.Errorf("Dial(%q) = %q, want %q", in, got, want)
		}
	}
}
