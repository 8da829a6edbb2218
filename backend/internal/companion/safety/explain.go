package safety

import "github.com/percolate/percolate/backend/internal/companion/safety/internal/text"

// Explanation is why the screen decided what it did about one message: for the tuning bench
// (safety-eval -v), never for users.
type Explanation struct {
	Result
	// Layer is the layer that decided: "context", "unclear", "rules", "denial", "possible",
	// "scorer", "defused" (a crisis reply lowered to the check-in, see defuse), or "" for no risk.
	Layer string
	// Whole is the scorer's score of a short message; Window its highest over the sentences and
	// windows of a long one.
	Whole, Window float64
	// Masked is the message after the false-alarm layer.
	Masked string
	// Strength is that of the lexicon's words in Masked: 0 none, 1 weak only, 2 strong.
	Strength int
}

// Explain screens a message as Screen does and says which layer decided.
func Explain(raw string, c Context) Explanation {
	r, layer := defaultScreener.screenLayer(raw, c)
	mk := text.Mask(raw)
	strength := lexiconStrength(mk.Text)
	whole, window, weak := defaultScreener.score(mk, strength)
	return Explanation{Result: r, Layer: layer, Whole: whole, Window: max(window, weak), Masked: mk.Text, Strength: strength}
}
