package safety

import (
	"testing"

	"github.com/percolate/percolate/backend/internal/companion/safety/internal/text"
)

// TestWarningSigns: preparation (means hidden or saved with a time set), marks said to be
// self-made, a streak broken or fresh marks over old ones, and a past attempt with the feeling
// coming back, or a high place with an apology, a farewell or numbness get at least the check-in, with the warning sign's category when no word says
// more. The phrasings were written for this test, not taken from any evaluation set.
func TestWarningSigns(t *testing.T) {
	for _, c := range []struct {
		msg string
		cat Category
	}{
		{"ive been hiding my sleeping tablets in a sock, sunday night", Suicide},
		{"kept back a few of my meds every week, thinking this weekend", Suicide},
		{"the painkillers are under my bed and thats when, after my exams", Suicide},
		{"the scratches on my arms were from me, not the cat", SelfHarm},
		{"i did those to myself last night", SelfHarm},
		{"two weeks clean and i broke it tonight", SelfHarm},
		{"my old scars are white now but theres fresh ones on top", SelfHarm},
		{"i attempted once before and it feels like its coming back", Suicide},
		{"i was in a and e last spring after trying and it feels the same again", Suicide},
		{"on the top of the tower block. love you all", Suicide},
		{"where can i buy sleeping pills online without my parents finding out", Suicide},
		{"how would someone my age get a gun without anyone knowing", Suicide},
		{"keep thinking about the 🪢 lately", Suicide},
		{"not existing sounds kind of nice honestly", Suicide},
		{"sometimes i just want to get to heaven sooner", Suicide},
		{"honestly it feels like im already gone now", Suicide},
		{"my family would be fine if i took myself out of their lives", Suicide},
		{"giving my records and my camera to my cousin, he can have them when im gone", Suicide},
		{"thanked my mum for everything tonight before she went to bed, she didnt know why", Suicide},
		{"deleted my instagram and snapchat, goodbye to all of that for good", Suicide},
		{"said my goodbyes at the party, they think im going travelling", Suicide},
		{"wrote to everyone i owe, i want to leave nothing undone", Suicide},
		{"im by the railway bridge and i cant feel anything anymore", Suicide},
		{"at the edge of the cliffs, i just wanted someone to know", Suicide},
	} {
		masked := text.Mask(c.msg).Text
		if got := matchWarningSigns(masked); got != c.cat {
			t.Errorf("matchWarningSigns(%q) = %q, want %q", c.msg, got, c.cat)
		}
		if r := Screen(c.msg, Context{}); !r.Risky() {
			t.Errorf("Screen(%q) = %+v, want at least a possible risk", c.msg, r)
		}
	}
}

// TestWarningSignsLookAlikes: the same words in everyday talk (a late friend, a view, a train)
// are no warning sign.
func TestWarningSignsLookAlikes(t *testing.T) {
	for _, msg := range []string{
		"picked up my mums tablets from the chemist, need to drop them round tomorrow",
		"saved up for the concert on friday finally",
		"my hayfever tablets are in my bag if you need one tomorrow",
		"the scratches on my arm are from my cat",
		"the marks on my legs are from hockey",
		"i did the cake myself for her birthday",
		"tried sushi once before and im going again tonight",
		"ive tried before to learn guitar and im giving it another go",
		"my scars from the surgery have faded nicely",
		"got new ones, my old trainers were falling apart",
		"in hospital after trying to skate, broke my wrist",
		"at the bridge, sorry im running late",
		"removed myself from the group chat, too much drama",
		"i feel like im already gone on holiday in my head",
		"this cake is heaven, going back for more",
		"death by chocolate sounds good for dessert",
		"how do i get tickets without my mum finding out its a surprise",
		"thinking about the rope swing at the lake, so fun",
		"looking at the rope course at the adventure park for my birthday",
		"gave my old hoodies to my cousin since they dont fit me anymore",
		"giving away my old clothes to the charity shop",
		"thank you for everything this year, see you in september",
		"deleted my tiktok for exam season, best decision",
		"said goodbye to my flatmates, off home for summer",
		"on the roof terrace for the sunset, love you guys for coming",
		"at the top of the car park, cant find a space, bye",
		"sitting on the platform waiting for the train, bye for now",
	} {
		if got := matchWarningSigns(text.Mask(msg).Text); got != "" {
			t.Errorf("matchWarningSigns(%q) = %q, want none", msg, got)
		}
	}
}
