package entitlement_test

import (
	"strings"
	"testing"

	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/entitlement"
)

// typicalMessages are 25-word messages of the kind a student writes in a long session.
var typicalMessages = []string{
	"i have a statistics exam on friday and i keep opening the notes and then closing them again because i do not know where to start",
	"my flatmate keeps leaving dishes everywhere and i do not want to start a fight but it is getting to me more than it should",
	"i think i am behind on my essay because i spent the whole weekend working extra shifts and now i feel tired and a bit stuck",
	"my friend did not reply to my message for two days and i keep rereading what i wrote wondering if i said something wrong or weird",
	"i want to ask my tutor for an extension but i worry she will think i am lazy or that i am making excuses again",
}

// fortyExchanges returns the tokens a free session is charged for 40 exchanges: each a
// 25-word message and the offline engine's reply to it, given the conversation so far.
func fortyExchanges(t *testing.T) (total, longestReply int) {
	t.Helper()
	engine := companion.NewOffline()
	var history []companion.Turn
	for i := range 40 {
		words := strings.Fields(typicalMessages[i%len(typicalMessages)])
		if len(words) < 25 {
			t.Fatalf("message %d has %d words, want 25", i, len(words))
		}
		msg := strings.Join(words[:25], " ")
		reply := engine.Compose(companion.Prompt{History: history, Message: msg})
		total += companion.EstimateTokens(msg) + companion.EstimateTokens(reply)
		longestReply = max(longestReply, companion.EstimateTokens(reply))
		history = append(history, companion.Turn{Role: companion.RoleUser, Content: msg}, companion.Turn{Role: companion.RoleAssistant, Content: reply})
	}
	return total, longestReply
}

// Issue 36: the free plan's session limit lets a real conversation finish: 40 typical
// exchanges, measured from the engine, fit under it.
func TestFreeSessionFitsFortyExchanges(t *testing.T) {
	total, longest := fortyExchanges(t)
	limit := entitlement.Default().For(entitlement.RoleFree).SessionTokens
	t.Logf("40 exchanges: %d tokens (longest reply %d) of a free session's %d", total, longest, limit)
	if total > limit {
		t.Errorf("40 typical exchanges take %d tokens; the free session limit is %d", total, limit)
	}
	// And 40 exchanges fit in a free day's messages.
	if n := entitlement.Default().For(entitlement.RoleFree).MessagesPerDay; n < 40 {
		t.Errorf("free messages a day = %d, want at least 40", n)
	}
}

// Each paid tier gives more than the one below it.
func TestTiersGrow(t *testing.T) {
	tb := entitlement.Default()
	free, basic, premium := tb.For(entitlement.RoleFree), tb.For(entitlement.RoleBasic), tb.For(entitlement.RolePremium)
	if free.SessionTokens >= basic.SessionTokens || basic.SessionTokens >= premium.SessionTokens {
		t.Errorf("session tokens %d, %d, %d: want each tier higher", free.SessionTokens, basic.SessionTokens, premium.SessionTokens)
	}
	if free.MessagesPerDay >= basic.MessagesPerDay || basic.MessagesPerDay >= premium.MessagesPerDay {
		t.Errorf("messages a day %d, %d, %d: want each tier higher", free.MessagesPerDay, basic.MessagesPerDay, premium.MessagesPerDay)
	}
}
