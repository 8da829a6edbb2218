package companion

import "github.com/percolate/percolate/backend/internal/companion/safety"

// screens keeps the screen's result of each message in its context for the length of one
// reply: the session is rebuilt from the whole history on every reply, and screening every
// earlier turn three times over (its context, its level, the context after it) was most of
// a reply's time. The screen is a pure function of the text and the context, so a result
// kept is the result it would give again. A nil screens keeps nothing.
type screens map[screenKey]safety.Result

type screenKey struct {
	text string
	c    safety.Context
}

func (m screens) in(text string, c safety.Context) safety.Result {
	if m == nil {
		return safety.Screen(text, c)
	}
	k := screenKey{text, c}
	if r, ok := m[k]; ok {
		return r
	}
	r := safety.Screen(text, c)
	m[k] = r
	return r
}
