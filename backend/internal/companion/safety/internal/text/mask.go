package text

import (
	"strings"

	"github.com/percolate/percolate/backend/internal/lazyre"
)

// sentenceEnd splits a message into sentences, at sentence ends and line breaks.
var (
	firstPersonWords = []string{"i", "im", "ive", "id", "ill", "me", "my", "myself", "mine"}
	pastTense        = lazyre.MustCompile(`\b(i was|i used to|i had|i did|i tried|back then|i went through)\b`)
)

var sentenceEnd = lazyre.MustCompile(`[.!?;\n]+`)

// Masked is a message after the false-alarm layer.
type Masked struct {
	Text      string   // the whole message, normalised and masked
	Sentences []string // each sentence, normalised and masked, without the empty ones
	Idiom     bool     // an idiom was removed
	// AfterDenial is what follows a denied risk ("im not suicidal but i think about it every
	// day"): the first clause kept after a clause removed as a denial, normalised, or "".
	AfterDenial string
}

// Mask is the false-alarm layer: it normalises the message and removes what cannot show a
// present risk, so that neither the rules nor the scorer see it: look-alike idioms and
// hyperbole ("this exam is killing me"), clauses that deny a risk ("im not suicidal"), bare
// mentions of the topic (an essay on suicide), and clauses that tell a recovery in the past
// tense ("i used to self harm, 2 years clean"). Clauses end at punctuation and before "but",
// "just" and laughter.
func Mask(s string) Masked {
	var m Masked
	var all []string
	s = bangInWord(s)
	whole := Normalize(s)
	// A message about the topic (an assignment on self-harm) drops the clauses that speak of
	// nobody in the first person; a message that tells a recovery, with no sign of the risk
	// now, drops its clauses in the past tense.
	topical := HasAny(whole, topicWords) && topic.MatchString(whole)
	recovery := HasAny(whole, recoveredKeys) && recovered.MatchString(whole) && !presentNow(whole)
	denied := false
	for _, sentence := range sentenceEnd.Split(s, -1) {
		var kept []string
		pieces := clauseEnd.Split(sentence, -1)
		norm := make([]string, len(pieces))
		for j, piece := range pieces {
			norm[j] = Normalize(piece)
		}
		for j, t := range norm {
			if j+1 < len(norm) && deniedBy(t, norm[j+1]) {
				denied = true
				continue
			}
			if HasAny(t, idiomWords) {
				for _, re := range Idioms {
					if u := re.ReplaceAllString(t, " "); u != t {
						t, m.Idiom = u, true
					}
				}
			}
			cs := splitClauses(t)
			for i, c := range cs {
				switch {
				case i+1 < len(cs) && deniedBy(c, cs[i+1]), FalseAlarm(c):
					denied = denied || i+1 < len(cs) && deniedBy(c, cs[i+1]) || Denial(c)
				// A clause that starts with "now" goes on about the person who spoke before it.
				case topical && !HasWord(c, firstPersonWords) && !strings.HasPrefix(strings.TrimSpace(c), "now "), recovery && pastTense.MatchString(c) && !harmDoneToMe.MatchString(c):
				default:
					if denied && m.AfterDenial == "" {
						m.AfterDenial = " " + strings.TrimSpace(c) + " "
					}
					kept = append(kept, strings.TrimSpace(c))
				}
			}
		}
		if t := strings.Join(strings.Fields(strings.Join(kept, " ")), " "); t != "" {
			m.Sentences = append(m.Sentences, " "+t+" ")
			all = append(all, t)
		}
	}
	m.Text = " " + strings.Join(all, " ") + " "
	return m
}

// deniedBy reports whether clause c is denied by the clause after it ("... im suicidal, but im
// not"): only a clause naming a risk, and not one saying it was past ("i thought i was past
// the cutting phase, but im not").
func deniedBy(c, next string) bool {
	return strings.Contains(next, " not") && denyAfter.MatchString(next) && deniable.MatchString(c) && !stillAt.MatchString(c)
}

// idiomWords are the words every idiom holds; a clause without any needs no idiom checked.
var idiomWords = []string{"kill", "die", "died", "dying", "dead", "death", "murder", "ended", "end", "nicked", "scratched", "hit", "beat", "cut", "hurt", "burn", "shoot",
	"smashed", "crushed"}

var clauseEnd = lazyre.MustCompile(`[.,!?;:\n]+`)

// splitClauses splits normalised text before the words that usually start a new clause.
func splitClauses(t string) []string {
	idx := clauseStart.FindAllStringIndex(t, -1)
	var out []string
	last := 0
	for _, m := range idx {
		if m[0] > last {
			out = append(out, t[last:m[0]+1])
		}
		last = m[0]
	}
	return append(out, t[last:])
}

var clauseStart = lazyre.MustCompile(` (but|just|im just|i just|lol|lmao|haha|tho|though|now|anyway|instead) `)

// FalseAlarm reports whether a normalised clause denies a risk or tells of one overcome,
// without any sign that it is present again.
func FalseAlarm(c string) bool {
	if len(c) < 6 {
		return false
	}
	if Denial(c) {
		return true
	}
	if harmDoneToMe.MatchString(c) {
		return false
	}
	if !(HasAny(c, recoveredKeys) && recovered.MatchString(c) || HasAny(c, topicWords) && topic.MatchString(c) && !firstPerson.MatchString(c)) {
		return false
	}
	return !presentNow(c) && !hedged.MatchString(c)
}

// presentNow reports whether normalised text says a risk is here again or still: a word of
// the present outside a relapse long past, or an act told as recent.
func presentNow(t string) bool {
	if strings.Contains(t, "relapse was") {
		t = pastRelapse.ReplaceAllString(t, " ")
	}
	return HasAny(t, present) || recentAct.MatchString(t)
}

// Denial reports whether a normalised clause denies a risk ("im not suicidal", "no urges to hurt
// myself"). A word of the present inside the denial is denied with it ("im not cutting again").
func Denial(c string) bool {
	if len(c) < 6 || !HasAny(c, negators) || !negated.MatchString(c) && !deniedInClause.MatchString(c) || hedged.MatchString(c) {
		return false
	}
	if strings.Contains(c, "again") {
		c = notDenial.ReplaceAllString(c, " ")
	}
	return !HasAny(c, present)
}

// harmDoneToMe is a sexual assault told as done to the speaker ("he forced me when i was 14"):
// a disclosure to answer, not a recovery to set aside, however long ago.
var harmDoneToMe = lazyre.MustCompile(`\b(forced|raped|molested|groped|groomed) me\b|\bdid (things|stuff) to me\b|\bi was (raped|molested|sexually assaulted|groomed)\b`)

// recentAct is an act of harm told as recent ("i cut yesterday"): a recovery around it is over.
var recentAct = lazyre.MustCompile(`\b(cut|cutting|relapsed|did it|hurt myself|harmed|burned|burnt|scratched|took them|overdosed)( \w+){0,2} (yesterday|last night|this morning|earlier|tonight|today|this week)\b`)

// pastRelapse is a relapse told as long past ("my last relapse was months ago"), taken out
// before looking for a word of the present.
var pastRelapse = lazyre.MustCompile(`\b(my |the )?(last |first |only )?relapse was (\w+ ){0,3}(ago|before)\b`)

// notDenial is the denial itself, taken out before looking for a word of the present outside it.
var notDenial = lazyre.MustCompile(`\b(not|never|no) (\w+ ){0,2}(cutting|hurting myself|self harming|harming myself) again\b`)

// hedged is a negation that does not deny the risk but doubts or shrugs at living ("i dont care
// if i die", "im not sure i want to be here", "i dont think i can keep myself safe", "i dont
// plan on being here"): it is left
// for the rules and the scorer to read.
var hedged = lazyre.MustCompile(`\b(dont|do not|not) plan(ning)? (on|to) (be|being|stay|staying|live|living|wake|waking|make it|making it|last|lasting)\b|\b(dont|do not|not|never|wouldnt|cant|no longer) (\w+ )?(care|caring|know|sure|mind|matter|think i can|think i could|see|feel like|want to live|want to be alive|want to be here|want to exist|keep myself|stop myself|trust myself|promise|able|strong enough|bothered)\b|\b(not|never) (safe|ok|okay|fine) (anymore|right now|tonight|rn)\b`)

// deniedInClause is a risk named and denied in the same clause ("my therapist asked if i was
// suicidal and im honestly not").
var deniedInClause = lazyre.MustCompile(`\b(suicidal|suicide|self harm\w*|hurt myself|kill myself|cutting)\b.* (and|but) (im|i am|i m) (honestly |really |just |actually |definitely )?not( really| at all| anymore)? $`)

// stillAt is a clause whose denial means the risk goes on ("i thought i was past the cutting
// phase, but im not").
var stillAt = lazyre.MustCompile(`\b(past|over|done with|better|stopped|free|clean|recovered)\b`)

// deniable is a clause naming a risk that a following "but im not" can deny.
var deniable = lazyre.MustCompile(`\b(suicid\w*|kill|killing|die|dying|dead|hurt|hurting|harm|harming|self harm\w*|cutting|danger|dangerous|unalive)\b`)

// denyAfter is a clause that denies the one before it ("... im suicidal, but im not").
var denyAfter = lazyre.MustCompile(`^ (but )?(im|i am|i m) not( really| at all)? $|^ (but )?(i dont|i wont|i wouldnt|i would never|not really|im not though|i dont though)( \w+)? $`)

// present holds the words that say a risk is here again or still ("relapsed", "again").
var present = []string{"again", "relaps", "reset", "lost", "broke", "started", "starting", "back to", "still", "right now", "rn",
	"tonight", "today i ", "these days", "lately", "streak", "messed", "slipped", "slip up", "caved", "gave in", "new ones", "fresh"}

// negators, recoveredKeys and topicWords are the keys of negated, recovered and topic (see
// HasAny).
var (
	recoveredKeys = []string{"used to", "ago", "looking back", "back then", "years since", "back when", "when i was", "in the past",
		"clean", "free", "recover", "survived", "how far", "last time i", "proud", "got help", "reached out", "therapy", "counsel", "saved", "wasnt true",
		"so wrong", "glad i", "grateful", "since"}
	negators   = []string{"not", "never", "dont", "do not", "wont", "wouldnt", "no", "zero", "isnt", "arent", "am not", "havent", "hasnt", "nothing"}
	topicWords = []string{"essay", "assignment", "coursework", "dissertation", "assembly", "documentary", "film", "movie", "book", "novel",
		"article", "podcast", "news", "charity", "fundraiser", "awareness", "prevention", "lesson", "lecture", "module", "theory", "rates",
		"session", "training", "speaker", "poster", "presentation", "project", "song", "album", "episode", "series", "show", "character",
		"research", "studying", "course", "helpline", "volunteer", "nursing", "psychology", "sociology", "criminology", "campaign", "class",
		"epq", "pshe", "play", "poem", "story", "author", "scene", "soundtrack"}
)

var (
	negated     = lazyre.MustCompile(`\b(not|never|dont|do not|wont|wouldnt|would never|no|zero|isnt|arent|am not|havent|hasnt|nothing)( \w+){0,3} (suicidal|suicide|kill|killing|die|dying|dead|hurt|hurting|harm|harming|self harm\w*|cutting|end|ending|unalive|od|overdose|danger|dangerous|plans?|planning|disappear|dark|do anything|going to do|those thoughts|wrong at home)\b|\b(not|never|no|zero) (having |got |had |have )?(any |the )?(urges?|intentions?|thoughts|plans?|desire|wish) (of|to|about)\b`)
	recovered   = lazyre.MustCompile(`\b(used to|(\w+ )?(months?|years?) ago|how far ive come|last time i (\w+ ){1,3}was (before|in year|in primary|when i was|(\w+ )?(months?|years?) ago)|looking back|back then|\w+ years since|back when i|when i was (younger|little|a kid|\d+)|in the past|clean|free|recovered|recovery|survived|proud|got help|reached out|therapy|counsellor|counselor|saved me|saved my life|wasnt true|so wrong|glad i|grateful|since (my|the) (\w+ ){0,2}(attempt|relapse|overdose)|(\d+|one|two|three|four|five|six|a) (days?|weeks?|months?|years?) (clean|free|sober))\b`)
	topic       = lazyre.MustCompile(`\b(essay|assignment|coursework|dissertation|assembly|documentary|film|movie|book|novel|article|podcast|news|charity|fundraiser|awareness|prevention|lesson|lecture|module|theory|rates|session|training|speaker|poster|presentation|project|song|album|episode|series|character|research|studying|course|helpline|volunteer\w*|nursing|psychology|sociology|criminology|campaign|class|epq|pshe|poem|story|author|scene|soundtrack)\b|\b(the|a|this|that|tv|school|netflix) (show|play)\b`)
	firstPerson = lazyre.MustCompile(`\b(i want|i wanna|im going to|im gonna|myself|my life|i feel|im feeling|ive been|i keep|i think about|i cant|i dont want|makes me want)\b`)
)

// HasAny reports whether normalised text t holds any of the keys at the start of a word
// ("cut" is in "i was cutting", not in "haircut").
func HasAny(t string, keys []string) bool {
	for _, k := range keys {
		for i := strings.Index(t, k); i >= 0; {
			if i == 0 || t[i-1] == ' ' {
				return true
			}
			j := strings.Index(t[i+1:], k)
			if j < 0 {
				break
			}
			i += 1 + j
		}
	}
	return false
}

// HasWord reports whether normalised text t holds any of the words as a whole word: " "+w+" "
// within " "+TrimSpace(t)+" ". It looks for each word itself, with a space (or an end of the
// trimmed text) on both sides, rather than building " "+w+" " for each of a list of hundreds.
func HasWord(t string, words []string) bool {
	t = strings.TrimSpace(t)
	for _, w := range words {
		if hasWord(t, w) {
			return true
		}
	}
	return false
}

// hasWord reports whether " "+w+" " is in " "+t+" ".
func hasWord(t, w string) bool {
	if w == "" {
		return t == "" || strings.Contains(t, "  ")
	}
	for from := 0; from+len(w) <= len(t); {
		i := strings.Index(t[from:], w)
		if i < 0 {
			return false
		}
		i += from
		if end := i + len(w); (i == 0 || t[i-1] == ' ') && (end == len(t) || t[end] == ' ') {
			return true
		}
		from = i + 1
	}
	return false
}

// Idioms are harmless look-alike idioms and hyperbole, removed before any other layer reads
// the text.
var Idioms = []*lazyre.Regexp{
	rx(`\b(is|are|was|were|its|it|thats|this|that|these|those|heat|work|homework|class|job|exam|exams|test|commute|traffic|waiting|suspense|shoes|back|feet|ranked|lecture|essay|week|finale|weather) (is |are |was |were |literally |actually )*(killing|killed|gonna kill|going to kill|will kill|ended|murdering) (me|my)\b`),
	rx(`\b(kill|die|dying|murder) for (a|an|some|one|the) \w+\b`),
	rx(`\b(could|would|will|gonna|going to|id)( literally)? (kill|die|murder) for\b`),
	rx(`\b(could|would|will|gonna|going to) murder (a|an|some) \w+\b`),
	rx(`\bdying (to|of|from) (see|try|know|meet|go|hear|laugh\w*|embarrassment|boredom|curiosity|cringe)\b`),
	rx(`\b(die|died) (of|from) (secondhand |second hand )?(cringe|embarrassment|boredom|old age|laughter|laughing|curiosity|suspense)\b`),
	rx(`\b(dead|deadly|deadass) (tired|serious|boring|bored|sure|wrong|quiet|on|end|the best|inside)\b|\bdead inside\b`),
	rx(`\bdied (laughing|of laughter|of embarrassment|a little inside)\b|\bi (literally )?died\b`),
	rx(`\b(killed|kill|killing|smashed|crushed) (it|that) (at|in|today|on)\b`),
	rx(`\bkill(ing)? (time|the lights|the music|the vibe|my vibe|a process|the engine)\b`),
	rx(`\b(hit|hits) me (up|back|later)\b|\b(it|that|reality|the news) (finally |just |really )?hit me\b`),
	rx(`\bbeat me (at|in|to)\b`),
	rx(`\bcut (my|her|his) (hair|nails|losses|fringe|bangs)\b|\bcut(ting)? (class|classes|carbs|sugar|vegetables|onions|paper)\b`),
	rx(`\b(hurt|hurting|burned|burnt|cut) my (ankle|knee|back|wrist|finger|hand|foot|leg|arm|shoulder) (playing|at|during|while|when|on|in)\b`),
	rx(`\bi (hurt|burnt|burned|cut) myself (playing|cooking|shaving|at|during|while|when|on|in)\b`),
	rx(`\b(phone|battery|laptop|plants?|car|computer|conversation) (is |was |just |is about to |about to )?(dead|died|die)\b`),
	rx(`\b(is|are|s|will|gonna|going to|would) (going to |gonna )?(kill|murder) me (when|if|for|because|cos|lol|after)\b`),
	rx(`\b(will|would|is going to|going to|gonna) be the (death|end) of me\b|\b(id|i would) rather die than\b`),
	rx(`\b(gonna|going to|will|ill) (literally |actually )?die if i (dont get|dont see|miss|cant get|cant go|dont win|have to (present|sit|do|read|write|watch|listen|explain|redo|hear))\b`),
	rx(`\b(ugh|just|pls|please|somebody|someone) shoot me\b|\bshoot me now\b`),
	rx(`\bim so dead if\b|\bim dead lol\b`),
	// An exclamation of "kms" or "kys" laughed off or called a joke at once ("kms lol the bus
	// left without me"): dark humour about a mishap, not a wish ("i want to kms lol" is kept).
	rx(`^ (ugh |omg |bruh |honestly |literally |actually )*kill (myself|yourself) (lol|lmao|lmfao|haha\w*|jk|joke|jokes|joking|xd)\b`),
	// Ending a relationship: "we decided to end it", "ending things with my boyfriend".
	rx(`\b(end|ending|ended|ends) (it|things) (with (him|her|them|my (boyfriend|girlfriend|bf|gf|partner|ex|husband|wife|fiance\w*))|mutually)\b|\bwe (\w+ ){0,2}(end|ended|ending) (it|things)\b`),
	// A kitchen or tool accident told as one ("cut myself a bit washing up", "cut my finger
	// chopping onions").
	rx(`\b(cut|burnt|burned|nicked|scratched) (myself|my (finger|thumb|hand)) (a bit |a little |slightly |badly |by accident |accidentally )?(washing|cooking|chopping|slicing|peeling|opening|shaving|cleaning|making|on (a|the|some) (knife|tin|can|glass|oven|pan|paper))\b`),
}

func rx(s string) *lazyre.Regexp { return lazyre.MustCompile(s) }
