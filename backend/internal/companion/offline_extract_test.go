package companion

import (
	"reflect"
	"strings"

	"github.com/percolate/percolate/backend/internal/companion/safety"
	"testing"
)

func TestExtractItemsNamesWhatTheUserMentioned(t *testing.T) {
	cases := []struct {
		sentence string
		want     []string // kind:full
	}{
		{"I've been working the late shifts at the café with Maya", []string{"event:the late shifts at the café", "person:Maya"}},
		{"My statistics midterm is on Tuesday", []string{"event:your statistics midterm on Tuesday", "day:Tuesday"}},
		{"On Friday I have an essay due", []string{"event:your essay on Friday", "day:Friday"}},
		{"My boss keeps scheduling me on Sundays and I have an interview on Monday", []string{"event:your interview on Monday", "person:your boss", "day:Sundays", "day:Monday"}},
		{"My friend Maya said she'd cover her shifts", []string{"person:your friend Maya"}},
		{"Jake and I had a fight after work", []string{"event:the fight", "event:work", "person:Jake"}},
		{"Everything is too much and nobody gets it", nil},
		{"I HATE MY JOB", []string{"event:your job"}},
		{"I work at Maplewood and study at the library", []string{"place:Maplewood", "place:the library"}},
		{"My chemistry exam is on March 3rd", []string{"event:your chemistry exam on March 3", "day:March 3"}},
		{"Mum said I should revise tonight", []string{"person:your mum", "day:tonight"}},
		{"<script>alert(1)</script> my essay", []string{"event:your essay"}},
		{"I can't sleep and we fight a lot", nil},
	}
	kinds := map[itemKind]string{kindEvent: "event", kindPerson: "person", kindPlace: "place", kindDay: "day"}
	for _, c := range cases {
		var got []string
		for _, it := range extractItems(c.sentence) {
			got = append(got, kinds[it.kind]+":"+it.full)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q:\n got %q\nwant %q", c.sentence, got, c.want)
		}
	}
}

func TestDetectEmotionsSkipsNegatedFeelings(t *testing.T) {
	cases := map[string][]string{
		"I'm not anxious anymore, just tired.":     {"tiredness"},
		"I don't feel lonely at all.":              nil,
		"I feel lonely and nobody texts me back.":  {"loneliness"},
		"It felt good to finish, I'm so relieved.": {"joy", "calm"},
		"never sad, hardly worried":                nil,
	}
	for text, want := range cases {
		if got := DetectEmotions(text, 5); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: got %v, want %v", text, got, want)
		}
	}
}

func TestClassifySaysWhatAMessageAsks(t *testing.T) {
	cases := table(t, "classify")
	names := map[intent]string{intentShare: "share", intentShort: "short", intentGreeting: "greeting", intentClosing: "closing",
		intentAdvice: "advice", intentValidate: "validate", intentAboutMe: "aboutMe", intentQuestion: "question"}
	s := &session{}
	for msg, want := range cases {
		in, sub := classify(s.parse(msg, 0, safety.Context{}))
		if got := strings.TrimSpace(names[in] + " " + sub); got != want {
			t.Errorf("%q: got %q, want %q", msg, got, want)
		}
	}
}
