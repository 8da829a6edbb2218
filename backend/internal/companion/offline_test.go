package companion

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestOfflineFirstReplyListensAndNamesTheFeelings(t *testing.T) {
	o := &Offline{}
	p := Profile{FocusAreas: "Sleep, exams"}
	msg := "I'm so stressed about my exams and I feel lonely since my friend moved away."
	var chunks []string
	reply, err := o.Stream(context.Background(), Prompt{Message: msg, Profile: p}, func(s string) error { chunks = append(chunks, s); return nil })
	if err != nil {
		t.Fatal(err)
	}
	if len(chunks) < 10 || strings.Join(chunks, "") != reply.Text {
		t.Fatalf("not streamed word by word: %d chunks", len(chunks))
	}
	if !strings.HasPrefix(reply.Text, "It sounds like your exams are weighing on you") {
		t.Errorf("reply %q does not reflect what it heard", reply.Text)
	}
	for _, want := range []string{"stress", "loneliness", "sleep"} {
		if !strings.Contains(strings.ToLower(reply.Text), want) {
			t.Errorf("reply %q lacks %q", reply.Text, want)
		}
	}
	if n := strings.Count(reply.Text, "?"); n != 1 || !strings.HasSuffix(reply.Text, "?") {
		t.Errorf("reply has %d questions, want exactly 1 at the end: %q", n, reply.Text)
	}
	if containsOneOf(reply.Text, journalPrompts) {
		t.Errorf("a journaling prompt on the first reply: %q", reply.Text)
	}
	if reply.Usage.CompletionTokens == 0 {
		t.Error("no token estimate")
	}
	if again := o.Compose(Prompt{Message: msg, Profile: p}); again != reply.Text {
		t.Error("offline engine is not deterministic")
	}
}

func TestOfflineStaysAwayFromSensitiveTopics(t *testing.T) {
	o := &Offline{}
	p := Profile{FocusAreas: "family", SensitiveTopics: "my divorce, family"}
	reply := o.Compose(Prompt{Message: "I keep thinking about my divorce and feel sad.", Profile: p})
	if strings.Contains(strings.ToLower(reply), "divorce") || strings.Contains(strings.ToLower(reply), "family") {
		t.Fatalf("reply mentions a sensitive topic: %q", reply)
	}
	if !containsOneOf(reply, sensitiveAck) || strings.Count(reply, "?") != 1 {
		t.Fatalf("reply = %q", reply)
	}
}

// TestOfflineSummary: the summary says in its own words what the session was about, how it
// felt and how it ended; it quotes nothing, and a rejection is not "calm".
func TestOfflineSummary(t *testing.T) {
	s := OfflineSummary([]Turn{
		{Role: RoleUser, Content: "I'm anxious about the exam."},
		{Role: RoleAssistant, Content: "It sounds like..."},
		{Role: RoleUser, Content: "I'm tired and stressed. But I'm hopeful."},
	})
	want := "You talked about the exam. Stress and hope came through most. It ended on a note of hope."
	if s.Text != want || strings.Contains(s.Text, "In this session") {
		t.Fatalf("summary = %q", s.Text)
	}
	if n := strings.Count(s.Text, "."); n < 2 || n > 3 {
		t.Fatalf("%d sentences: %q", n, s.Text)
	}
	rejected := OfflineSummary([]Turn{
		{Role: RoleUser, Content: "i got rejected from the deloitte internship after the final round"},
		{Role: RoleUser, Content: "idk. whatever"},
	})
	if slices.Contains(rejected.Emotions, "calm") || !slices.Contains(rejected.Emotions, "sadness") || strings.Contains(rejected.Text, `"`) {
		t.Fatalf("rejection: %q %v", rejected.Text, rejected.Emotions)
	}
	better := OfflineSummary([]Turn{
		{Role: RoleUser, Content: "my midterm is tomorrow and im so stressed"},
		{Role: RoleUser, Content: "The midterm went okay actually, better than I feared"},
		{Role: RoleUser, Content: "thanks, bye"},
	})
	if !strings.Contains(better.Text, "It ended on a note of joy.") || better.Emotions[0] != "joy" {
		t.Fatalf("good news at the end: %q %v", better.Text, better.Emotions)
	}
	if len(s.Emotions) < 1 || len(s.Emotions) > 5 {
		t.Fatalf("emotions = %v", s.Emotions)
	}
	for _, e := range s.Emotions {
		if !IsEmotion(e) {
			t.Fatalf("%q is not in the set", e)
		}
	}
}

func TestSystemPromptCarriesProfileAndTrimsHistory(t *testing.T) {
	sp := BuildSystemPrompt(Profile{Age: 16, FocusAreas: "sleep", PrimaryConcerns: "exam stress", SensitiveTopics: "my dad"}, "Earlier, the user said: hi.")
	for _, want := range []string{"Age: 16", `"sleep"`, `"exam stress"`, `"my dad"`, "never claim to be human", "Earlier, the user said: hi."} {
		if !strings.Contains(strings.ToLower(sp), strings.ToLower(want)) {
			t.Errorf("system prompt lacks %q", want)
		}
	}
	var h []Turn
	for i := 0; i < 100; i++ {
		h = append(h, Turn{Role: RoleUser, Content: strings.Repeat("word ", 40) + "first."}, Turn{Role: RoleAssistant, Content: "ok"})
	}
	kept, sum := TrimHistory(h, 500)
	if len(kept) == 0 || len(kept) >= len(h) || sum == "" {
		t.Fatalf("kept %d of %d, summary %q", len(kept), len(h), sum)
	}
	if kept[len(kept)-1] != h[len(h)-1] {
		t.Fatal("newest turn not kept")
	}
}

func TestSystemPromptAsksForTheArcAndCarriesMemoriesGently(t *testing.T) {
	sp := BuildSystemPrompt(Profile{SensitiveTopics: "my dad"}, "",
		"Has a statistics midterm on Tuesday", "Argues with my dad on Sundays", "Wants to kill myself", "  Works   late shifts\nat a café  ")
	for _, want := range []string{
		"under 120 words", "So far I'm hearing", "one open question at a time", "refer back", "\"What should I do?\"",
		"\"Am I overreacting?\"", "narrower question", "journaling prompt only when it fits", "never call this therapy",
		"Never claim to be human", "findahelpline.com", "emergency number now", "What you know from earlier sessions", "never recite",
		"- Has a statistics midterm on Tuesday", "- Works late shifts at a café",
	} {
		if !strings.Contains(sp, want) {
			t.Errorf("system prompt lacks %q", want)
		}
	}
	memories := sp[strings.Index(sp, "What you know"):]
	for _, banned := range []string{"dad", "kill"} {
		if strings.Contains(memories, banned) {
			t.Errorf("a memory with %q reached the prompt: %q", banned, memories)
		}
	}
	if strings.Contains(BuildSystemPrompt(Profile{}, ""), "earlier sessions") {
		t.Error("a memory section without memories")
	}
	var many []string
	for i := 0; i < 80; i++ {
		many = append(many, fmt.Sprintf("Memory number %d", i))
	}
	if n := strings.Count(BuildSystemPrompt(Profile{}, "", many...), "\n- Memory number"); n != MaxMemories {
		t.Errorf("%d memories in the prompt, want %d", n, MaxMemories)
	}
}
