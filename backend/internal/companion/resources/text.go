package resources

import (
	"fmt"
	"strings"
)

// Closing ends every resources text, whatever the country; a reply that holds it carries the
// resources (see Has), and the chat shows the links beside it.
const Closing = "findahelpline.com lists free, confidential helplines in every country."

// Has reports whether a text carries the resources.
func Has(text string) bool { return strings.Contains(text, Closing) }

// How says how to reach a line: "call 116 123", "call or text 988", "call 13 11 14 or text
// 0477 13 11 14".
func (l Line) How() string {
	switch {
	case l.Call != "" && l.Text == l.Call:
		return "call or text " + l.Call
	case l.Call != "" && l.Text != "":
		return "call " + l.Call + " or text " + l.Text
	case l.Call != "":
		return "call " + l.Call
	default:
		return "text " + l.Text
	}
}

// EmergencyNow is the sentence that sends someone in immediate danger to the emergency
// services, with the country's number when the table has it.
func EmergencyNow(code string) string {
	if c, ok := For(code); ok {
		return fmt.Sprintf("If you are in immediate danger, call %s now.", c.Emergency)
	}
	return "If you are in immediate danger, call your local emergency number now."
}

// Lines are the lines a text names for a danger: the country's line for that kind first,
// then its crisis lines (at most two lines in all, so the text stays short).
func Lines(code string, kind Kind) []Line {
	c, ok := For(code)
	if !ok {
		return nil
	}
	var out []Line
	if kind != Crisis {
		if l, ok := c.Line(kind); ok {
			out = append(out, l)
		}
	}
	for _, l := range c.Lines {
		if l.Kind == Crisis && len(out) < 2 {
			out = append(out, l)
		}
	}
	return out
}

// Block is the resources as sentences: the emergency number first, then the lines for the
// danger in the country, then findahelpline.com (Closing). It names no method, means or place.
func Block(code string, kind Kind) string {
	return EmergencyNow(code) + " " + LinesText(code, kind)
}

// LinesText is Block without the emergency sentence, for a reply that has already given the
// emergency number.
func LinesText(code string, kind Kind) string {
	var b strings.Builder
	for _, l := range Lines(code, kind) {
		fmt.Fprintf(&b, "You can %s to reach %s, free and confidential. ", l.How(), l.Name)
	}
	b.WriteString(Closing)
	return b.String()
}

// Summary is one line of the country's resources for a model's prompt or a report: "United
// Kingdom: emergency 999; Samaritans: call 116 123."
func Summary(code string) string {
	c, ok := For(code)
	if !ok {
		return "Local emergency number; " + Closing
	}
	parts := []string{"emergency " + c.Emergency}
	for _, l := range c.Lines {
		parts = append(parts, l.Name+": "+l.How())
	}
	return fmt.Sprintf("%s: %s. %s", c.Name, strings.Join(parts, "; "), Closing)
}
