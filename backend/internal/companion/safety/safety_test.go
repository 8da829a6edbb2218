package safety

import "testing"

// The examples other packages' tests rely on for each tier; the screen must keep them.
func TestScreenTiers(t *testing.T) {
	cases := []struct {
		text string
		ctx  Context
		want Level
	}{
		{"I want to kill myself", Context{}, Clear},
		{"I can't do this anymore and I just want to disappear", Context{}, Possible},
		{"this exam is killing me", Context{}, None},
		{"tonight", Context{}, None},
		{"tonight", Context{CheckedIn: true}, Clear},
		{"yeah, I've thought about how", Context{CheckedIn: true}, Clear},
		{"yeah thanks that helps", Context{}, None},
	}
	for _, c := range cases {
		if got := Screen(c.text, c.ctx).Level; got != c.want {
			t.Errorf("Screen(%q, %+v) = %v, want %v", c.text, c.ctx, got, c.want)
		}
	}
}
