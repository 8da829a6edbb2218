package chat

import (
	"testing"

	"github.com/percolate/percolate/backend/internal/companion"
)

// The offline engine leaves the starter message out of what a session is about: it must be
// the chat page's own.
func TestStarterMessageIsTheCompanionsStarter(t *testing.T) {
	if !companion.IsStarter(StarterMessage) {
		t.Fatalf("companion.StarterText %q differs from StarterMessage %q", companion.StarterText, StarterMessage)
	}
}
