package safety

import (
	"github.com/percolate/percolate/backend/internal/companion/safety/internal/text"
	"github.com/percolate/percolate/backend/internal/lazyre"
)

// warningSigns are warning signs of the C-SSRS's preparatory behaviour and of self-harm that are
// told without the lexicon's strong words and that the learned scorer, which reads words, not
// acts, scores low: means hidden or saved with a time set; marks on the body said to be
// self-made; a self-harm or sobriety streak broken or fresh marks over old ones; a past attempt
// and the feeling coming back. They were written from clinical knowledge (the C-SSRS's
// "preparatory acts or behaviour" and "actual attempt" items, the signs of self-harm and of its
// relapse), each narrow enough that its everyday look-alikes (a prescription picked up, a cat's
// scratches, a new sport tried before) do not match. Each is at least a possible risk: the
// check-in asks, it does not assume.
var warningSigns = []warningSign{
	// Means hidden, saved or stockpiled, and a time set.
	{riskPattern{Suicide, []string{"pills", "tablets", "meds", "antidepressants", "painkillers", "paracetamol", "blades", "razors", "sleeping"},
		rx(`\b(saved|saving|collected|collecting|stashed|stashing|hoarded|hoarding|hid|hidden|hiding|kept back|keeping back|stockpiled|stockpiling|put aside|putting aside)( \w+){0,4} (pills|tablets|meds|antidepressants|painkillers|paracetamol|blades|razors|sleeping pills|sleeping tablets)\b.*\b(tonight|tomorrow|friday|saturday|sunday|monday|tuesday|wednesday|thursday|this weekend|new years( eve)?|christmas|my birthday|after (school|college|uni|work|my exams?|the exams?)|when (everyone|they|my parents|my mum|my dad) (is|are) (asleep|out|away|gone)|thats when|is when|the day|the night)\b` +
			`|\b(the |my )(pills|tablets|meds|antidepressants|painkillers|paracetamol|blades|razors|sleeping pills|sleeping tablets) (are|is) (hidden |saved |stashed |ready )?(in|under|behind|inside) (my|the)\b.*\b(tonight|tomorrow|friday|saturday|sunday|monday|tuesday|wednesday|thursday|this weekend|new years( eve)?|christmas|my birthday|after (school|college|uni|work|my exams?|the exams?)|thats when|is when)\b`)}, nil},
	// Marks on the body said to be self-made.
	{riskPattern{SelfHarm, []string{"from me", "to myself", "by me", "did them", "did those", "did these"},
		rx(`\b(bruises|marks|cuts|scars|burns|scratches|scabs)( (on|all over|up) my (\w+ )?\w+)? (are|were) (all )?(from|by) me\b|\b(did|do|made) (them|those|these|the marks|the cuts|the bruises) (to )?myself\b`)}, nil},
	// A streak broken, or fresh marks over old ones.
	{riskPattern{SelfHarm, []string{"clean", "new ones", "fresh ones"},
		rx(`\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a few|a couple of|several) (days?|weeks?|months?|years?) clean\b.*\b(messed|ruined|blew|broke|broken|slipped|relapsed|lost it|threw it away|did it again|its over|gone)\b` +
			`|\b(scars?|marks|cuts|burns)\b.*\b(new|fresh) ones\b`)}, nil},
	// A past attempt, and the feeling coming back.
	{riskPattern{Suicide, []string{"tried", "attempt", "trying"},
		rx(`\b(i tried|ive tried|i have tried|i attempted|ive attempted)( it)? (before|once|twice|\w+ times)\b.*\b(heading (back )?there|back there|there again|like that again|getting bad again|coming back|happening again|same place)\b` +
			`|\b(hospital|a and e|the ward)( \w+){0,3} (for|after) (trying|attempting|an attempt|my attempt|what i did)\b.*\b(again|coming back|getting bad|feel like that|same)\b`)}, nil},
	// Affairs put in order and goodbyes: prized things given to the people one cares about or
	// for after, thanks or an apology for everything before something, socials deleted with a
	// goodbye, a goodbye under a pretext, nothing left unfinished.
	{riskPattern{Suicide, []string{"giving", "gave", "given", "give", "for everything", "deleted", "goodbye", "unfinished", "undone"},
		rx(`\b(giving|gave|given|give) (away )?(all )?(of )?my (\w+ ){1,4}(to|away)\b.*\b(after|when im gone|once im gone|people i (care about|love)|wont need (them|it)|(should|can|will) have (them|it) (after|when)|to remember me)\b` +
			`|\b(sorry|thank(ed|s|ing)?( \w+){0,2}) for everything\b.*\b(before|one last|while i (still )?can|in case)\b` +
			`|\bdeleted (all )?(of )?my (socials|accounts|social media|instagram|snapchat|tiktok)\b.*\b(i love (them|you|her|him)|goodbye|sorry for|its fine now|for good)\b` +
			`|\b(said|told|saying|say)( \w+){0,3} goodbyes?\b.*\b(they think|they dont know|without (them|anyone) knowing|but im not|for real this time)\b` +
			`|\bleav(e|ing) nothing (unfinished|undone)\b`)}, nil},
	// Means sought in secret: a gun, pills or a blade got without anyone knowing.
	{riskPattern{Suicide, []string{"without"},
		rx(`\b(get|getting|got|buy|buying|bought|order|ordering|find|finding|sneak|sneaking)( \w+){0,3} (a gun|a firearm|a pistol|guns|pills|tablets|paracetamol|painkillers|sleeping pills|sleeping tablets|blades|razor blades|a rope)\b.*\bwithout (\w+ ){0,2}(knowing|finding out|noticing|asking questions|seeing)\b`)}, nil},
	// The rope (or its emoji, see text.Normalize) thought about.
	{riskPattern{Suicide, []string{"rope", "noose"},
		rx(`\b(contemplating|thinking about|considering|eyeing|looking at|staring at|dreaming (about|of)) (the |a |my )?(rope|noose)\b`)},
		rx(`\b(rope (swing|course|climb|bridge|ladder|burn)|skipping rope|jump rope|climbing|sailing|boat|tug of war)\b`)},
	// A passive wish told gently: death or not existing pictured as peace, heaven wished
	// early, oneself felt already gone; burden told as taking oneself out of others' lives.
	{riskPattern{Suicide, []string{"dead", "death", "dying", "exist", "heaven", "already gone", "myself"},
		rx(`\b(being dead|death|dying|not existing|not being here|never waking up) (sounds|seems|looks|feels|would (be|feel)) (so |really |kind of |kinda |quite |pretty )?(peaceful|nice|better|easier|good|calm|like (a )?(relief|peace|rest))\b` +
			`|\b(go|get|going|getting) to heaven (early|sooner|soon|already|now)\b` +
			`|\b(feel|feels) like (im|i am|i m) already (gone|dead)( (inside|tbh|honestly|now|anyway))? $` +
			`|\b(remove|removing|removed|take|taking|took|erase|erasing|delete|deleting|subtract) myself (from|out of) (the |everyones |their |your |his |her |my familys |peoples )?(equation|picture|lives|life|world|way)\b`)}, nil},
	// A high place where the person is now, with an apology, a farewell or numbness; a
	// friend's "sorry im late" is none.
	{riskPattern{Suicide, []string{"bridge", "viaduct", "multi storey", "multistorey", "car park", "roof", "cliff", "ledge", "tower block", "platform"},
		rx(`\b(im |i am |standing |sitting |stood |sat |up )?(at|on|by) (the |a )?(top of the |edge of the |end of the )?(\w+ )?(bridge|viaduct|multi storey|multistorey|car park|roof|rooftop|cliffs?|ledge|tower block|platform)\b.*\b(sorry( for everything)?|forgive me|goodbye|love you all|love you guys|love you|(just )?wanted (to tell|someone to know)|(dont|cant) feel anything|numb|its time|this is it|cant do this)\b`)}, warningExcuse},
}

// warningExcuse is an apology or a reason that makes a high place ordinary.
var warningExcuse = rx(`\bsorry (im|i m|i am|for being|i was|ill be|we re|were|about the|for the|cant|but)\b|\b(running|bit|so) late\b|\b(view|views|sunset|photos?|pics?|selfie|picnic|walk|hike|train|bus|gig|fireworks|parking|parked|park up|a space|waiting for|meet (me|you|us)|see you|on my way)\b`)

// warningSign is a riskPattern with an exception: text matching except is no sign.
type warningSign struct {
	riskPattern
	except *lazyre.Regexp
}

// matchWarningSigns returns the category of the first warning sign the masked text matches, or
// "" when none does.
func matchWarningSigns(t string) Category {
	for _, p := range warningSigns {
		if text.HasAny(t, p.keys) && p.re.MatchString(t) && (p.except == nil || !p.except.MatchString(t)) {
			return p.risk
		}
	}
	return ""
}
