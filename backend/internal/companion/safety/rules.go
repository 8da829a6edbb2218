package safety

import (
	"github.com/percolate/percolate/backend/internal/companion/safety/internal/text"
	"github.com/percolate/percolate/backend/internal/lazyre"
)

// matchRules returns the category of the first risk phrasing the masked text (see text.Mask)
// matches, or "" when none does.
func matchRules(t string) Category {
	// An act told as another day's ("last year", "i remember") is no attempt under way: the
	// other rules and the scorer read it.
	for _, p := range attemptPatterns {
		if text.HasAny(t, p.keys) && p.re.MatchString(t) && !pastWords.MatchString(t) && !(text.HasAny(t, placeKeys) && text.HasAny(t, leisureKeys)) {
			return Attempt
		}
	}
	for _, ps := range [][]riskPattern{riskPatterns, dangerPatterns} {
		for _, p := range ps {
			if text.HasAny(t, p.keys) && p.re.MatchString(t) {
				return refine(p.risk, t)
			}
		}
	}
	return ""
}

type riskPattern struct {
	risk Category
	// keys are words or parts of words at least one of which the text must hold for re to
	// match; they spare running every pattern on every message.
	keys []string
	re   *lazyre.Regexp
}

func rx(s string) *lazyre.Regexp { return lazyre.MustCompile(s) }

// Patterns run on normalised text: lower case, no apostrophes, words separated by single
// spaces, canonical spellings (see canon).
var riskPatterns = []riskPattern{
	// Suicide.
	{Suicide, []string{"suicid", "unaliv", "kms", "kys"}, rx(`\b(suicide|suicidal|unaliv\w*|kms|kys)\b`)},
	{Suicide, []string{"myself", "my own life", "my life", "me off"}, rx(`\b(kill|killing|killed|end|ending|ended|take|taking|took)( my| me)? (myself|my own life|my life|me off)\b`)},
	{Suicide, []string{"die", "dead", "alive", "exist", "disappear", "end it", "end thing", "end everything", "kill myself"}, rx(`\b(want|wanna|wanted|wanting|wish|wishing|going|gonna|ready|plan|planning|trying|try|tried|decided) (to )?(die|be dead|not be alive|not exist|disappear forever|end it all|end it|end everything|end things|kill myself)\b`)},
	{Suicide, []string{"end it", "end thing", "end everything"}, rx(`\bend (it|things|everything) (all|tonight|today|now|for good|forever)\b`)},
	{Suicide, []string{"want to"}, rx(`\b(dont|do not|never) want to (be alive|live|exist|wake up|be here anymore|be around anymore|go on)\b`)},
	{Suicide, []string{"reason", "point"}, rx(`\b(no|dont see (a|the|any)|cant see (a|the|any)|lost (the|my)) (reason|point) (to|in|of) (live|living|life|going on|being alive|carrying on)\b`)},
	{Suicide, []string{"better off"}, rx(`\bbetter off (without me|dead|if i (was|were|am) (gone|dead|not here|not around)|if i wasnt (here|around|alive)|if i didnt exist)\b`)},
	{Suicide, []string{"wish"}, rx(`\bwish (i|id) (was|were|had been|could be|be)? ?(dead|never born|gone forever|not alive|not here anymore)\b`)},
	{Suicide, []string{"wish"}, rx(`\bwish i (wasnt|werent|hadnt been) (alive|born|here anymore)\b`)},
	{Suicide, []string{"wake up"}, rx(`\b(go to sleep|fall asleep|sleep) and (never|not) wake up\b`)},
	{Suicide, []string{"myself"}, rx(`\b(hang|hanging|shoot|shooting|drown|drowning|poison|poisoning) myself\b`)},
	{Suicide, []string{"jump", "throw myself"}, rx(`\b(jump|jumping|throw myself) (off|from|in front of) (a|the|my) (bridge|roof|building|cliff|train|balcony|car|bus)\b`)},
	{Suicide, []string{"overdos", "od"}, rx(`\b(overdose|overdosing|overdosed)\b|\bod(ing|d)? on\b`)},
	{Suicide, []string{"pill", "tablet", "med", "painkiller"}, rx(`\b(take|taking|took|swallow|swallowing|swallowed) (all|every one|a whole bottle|the whole bottle|a bottle) (of )?(my |the |those |these )?(pills|tablets|meds|medication|sleeping pills|painkillers)\b`)},
	{Suicide, []string{"note", "letter"}, rx(`\b(suicide|goodbye) (note|letter)s?\b|\bwrit(e|ing|ten) (my|a) (goodbye|farewell) (note|letter)`)},
	{Suicide, []string{"away"}, rx(`\bgiv(e|ing) away (all )?my (stuff|things|belongings|possessions)\b`)},
	{Suicide, []string{"date", "time", "place"}, rx(`\b(a|the|my) (date|time|place) and (a|the|my) (method|way|plan)\b`)},
	{Suicide, []string{"deadly", "lethal", "fatal"}, rx(`\b(deadly|lethal|fatal) (amount|dose|doses|amounts)\b`)},
	{Suicide, []string{"talk me out"}, rx(`\btalk me out of (it|this|doing it)\b`)},
	{Suicide, []string{"gets my", "get my"}, rx(`\bwho (gets|will get|should get) my (things|stuff|belongings)\b`)},
	{Attempt, []string{"blood", "bleeding"}, rx(`\b(so much|a lot of|loads of) blood\b|\b(wont|cant|will not|doesnt) stop bleeding\b`)},
	{Attempt, []string{"gun", "knife", "blade", "razor", "rope", "pills"}, rx(`\b(the |a |my )?(gun|knife|blade|razor|rope|pills) (is|are) (on|in) my (lap|hand|hands)\b`)},
	{Suicide, []string{"safe", "trust myself", "stop myself"}, rx(`\b(cant|can not|cannot|dont think i can|not sure i can|dont know if i can|unable to) (keep myself safe|stay safe|trust myself|stop myself)\b`)},
	{Attempt, []string{"pill", "tablet", "med", "rope", "blade", "razor", "painkiller", "paracetamol"}, rx(`\b(have|got|ive got|collected|saved|stashed|hid|hidden|bought|ordered|counted)( out)? (\w+ ){0,2}(pills|tablets|meds|rope|blade|razor|painkillers|paracetamol) (ready|stashed|hidden|counted out|lined up)( now| and| to go| tonight)? $`)},
	{Attempt, []string{"engine"}, rx(`\b(garage|shed|closed room|sealed room) with the engine (running|on)\b`)},
	{Attempt, []string{"took", "swallowed", "taken", "drank", "downed", "take"}, overdoseNow},
	{Attempt, []string{"rope", "noose"}, rx(`\b(the |a |my )?(rope|noose) is (up|ready|tied|set up)\b`)},
	{Attempt, []string{"took", "swallowed", "taken", "drank"}, rx(`\b(took|swallowed|taken|drank) (everything in the (medicine|bathroom|pill) (cabinet|cupboard|box)|the whole (packet|box|bottle|strip) of|all (the|my|of my|of the) (pills|tablets|meds|painkillers))\b`)},
	// Non-native phrasings: "finish my life", "i will kill me", "thinking to end it", "not
	// wanting to live more", "better i am not existing".
	{Suicide, []string{"my life", "my own life"}, rx(`\b(finish|finishing|make finish|make end)( with| of)? my (own )?life\b|\b(end|ending|stop|stopping) with my (own )?life\b`)},
	{Suicide, []string{"kill me"}, rx(`\bi (will|want to|wanna|am going to|going to|gonna|must|should|think to|am thinking to) kill me\b`)},
	{Suicide, []string{"think", "thought"}, rx(`\b(think|thinking|thought) to (end|kill|finish) (it|myself|my life|me)\b`)},
	{Suicide, []string{"search", "looked up", "looking up", "googl"}, rx(`\b(search|searched|searching|looked up|looking up|googled|googling) (already )?(how|ways) to (die|do it|end it|kill myself|end my life)\b|\bsearch(ed)? already how\b`)},
	{Suicide, []string{"more", "anymore", "any longer"}, rx(`\b(not|no) (want|wanting|wish|wishing) to (live|be alive|exist) (more|anymore|any longer)\b|\bnot be alive (more|anymore|any longer)\b|\bnot existing (more|anymore)\b`)},
	{Suicide, []string{"better"}, rx(`\bbetter (if )?i (am not|was not|wasnt|am no more|not) (existing|exist|alive|here|living)\b`)},
	{Suicide, []string{"worth living"}, rx(`\b(life is|lifes) not worth living\b|\bnot worth living\b`)},
	// Self-harm.
	{SelfHarm, []string{"self"}, rx(`\bself ?harm\w*\b|\bself (injury|injure|injuring|mutilat\w*)\b`)},
	{SelfHarm, []string{"myself", "my arm", "my wrist", "my leg", "my thigh", "my skin", "my body"}, rx(`\b(hurt|hurting|harm|harming|cut|cutting|burn|burning|punish|punishing|starve|starving|scratch|scratching) (myself|my (arms?|wrists?|legs?|thighs?|skin|body))\b`)},
	{SelfHarm, []string{"slit", "slash"}, rx(`\b(slit|slitting|slash|slashing) (my )?(wrists?|arms?|throat)\b`)},
	{SelfHarm, []string{"cutting again", "relaps"}, rx(`\b(started|start|been|keep|kept) cutting again\b|\bcutting again\b|\brelapsed? (on|into) (cutting|self harm)\b`)},
	// Abuse.
	{Abuse, []string{"abus"}, rx(`\b(abused|abusing me|abuses me|abusive (to me|parent|father|mother|dad|mom|mum|partner|boyfriend|girlfriend|husband|wife|relationship|home))\b|\babuse (at home|me)\b`)},
	{SexualAssault, []string{"rape", "raping", "molest", "sexual", "grop", "groom"}, rx(`\b(raped|rape me|raping|molested|molesting|molests|sexually assaulted|sexual abuse|groped|grooming me)\b`)},
	{Abuse, []string{"hit", "beat", "punch", "kick", "chok", "slap", "strangl", "hurt", "touch"}, rx(`\b(he|she|they|dad|father|mom|mum|mother|stepdad|stepmom|parents?|boyfriend|girlfriend|husband|wife|partner|uncle|aunt|brother|sister|coach|teacher) (keeps |always |often |sometimes |still |has been |have been |would |used to )?(hits?|hitting|beats?|beating|punch(es)?|punching|kicks?|kicking|chokes?|choking|slaps?|slapping|strangles?|hurts?|hurting|touch(es)?|touching) me\b`)},
	{Abuse, []string{"hit me", "beat me", "choked me", "slapped me", "kicked me", "punched me", "strangled me", "burned me"}, rx(`\b(hit|beat|choked|slapped|kicked|punched|strangled|burned) me (again|until|so hard|with)\b`)},
	{SexualAssault, []string{"spiked"}, rx(`\b(got|was|been|get|getting) spiked\b`)},
	{SexualAssault, []string{"filmed", "recorded", "shared", "sent", "posted"}, rx(`\b(filmed|recorded) (me|us) without\b|\b(shared|sent|posted) (my|our) (pics|photos|nudes|videos?)\b`)},
	{Child, []string{"secret", "special"}, rx(`\b(its|it is|says its|said its|our) (little |special )?(secret|special thing)\b`)},
	{Abuse, []string{"touch", "makes me", "make me", "made me", "forced me", "forces me", "pressured me"}, rx(`\btouch(es|ed|ing)? me (where|when|in ways|inappropriately|down there)\b|\b(makes?|made|forced|forces|pressured|pressures) me (do|send|into doing|into sending) (things|stuff|pictures|photos|pics|nudes|sexual)\b`)},
	{SexualAssault, []string{"forced", "on top of me"}, rx(`\bforced (himself|herself|themselves|his way|her way) (on|onto|on to) me\b|\b(he|she|they|guy|man|brother|cousin|uncle|boyfriend|bf|dad|stepdad) (was|were|got|climbed) on top of me\b`)},
	{Child, []string{"man", "guy", "adult", "bloke"}, rx(`\b(man|guy|adult|bloke) (in his|in her) (\w+ies|\w+s)\b.*\b(meet up|meet me|to meet|meeting up|pics|photos|nudes|secret|dont tell|not to tell)\b`)},
	{Abuse, []string{"black eye", "split lip"}, rx(`\b(black eye|split lip) from (my )?(dad|father|mum|mom|mother|stepdad|stepmum|stepmom|boyfriend|bf|girlfriend|gf|partner|brother|husband|wife)\b`)},
	{Abuse, []string{"so hard"}, rx(`\b(grabs?|grabbed|squeezes?|squeezed|twists?|twisted|pushes|pushed|shoves?|shoved) (me|my (wrists?|arms?|neck|hair|face)) so hard (it|they|that)( \w+)? (hurt|hurts|bruise\w*|left|leaves|marks?|bled)\b`)},
	{Abuse, []string{"safe", "go home"}, rx(`\b(not|dont feel|never feel) safe (at home|in my home|in my house|around (him|her|them|my \w+))\b|\bafraid to go home\b|\bscared to go home\b`)},
	// Immediate danger.
	{Danger, []string{"following me", "stalking me", "chasing me"}, rx(`\b(someone|somebody|a man|a guy|a woman|a stranger|he|she|they) (is |are )?(following|stalking|chasing) me\b`)},
	{Danger, []string{"threaten"}, rx(`\bthreaten(s|ed|ing)? to (kill|hurt|shoot|stab|beat) (me|us|my)\b`)},
	{Danger, []string{"kill me", "hurt me", "shoot me", "stab me", "beat me"}, rx(`\b(going to|gonna|wants to|will|tried to|trying to|is coming to|said he would|said she would|said they would) (kill|hurt|shoot|stab|beat) me\b`)},
	{Danger, []string{"gun", "knife", "weapon"}, rx(`\b(has|have|got|pulled|holding|pointing) (a|his|her|their) (gun|knife|weapon)\b`)},
	{Danger, []string{"danger", "not safe", "being held", "for my life", "lock", "let me leave"}, rx(`\b(im|i am) (in danger|not safe|being held)\b|\b(scared|afraid|fear) for my life\b|\block(s|ed)? me in\b|\bwont let me leave\b`)},
}

// refine narrows a category by what the message says about where the danger stands: an
// attempt already under way or the means in hand (Attempt, whose reply puts the emergency
// number first), eating-disorder danger, and a sexual assault or abuse told by someone who
// gives an age under 18 (Child).
func refine(c Category, t string) Category {
	switch c {
	case Suicide, SelfHarm, Danger, "":
		// Now ("rn", "right now") outweighs a wish in the same message: "the knife is in my hand
		// now and i want to" is an attempt under way, not a plan.
		now := nowWords.MatchString(t)
		if !pastWords.MatchString(t) && (now || !futureWords.MatchString(t)) &&
			(text.HasAny(t, attemptKeys) && attemptWords.MatchString(t) ||
				text.HasAny(t, overdoseKeys) && overdoseNow.MatchString(t) ||
				now && text.HasAny(t, placeKeys) && placeWords.MatchString(t)) {
			return Attempt
		}
		if c == Danger {
			return c
		}
		if text.HasAny(t, eatingKeys) && eatingWords.MatchString(t) && (c != SelfHarm || !woundWords.MatchString(t)) {
			return EatingDisorder
		}
	case Abuse, SexualAssault:
		if text.HasAny(t, childKeys) && childWords.MatchString(t) {
			return Child
		}
		if c == Abuse && text.HasAny(t, sexualKeys) && sexualWords.MatchString(t) {
			return SexualAssault
		}
	}
	return c
}

var (
	attemptKeys  = []string{"rope", "noose", "took", "taken", "swallow", "drank", "already", "have them", "did it", "too many", "overdose", "hand", "lap", "against my", "round my", "around my", "bleeding", "soaked", "with the"}
	attemptWords = rx(`\b(the )?(rope|noose) is (up|ready|tied)\b|\bi already took them\b|\b(i (have|ve) just (taken|swallowed)|(just|already) (took|swallowed|drank|taken)|(took|swallowed|drank|taken) .*\b((a few|\d+|ten|twenty|thirty) (minutes?|mins?)|an hour|(\d|two|three) hours?) ago|already (did it|done it|started)|i (just )?overdosed?|took too many|since i took|(in my (hand|hands)|on my lap|against my (arm|wrist|neck|throat|skin)|(round|around) my (neck|throat))|(wont|cant|doesnt|will not) stop bleeding|bleeding (a lot|heavily|so much)|soaked( through)?|with the pills open)\b|\bwith the (razor|blade|knife|rope)\b|^ ?(just )?(took|swallowed|drank) (a whole|the whole|all|them all|a bunch|a load|too many|my whole|everything)|\bi have them( here| now| with me| ready)? ?$|^ ?i (just )?did it( im sorry| sorry)? ?$`)
	// overdoseNow is a dose told in numbers or packs, not "took my meds": an overdose taken.
	overdoseKeys = []string{"took", "swallowed", "taken", "drank", "downed", "take"}
	overdoseNow  = rx(`\b(took|taken|swallowed|downed|drank|take|taking)( like| about| around| nearly| over| maybe)? (\d\d+|too many|way too many|way too much|(the |a )?whole (pack|packet|box|bottle|strip|tub) of|(\d|two|three|four) (packs|packets|boxes|bottles|strips) of)( my| the| his| her| their| dads| mums| moms)? (pills|tablets|meds|medication|paracetamol|painkillers|insulin|cocodamol|antidepressants|sleeping pills)\b`)
	// placeWords, with nowWords, tell of someone at a high place or the tracks as they write.
	// leisureKeys tell of a high place visited for fun ("on the roof terrace at a party rn").
	leisureKeys = []string{"party", "terrace", "bar ", "bbq", "barbecue", "picnic", "sunset", "drinks", "mates", "friends", "view", "photos", "pics"}
	placeKeys   = []string{"edge", "ledge", "roof", "top level", "top floor", "bridge", "cliff", "platform", "tracks"}
	placeWords  = rx(`\b(on|at|by|over|off) (the |a |my )?(\w+ )?(edge|ledge|roof|rooftop|top level|top floor|bridge|cliff|platform|tracks)\b`)
	nowWords    = rx(`\b(now|rn|right now|atm|as i type|as we speak)\b`)
	woundWords  = rx(`\b(cut\w*|blade|razor|burn\w*|bleed\w*|wounds?)\b`)
	// futureWords tell a plan or a wish, not an attempt under way.
	futureWords = rx(`\b(want to|wanna|going to|gonna|will|planning|plan to|tomorrow|someday|one day|thinking (about|of))\b`)
	// pastWords date what is told to another day: a past attempt is not one under way.
	pastWords   = rx(`\b(last (night|week|month|year|time)|yesterday|i remember|used to|back then|that time|(on|last) (monday|tuesday|wednesday|thursday|friday|saturday|sunday)|(days?|weeks?|months?|years?) ago|when i was|in (19|20)\d\d)\b`)
	eatingKeys  = []string{"eat", "starv", "purg", "throw", "sick", "vomit", "laxative", "anorexi", "bulimi", "binge", "calorie", "faint", "weight"}
	eatingWords = rx(`\b(havent eaten|have not eaten|not eaten|stopped eating|barely eating|starv\w*|purg\w*|(throw|throwing) up after|make myself (sick|throw up|vomit)|laxatives?|anorexi\w*|bulimi\w*|binge\w*|calories|eating disorder|faint\w* (from|because) .*(eat|food))\b`)
	childKeys   = []string{"im 1", "i am 1", "teen", "year old", "years old", "yo", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "school"}
	childWords  = rx(`\b(im|i am) (1[0-7]|thirteen|fourteen|fifteen|sixteen|seventeen)\b|\b(1[0-7]|thirteen|fourteen|fifteen|sixteen|seventeen) ?(yo|years? old)\b|\b(im|i am) (a |only a )?(young )?teen(ager)?\b|\b(in|at) (middle|high|secondary) school\b|\b(my little (sister|brother)|since i was little|when i was ([1-9]|1[0-7])|an? older (guy|man)|sleepover|not to tell anyone)\b`)
)
