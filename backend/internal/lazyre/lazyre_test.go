package lazyre

import (
	"regexp"
	"slices"
	"sync"
	"testing"
)

func TestCompiledOnFirstUseAndAnswersAsRegexp(t *testing.T) {
	const src = `(\w+)@(\w+)`
	r := MustCompile(src)
	if r.re != nil {
		t.Fatal("compiled before its first use")
	}
	want := regexp.MustCompile(src)
	in := "a@b, c@d e"
	if r.MatchString(in) != want.MatchString(in) || r.MatchString("none") {
		t.Fatal("MatchString differs")
	}
	if r.re == nil {
		t.Fatal("not compiled after its first use")
	}
	if !slices.Equal(r.FindStringIndex(in), want.FindStringIndex(in)) ||
		!slices.Equal(r.FindStringSubmatch(in), want.FindStringSubmatch(in)) ||
		!slices.Equal(r.Split(in, -1), want.Split(in, -1)) ||
		r.ReplaceAllString(in, "$2") != want.ReplaceAllString(in, "$2") ||
		r.ReplaceAllStringFunc(in, func(s string) string { return "<" + s + ">" }) != want.ReplaceAllStringFunc(in, func(s string) string { return "<" + s + ">" }) ||
		r.String() != src {
		t.Fatal("an answer differs from regexp's")
	}
	if got, w := r.FindAllStringIndex(in, -1), want.FindAllStringIndex(in, -1); len(got) != 2 || !slices.Equal(got[1], w[1]) {
		t.Fatalf("FindAllStringIndex = %v, want %v", got, w)
	}
	if got, w := r.FindAllStringSubmatch(in, -1), want.FindAllStringSubmatch(in, -1); len(got) != 2 || !slices.Equal(got[1], w[1]) {
		t.Fatalf("FindAllStringSubmatch = %v, want %v", got, w)
	}
}

func TestConcurrentFirstUse(t *testing.T) {
	r := MustCompile(`^x+$`)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if !r.MatchString("xxx") {
				t.Error("no match")
			}
		}()
	}
	wg.Wait()
}

func TestBadPatternPanicsAtOnce(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("a pattern that does not parse did not panic")
		}
	}()
	MustCompile(`(`)
}
