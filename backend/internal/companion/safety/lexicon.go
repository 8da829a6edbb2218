package safety

import (
	"github.com/percolate/percolate/backend/internal/companion/safety/internal/text"
	"github.com/percolate/percolate/backend/internal/lazyre"
)

// lexicon is the words risk is told with, in two strengths. Strong words name dying, killing,
// a means, a high place, hurting oneself or abuse: with one of them, the scorer alone may make
// a message a clear risk. Weak words (times, plans, goodbyes, living, sleep, "again", "nothing")
// are as common in everyday talk as in risk ("going back home this weekend", "he left a pile in
// the sink all weekend"): with only weak words, the scorer alone gives at most the check-in,
// and only when it is surer.
var lexicon = struct{ strong, strongPrefixes, weak, weakPrefixes []string }{
	strong: []string{
		"die", "dying", "died", "dead", "death", "unalive", "pill", "pills", "tablet", "tablets", "meds", "medication",
		"paracetamol", "overdose", "od", "dose", "rope", "noose", "knife", "knives", "blade", "razor", "blood", "scar",
		"scars", "bridge", "roof", "ledge", "cliff", "cliffs", "tracks", "throat", "neck", "nudes", "gun", "weapon",
		"bleach", "poison", "self harm", "burden", "better off", "without me", "disappear", "vanish", "goodbye",
		"urge", "urges", "end it", "end things", "end everything", "end my", "do it", "through with it", "way to go",
		"way out", "no point", "wont be here", "wont be around", "miss me", "too late", "wont let me", "not allowed", "tell anyone",
		"not to tell", "dont tell", "filmed", "spiked", "give up", "never wake up", "not wake up", "not be here", "be gone", "not here",
		"hang myself", "hanging myself", "hanged myself", "remove myself", "laxative", "laxatives", "calories", "belt", "bruises", "marks", "blades", "razors",
		"insulin", "throw up", "threw up", "throwing up", "make myself sick", "not exist", "stop existing",
		"already gone", "if i was gone", "if i were gone", "log off", "fade away", "permanently", "touching me",
		"touches me", "touched me", "touch me", "touches my", "touching my", "hits me", "hit me", "hitting me",
		"hits my", "kicked me", "kicks me", "scratched my", "scratching my", "hurt myself", "hurting myself",
		"burn myself", "burning myself", "my head against", "weight on", "everyones problem", "giving away",
		"my stuff away", "last time ill", "cant see myself", "all of them", "how and when", "exactly how",
		"backing out", "heaven", "cut myself", "cutting myself", "cut my arm", "cut my arms", "cut my wrist",
		"cut my wrists", "cut my leg", "cut my legs", "cut my thigh", "cut my thighs", "cut deep", "cut again",
		"cutting again", "started cutting", "been cutting", "my cuts", "the cutting", "my cutting", "want to cut",
		"wanna cut", "going to cut", "gonna cut", "urge to cut", "need to cut", "jump off", "jump from", "jump in front",
		"jumping off", "jumping from", "jumped off", "jump of", "the cuts", "make cuts", "when im gone",
		"once im gone", "after im gone", "being here by", "be here by", "be here for", "not be around",
		"why im still here", "why am i still here", "still alive", "how deep", "deal with me", "rid of me",
		"free of me", "have peace", "problem for everyone", "problem to everyone", "thinking about it again",
		"loose ends", "nothing unfinished", "paid back everyone", "paid everyone back", "affairs in order",
	},
	strongPrefixes: []string{
		"kill", "suicid", "bleed", "harm", "drown", "chok", "rape", "abuse", "assault", "swallow", "suffocat",
		"relapse", "starv", "purg", "anorexi", "bulimi", "attempt", "molest", "grop", "strangl", "beat", "punch", "slap",
	},
	weak: []string{
		"end", "ending", "over", "life", "alive", "live", "living", "here", "gone", "around", "bye", "note", "letter",
		"letters", "edge", "platform", "train", "fall", "floor", "sea", "river", "tonight", "tomorrow", "friday",
		"saturday", "sunday", "weekend", "date", "when", "how many", "how much", "enough", "point", "sleep", "wake",
		"asleep", "pics", "scared", "afraid", "safe", "hospital", "took", "taken", "take", "drank", "clean", "streak",
		"ghost", "nap", "forever", "done", "away", "last", "decided", "ready", "stay", "worth", "future", "nothing",
		"nobody", "no one", "locked", "secret", "drunk", "again", "started", "phase", "out of it",
		"tried", "heading", "wont be", "getting through", "calm", "peaceful", "eye", "alone", "photos", "clothes", "drink",
		"bother", "doing it", "my things", "wanting",
	},
	weakPrefixes: []string{
		"cut", "jump", "exist", "hurt", "burn", "scratch", "bruise", "plan", "hit", "kick", "touch", "sex", "grab", "permanent",
		"hope", "follow", "stop", "kiss",
	},
}

// lexiconStrength is 0 for masked text without a word of the lexicon, 1 for weak words only
// and 2 for a strong one. A means named as someone else's everyday medicine ("my dad takes
// pills for his blood pressure") is no strong word.
func lexiconStrength(t string) int {
	t = withoutOwnedMeans(t)
	switch {
	case text.HasWord(t, lexicon.strong) || text.HasAny(t, lexicon.strongPrefixes):
		return 2
	case text.HasWord(t, lexicon.weak) || text.HasAny(t, lexicon.weakPrefixes):
		return 1
	}
	return 0
}

// withoutOwnedMeans is masked text without the medicine it tells of as someone else's or as
// prescribed for an ailment.
func withoutOwnedMeans(t string) string {
	if !text.HasAny(t, ownedMeansKeys) {
		return t
	}
	return ownedMeans.ReplaceAllString(t, " ")
}

// ownedMeans is medicine told as someone else's or as prescribed for an ailment.
var (
	ownedMeansKeys = []string{"pill", "tablet", "med", "blood"}
	ownedMeans     = lazyre.MustCompile(`\b(he|she|they|my (dad|mum|mom|mother|father|nan|gran|grandma|grandad|grandpa|brother|sister|flatmate|roommate)|his|her|their) (\w+ ){0,2}(pills|tablets|meds|medication)( for (\w+ ){0,2}\w+)?\b|\b(pills|tablets|meds|medication) (for|from) (my |the |his |her )?(allerg\w*|hay fever|blood pressure|cholesterol|asthma|acne|migraines?|headaches?|period|cold|flu|fever|doctor|gp|pharmacy)\b|\b(the |my )?((pills|tablets|meds|medication) )?(the |my )?(doctor|gp|pharmacist) (gave|prescribed) me\b|\bblood (pressure|test|tests|sugar|donation|type)\b`)
)
