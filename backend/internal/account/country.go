package account

import (
	"strings"

	"golang.org/x/text/language"
)

// msgCountry is the field error of a country that is not an ISO 3166-1 alpha-2 code.
const msgCountry = "Choose a country from the list."

// NormalizeCountry returns an ISO 3166-1 alpha-2 country code in upper case, and whether the
// text is one ("gb" and "GB" are; "UK", "EU" and "XX" are not: they name no country).
func NormalizeCountry(s string) (string, bool) {
	code := strings.ToUpper(strings.TrimSpace(s))
	if len(code) != 2 || code[0] < 'A' || code[0] > 'Z' || code[1] < 'A' || code[1] > 'Z' {
		return "", false
	}
	r, err := language.ParseRegion(code)
	if err != nil || !r.IsCountry() || r.Canonicalize().String() != code {
		return "", false
	}
	return code, true
}
