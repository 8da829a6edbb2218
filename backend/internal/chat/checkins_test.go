package chat

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/checkin"
	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/llmtest"
	"github.com/percolate/percolate/backend/internal/queue/queuetest"
	dbgen "github.com/percolate/percolate/gen/db"
)

// flaggedNote is a check-in note the crisis screen flags; the rowing club would be remembered
// if the note ever reached memory.
const flaggedNote = "Quit the rowing club on Friday and I want to kill myself."

// storeCheckins stores two drained, low check-ins about sleep (with a plain note) on two days,
// and a very low one whose note the screen flagged. It returns the flagged one as the check-in
// service knows it.
func (f *fixture) storeCheckins(t *testing.T, uid uuid.UUID) checkin.Checkin {
	t.Helper()
	ctx := context.Background()
	one, note := int32(1), "plain words about the library"
	for _, d := range []int{19, 20} {
		if _, err := f.st.Queries().InsertCheckin(ctx, dbgen.InsertCheckinParams{UserID: uid, Mood: 2, Energy: &one, Emotions: []string{"tiredness"}, Tags: []string{"sleep"},
			Note: &note, LocalDate: time.Date(2026, 11, d, 0, 0, 0, 0, time.UTC)}); err != nil {
			t.Fatal(err)
		}
	}
	n, cat := flaggedNote, "suicide"
	row, err := f.st.Queries().InsertCheckin(ctx, dbgen.InsertCheckinParams{UserID: uid, Mood: 1, Emotions: []string{}, Tags: []string{"study"}, Note: &n, Safety: &cat,
		LocalDate: time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	return checkin.Checkin{ID: row.ID, Mood: 1, Tags: row.Tags, Note: &n, Safety: cat}
}

// With a model, the prompt carries the recent check-ins and their pattern: no note, and
// nothing of a check-in whose note was flagged (issue 31, §5).
func TestTheModelsPromptCarriesRecentCheckinsWithoutNotes(t *testing.T) {
	f := newFixture(t, true, nil)
	uid := f.user(t, "USER")
	f.storeCheckins(t, uid)
	f.llm.SetModeration(llmtest.Moderation{})
	f.llm.SetDefault(llmtest.Script{Chunks: []string{"That sounds tiring."}})
	sid := f.newSession(t, uid)
	for _, m := range []string{"I'm so tired lately.", "Sleep is hard."} { // the second send may take the kept send state
		if res, err := f.svc.Send(context.Background(), uid, SendInput{SessionID: &sid, Message: m}, nil); err != nil || !res.Success {
			t.Fatalf("send: %+v %v", res, err)
		}
	}
	asked := 0
	for _, r := range f.llm.Requests() {
		if len(r.Messages) == 0 || !strings.HasPrefix(r.Messages[0].Content, "You are Percolate") {
			continue
		}
		asked++
		system := r.Messages[0].Content
		for _, want := range []string{"Fri 20 Nov: mood 2, energy 1, feeling tiredness, about sleep", "Pattern: You checked in feeling drained on two days this week."} {
			if !strings.Contains(system, want) {
				t.Errorf("the prompt lacks %q:\n%s", want, system)
			}
		}
		for _, never := range []string{"rowing", "library", "21 Nov", "study"} {
			if strings.Contains(system, never) {
				t.Errorf("the prompt carries %q (a note, or the flagged check-in)", never)
			}
		}
	}
	if asked != 2 {
		t.Fatalf("%d reply requests, want 2", asked)
	}
}

// Without a model, the offline engine names the pattern where it fits, and never anything of
// the flagged check-in.
func TestTheOfflineEngineNamesTheCheckinsPattern(t *testing.T) {
	f := newFixture(t, false, nil)
	uid := f.user(t, "USER")
	f.storeCheckins(t, uid)
	sid := f.newSession(t, uid)
	res, err := f.svc.Send(context.Background(), uid, SendInput{SessionID: &sid, Message: "I'm so tired lately."}, nil)
	if err != nil || !res.Success {
		t.Fatalf("send: %+v %v", res, err)
	}
	if !strings.Contains(res.AIResponse, "You checked in feeling drained on two days this week.") || strings.Contains(res.AIResponse, "rowing") {
		t.Fatalf("reply = %q", res.AIResponse)
	}
}

// "Talk about it" on a check-in whose note was flagged: the note is not in the opening, and
// memory, from a model or the offline extractor, never stores it (issue 31, §5).
func TestAFlaggedCheckinNoteNeverReachesMemory(t *testing.T) {
	for _, llm := range []bool{false, true} {
		f := newFixture(t, llm, nil)
		uid := f.user(t, "BASIC")
		c := f.storeCheckins(t, uid)
		if llm {
			f.llm.SetModeration(llmtest.Moderation{})
			f.llm.SetDefault(llmtest.Script{Chunks: []string{"I hear you."}})
		}
		res, err := f.svc.Send(context.Background(), uid, SendInput{Message: StarterMessage, Opening: c.Acknowledgement()}, nil)
		if err != nil || !res.Success || strings.Contains(res.AIResponse, "rowing") {
			t.Fatalf("llm %v: opening: %+v %v", llm, res, err)
		}
		sid := res.SessionID
		if res, err := f.svc.Send(context.Background(), uid, SendInput{SessionID: &sid, Message: "My driving test is on Monday."}, nil); err != nil || !res.Success {
			t.Fatalf("llm %v: send: %+v %v", llm, res, err)
		}
		if _, err := f.svc.End(context.Background(), uid, sid, ""); err != nil {
			t.Fatal(err)
		}
		queuetest.Start(t, f.q)
		queuetest.Drain(t, f.q)
		got := strings.Join(f.memories(t, uid), "|")
		if strings.Contains(strings.ToLower(got), "rowing") || (!llm && !strings.Contains(got, "driving test")) {
			t.Errorf("llm %v: memories: %q", llm, got)
		}
		if !llm {
			continue
		}
		if memoryRequests(f.llm) == 0 {
			t.Fatal("the memory job did not ask the model")
		}
		for _, r := range f.llm.Requests() {
			for _, m := range r.Messages {
				if strings.Contains(m.Content, "rowing") {
					t.Errorf("a request to the model carries the flagged note: %q", companion.CleanText(m.Content))
				}
			}
		}
	}
}
