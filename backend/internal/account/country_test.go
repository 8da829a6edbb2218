package account

import "testing"

func TestNormalizeCountry(t *testing.T) {
	for in, want := range map[string]string{"gb": "GB", " US ": "US", "hk": "HK", "de": "DE"} {
		if got, ok := NormalizeCountry(in); !ok || got != want {
			t.Errorf("NormalizeCountry(%q) = %q, %v", in, got, ok)
		}
	}
	for _, in := range []string{"UK", "EU", "XX", "ZZ", "G1", "GBR", "", "QO", "AA"} {
		if got, ok := NormalizeCountry(in); ok {
			t.Errorf("NormalizeCountry(%q) = %q, want refused", in, got)
		}
	}
}
