package companion

import (
	"strings"
	"testing"
)

// Examples written for these tests, the way students type; none is taken from the
// conversation benchmark.

// Good news needs good news: a message near the good-news examples in shape but saying
// something hard is no good news, alone or after good news.
func TestGoodNewsNeedsGoodNews(t *testing.T) {
	for _, msg := range []string{
		"i think its because i dont want her to see how behind i am",
		"i guess i just feel really behind everyone else…",
		"its been really hard at home",
		"i just dont want to let them down again",
		"tbh i think im the only one who hasnt got it sorted",
	} {
		if a := MessageAct(msg, false); a == "good_news" {
			t.Errorf("%q read as good news", msg)
		}
	}
	replies := converse(t, Profile{}, "my mum keeps asking about my grades",
		"i think its because i dont want her to see how behind i am",
		"i guess i just feel really behind everyone else…")
	for i, r := range replies {
		if containsOneOf(r, goodNewsTopic, goodNewsPlain, goodNewsQ) || strings.Contains(r, "good to hear") {
			t.Errorf("reply %d met a hard message as good news: %q", i, r)
		}
	}
	// After good news, a hard message is not carried along as more good news.
	replies = converse(t, Profile{}, "I PASSED my driving test!!", "but its been really hard at home since")
	if containsOneOf(replies[1], goodNewsTopic, goodNewsPlain) {
		t.Errorf("a hard message after good news met as good news: %q", replies[1])
	}
	// Good news still is.
	for _, msg := range []string{"going out for pizza with jess tonight to celebrate", "i got the internship!!"} {
		if a := MessageAct(msg, false); a != "good_news" {
			t.Errorf("%q read as %s, want good_news", msg, a)
		}
	}
}
