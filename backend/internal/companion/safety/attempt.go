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
	// Written from what an overdose, a cut or a place is told with when it is under way, not from
	// any evaluation set: a dose by count, strips or packs, or a medicine's name; the rest of the
	// pills with a drink; base forms of learners' English ("i take many pills now", "i have eat
	// all tablets"); the pills felt working; a cut too deep with its signs; a high place with a
	// farewell instead of a time; the car running in a closed garage; a fall survived.
	{Attempt, []string{"took", "taken", "swallow", "downed", "popped", "ate", "eaten", "drank", "taking", "popping"},
		rx(`\b(took|taken|swallowed|downed|popped|ate|eaten|drank|taking|swallowing|popping)( like| about| around| nearly| over| maybe| literally| just)? (all|every|many|so many|lots of|loads of|a lot of|too many|the whole|a whole|whole|\d\d+|\d+ (strips|packs|packets|boxes|bottles|blisters|sheets)|(two|three|four|five|several) (strips|packs|packets|boxes|bottles|blisters|sheets))( (of|my|the|a|whole|pack|packet|box|bottle|strip|strips|packs|boxes|bottles|blister|blisters|sleeping|mums|dads|moms|these|those|them|prescription|prescribed)){0,3} (pills|tablets|meds|medication|medicine|medicines|painkillers|paracetamol|ibuprofen|sertraline|fluoxetine|citalopram|codeine|cocodamol|aspirin|antidepressants|insulin)\b` +
			`|\b(took|drank|downed|swallowed|had)\b.*\b(and|with|plus) (all|every one of|many|the rest of|loads of|a lot of|\d\d+) (of )?(my |the |his |her )?(\w+ )?(pills|tablets|meds|medication|painkillers|paracetamol|antidepressants|sleeping pills|sleeping tablets)\b`)},
	{Attempt, []string{"take", "eat", "drink", "swallow"},
		rx(`\bi (have |has |was |am |did )?(take|eat|drink|swallow)( \w+){0,2} (all|many|so many|too many|lots of|\d\d+|the whole|a whole)( \w+){0,3} (pills|tablets|meds|medication|medicine|medicines|painkillers|paracetamol)\b.*\b(now|already|sorry|bye|goodbye|i feel|feel|feeling)\b` +
			`|\bi (have|has|was|did) (take|eat|drink|swallow|taken|eaten)( \w+){0,2} (all|many|so many|too many|lots of|\d\d+|the whole|a whole)( \w+){0,3} (pills|tablets|meds|medication|medicine|medicines|painkillers|paracetamol)\b` +
			`|\bi (drink|eat|take|swallow) (the |some |a )?(poison|bleach|antifreeze|weedkiller|rat poison)\b`)},
	{Attempt, []string{"pills", "tablets", "overdose", "poison"},
		rx(`\b(feel|feeling) (the )?(pills|tablets|overdose|poison) (kicking in|working|starting to work)\b`)},
	{Attempt, []string{"odd", "oded"},
		rx(`\b(i|just|ive) (just )?(odd|oded)\b.*\b(ago|now|scared|feel|feeling|sorry)\b`)},
	{Attempt, []string{"them", "the lot", "it all", "everything"},
		rx(`\b(took|swallowed|downed|popped|taken) (them all|all of them|the lot|it all|the whole lot|them)\b.*\b(bye|goodbye|sorry|too late|its done|forgive me|love you)\b|\b(its done|goodbye|bye|sorry)\b.*\bi (just |already )?(took|swallowed|downed|popped) (them|it all|them all|the lot)\b`)},
	{Attempt, []string{"deep", "stitches"},
		rx(`\b(cut|went|sliced|cutting|cuts|cut is|cuts are|wound is)( myself| my \w+)? (too|way too|really|so|very) deep\b.*\b(wont stop|cant stop|wont close|stitches|blood|bleeding|see (the )?(fat|bone|muscle)|hospital|scared|help|dizzy|faint|it wont|cant make it)\b|\bwent (too|way too|really|so) deep\b.*\b(wont stop|cant stop|stitches|blood|bleeding|hospital|scared|help)\b|\b(stitches|blood|bleeding)\b.*\bwent (too|way too|really|so) deep\b|\b(cut|cuts|wound|gash)\b.*\bcan see (the )?(fat|bone|muscle)\b`)},
	{Attempt, []string{"edge", "ledge", "roof", "railing", "rail", "parapet", "bridge", "wrong side"},
		rx(`\b(standing|sitting|stood|sat|im|i am)( up| out| right)? (on|at|over) (the |a )?(\w+ )?(edge|ledge|roof|rooftop|railing|rail|railings|parapet|bridge)\b.*\b(this is it|dont (try to )?stop me|goodbye|im going to jump|about to jump|going to jump|gonna jump|im jumping|jumping now|its time|im letting go|let go)\b` +
			`|\b(on|over) the (rail|railing|railings|parapet|wrong side) of (the|a) (bridge|roof|balcony|car park|viaduct|cliff|building|multi storey)\b`)},
	{Attempt, []string{"garage"},
		rx(`\b(car|engine) (is )?(running|on) in the garage\b|\b(ran|running|run|started|turned on) the (car|engine) in the garage\b`)},
	{Attempt, []string{"jumped", "still alive"},
		rx(`\bi (jumped|fell)( \w+){0,4} (and|but) (im |i am )?(still alive|cant move|cant feel my)\b`)},
	// "i did it" or "its done" alone is as often a passed exam: only with an apology or a
	// goodbye ("i did it. im sorry"); "i already took them" on its own.
	{Attempt, []string{"did it", "its done", "already took"},
		rx(`^ ((im |i am )?sorry |goodbye |bye |forgive me )*((i )?(just )?did it|its done)( (im |i am )?sorry| goodbye| bye| forgive me)+ $|^ ((im |i am )?sorry |goodbye |bye |forgive me )+((i )?(just )?did it|its done) $|^ (i )?already took them( all)?( (im |i am )?sorry| goodbye| bye)* $`)},
}
