package companion

import (
	"reflect"
	"strings"
	"testing"
)

func factTexts(fs []Fact) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Text)
	}
	return out
}

func TestOfflineMemoriesPickDurableFacts(t *testing.T) {
	msgs := []string{
		"My statistics midterm is on Tuesday and I'm dreading it.",
		"My friend Maya said she'd help me revise. I want to start running again.",
		"I keep worrying about my grades, honestly.",
		"It was fine I guess",
	}
	got := factTexts(OfflineMemories(msgs, Profile{}))
	want := []string{
		"Has a statistics midterm on Tuesday",
		"Has a friend called Maya",
		"Wants to start running again",
		"Worries about their grades",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}

func TestOfflineMemoriesLeaveOutSensitiveTopicsAndOneOffs(t *testing.T) {
	msgs := []string{
		"My chemistry exam is on Friday. My dad's drinking is getting worse, his birthday party is on Saturday.",
		"I'm worried about the weather.",
	}
	got := factTexts(OfflineMemories(msgs, Profile{SensitiveTopics: "dad, drinking"}))
	want := []string{"Has a chemistry exam on Friday"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}

func TestOfflineMemoriesSupersedeWithinASession(t *testing.T) {
	msgs := []string{"My midterm is on Tuesday.", "Actually my midterm moved to Thursday."}
	fs := OfflineMemories(msgs, Profile{})
	if len(fs) != 1 || fs[0].Text != "Has a midterm on Thursday" || fs[0].Key != "event:midterm" {
		t.Fatalf("got %+v", fs)
	}
}

func TestNamesThatComeBackAreRemembered(t *testing.T) {
	msgs := []string{"Jake and I had a fight.", "I called Jake last night."}
	got := factTexts(OfflineMemories(msgs, Profile{}))
	if !reflect.DeepEqual(got, []string{"Talks about Jake often"}) {
		t.Fatalf("got %q", got)
	}
	if got := OfflineMemories(msgs[:1], Profile{}); len(got) != 0 {
		t.Fatalf("one mention is not a memory: %+v", got)
	}
}

func TestValidFactRefusesRiskAndSensitiveTopics(t *testing.T) {
	for _, text := range []string{"Wants to kill myself", "Wants to kill themselves", "Thinks about hurting themselves", "x", "Has a fight with dad", strings.Repeat("word ", 60)} {
		if _, ok := ValidFact(text, Profile{SensitiveTopics: "dad"}); ok {
			t.Errorf("%q was accepted", text)
		}
	}
	if got, ok := ValidFact("  has a  midterm\non Tuesday ", Profile{}); !ok || got != "Has a midterm on Tuesday" {
		t.Errorf("got %q %v", got, ok)
	}
}

func TestThreadPicksUpTheNewestUsableMemory(t *testing.T) {
	got := Thread([]string{"Wants to kill myself", "Has a statistics midterm on Tuesday"}, Profile{})
	want := "Last time you mentioned that you have a statistics midterm on Tuesday — how did it go?"
	if got != want {
		t.Fatalf("got %q", got)
	}
	if got := Thread([]string{"Worries about their grades"}, Profile{}); got != "Last time you mentioned that you worry about your grades. How are things with that now?" {
		t.Fatalf("got %q", got)
	}
	if got := Thread([]string{"Has a statistics midterm on Tuesday"}, Profile{SensitiveTopics: "statistics"}); got != "" {
		t.Fatalf("a sensitive memory was picked up: %q", got)
	}
	w := WelcomeWithThread("Ana Lee", false, "Last time you mentioned X.")
	if !strings.HasSuffix(w, "Last time you mentioned X.") || strings.Contains(w, "What's on your mind") {
		t.Fatalf("welcome %q", w)
	}
	if w := WelcomeWithThread("Ana", true, "Last time you mentioned X."); strings.Contains(w, "Last time you mentioned X") {
		t.Fatalf("a check-in welcome picked up a thread: %q", w)
	}
}

func TestParseMemoriesJSONValidates(t *testing.T) {
	fs, err := ParseMemoriesJSON("```json\n{\"memories\":[{\"text\":\"Has a midterm on Tuesday.\",\"replaces\":2},{\"text\":\"\"},{\"text\":\"Plays football\",\"replaces\":9},{\"text\":\"Likes tea\",\"replaces\":2}]}\n```", 2)
	if err != nil {
		t.Fatal(err)
	}
	want := []Fact{
		{Text: "Has a midterm on Tuesday", Key: FactKey("Has a midterm on Tuesday"), Replaces: 1},
		{Text: "Plays football", Key: FactKey("Plays football"), Replaces: -1},
		{Text: "Likes tea", Key: FactKey("Likes tea"), Replaces: -1},
	}
	if !reflect.DeepEqual(fs, want) {
		t.Fatalf("got %+v", fs)
	}
	for _, bad := range []string{"not json", `{"facts":[]}`, `[1,2]`} {
		if _, err := ParseMemoriesJSON(bad, 0); err == nil {
			t.Errorf("%q was accepted", bad)
		}
	}
}
