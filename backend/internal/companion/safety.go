package companion

import (
	"regexp"
	"strings"
	"unicode"
)

// Risk is a kind of risk a message can show.
type Risk string

// The risks the screen looks for.
const (
	RiskNone     Risk = ""
	RiskSuicide  Risk = "suicide"
	RiskSelfHarm Risk = "self_harm"
	RiskAbuse    Risk = "abuse"
	RiskDanger   Risk = "danger"
)

// Screen looks for risk of suicide, self-harm, abuse or immediate danger in a message,
// independently of any model, so it works when the model is down. It normalises the text
// (case, apostrophes, look-alike digits, common misspellings), removes known harmless idioms
// ("this exam is killing me", "dead tired", "I could kill for a coffee") and matches risk
// phrasings anywhere in the text. It errs on the side of caution.
func Screen(text string) Risk {
	t := normalize(text)
	for _, re := range harmless {
		t = re.ReplaceAllString(t, " ")
	}
	for _, p := range riskPatterns {
		if p.re.MatchString(t) {
			return p.risk
		}
	}
	return RiskNone
}

type riskPattern struct {
	risk Risk
	re   *regexp.Regexp
}

func rx(s string) *regexp.Regexp { return regexp.MustCompile(s) }

// Patterns run on normalised text: lower case, no apostrophes, words separated by single
// spaces, canonical spellings (see canon).
var riskPatterns = []riskPattern{
	// Suicide.
	{RiskSuicide, rx(`\b(suicide|suicidal|unaliv\w*|kms|kys)\b`)},
	{RiskSuicide, rx(`\b(kill|killing|killed|end|ending|ended|take|taking|took)( my| me)? (myself|my own life|my life|me off)\b`)},
	{RiskSuicide, rx(`\b(want|wanna|wanted|wish|wishing|going|gonna|ready|plan|planning|trying|try|tried|decided) (to )?(die|be dead|not be alive|not exist|disappear forever|end it all|end it|end everything|end things|kill myself)\b`)},
	{RiskSuicide, rx(`\bend (it|things|everything) (all|tonight|today|now|for good|forever)\b`)},
	{RiskSuicide, rx(`\b(dont|do not|never) want to (be alive|live|exist|wake up|be here anymore|be around anymore|go on)\b`)},
	{RiskSuicide, rx(`\b(no|dont see (a|the|any)|cant see (a|the|any)|lost (the|my)) (reason|point) (to|in|of) (live|living|life|going on|being alive|carrying on)\b`)},
	{RiskSuicide, rx(`\bbetter off (without me|dead|if i (was|were|am) (gone|dead|not here|not around)|if i wasnt (here|around|alive)|if i didnt exist)\b`)},
	{RiskSuicide, rx(`\bwish (i|id) (was|were|had been|could be|be)? ?(dead|never born|gone forever|not alive|not here anymore)\b`)},
	{RiskSuicide, rx(`\bwish i (wasnt|werent|hadnt been) (alive|born|here anymore)\b`)},
	{RiskSuicide, rx(`\b(go to sleep|fall asleep|sleep) and (never|not) wake up\b`)},
	{RiskSuicide, rx(`\b(hang|hanging|shoot|shooting|drown|drowning|poison|poisoning) myself\b`)},
	{RiskSuicide, rx(`\b(jump|jumping|throw myself) (off|from|in front of) (a|the|my) (bridge|roof|building|cliff|train|balcony|car|bus)\b`)},
	{RiskSuicide, rx(`\b(overdose|overdosing|overdosed)\b|\bod(ing|d)? on\b`)},
	{RiskSuicide, rx(`\b(take|taking|took|swallow|swallowing|swallowed) (all|every one|a whole bottle|the whole bottle|a bottle) (of )?(my |the |those |these )?(pills|tablets|meds|medication|sleeping pills|painkillers)\b`)},
	{RiskSuicide, rx(`\b(suicide|goodbye) (note|letter)s?\b|\bwrit(e|ing|ten) (my|a) (goodbye|farewell) (note|letter)`)},
	{RiskSuicide, rx(`\bgiv(e|ing) away (all )?my (stuff|things|belongings|possessions)\b`)},
	{RiskSuicide, rx(`\b(life is|lifes) not worth living\b|\bnot worth living\b`)},
	// Self-harm.
	{RiskSelfHarm, rx(`\bself ?harm\w*\b|\bself (injury|injure|injuring|mutilat\w*)\b`)},
	{RiskSelfHarm, rx(`\b(hurt|hurting|harm|harming|cut|cutting|burn|burning|punish|punishing|starve|starving|scratch|scratching) (myself|my (arms?|wrists?|legs?|thighs?|skin|body))\b`)},
	{RiskSelfHarm, rx(`\b(slit|slitting|slash|slashing) (my )?(wrists?|arms?|throat)\b`)},
	{RiskSelfHarm, rx(`\b(started|start|been|keep|kept) cutting again\b|\bcutting again\b|\brelapsed? (on|into) (cutting|self harm)\b`)},
	// Abuse.
	{RiskAbuse, rx(`\b(abused|abusing me|abuses me|abusive (to me|parent|father|mother|dad|mom|mum|partner|boyfriend|girlfriend|husband|wife|relationship|home))\b|\babuse (at home|me)\b`)},
	{RiskAbuse, rx(`\b(raped|rape me|raping|molested|molesting|molests|sexually assaulted|sexual abuse|groped|grooming me)\b`)},
	{RiskAbuse, rx(`\b(he|she|they|dad|father|mom|mum|mother|stepdad|stepmom|parents?|boyfriend|girlfriend|husband|wife|partner|uncle|aunt|brother|sister|coach|teacher) (keeps |always |often |sometimes |still |has been |have been |would |used to )?(hits?|hitting|beats?|beating|punch(es)?|punching|kicks?|kicking|chokes?|choking|slaps?|slapping|strangles?|hurts?|hurting|touch(es)?|touching) me\b`)},
	{RiskAbuse, rx(`\b(hit|beat|choked|slapped|kicked|punched|strangled|burned) me (again|until|so hard|with)\b`)},
	{RiskAbuse, rx(`\btouch(es|ed|ing)? me (where|when|in ways|inappropriately|down there)\b|\bmakes? me (do|send) (things|stuff|pictures|photos|nudes)\b`)},
	{RiskAbuse, rx(`\b(not|dont feel|never feel) safe (at home|in my home|in my house|around (him|her|them|my \w+))\b|\bafraid to go home\b|\bscared to go home\b`)},
	// Immediate danger.
	{RiskDanger, rx(`\b(someone|somebody|a man|a guy|a woman|a stranger|he|she|they) (is |are )?(following|stalking|chasing) me\b`)},
	{RiskDanger, rx(`\bthreaten(s|ed|ing)? to (kill|hurt|shoot|stab|beat) (me|us|my)\b`)},
	{RiskDanger, rx(`\b(going to|gonna|wants to|will|tried to|trying to|is coming to|said he would|said she would|said they would) (kill|hurt|shoot|stab|beat) me\b`)},
	{RiskDanger, rx(`\b(has|have|got|pulled|holding|pointing) (a|his|her|their) (gun|knife|weapon)\b`)},
	{RiskDanger, rx(`\b(im|i am) (in danger|not safe|being held)\b|\b(scared|afraid|fear) for my life\b|\blocked me in\b|\bwont let me leave\b`)},
}

// Harmless idioms removed before matching, so that they never trigger the screen.
var harmless = []*regexp.Regexp{
	rx(`\b(is|are|was|were|its|it|thats|this|that|these|those|heat|work|homework|class|job|exam|exams|test|commute|traffic|waiting|suspense|shoes|back|feet) (is |are |was |were )?(killing|killed|gonna kill|going to kill|will kill) me\b`),
	rx(`\b(kill|die|dying) for (a|an|some|one|the) \w+\b`),
	rx(`\b(could|would|will|gonna|going to)( literally)? (kill|die) for\b`),
	rx(`\bdying (to|of|from) (see|try|know|meet|go|hear|laugh\w*|embarrassment|boredom|curiosity|cringe)\b`),
	rx(`\b(dead|deadly) (tired|serious|boring|bored|sure|wrong|quiet|on|end)\b`),
	rx(`\bdied (laughing|of laughter|of embarrassment|a little inside)\b|\bi (literally )?died\b`),
	rx(`\b(killed|kill|killing|smashed|crushed) (it|that) (at|in|today|on)\b`),
	rx(`\bkill(ing)? (time|the lights|the music|the vibe|a process|the engine)\b`),
	rx(`\b(hit|hits) me (up|back|later)\b|\b(it|that|reality|the news) (finally |just |really )?hit me\b`),
	rx(`\bbeat me (at|in|to)\b`),
	rx(`\bcut (my|her|his) (hair|nails|losses|fringe|bangs)\b|\bcut(ting)? (class|classes|carbs|sugar|vegetables|onions|paper)\b`),
	rx(`\b(hurt|hurting|burned|burnt|cut) my (ankle|knee|back|wrist|finger|hand|foot|leg|arm|shoulder) (playing|at|during|while|when|on|in)\b`),
	rx(`\bi (hurt|burnt|burned|cut) myself (playing|cooking|shaving|at|during|while|when|on|in)\b`),
	rx(`\b(phone|battery|laptop|plants?|car|computer|conversation) (is |was |just )?(dead|died)\b`),
}

// Common misspellings and slang mapped to canonical words before matching.
var canonWords = map[string]string{
	"kil": "kill", "kiling": "killing", "killl": "kill", "myslef": "myself", "mysef": "myself",
	"mself": "myself", "meself": "myself", "mysel": "myself", "selfharm": "self harm",
	"sucide": "suicide", "suicde": "suicide", "suiside": "suicide", "sucidal": "suicidal",
	"suicidel": "suicidal", "suecide": "suicide", "suiced": "suicide", "suicid": "suicide",
	"wanna": "wanna", "gonna": "gonna", "ded": "dead", "diee": "die",
	"overdoes": "overdose", "overdos": "overdose", "od": "od", "pils": "pills",
	"wrist": "wrist", "wrsts": "wrists", "anymore": "anymore", "any more": "anymore",
	"u": "you", "ur": "your", "bc": "because", "cuz": "because",
}

// fuzzyTargets are long keywords also matched within one edit (typos like "suicdie").
var fuzzyTargets = []string{"suicide", "suicidal", "myself", "overdose", "overdosing", "unalive", "molested", "threatening"}

func normalize(s string) string {
	s = strings.ToLower(s)
	s = strings.NewReplacer("’", "", "'", "", "‘", "", "`", "", "-", " ", "_", " ").Replace(s)
	// Words: letters, with look-alike digits and symbols inside words turned into letters.
	var words []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '@' || r == '$')
	}) {
		words = append(words, canonWord(deleet(f)))
	}
	return " " + strings.Join(words, " ") + " "
}

func deleet(w string) string {
	hasLetter := strings.ContainsFunc(w, unicode.IsLetter)
	if !hasLetter {
		return w
	}
	return strings.NewReplacer("1", "i", "3", "e", "0", "o", "@", "a", "$", "s", "4", "a", "5", "s", "7", "t").Replace(w)
}

func canonWord(w string) string {
	w = squeeze(w)
	if c, ok := canonWords[w]; ok {
		return c
	}
	if len(w) >= 5 {
		for _, t := range fuzzyTargets {
			if w != t && editDistanceAtMostOne(w, t) {
				return t
			}
		}
	}
	return w
}

// squeeze shortens runs of three or more of the same letter to two ("sooooo" → "soo",
// "killlll" → "kill").
func squeeze(w string) string {
	r := []rune(w)
	out := r[:0]
	for i, c := range r {
		if i >= 2 && c == r[i-1] && c == r[i-2] {
			continue
		}
		out = append(out, c)
	}
	return string(out)
}

// editDistanceAtMostOne reports whether a and b differ by at most one insertion, deletion,
// substitution or transposition of adjacent letters.
func editDistanceAtMostOne(a, b string) bool {
	if a == b {
		return true
	}
	la, lb := len(a), len(b)
	if la-lb > 1 || lb-la > 1 {
		return false
	}
	i := 0
	for i < la && i < lb && a[i] == b[i] {
		i++
	}
	switch {
	case la == lb:
		if a[i+1:] == b[i+1:] {
			return true
		}
		return i+1 < la && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
	case la > lb:
		return a[i+1:] == b[i:]
	default:
		return a[i:] == b[i+1:]
	}
}
