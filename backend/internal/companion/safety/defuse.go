package safety

import (
	"strings"

	"github.com/percolate/percolate/backend/internal/companion/safety/internal/text"
	"github.com/percolate/percolate/backend/internal/lazyre"
)

// The defusing layer: the crisis reply is the heaviest answer the screen gives, and on
// ordinary talk it is the worst false alarm ("i'd jump off a bridge before i present first
// lol"). A strong phrase of suicide or self-harm that the same message laughs off or takes back
// ("lol", "jk", "😂", "(joking)", "not really"), tells as a film's, a game's or a story's, puts
// in a comparison ("i'd … before i …") or an impossible place ("into the sun"), says as an
// exclamation before a mishap ("kms i left my card at home"), or tells as an accident ("cut
// myself chopping onions, so much blood") gets at most the check-in: it stays flagged, and the
// check-in asks. It never lowers a message that also tells of an attempt under way, the means in
// hand, or an explicit plan or intent ("i took all my pills lol", "gonna kms tonight lol"), one
// that insists it is no joke ("not even joking", "fr"), abuse, sexual assault, a child at risk,
// danger from someone else or eating-disorder danger, nor an answer that confirms a risk after
// a check-in (the context rule). Written from our own examples (defuse_test.go), not from any
// evaluation set.

// defuse reports whether a result that would get the crisis reply should get the check-in
// instead; raw is the message as typed, masked its text after the false-alarm layer.
func defuse(raw, masked string, r Result) bool {
	switch r.Category {
	case Suicide, SelfHarm, Attempt:
	default:
		return false
	}
	norm := text.Normalize(raw)
	if insisted.MatchString(norm) || keepsCrisis(masked) || keepsCrisis(norm) {
		return false
	}
	accident := text.HasAny(norm, accidentFrameKeys) && accidentWords.MatchString(norm) && !onPurpose.MatchString(norm)
	if r.Category == Attempt {
		// Only a wound told as an accident is lowered: an overdose, a place or a rope is an
		// attempt under way whatever else the message says, and was kept above.
		return accident && woundOnly(masked)
	}
	if accident || framedAsFiction.MatchString(norm) || figurative.MatchString(norm) || interjection(masked) {
		return true
	}
	// Only a phrase of suicide has a figurative use for a laugh to undo: self-harm ("i cut myself
	// again lol", "lost my self harm free streak lol") and an attempt told ("i tried to kill
	// myself last year lol") are disclosures however they are told.
	return r.Category == Suicide && !disclosed.MatchString(masked) && laughedOff(raw)
}

// keepsCrisis reports whether normalised text tells of an attempt under way, the means in hand,
// or an explicit plan or intent: those keep the crisis reply however they are told.
func keepsCrisis(t string) bool {
	for _, p := range attemptPatterns {
		if text.HasAny(t, p.keys) && p.re.MatchString(t) && !pastWords.MatchString(t) {
			return true
		}
	}
	if text.HasAny(t, overdoseKeys) && overdoseNow.MatchString(t) {
		return true
	}
	return meansInHand.MatchString(t) || explicitPlan.MatchString(t) || intentWithTime.MatchString(t)
}

// woundOnly reports whether the only attempt the masked text tells of is bleeding ("so much
// blood", "wont stop bleeding"), which an accident explains.
func woundOnly(t string) bool {
	rest := wound.ReplaceAllString(t, " ")
	return matchRules(rest) != Attempt && refine(Suicide, rest) != Attempt
}

// laughedOff reports whether the message laughs off or takes back its strong phrase: in a short
// message a marker anywhere; in a long one, a marker in every sentence that holds a strong
// phrase, or as the sentence just after it.
func laughedOff(raw string) bool {
	sentences := sentenceBreak.Split(raw, -1)
	var norm []string
	for _, s := range sentences {
		if n := text.Normalize(s); strings.TrimSpace(n) != "" {
			norm = append(norm, n)
		}
	}
	if len(strings.Fields(text.Normalize(raw))) < longWords {
		return text.HasAny(text.Normalize(raw), markerKeys) && laughMarker.MatchString(text.Normalize(raw))
	}
	risky := 0
	for i, s := range norm {
		m := text.Mask(s).Text
		if matchRules(m) == "" && lexiconStrength(m) < 2 {
			continue
		}
		risky++
		marked := laughMarker.MatchString(s) || i+1 < len(norm) && len(strings.Fields(norm[i+1])) <= 3 && laughMarker.MatchString(norm[i+1])
		if !marked {
			return false
		}
	}
	return risky > 0
}

// interjection reports whether "kms" or "kys" (normalised to "kill myself") opens the message as
// an exclamation before an ordinary mishap, with nothing else of risk after it.
func interjection(masked string) bool {
	loc := interjectionStart.FindStringIndex(masked)
	if loc == nil {
		return false
	}
	rest := " " + masked[loc[1]:]
	return matchRules(rest) == "" && lexiconStrength(rest) < 2 && !matchesAny(possible, rest) && matchWarningSigns(rest) == ""
}

var (
	sentenceBreak = lazyre.MustCompile(`[.!?\n]+`)
	markerKeys    = []string{"lol", "lmao", "lmfao", "haha", "hehe", "jk", "kid", "jok", "xd", "not really", "fine", "rofl"}
	// laughMarker is laughter ("😂" is normalised to "lol") or taking a phrase back.
	laughMarker = rx(`\b(lol\w*|lmao\w*|lmfao|rofl|ha(ha)+h?|he(he)+|xd|jk|jkjk|just (kidding|joking)|(im |i was |only )?(joking|kidding)|jokes|not really|im (fine|ok|okay|good) (tho|though|really|lol|dw)|its fine now)\b`)
	disclosed   = rx(`\bself ?harm\w*\b|\brelaps\w*\b|\b(cut|cutting|burned|burnt|hurt|hurting|harmed|harming) myself\b|\b(clean|free) streak\b|\bdays? clean\b|\b(tried|try|trying|attempted|attempt) (to )?(kill myself|end (it|my life|things)|die|take my (own )?life|suicide)\b|\bsuicide attempt\b`)
	// insisted says the phrase is meant: no joke.
	insisted = rx(`\b((half|kinda|kind of|sort of|partly|only half) (joking|kidding)|(jk|joking|kidding|jokes|lol|lmao)\b.{0,12}\bunless|(joking|kidding|jk) but|not (even |being )?(joking|kidding)|no (joke|jokes|cap)|(im|i am) (serious|being serious|not joking)|i mean it|fr|for real|deadass|this time)\b`)
	// meansInHand and the plans keep the crisis reply (see keepsCrisis).
	meansInHand  = rx(`\b(pills|tablets|meds|rope|noose|blade|razor|knife|gun)\b.{0,30}\b(next to me|in front of me|in my (hand|hands|pocket|bag|lap)|on my (lap|desk|bed)|with me|ready|lined up|counted|stashed)\b|\b(i have|ive got|i got|bought|collected|saved up|stashed|hid) (the |some |enough |a )?(pills|tablets|rope|noose|blade|razor|gun)\b`)
	explicitPlan = rx(`\b(i have a plan|ive (got|made) a plan|my plan is|planned (it|how|when|out)|planning (to|how|when|it)|decided (to|how|when)|made up my mind|set a date|picked (a|the) (date|day|time|place|spot)|(wrote|written|writing) (my|a|the) (note|letter|goodbye)|goodbye (note|letter)s?|said (my )?goodbyes?)\b`)
	// intentWithTime is an intent with a time: "gonna kms tonight lol".
	intentWithTime    = rx(`\b(going to|gonna|will|ill|about to|ready to|finna|want to|wanna)\b[^.!?]{0,40}\b(tonight|tomorrow|today|this (weekend|week|evening|morning|afternoon)|right now|rn|later|after (everyone|they|my|the others)|when (everyone|they|my \w+) (is|are|go|goes|leave|leaves|falls?)|on (monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b`)
	wound             = rx(`\b(so much|a lot of|loads of) blood\b|\b(wont|cant|will not|doesnt) stop bleeding\b|\bbleeding (a lot|heavily|so much)\b|\bsoaked( through)?\b`)
	accidentFrameKeys = []string{"accident", "chopping", "slicing", "cooking", "shaving", "paper cut", "slipped", "tripped", "fell", "bike", "knife slipped", "onion", "veg", "bread", "tin", "can opener", "glass", "nosebleed", "nose bleed", "football", "rugby", "hockey", "training", "dog", "cat", "kitchen", "stitches from"}
	accidentWords     = rx(`\b(accidentally|by accident|(it|that) was an accident|chopping|slicing|cooking|shaving|paper cut|(knife|blade|it) slipped|slipped|tripped|fell (off|over|down)|(off|on) my bike|cutting (the |some )?(onions?|veg\w*|bread|carrots?|tomatoes?|potatoes?|cheese|meat|chicken|avocado)|opening (a |the )?(tin|can|jar|box|parcel)|can opener|broken glass|glass (broke|smashed)|nose ?bleed|(at|in) (football|rugby|hockey|training|practice)|(dog|cat) (bit|scratched)|in the kitchen)\b`)
	onPurpose         = rx(`\b(on purpose|deliberately|meant to|wanted to|(not|isnt|wasnt|arent|werent)( from)? an accident|like an accident|accidentally on purpose)\b`)
	// framedAsFiction tells the phrase as a film's, a game's, a book's or a character's.
	framedAsFiction = rx(`\b(in|on) (the|this|that|my|a|an) (film|movie|show|series|episode|book|novel|story|game|fanfic|play|anime|manga|song|musical|sims|dnd|campaign|essay|script)\b|\bmy (character|oc|sim|avatar|rogue|wizard|warlock)\b|\b(the|this|that) (character|protagonist|villain|narrator|main character)\b|\b(when|if) (you|i) (die|get killed|lose) in (the |this )?game\b`)
	// figurative are comparisons and impossible places: "i'd jump off a bridge before i present
	// first", "shoot myself into the sun".
	figurative = rx(`\b(id|i would|i will|ill)( rather| literally| actually| honestly)? [^.!?]{0,40}\b(before|than) (i|id|going|doing|having|talking|presenting|sitting|eating|wearing|watching)\b|\binto (the sun|space|orbit|another dimension|the stratosphere)\b`)
	// interjectionStart is "kms" or "kys" opening a message, then a new clause.
	interjectionStart = rx(`^ (ugh |omg |bruh |honestly |literally |actually |bro )*kill (myself|yourself) (i|im|my|we|the|they|he|she|someone|this|that|why|how|when|so|and|bc|because|cos|our|its|just)\b`)
)
