package insights

import (
	"testing"
	"time"

	"github.com/google/uuid"

	dbgen "github.com/percolate/percolate/gen/db"
)

// BenchmarkThemesOfABusyWeek measures the themes of the most messages a report reads (2,000).
func BenchmarkThemesOfABusyWeek(b *testing.B) {
	texts := []string{
		"My exams start next week and I feel so anxious about them, the library is packed.",
		"I talked to my roommate about the noise but it got awkward, she plays music all night.",
		"Honestly I just miss home and my dog, and my mum's cooking on Sundays.",
	}
	msgs := make([]dbgen.ListUserMessagesOfSessionsEndedBetweenRow, 2000)
	mon := time.Date(2026, 11, 16, 9, 0, 0, 0, time.UTC)
	for i := range msgs {
		msgs[i] = dbgen.ListUserMessagesOfSessionsEndedBetweenRow{SessionID: uuid.New(), Content: texts[i%3], CreatedAt: mon.Add(time.Duration(i) * time.Minute)}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Themes(msgs, "")
	}
}
