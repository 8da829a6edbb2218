package safety

// attemptPatterns are the phrasings of an attempt under way or the means in hand, read before
// every other rule so that they get the emergency number first (Result.Urgent): an overdose
// told by a count, a whole pack or "on purpose"; poison drunk; a cut deep and bleeding; a
// high place or the tracks as the person writes; a rope ready; "i did it" as the whole
// message. An act dated to another day ("last year") is not one under way (see matchRules).
var attemptPatterns = []riskPattern{
	{Attempt, []string{"took", "taken", "swallow", "downed", "drank", "taking", "drinking", "ate", "eating"},
		rx(`\b(took|taken|swallowed|downed|drank|taking|swallowing)( \w+){0,4} (pills|tablets|meds|medication|painkillers|paracetamol|ibuprofen|insulin|antidepressants|sleeping pills)( \w+){0,2} (all of them|all of it|the lot|too many|too much|way too|on purpose|everything)\b` +
			`|\b(took|taken|swallowed|downed|drank|taking|swallowing)( \w+){0,3} (all of them|all of my|all my|all the|too many|way too many|way too much|a lot of|loads of) (of )?(my |the |his |her )?(\w+ )?(pills|tablets|meds|medication|painkillers|paracetamol|insulin|antidepressants)\b` +
			`|\b(took|taken|swallowed|downed|taking|swallowing)( like| about| around| nearly| over| maybe)? (\d\d+|too many|a lot) of (my |the |his |her |their )?(\w+ )?(pills|tablets|meds|medication|painkillers|paracetamol|insulin|antidepressants|sleeping pills)\b` +
			`|\b(took|swallowed|drank|ate) (many|so many|lots of|a lot of|all the|all my) (pills|tablets|meds|medicine|medicines)\b` +
			`|\b(drinking|taking|swallowing|eating) (many|so many|lots of|a lot of|all the|all my) (pills|tablets|meds|medicine|medicines)\b.*\b(now|rn|right now)\b` +
			`|\b(downed|drank|swallowed)( \w+){0,4} (bottle|bottles) of \w+ with (my |the |all my |some )?(pills|tablets|meds|medication|painkillers|antidepressants|sleeping pills)\b`)},
	{Attempt, []string{"poison", "bleach", "antifreeze", "weedkiller"},
		rx(`\b(drinking|drank|drunk|swallowed|swallowing|took|taking|taken|ate|eating)( \w+){0,3} (poison|bleach|antifreeze|weedkiller)\b`)},
	{Attempt, []string{"deep", "stop bleeding", "bleeding"},
		rx(`\bcut (myself|my (\w+ )?(wrists?|arms?|legs?|thighs?|neck|throat)) (really |so |too |very |way too )?deep\b|\b(cut|cuts|sliced) (are |is )?(really |so |too |very )?deep (and )?(its |it is |they are |theyre )?(still )?bleeding\b`)},
	{Attempt, []string{"edge", "ledge", "roof", "railing", "parapet", "tracks", "top level", "top floor", "bridge", "cliff"},
		rx(`\b(standing|sitting|stood|sat|climbed|balancing|im|i am|i m)( up| out| right)? (on|at|over|onto) (the |a )?(\w+ )?(edge|ledge|roof|rooftop|railing|railings|parapet|tracks|top level|top floor)\b.*\b(now|rn|right now|atm|as i type|as we speak|minutes?|tonight)\b` +
			`|\b(now|rn|right now)\b.*\b(im|i am|i m) (standing |sitting )?(on|at) (the |a )?(\w+ ){0,4}(edge|ledge|roof|rooftop|railing|parapet|tracks|top level|top floor)\b` +
			`|\b(standing|sitting|stood|climbed) (on|over|onto) (the |a )?(\w+ )?(bridge|cliff)( edge| railing)?\b.*\b(now|rn|right now|looking down|the water)\b`)},
	{Attempt, []string{"rope", "noose"},
		rx(`\b(the |a |my )?(rope|noose) (is |s )?(ready|tied|up|set up|hanging)\b|\b(tied|set up|hung|put up) (the |a |my )?(rope|noose)\b|\b(rope|noose) (is )?(around|round) my neck\b`)},
	{Attempt, []string{"car"},
		rx(`\b(im|i am) (in|driving) (my|the) car\b.*\b(drive|driving|crash|crashing) (\w+ )?(into|off) (a |the |next )?(\w+ )?(wall|tree|bridge|cliff|lorry|truck|river)\b`)},
	{Attempt, []string{"already", "just"},
		rx(`\bi (already|just) (took|swallowed|downed) (them|them all|the lot|it all)( \w+){0,2} $`)},
	// "i did it" or "its done" alone is as often a passed exam: only with an apology or a
	// goodbye ("i did it. im sorry"); "i already took them" on its own.
	{Attempt, []string{"did it", "its done", "already took"},
		rx(`^ ((im |i am )?sorry |goodbye |bye |forgive me )*((i )?(just )?did it|its done)( (im |i am )?sorry| goodbye| bye| forgive me)+ $|^ ((im |i am )?sorry |goodbye |bye |forgive me )+((i )?(just )?did it|its done) $|^ (i )?already took them( all)?( (im |i am )?sorry| goodbye| bye)* $`)},
}
