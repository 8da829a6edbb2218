package companion

import "github.com/percolate/percolate/backend/internal/companion/safety"

// Risk is a kind of risk a message can show.
type Risk string

// The risks the screen looks for.
const (
	RiskNone           Risk = ""
	RiskSuicide        Risk = Risk(safety.Suicide)
	RiskAttempt        Risk = Risk(safety.Attempt)
	RiskSelfHarm       Risk = Risk(safety.SelfHarm)
	RiskSexualAssault  Risk = Risk(safety.SexualAssault)
	RiskAbuse          Risk = Risk(safety.Abuse)
	RiskChild          Risk = Risk(safety.Child)
	RiskEatingDisorder Risk = Risk(safety.EatingDisorder)
	RiskDanger         Risk = Risk(safety.Danger)
)

// Screen reports the risk a message shows on its own, at either tier of the safety screen
// (package safety), or RiskNone.
func Screen(text string) Risk {
	r := safety.Screen(text, safety.Context{})
	if !r.Risky() {
		return RiskNone
	}
	return Risk(r.Category)
}
