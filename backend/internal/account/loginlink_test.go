package account

import "testing"

func TestMaskEmailShowsTheFirstCharacterAndTheDomainOnly(t *testing.T) {
	for in, want := range map[string]string{
		"sam@example.com":         "s•••@example.com",
		"s@example.com":           "s•••@example.com",
		"sam.smith+x@example.com": "s•••@example.com",
		"émile@example.fr":        "é•••@example.fr",
		"no-at-sign":              "•••",
		"@example.com":            "•••",
	} {
		if got := MaskEmail(in); got != want {
			t.Errorf("MaskEmail(%q) = %q, want %q", in, got, want)
		}
	}
}
