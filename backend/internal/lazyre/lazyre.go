// Package lazyre holds regular expressions that compile on their first use rather than at
// start. The crisis screen and the offline engine hold many of them, heap that a server
// nobody has written to yet does not need (issue 14, idle RSS; the figures are in
// bench/findings.md). The pattern's syntax is still checked at start, so a bad pattern
// panics there as regexp.MustCompile would.
package lazyre

import (
	"regexp"
	"regexp/syntax"
	"sync"
)

// Regexp is a regexp.Regexp compiled once, on first use; it is safe for concurrent use.
type Regexp struct {
	src  string
	once sync.Once
	re   *regexp.Regexp
}

// MustCompile returns the expression of src, compiled on its first use. It panics now if
// src does not parse.
func MustCompile(src string) *Regexp {
	if _, err := syntax.Parse(src, syntax.Perl); err != nil {
		panic(`lazyre: Compile(` + quote(src) + `): ` + err.Error())
	}
	return &Regexp{src: src}
}

func quote(s string) string { return "`" + s + "`" }

// Regexp returns the compiled expression.
func (r *Regexp) Regexp() *regexp.Regexp {
	r.once.Do(func() { r.re = regexp.MustCompile(r.src) })
	return r.re
}

// String returns the source text.
func (r *Regexp) String() string { return r.src }

// MatchString is regexp.Regexp.MatchString.
func (r *Regexp) MatchString(s string) bool { return r.Regexp().MatchString(s) }

// FindStringIndex is regexp.Regexp.FindStringIndex.
func (r *Regexp) FindStringIndex(s string) []int { return r.Regexp().FindStringIndex(s) }

// FindStringSubmatch is regexp.Regexp.FindStringSubmatch.
func (r *Regexp) FindStringSubmatch(s string) []string { return r.Regexp().FindStringSubmatch(s) }

// FindAllStringIndex is regexp.Regexp.FindAllStringIndex.
func (r *Regexp) FindAllStringIndex(s string, n int) [][]int {
	return r.Regexp().FindAllStringIndex(s, n)
}

// FindAllStringSubmatch is regexp.Regexp.FindAllStringSubmatch.
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.Regexp().FindAllStringSubmatch(s, n)
}

// ReplaceAllString is regexp.Regexp.ReplaceAllString.
func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.Regexp().ReplaceAllString(src, repl)
}

// ReplaceAllStringFunc is regexp.Regexp.ReplaceAllStringFunc.
func (r *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return r.Regexp().ReplaceAllStringFunc(src, repl)
}

// Split is regexp.Regexp.Split.
func (r *Regexp) Split(s string, n int) []string { return r.Regexp().Split(s, n) }
