package companion

import (
	"regexp"
	"strings"
	"testing"

	"github.com/percolate/percolate/backend/internal/companion/resources"
)

var allRisks = []Risk{RiskSuicide, RiskAttempt, RiskSelfHarm, RiskSexualAssault, RiskAbuse, RiskChild, RiskEatingDisorder, RiskDanger}

// An attempt in progress is answered with the emergency number in the first sentence, before
// anything else, for every country of the table and for a country it does not cover.
func TestAttemptReplyPutsTheEmergencyNumberFirst(t *testing.T) {
	for _, code := range append(resources.Codes(), "", "ZZ") {
		reply := CrisisReplyFor(RiskAttempt, Where{Country: code})
		first := reply[:strings.Index(reply, ".")+1]
		want := "your local emergency number"
		if c, ok := resources.For(code); ok {
			want = c.Emergency
		}
		if !strings.HasPrefix(first, "Please call ") || !strings.Contains(first, want+" now") {
			t.Errorf("%q: first sentence %q, want the call to %s now", code, first, want)
		}
	}
	// The message that says so gets that reply from the offline engine too.
	reply := (&Offline{}).Compose(Prompt{Message: "i already took all my pills", Profile: Profile{Country: "GB"}})
	if !strings.HasPrefix(reply, "Please call 999 now") {
		t.Errorf("offline reply to an attempt under way: %q", reply)
	}
}

// Each danger gets its own reply, with the lines of the user's country.
func TestEachDangerHasItsOwnReply(t *testing.T) {
	seen := map[string]Risk{}
	for _, r := range allRisks {
		reply := CrisisReplyFor(r, Where{Country: "US"})
		if prev, ok := seen[reply]; ok {
			t.Errorf("%s and %s get the same reply", r, prev)
		}
		seen[reply] = r
		if !HasResources(reply) || !strings.Contains(reply, "911") {
			t.Errorf("%s: reply lacks the US resources: %q", r, reply)
		}
	}
	checks := []struct {
		r    Risk
		w    Where
		want []string
	}{
		{RiskSuicide, Where{Country: "GB"}, []string{"116 123", "999"}},
		{RiskSelfHarm, Where{Country: "AU"}, []string{"won't stop", "press firmly", "000", "13 11 14"}},
		{RiskSexualAssault, Where{Country: "US"}, []string{"not your fault", "800-656-4673", "safe place"}},
		{RiskAbuse, Where{Country: "GB", Age: 15}, []string{"0800 1111", "adult you trust", "999"}},
		{RiskChild, Where{Country: "US"}, []string{"1-800-422-4453"}},
		{RiskEatingDisorder, Where{Country: "DE"}, []string{"fainting", "heartbeat", "112", "0800 111 0 111"}},
		{RiskDanger, Where{Country: "MX"}, []string{"911 now"}},
	}
	for _, c := range checks {
		reply := CrisisReplyFor(c.r, c.w)
		for _, w := range c.want {
			if !strings.Contains(reply, w) && !strings.Contains(strings.ToLower(reply), strings.ToLower(w)) {
				t.Errorf("%s in %s: reply lacks %q: %q", c.r, c.w.Country, w, reply)
			}
		}
	}
	// A UK user never gets a US number.
	for _, r := range allRisks {
		if reply := CrisisReplyFor(r, Where{Country: "GB"}); strings.Contains(reply, "988") || strings.Contains(reply, "741741") {
			t.Errorf("%s: a UK reply names a US line: %q", r, reply)
		}
	}
}

// The fixed texts follow safe-messaging guidance: no method, means or place, no graphic detail.
var unsafeWords = regexp.MustCompile(`(?i)\b(pills?|tablets?|overdose|rope|hang\w*|jump\w*|bridge|roof|knife|blade|razor|gun|poison\w*|wrists?|veins?|lethal|dose)\b`)

func TestCrisisRepliesNameNoMethodMeansOrPlace(t *testing.T) {
	for _, code := range append(resources.Codes(), "") {
		for _, r := range allRisks {
			w := Where{Country: code}
			for _, text := range []string{CrisisReplyFor(r, w), CheckInReplyFor(w), ResourcesFor(code)} {
				if m := unsafeWords.FindString(text); m != "" {
					t.Errorf("%s/%s names %q: %q", code, r, m, text)
				}
			}
		}
	}
}

func TestSystemPromptCarriesTheUsersLines(t *testing.T) {
	p := BuildSystemPrompt(Profile{Country: "GB"}, "")
	if !strings.Contains(p, "116 123") || !strings.Contains(p, "999") || strings.Contains(p, "988") {
		t.Errorf("GB prompt lines wrong: %q", p)
	}
	if p := BuildSystemPrompt(Profile{}, ""); !strings.Contains(p, resources.Closing) {
		t.Errorf("prompt without a country lacks the fallback")
	}
}
