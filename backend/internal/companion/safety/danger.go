package safety

// dangerPatterns are the phrasings of danger the scorer rarely sees: an eating disorder told
// by what it does to the body, and a child hurt or neglected at home, or coerced. They are
// read after the general rules (see matchRules).
var dangerPatterns = []riskPattern{
	// Eating-disorder danger: not eating for days, purging, a very low intake, restricting with
	// the body's warning signs, hiding food.
	{EatingDisorder, []string{"eaten", "had food", "had a meal", "had any food"},
		rx(`\b(havent|have not|hasnt|not|barely|hardly|didnt|did not) (eaten|had (any )?food|had a (proper )?meal)( anything| properly| much)? (in|for|since) (\d+|two|three|four|five|six|seven|a few|several|days|a week|weeks|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b`)},
	{EatingDisorder, []string{"myself sick", "myself throw", "myself vomit", "throw", "threw", "laxative", "chew and spit", "purg"},
		rx(`\b(make|made|making|force|forced|forcing) myself (be )?(sick|throw up|vomit|puke)\b|\b(throw|throwing|threw) (it |everything |food |my food )?up after (every |each |my )?(meal|meals|eating|dinner|lunch|breakfast|i eat)\b|\blaxatives?\b.*\b(every|after|at a time|a day|\d+)\b|\bchew and spit\b|\bpurg(e|ing|ed)\b`)},
	{EatingDisorder, []string{"calorie", "cal", "kcal"},
		rx(`\b(on|only|under|eating|ate|eat|a day|per day|less than)( around| about| like| only)? ([1-5]\d\d|\d\d) (calories|cals|kcal)\b|\b([1-7]\d\d|\d\d) (cal|cals|calories|kcal) (is|a day|per day|max|limit|today)\b`)},
	{EatingDisorder, []string{"faint", "passed out", "collaps", "black", "heart", "chest", "blue", "purple", "hair", "period", "dizzy", "spots"},
		rx(`\b(faint\w*|passed out|collaps\w*|(vision|everything) (went|goes) black|heart (keeps )?(racing|races|skipping|skips|pounding)|chest pains?|(fingers|lips|hands|feet) (are|go|went|turn) (blue|purple)|hair (is )?falling out|(always|so) (freezing|cold)|(stopped|lost) (having )?my period|so dizzy|seeing spots|see spots)\b.*\b(eat|eaten|eating|food|calories|restrict\w*|fast|fasting|meals?|feel (huge|fat|so fat|disgusting)|(smaller|skinnier|thinner|lose more weight))\b|\b(eat|eaten|eating|food|calories|restrict\w*|fasting|meals?|feel (huge|fat|so fat|disgusting)|(smaller|skinnier|thinner|lose more weight))\b.*\b(faint\w*|passed out|collaps\w*|(vision|everything) (went|goes) black|heart (keeps )?(racing|races|skipping|skips|pounding)|chest pains?|(fingers|lips|hands|feet) (are|go|went|turn) (blue|purple)|hair (is )?falling out|(always|so) (freezing|cold)|(stopped|lost) (having )?my period|so dizzy|seeing spots|see spots)\b`)},
	{EatingDisorder, []string{"restrict", "ana", "bmi", "hide food", "hid food", "hiding food"},
		rx(`\brestricting\b|\b(im|i am) (ana|mia)\b|\bpro (ana|mia)\b|\bbmi (is |of )?(like |about |around )?(1[0-7]|[0-9])\b|\bhid(e|ing)? (my )?food\b`)},
	// A child hurt, kept hungry, locked out or left alone at home, or hiding the marks.
	{Abuse, []string{"belt", "stick", "cane", "cable", "wire", "slipper", "hanger"},
		rx(`\b(dads|fathers|mums|moms|mothers|stepdads|stepmums|parents) (belt|fists?)\b|\b(beat|beats|beating|hit|hits|hitting|whip\w*|hurt\w*) (me|us|him|her) with (a |the |his |her |their )?(belt|stick|cane|cable|wire|shoe|slipper|hanger)\b`)},
	{Abuse, []string{"nobody", "no one", "teacher"},
		rx(`\bso (nobody|no one|the teachers?|teachers) (sees|see|notices|notice|can see|will see|asks about) (the |my |her |his )?(bruises|marks|cuts|burns|black eye)\b`)},
	{Abuse, []string{"allowed to eat", "let me eat"},
		rx(`\b(not|never|wasnt|havent been|hasnt been) (\w+ )?allowed to eat\b|\b(wont|doesnt|dont|didnt|do not|does not|will not) let me eat\b`)},
	{Abuse, []string{"alone"},
		rx(`\b(leave|left|leaves|leaving) (me|us)( and my (baby |little )?(brother|sister))? (alone|home alone|on my own|on our own) for (days|a week|\d+ days|two days|three days|the whole weekend)\b`)},
	{Abuse, []string{"sleep in", "sleep outside"},
		rx(`\b(make|made|makes|making) (me|us) sleep (in the (garage|shed|car|garden|cellar|basement)|outside)\b`)},
	{Child, []string{"little", "baby", "younger"},
		rx(`\b(hits?|beats?|hitting|beating|kicks?|kicking|hurts?|hurting|touch(es|ed|ing)?) my (little|baby|younger) (brother|sister|sibling)\b`)},
	{Abuse, []string{"fell", "say"},
		rx(`\b(told|tells|makes|made) (me|her|him|us) (to )?say (i|she|he|we) fell\b`)},
	{Abuse, []string{"is", "are", "was"},
		rx(`\b(he|she|dad|father|mom|mum|mother|stepdad|stepmom|stepmum|parents|uncle|brother) (is|are|was|were) (always |often |still )?(hitting|beating|kicking|punching|choking|slapping|hurting|whipping) (me|us)\b`)},
	// Sexual assault or coercion.
	{SexualAssault, []string{"forced me", "to me", "sleep with", "have sex"},
		rx(`\bforced me (when|to (have sex|do it|do things|sleep with)|and|$)|\b(does|did|doing|do|done) (stuff|things) to me\b|\bif i (dont|do not|wont|will not) (sleep with|have sex with|send (him|her) (pics|nudes|photos))\b`)},
}
