package safety

import (
	"github.com/percolate/percolate/backend/internal/companion/safety/internal/text"
	"github.com/percolate/percolate/backend/internal/lazyre"
)

// The risk cues are the evidence a possible risk on the learned scorer's word alone needs (see
// screener.screenLayer): the scorer, trained mostly on risk and its look-alikes, also scores
// everyday talk of homesickness, sleep, money or a sprained wrist above its cut-off, where no
// word tells of risk at all. The cues were written from clinical knowledge, not from the
// labelled or everyday sets: the levels of the Columbia suicide severity scale (a wish to be
// dead, thoughts of suicide, a method, intent, a plan, preparation and behaviour), perceived
// burdensomeness and thwarted belonging, hopelessness, entrapment and unbearable pain, goodbyes,
// self-harm and hiding it, eating-disorder danger and its signs in the body, abuse and sexual
// violence, danger where the person is, an attempt under way, and the ways learners of English
// and slang say the same. They are broad on purpose: a cue does not flag a message, it only
// lets the scorer's check-in stand. Words that are as often everyday talk ("plan", "took",
// "cut", "note", "bye") count only in the phrases risk is told with.
var riskCues = struct{ words, prefixes []string }{
	words: []string{
		// A wish to be dead, passive ideation.
		"die", "dies", "died", "dying", "dead", "death", "deaths", "deadly", "not wake up", "never wake up", "dont wake up",
		"didnt wake up", "not to wake up", "sleep forever", "sleep and never", "not exist", "stop existing", "exist anymore",
		"didnt exist", "never existed", "never been born", "never born", "wasnt born", "not be here", "not be around",
		"not here anymore", "be gone", "gone forever", "was gone", "were gone", "wasnt here", "wasnt around", "werent here",
		"disappear", "disappeared", "disappearing", "vanish", "fade away", "no longer here", "not alive", "be alive",
		"stay alive", "still alive", "being alive", "why am i here", "why im here", "why am i still", "why im still",
		"tired of living", "tired of life", "sick of living", "sick of life", "done with life", "hate my life",
		"hate living", "want to live", "wanna live", "to live anymore", "live like this", "living like this", "not living",
		"heaven", "afterlife", "grave", "coffin", "funeral", "rest in peace", "at peace", "have peace", "worth living",
		// Thoughts of suicide, and the slang and algospeak for them.
		"kill myself", "killing myself", "killed myself", "kill me", "end it", "end it all", "end things", "end everything",
		"ending it", "ended it", "ending things", "ending everything", "end this", "end my life", "ending my life", "end myself", "take my life", "take my own life", "off myself", "offing myself",
		"unalive", "catch the bus", "delete myself", "log off", "logging off", "log out forever", "yeet myself",
		"neck myself", "rope myself", "want out", "intrusive thoughts", "dark thoughts", "the thoughts", "those thoughts",
		"bad thoughts", "these thoughts",
		// A method or the means.
		"pill", "pills", "tablet", "tablets", "meds", "medication", "paracetamol", "ibuprofen", "painkiller",
		"painkillers", "sleeping pills", "insulin", "overdose", "od", "dose", "lethal", "painless", "rope", "noose", "belt",
		"hang myself", "hanging myself", "hanged", "bridge", "roof", "rooftop", "ledge", "balcony", "cliff", "tracks",
		"jump off", "jump from", "jump in front", "jumping off", "jumping from", "jumped off", "jumped from", "knife",
		"knives", "blade", "blades", "razor", "razors", "gun", "bleach", "poison", "drown myself", "drowning myself",
		"carbon monoxide", "plastic bag",
		// Intent, a plan, a time, preparation and goodbyes.
		"a plan", "the plan", "my plan", "planned it", "planning it", "planned how", "plan how", "decided",
		"made up my mind", "mind is made up", "go through with", "do it", "doing it", "done it", "did it", "its time",
		"no going back", "one last", "last time ill", "the last time", "last message", "final goodbye", "final message",
		"for good", "goodbye", "goodbyes", "bye everyone", "bye forever", "bye world", "farewell", "the note", "my note",
		"left a note", "leave a note", "leaving a note", "wrote a note", "write a note", "writing a note", "a note for",
		"a note to", "a letter", "the letter", "letters to", "letter to", "my will", "sorry for everything", "forgive me",
		"take care of my", "look after my", "thank you for everything", "thanks for everything", "remember me",
		"miss me", "when im gone", "after im gone", "once im gone", "give away", "giving away", "gave away", "affairs",
		"loose ends", "see you on the other side", "see you never", "wont see you", "never see you", "wont see me",
		// Burden and not belonging.
		"burden", "better off", "without me", "nobody would", "no one would", "noone would", "nobody cares",
		"no one cares", "noone cares", "nobody needs me", "no one needs me", "nobody loves me", "no one loves me",
		"nobody wants me", "no one wants me", "im in the way", "always in the way", "waste of space", "waste of oxygen",
		"waste of air", "dead weight", "ruin everything", "ruin everyones", "ruining everyones", "all my fault",
		"everything is my fault", "everyones problem", "everyone would be", "everyone hates me", "hate myself",
		"i hate me", "worthless", "disgust myself", "dont deserve", "deserve to", "deserve it", "deserve this",
		"dont belong", "all alone", "completely alone", "totally alone", "unloved", "unwanted",
		// Hopelessness, entrapment and unbearable pain.
		"hopeless", "no hope", "lost hope", "pointless", "no point", "whats the point", "what is the point", "see the point", "see any point",
		"point of anything", "point in anything", "point of living", "point in living", "point of trying", "point in trying",
		"point of me", "point to anything", "why bother",
		"why try", "give up", "giving up", "gave up", "given up", "cant do this", "cant take", "cant handle", "cant cope",
		"cant anymore", "cant breathe", "cant go on", "cant carry on", "cant keep going", "cant keep doing", "cant live",
		"all too much", "its too much", "too much for me", "too much to handle", "empty inside", "numb", "nothing matters",
		"nothing left", "nothing to live", "nothing will", "nothing ever", "never get better", "wont get better",
		"not get better", "never be happy", "never going to be", "no future", "no way out", "no escape", "cant escape",
		"want to escape", "need to escape", "trapped", "stuck forever", "only way out", "a way out", "easy way out",
		"tired of everything", "tired of it all", "so done", "im done", "done with everything", "done with it all",
		"done with all", "its over", "so over", "over for me", "meaningless", "dont care anymore",
		"dont care what happens", "unbearable", "cant bear", "make it stop", "the pain",
		// Self-harm and hiding it.
		"cut", "cuts", "cutting", "cutter", "sharpener", "bleed", "bleeding", "bled", "blood", "scar", "scars",
		"wound", "wounds", "burn myself", "burning myself", "burned myself", "burnt myself", "hurt myself", "hurting myself",
		"hit myself", "hitting myself", "punch myself", "punched myself", "punish myself", "punishing myself",
		"scratch myself", "scratching myself", "bruise myself", "relapse", "relapsed", "relapsing", "clean for",
		"days clean", "weeks clean", "months clean", "urge", "urges", "self harm", "bandage", "bandages", "sleeves",
		"hide my arms", "the marks", "my marks", "barcode", "my wrists", "my thighs",
		// Eating-disorder danger and the body's warning signs.
		"not eating", "stop eating", "stopped eating", "havent eaten", "hadnt eaten", "didnt eat", "dont eat",
		"cant eat", "wont eat", "skip meals", "skipping meals", "skipped meals", "skip eating", "starve", "starving",
		"starved", "fasting", "purge", "purging", "throw up", "threw up", "throwing up", "make myself sick",
		"made myself sick", "laxative", "laxatives", "diet pills", "calorie", "calories", "cals", "kcal", "lose weight",
		"losing weight", "lost weight", "gain weight", "gaining weight", "my weight", "weigh myself", "i weigh", "bmi",
		"thinner", "skinnier", "be thin", "be skinny", "thigh gap", "my body", "binge and", "binged and", "bingeing and",
		"binging and", "restrict", "restricting", "fainted", "fainting", "passed out", "collapsed", "lost my period",
		"stopped getting my period", "no period",
		// Abuse and sexual violence.
		"hit me", "hits me", "hitting me", "hurt me", "hurts me", "hurting me", "beat me", "beats me", "beaten",
		"punched me", "punches me", "slapped me", "slaps me", "kicked me", "kicks me", "choked me", "chokes me",
		"strangled me", "grabbed me", "grabs me", "shoved me", "shoves me", "pushed me", "pushes me", "threw me",
		"throws things", "threw things", "scared of him", "scared of her", "scared of them", "scared of my",
		"afraid of him", "afraid of her", "afraid of my", "terrified", "yells at me", "screams at me", "shouts at me",
		"threaten", "threatens", "threatened", "locked me", "locks me", "not allowed", "wont let me", "doesnt let me",
		"touch me", "touched me", "touches me", "touching me", "rape", "raped", "assault", "assaulted", "molest",
		"molested", "groped", "forced me", "forced", "made me do", "makes me do", "pressured", "pressure me", "nudes",
		"photos of me", "pics of me", "our secret", "a secret", "keep it secret", "dont tell", "not to tell", "spiked",
		"drugged", "consent", "said no", "unsafe", "not safe", "dont feel safe", "danger", "following me", "stalking",
		"stalker", "bruises", "black eye", "abuse", "abused", "abusive",
		// An attempt under way, or an emergency.
		"took them", "took it all", "took too many", "taken them", "taken too many", "swallowed", "already did", "already took",
		"already done", "already started", "just did it", "please help", "help me please", "please help me",
		"someone help", "ambulance", "hospital", "a and e", "emergency", "911", "999", "112", "scared of myself",
		"dont trust myself", "cant trust myself", "what i might do", "what ill do", "keep myself safe",
		// English of a learner: the same risk said with other grammar.
		"finish my life", "finish myself", "finish everything", "kill me self", "kill my self", "make myself die",
		"no more live", "not want live", "dont want live", "want stop live", "stop live", "stop to live",
		"tired to live", "tired for live", "i am finish", "im finish", "life is finish", "better i am not",
		"better i not", "better if i not", "go away forever", "sleep and not wake", "not wake again", "want death",
		"wish death", "many pills", "all pills", "be no more", "leave this world", "leave the world", "leaving this world",
		"not continue", "dont want continue", "want to death", "want die", "wanting die", "go to die",
	},
	prefixes: []string{
		"suicid", "kill", "unaliv", "overdos", "self harm", "selfharm", "harm", "sewerslid", "strangl", "suffocat",
		"anorexi", "bulimi", "starv", "purg", "molest", "abus", "assault", "binge eat",
	},
}

// riskCuePhrases are the cues told by a pattern, by kind: a passive wish (hoping for an
// accident or an illness, a future not pictured, sleep that lasts); burden (the others better
// off, a world unchanged, if one were not there); a method sought (a height, a dose, a train,
// a knot, the car running, being found); means gathered and a time or place picked; the last
// of something; preparation (passwords, accounts, things given); an act on purpose; a high
// place, water or the railway; abuse (someone's hands on the person, a room at night, a threat
// to tell or to hurt, being made to do things) and oneself judged worthless or fat.
var (
	riskCuePhrases = lazyre.MustCompile(
		// Oneself judged, and a time chosen.
		`\b(im|i am|i feel|i felt|feel|feeling|i m) (so |such a |just |completely |totally |really |a |an |like )*(useless|pathetic|disgusting|worthless|failure|waste|mistake|burden|broken|empty|numb|hollow|invisible|unlovable|trapped|hopeless|fat|ugly|gross|huge|nothing|alone|the problem)\b` +
			`|\b(tonights the night|tonight is the night|its tonight|today is the day|is the day|the night i|its happening)\b` +
			// A wish to be dead, passive: an accident or an illness hoped for, a future not
			// pictured, a sleep that lasts, everything stopping.
			`|\bhop(e|ing|ed) (that )?(something|i|the|a|my|someone|it)\b.*\b(happens|hit|crash\w*|goes down|go down|dont|doesnt|never|wont|sick|ill|die|dies)\b` +
			`|\b(hit|run over|knocked down) by (a|the) (bus|car|train|lorry|truck)\b|\b(didnt|dont|wouldnt|not) make it\b|\b(my )?heart (just )?(stopped|stops|stopping)\b` +
			`|\b(cant|dont|couldnt) (picture|see|imagine) (myself|me) (alive|at|being|getting|growing|in|making|as)\b|\b(dont|cant|do not) see (a|any|my) future\b|\bno future\b` +
			`|\b(fall|falling|go|going) (to sleep|asleep) and (stay|never|not)\b|\b(big|long|forever|eternal|endless|permanent|dirt) (sleep|nap)\b|\bdrift(ing)? off\b|\bswitch(ing)? (myself )?off\b` +
			`|\b(not|stopped|stop) existing\b|\beverything to (stop|end)\b|\bme included\b|\b(be|become) a ghost\b|\btoaster bath\b|\bwhy (do |would |should )?i (even )?bother\b|\bpretending (to be|i want|im|i am|everything)\b|\b(want|wanna) to keep going\b` +
			// Burden: the others better off or unchanged without the person.
			`|\bif i (just |simply |really )?(wasnt|werent|was not|were not|didnt|left|stopped|disappeared|was gone|were gone|died|vanished|got really sick|got sick)\b|\b(better|easier|simpler|kinder|cheaper|happier|relieved|lighter|quieter)\b.*\b(without me|if i|when i(m| am) (gone|not))\b|\b(in|out of) the picture\b|\bnot around anymore\b|\b(save|spare) (my|everyone|them|the)\b.*\b(money|trouble|hassle|pain|worry|stress)\b|\b(everyone|everybody|people) (has|have) to (fix|deal with|look after|worry about)\b|\bwouldnt (lose|miss|notice) (anything|me|a thing)\b` +
			// A method sought.
			`|\bhow (many|much) (\w+ ){0,3}(would|does it take|to (die|kill|end|od|overdose)|is (lethal|fatal|deadly|enough))\b|\b(quickest|easiest|best|painless|fastest|quietest) way (to|out)\b|\bhow (high|far|tall|deep|long) (does|do|would|is|would it)\b|\b(does|would|will) it hurt\b` +
			`|\b(take|takes|took|taking) enough\b|\b(whole|entire|full) (prescription|blister)\b|\b(whole|entire|full) (pack|packet|box|bottle|strip|tub)s? of (my |the |his |her |their |mums |dads )?(\w+ )?(pills|tablets|meds|medication|painkillers|paracetamol|ibuprofen|antidepressants|sleeping \w+|insulin|aspirin|codeine|cocodamol|sertraline|fluoxetine|citalopram|them)\b|\b(antidepressants?|sertraline|fluoxetine|citalopram|codeine|cocodamol|aspirin|sleeping tablets)\b|\bat once\b|\b(car|engine) running\b|\bgarage\b|\bknot\b|\b(hold|holding|take|support) (a (persons |person |)|my )?weight\b|\bfind me\b|\bfound me\b|\bfast trains?\b|\btrain times\b|\bwithout stopping\b` +
			// Means gathered, a time or a place picked, the last of something, preparation.
			`|\b(collect\w*|sav(ed|ing)|stockpil\w*|hid|hiding|hoard\w*|stash\w*) (up )?(\w+ ){0,2}(enough|my|the|all|half|pills|tablets|meds|prescription|packs|blister)\b|\bprescription\b|\bblister packs?\b` +
			`|\b(got|have|ive got) (everything|all) (i need|ready|sorted|planned)\b|\beverything(s| is) (ready|planned|sorted|in place)\b|\b(all|it all|everything) planned\b|\bpicked (the|a|which|my|one|out) ?(date|day|time|spot|place|one|night|bridge|way)?\b` +
			`|\b(the|my|this is my|its my) last (night|day|weekend|week|time|message|meal|birthday|christmas|goodbye)\b|\bthen thats it\b|\bthats it then\b|\b(wont|will not|doesnt|wouldnt) matter (anymore|soon|after|tomorrow)\b|\b(wont|will not) need (it|this|you|them)\b` +
			`|\b(not|never|wont be) (come|coming) (back|home)\b|\b(wait|waiting|hold|holding) (on )?(for|until|till|til) (everyone|them|my parents|my mum|my dad|my family|my exams|the)\b.*\b(asleep|leave|go|gone|done|then|out)\b|\bready to go\b|\bnot scared (of it|anymore)\b|\bback and forth\b|\bmade (my )?peace\b` +
			`|\bpasswords?\b|\bwhat to do with my\b|\bmy (accounts|socials)\b|\bdeleted (all )?my\b|\bgave (my|away|all my) \w+( \w+){0,5} to\b|\bhave them after\b|\b(i|to) love (them|you|her|him)\b.*\b(sent|told|messages?|texted)\b|\b(sent|told|messaged|texted)\b.*\bi love (them|you|her|him)\b|\bthanks? (you )?for (listening|everything|being there|putting up)\b` +
			// An act on purpose, self-harm told without its usual words.
			`|\bon purpose\b|\b(angry|furious|disgusted|fed up|so mad) (at|with) myself\b|\bdeliberately\b|\bcarv\w*\b|\bscrap(ed|ing|e) my\b|\b(till|until) it (was|is) raw\b|\b(hob|straighteners|lighter|iron)\b|\bdeeper\b|\bold habits\b|\b(started|doing it|at it) again\b|\bmy (arms|legs|wrists|thighs|skin) (are|is|look)\b|\bi (had )?stopped but\b|\btried before\b|\bfinish it\b|\bintoxicat\w*|\blying down now\b` +
			// A high place, water, the railway.
			`|\b(edge|ledge|railings?|parapet|wrong side|top floor|top of the|rooftop|car park|multi ?storey|tower block|stairwell|overpass|viaduct|quarry|pier|reservoir|the lake|the river|the canal|the water|deepest|railway|the line|yellow line|looking down|look down|over the edge|window opens)\b|\b(into|onto|on to|in front of) (the )?(road|traffic|tracks|train|river|sea|canal)\b` +
			// Abuse and sexual violence told without its usual words.
			`|\b(grab\w*|dragg\w*|pinn\w*|threw|throws|chok\w*|shov\w*|smash\w*|strangl\w*|slap\w*|punch\w*|kick\w*|bit|bites|spat|pushes|pushed)( \w+){0,3} (me|at me|my (hair|throat|neck|arm|arms|wrist|wrists|face|bum|chest|body|sister|brother|mum|mom|little))\b|\b(violent|violence)\b` +
			`|\b(come|comes|came|coming) (in|into) my (room|bed)\b|\b(in|into) my (room|bed) at night\b|\b(does|did|do|doing) (stuff|things) (to me|i dont|i didnt)\b|\b(wouldnt|didnt|wont|doesnt|would not|did not) stop\b|\bkept going\b|\bsaid stop\b|\bhis hands\b|\bmy clothes\b|\b(sit|sat) on his lap\b|\bmy drink\b|\bwoke up (somewhere|naked|with|in)\b|\bdid sex\b|\bhave sex\b` +
			`|\bif i (tell|complain|report|break up|leave|say)\b|\b(send|share|post|show) my (pics|photos|nudes|videos)\b|\b(scared|afraid|terrified) (to|of) (be|being|go|going) (at )?home\b|\b(hide|hiding|hid) (in|from)\b|\b(dreading|dread) (going home|christmas|the holidays|home|him|her|weekends)\b|\b(going for|started on|turned on|went for) (me|my)\b|\bnext time\b.*\b(wont|will|ill|hell|shell)\b|\b(do|did) worse\b|\bmakes me (stay|sit|do|touch|watch|keep)\b|\bmy fault\b|\b(sexual|sexually)\b` +
			// Eating-disorder danger told by restriction, compensation and the body's signs.
			`|\bonly (eat|ate|eating|had|have)\b|\b(one|1|a single) (meal|apple|snack|bite|yoghurt|yogurt|banana|rice cake|piece of \w+) (a|per) day\b|\bburn(ing|ed|t)? (it|them|that|the calories|everything|it all) off\b|\bbe (smaller|thinner|skinnier|lighter)\b|\b(my )?periods? (stopped|has stopped|went away|disappeared)\b|\bcompensat\w*` +
			// A plan, a time, a relapse, a secret kept.
			`|\b(a|the|my|whole|got a|have a|made a) (\w+ )?plan\b|\bthats when\b|\b(set|setting) an alarm\b.*\b(when|then)\b|\b(feel|feels|felt|so|weirdly|actually) (calm|peaceful|at peace|relieved)\b|\b(messed|ruined|broke|blew) (it|my streak|my clean streak)( all)?( up)?\b|\bslipped up\b|\b(started|starting|doing it|does it|do it|does the same) (with|to|on) my (little |baby |younger )?(sister|brother|sibling)\b|\bkeep (a |our |the |it )?secrets?\b`)
)

// accident is an injury told as an accident or a sport: a cut while cooking, a bruise from
// hockey, a burn from the oven. Its words are no cue.
var (
	accidentKeys = []string{"chop", "cook", "kitchen", "washing up", "accident", "shav", "paper cut", "oven", "pan", "hockey", "football",
		"rugby", "netball", "match", "training", "gym", "fell", "falling", "tripped", "slipped", "bike", "skat", "climbing", "tackle"}
	accident = lazyre.MustCompile(`\b(cut|cuts|bled|bleeding|bleed|blood|burn\w*|bruis\w*|wound|scratch\w*)\b(\s\w+){0,8}\s(chopping|cutting|cooking|in the kitchen|washing up|by accident|accidentally|shaving|on the oven|on the pan|on a pan|in hockey|at hockey|in football|at football|at rugby|in rugby|at netball|in netball|in the match|at training|at the gym|when i fell|falling|fell off|tripped|slipped|off my bike|skating|climbing|a tackle)\b|\b(chopping|cooking|washing up|by accident|accidentally|shaving|paper cut|tripped|slipped|fell off my bike)\b(\s\w+){0,8}\s(cut|cuts|bled|bleeding|blood|burn\w*|bruis\w*)\b`)
	// phrasal is the everyday senses of cue words ("she cut me off", "cut back on sugar", "kill
	// time"), and fasting for a faith.
	phrasalKeys = []string{"cut", "kill", "fast", "ramadan", "lent", "iftar", "suhoor", "haircut", "it right", "it wrong", "it properly", "it correctly", "it the right"}
	phrasal     = lazyre.MustCompile(`\b(cut|cuts|cutting)( me| him| her| them| it| myself| back| down)? (off|back|down|out|in|short|corners|ties|class|classes|lectures?|my hair|my fringe|my nails|the cake|the grass|it close)\b|\b(haircut|paper cut)\b|\bkill(ing|ed)? (time|it|the vibe|the mood)\b|\bfast\w* (for|during|in|this) (ramadan|lent)\b|\b(ramadan|iftar|suhoor)\b|\b(doing|do|did|done) it (right|wrong|properly|correctly|the right way)\b`)
)

// hasRiskCue reports whether masked text holds a risk cue outside an accident or an everyday
// sense of its word.
func hasRiskCue(t string) bool {
	if text.HasAny(t, phrasalKeys) {
		t = phrasal.ReplaceAllString(t, " ")
	}
	if text.HasAny(t, accidentKeys) {
		t = accident.ReplaceAllString(t, " ")
	}
	t = withoutOwnedMeans(t)
	return text.HasWord(t, riskCues.words) || text.HasAny(t, riskCues.prefixes) || riskCuePhrases.MatchString(t)
}
