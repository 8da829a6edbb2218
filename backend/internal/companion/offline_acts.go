package companion

import (
	"strconv"
	"strings"
	"sync"

	"github.com/percolate/percolate/backend/internal/encoder"
	"github.com/percolate/percolate/backend/internal/lazyre"
)

// act is what the user is doing with a message, beyond what it is about: the reply answers
// the act first (a question gets an answer, a goodbye a goodbye, good news is met as good news).
type act int

const (
	actShare act = iota // venting, telling, small talk: the reflective dialogue
	actOpinion
	actPractical
	actSelf
	actGoodNews
	actGoodbye
	actCallback
	actCorrection
)

// actExamples are labelled example sentences, written for the engine (not taken from any
// evaluation set): a question is read as the act of its nearest example by the sentence
// encoder, so "was quitting a mistake?" is an opinion without a keyword for it.
var actExamples = map[act][]string{
	actOpinion: {
		"should i tell him how i feel or just leave it",
		"do you think i overreacted",
		"is it normal to feel like this after moving out",
		"was it a mistake to drop out of the team",
		"would it be weird to text her first",
		"am i being unfair to my sister",
		"is it too late to change my course",
		"what do you think i should do about my housemate",
		"is that a bad sign in a relationship",
		"do you think it will get easier",
		"is it selfish to want some space from my family",
		"should i go to the party or stay in",
		"does that make sense or am i overthinking it",
		"is it okay to not want to go home for christmas",
		"why do i always expect the worst",
		"can you actually get better at public speaking",
	},
	actPractical: {
		"how do i bring up the dishes with my flatmate without a fight",
		"what should i say in the email to my tutor",
		"any tips for calming down before an exam",
		"how do i make a study plan that i actually stick to",
		"what do people usually ask in a job interview",
		"how do you word a message asking for feedback",
		"what should i wear to the interview",
		"how can i save money on food",
		"how do people make friends in a new city",
		"how do i start when i keep putting it off",
		"what do i even say to her",
		"how should i prepare in two days",
		"is there an easy way to make slides look good",
		"how do i keep my spanish going over the summer",
	},
	actGoodNews: {
		"i passed my exam!!",
		"guess what, i got the job",
		"it went really well actually",
		"update: i finally finished the essay!!!",
		"she said yes!",
		"good news, they offered me the place",
		"i did it, i actually did it",
		"that's way more than i managed all week",
		"my tutor said my essay was really good",
		"update: finally got some work done!!",
		"my coach said i was the best one there",
	},
	actSelf: {
		"do you get tired of listening to people",
		"are you a real person",
		"do you remember me from last time",
		"do you have feelings",
		"are you like this with everyone",
		"do you ever get nervous",
		"what are you exactly",
		"do you actually care or is it just programming",
	},
}

type labelled struct {
	a act
	v encoder.Vector
}

var (
	actOnce  sync.Once
	actTable []labelled
)

func actVectors() []labelled {
	actOnce.Do(func() {
		for _, a := range []act{actOpinion, actPractical, actSelf, actGoodNews} {
			for _, s := range actExamples[a] {
				actTable = append(actTable, labelled{a, encoder.Embed(s)})
			}
		}
	})
	return actTable
}

var (
	reCallback  = lazyre.MustCompile(`\b(remember (the|that|what i said about|what i told you about) (\w+ )?(thing|stuff|bit|situation) (about|with)|(you know|u know|so|anyway|ok|okay|also) the \w+( \w+)? (thing|situation|stuff)\b|^(anyway|ok|okay|so|but) (about|re) |going back to|back to (the|what|my|your|him|her|that)|like i said|as i said|like i mentioned|remember (i|when i|how i) (was|said|mentioned|told)|what i said (earlier|before|about)|i said (earlier|before))\b`)
	reBye       = lazyre.MustCompile(`(^|\b)(bye+|byee+|goodbye|good ?night|night|nite|gotta go|got to go|have to go|need to go|gtg|laters|later|see ya|see you|ttyl|cya|talk (to you )?(later|soon|tomorrow)|i should (sleep|go)|going to (go|bed|sleep)|gonna go|im gonna go|im going to go)( x+)?$`)
	reByeIn     = lazyre.MustCompile(`\b(bye+|gotta go|got to go|have to go|need to go|gtg|laters|see ya|ttyl|cya|gonna go|gotta run|got to run|have to run|need to run|gotta dash|im going to go|going to go|im off|off to bed)\b|^(ok |okay )?(thanks|thank you|cheers|ty)\b.{0,60}\b(going to|gonna|off to|have to|gotta)\b|^(ok |okay )?(im |i )?(going to|gonna|off to|will|ill) .{0,60}\b(thanks|thank you|thank u|cheers|ty)( x+)?$`)
	reThanksEnd = lazyre.MustCompile(`^(ok |okay |k )?(thanks|thank you|thank u|thx|ty|cheers)( so much| a lot)?( x+)?$|\b(this|that|it) (really )?helped\b|\bthanks for (listening|letting me)`)
	reGoodNews  = lazyre.MustCompile(`\b(i (passed|got (in|it|the (job|place|offer|scholarship|internship|role|part))|won|did it|made it)|got (an? )?(offer|first|distinction|a star)|good news|great news|went (really )?(well|fine|great)|(she|he|they) said yes|nailed it|aced it|smashed it|got merged|(to|gonna|going to|out to) celebrate)\b|` +
		// Praise passed on ("my tutor said my essay was the best in the class"), relief ("so
		// im free now") and a plain good word for what happened ("which is actually kind of nice").
		`\b(said|says|told me|thinks) (that )?(my|i|im|it|its) (\w+ ){0,3}(is |was |are |were )?(really |so |actually |genuinely )?(good|great|strong|brilliant|amazing|excellent|impressive|ready|the best|one of the best|the clearest|one of the clearest|really good)\b|` +
		`\b(im|i am|i m) (finally |now |totally )?(free|off the hook)\b|` +
		`^(and |which |that |it |this )?(is |was |s |its |thats )?(actually |kind of |kinda |really |quite |pretty |so )*(nice|lovely|sweet|cute|cool)( tbh| honestly| lol)?$`)
	reCorrection    = lazyre.MustCompile(`^(thats|that s|that is|its|it s|nah|no|nope)( thats| its)? not (what i (meant|mean|said)|quite it|really it|it|the (problem|point|issue|thing))\b|^(its|it s|nah its|no its) (less|not so much) about\b|^(no|nah|wait|sorry|actually)\b.{0,20}\b(wait|sorry|i mean|i meant|wrong|not|actually|the real)\b|^(actually )?(wait|no) (i|it|its|the)\b|^(well |ok |okay |hmm )?not (a|an|really|exactly|quite) \w+( \w+)? (more like|its|it was|its more)\b`)
	reQuestionStart = lazyre.MustCompile(`^(be honest|honestly|tbh|like|so|ok|okay)? ?(should|do|does|did|is|are|am|was|were|would|will|can|could|how|what|why|where|when|which|any|who (can|do|should|could|would))\b`)
	reSelfRule      = lazyre.MustCompile(`\b(do|did|can|will|would) you (ever |actually |even |really )?(get|feel|remember|know|like|care|have|mind|judge|think about)\b|\bare you (even |actually )?(like this|real|a real|human|a person|a bot|an ai|always|ever|okay|ok|tired|bored|judging|listening|there)\b`)
	rePracticalRule = lazyre.MustCompile(`\b(how (do|can|should|would) (i|you|we|people)|who (can|do|should|could) i (even )?(talk|speak|go|turn|ask)( to)?|^what (actually |usually )?(helps|works) (with|for|when|if)|what (do|should|would|can) i (even )?(say|write|wear|do|bring|put|cook|ask)|what (do|does) (they|people|a \w+) (usually |even |actually )?(ask|do)|any (tips|advice|ideas)|tips for|is there (an? )?(easy|quick|good) way|is there (a|any) way (to|i can|i could)|^what (stuff|food|things|is|are)\b.*\b(best|cheapest|easiest|quickest)\b)`)
	reOpinionRule   = lazyre.MustCompile(`\b(should i|do you think|is it (normal|ok|okay|weird|bad|too|wrong|fair)|is that (normal|ok|okay|weird|bad|fair|a bad)|am i (being|too|wrong|overreacting)|would it be|was (it|that|\w+ing( \w+){0,3}) a mistake|was (it|that|i) (dumb|stupid|wrong|bad|silly|selfish|mean|too much)|is (it|this|that) my fault|do i (even |really |actually )?need|is it (even )?worth|does that make sense|does that change|thats (actually )?fair right|why do i)\b`)
)

// readAct says what the new message does. Precise rules come first (a callback phrase, a
// goodbye at the end, good news); a question is then placed by the encoder among the labelled
// examples (or, with the encoder ablated, by keyword rules alone).
func readAct(u userTurn, keywords bool) act {
	n := textspeak(plain(u.text))
	words := strings.Fields(n)
	if len(words) == 0 {
		return actShare
	}
	q := reLeadFiller.ReplaceAllString(n, "")
	// "which is actually kind of nice" goes on from the message before: no question.
	asks := reQuestionStart.MatchString(q) && !(reRelative.MatchString(q) && !strings.Contains(u.text, "?"))
	question := strings.Contains(u.text, "?") || asks
	if reImplicitAsk.MatchString(q) {
		// "idk how to tell my parents", "whats the best way to revise": a practical question
		// without a question mark.
		question = true
	}
	if planAfterQuestion(u.text) {
		// "25 mins then a break? ok i can try that" answers its own question with a plan.
		asks, question = false, false
	}
	switch {
	case reBye.MatchString(n) && !(len(words) > 5 && reGoThere.MatchString(n)) && !timeNotBye(u.text, words) || (reByeIn.MatchString(n) && !question) || (reThanksEnd.MatchString(n) && !question && len(words) <= 12):
		return actGoodbye
	case reCallback.MatchString(n):
		return actCallback
	case !asks && (reGoodNews.MatchString(n) || reDone.MatchString(n) && strings.Contains(u.text, "!") && !strings.Contains(" "+n+" ", " but ")) && !negatedNews(n) && !hardAfterBut(n):
		return actGoodNews
	case !asks && !strings.Contains(" "+n+" ", " but ") && (reNotBad.MatchString(n) || moreGoodNews(u.text, n)):
		return actGoodNews
	case reCorrection.MatchString(n):
		return actCorrection
	}
	if reRhetorical.MatchString(q) {
		// "do u ever just feel like ur friends are moving on without u": sharing, asked.
		question = false
	}
	if !question {
		if !keywords && len(words) >= 3 && !negatedNews(n) && len(u.feelings) == 0 && !hardOwnWord(n) && !reOthersView.MatchString(n) && goodWord(u.text, n) && nearest(n, actGoodNews) >= 0.6 {
			return actGoodNews
		}
		return actShare
	}
	toMe := reYou.MatchString(n) && !reAskOpinion.MatchString(n)
	switch {
	case reAboutMe.MatchString(n) || toMe && reSelfRule.MatchString(n):
		return actSelf
	case rePracticalRule.MatchString(q) || reImplicitAsk.MatchString(q):
		return actPractical
	case reOpinionRule.MatchString(q):
		return actOpinion
	case keywords:
		return actShare
	}
	v := encoder.Embed(n)
	best, bestSim := actShare, float32(0.6)
	for _, l := range actVectors() {
		if c := encoder.Cosine(&v, &l.v); c > bestSim && l.a != actGoodNews && (l.a != actSelf || toMe) {
			best, bestSim = l.a, c
		}
	}
	return best
}

var (
	// reDone is a step reported done; with an exclamation mark it is good news ("update:
	// wrote 300 words!!!", "finally handed it in!").
	reDone = lazyre.MustCompile(`^(update |so |ok |okay |omg )?(i )?(finally |actually |just )?(wrote|finished|submitted|handed (it )?in|sent (it|the)|booked|applied|did (it|the)|got through|passed)\b`)
	// reGoThere: "theres a hiking society on saturdays, maybe i should go" is about going
	// there, not a goodbye (a long message ending in "should go").
	reGoThere = lazyre.MustCompile(`\b(maybe|might|think) i should go$`)
	// reOthersView is what others assume about the user ("everyone assumes im fine"): no
	// news of the user's own.
	reOthersView = lazyre.MustCompile(`\b(everyone|everybody|people|they|he|she|my \w+) (assumes?|assumed|thinks?|thought|expects?|expected|acts? like|reckons?) (that )?(im|i am|i was|i m|its|it is|everything)\b`)
	// reRhetorical is a feeling shared as a question ("do you ever feel like…", "is it just
	// me or…").
	reRhetorical = lazyre.MustCompile(`^(do|does) (you|anyone|anybody) (ever )?(just )?(feel|get that feeling|get the feeling|think) like\b|^is it just me or\b|^(why|how) does (everyone|everybody|nobody|no one)\b`)
	// reImplicitAsk is a practical question typed as a statement: "idk how to tell my
	// parents", "not sure what to say to him", "whats the best way to revise", "help me
	// figure out what to text him".
	reImplicitAsk = lazyre.MustCompile(`^((i )?(really |just |honestly )?(idk|dont know|dunno|do not know|have no idea|have no clue)|(im |i m )?not sure|no idea|any (idea|ideas|tips))( \w+)? (how|what) (to|i (should|can|could|would)) (?:(?:even|actually|just) )?(say|tell|text|write|ask|word|bring|start|get|make|stop|reply|respond|handle|deal|talk|explain|revise|study|prepare|plan|fix|sort|approach|apologise|apologize|put|pick|choose|wear|cook|find|email|message|answer)\b|` +
		`^(whats|hows|what is|how is) (the|a) (best|easiest|quickest|good|right|proper|least awkward|nicest) way (to|of)\b|` +
		`^help me (figure out|work out|decide|think through|plan) (what|how)\b|` +
		// The same asks typed faster: "best way to get over jet lag", "hw do i…", "not sure
		// how to split the rent", "where do i report a broken window".
		`^(the )?(best|easiest|quickest|cheapest) way to\b|^(hw|how) do (i|u)\b|` +
		`^(how|hw) am i (meant|supposed) to (revise|study|learn|pay|finish|fit|afford|write|prepare|know|find|manage|choose|pick|balance|read|cook|plan)\b|` +
		`^((i )?(idk|dont know|dunno)|(im |i m )?not sure|no idea)( \w+)? how to (split|pay|learn|report|change|switch|cancel|book|apply|register|move|clean|save|budget|organise|organize|manage|use|set|pass|improve|meet|join|fill|complain|contact|claim|renew|open|sell|buy|fit|balance|read|format|reference|cite)\b|` +
		`^where (do|can|should) i (even )?(report|find|get|go|buy|sign|apply|register|complain|send|submit|start|look|hand|pay|book)\b`)
	reRelative   = lazyre.MustCompile(`^which (is|was|means|meant|made|makes)\b`)
	reLeadFiller = lazyre.MustCompile(`^((hmm+|ok|okay|but|so|and|also|anyway|yeah|yea|like|honestly|tbh|wait|ugh|lol|haha|hi+|hey+|hello|heya|hiya)\s+)+`)
	reYou        = lazyre.MustCompile(`\b(you|u|your|ur)\b`)
	reAskOpinion = lazyre.MustCompile(`\b(do|would|dont) (you|u) think\b|\bwhat would you do\b`)
)

var (
	// reGoodCue is a word good news comes with: the encoder's nearness to the good-news
	// examples alone is not enough ("i guess i just feel really behind everyone else" is near
	// "i did it, i actually did it" in shape, not in meaning).
	reGoodCue = lazyre.MustCompile(`\b(celebrat\w*|more than|better|best|good|great|well|fine|nice|lovely|sweet|yes|yay|woo+|finally|passed|won|proud|happy|relieved|glad|amazing|brilliant|awesome|love|loved|managed|done|free|offer|offered|accepted|praised|thrilled|excited)\b`)
	// reHardCue is a word no good news comes with ("behind", "hard", "dont want").
	reHardCue = lazyre.MustCompile(`\b(behind|hard|harder|bad|worse|worst|dont|cant|wont|couldnt|shouldnt|stress\w*|worr\w*|anxious|scared|afraid|sad|tired|alone|lonely|lost|stuck|struggl\w*|fail\w*|miss|missing|hate|awful|terrible|difficult|rough|tough|cry\w*|upset|angry|annoyed|empty|nothing|nobody|ashamed|embarrass\w*|guilty|pressure|overwhelm\w*|because|bc|cos|cuz|why|if only|wish|useless|rubbish|crap|shit|told off|shouted|yelled|benched|dumped|ignored|rejected|fired|sacked|kicked|dropped|left out|blamed|broke|lost|late|sick|ill)\b`)
)

var (
	// reGoodNewsMore is good news in the other ways students type it: picked, a grade, a
	// place or an offer got, a win, a result that came back good, a day that went well.
	reGoodNewsMore = lazyre.MustCompile(`^(omg |so |ok |okay |guess what |update |yay |and |honestly |actually )*(passed|won|aced|nailed|smashed|got (in|it|the \w+|an? (offer|place|job|interview|first|distinction|merit)))\b|` +
		`\b(i|we|just|finally|actually|out i|and i) (passed|won|aced|nailed|smashed)\b|` +
		`\b(i|we|just|finally) (got|get|landed|was given|was offered|won) (the|a|an|my|our) (\w+ )?(job|place|offer|flat|house|room|internship|role|part|scholarship|bursary|grant|visa|apprenticeship|placement|contract|promotion|raise|spot|position|lead|interview|deposit back|tickets?)\b|` +
		`\b(got|get|getting|scored|achieved) (a |an )?(2 1|21|first|distinction|merit|high \w+|a star|an a|full marks|\d{2,3} ?(percent|%)?)\b|` +
		`\b(picked|chose|selected|accepted|shortlisted|promoted) me\b|\b(i|we) (was|were|got|have been|ve been) (picked|chosen|selected|accepted|shortlisted|promoted)\b|` +
		`\b(came through|went (ok|okay|fine|alright|well|better|really well|so well|great)|wasnt (that|too|as|even that) bad)\b|` +
		`\bproud of me\b|\bguess (what|who)\b|` +
		`\b(results?|grades?|marks?|scores?) (are|were|was|is|came back|came in)( really| actually| pretty| so)? (good|great|fine|decent|better|amazing|ok|okay)\b|` +
		`\b(today|it|this week|tonight|the day|the session) (was|has been|went) (a |actually |really |pretty |so )*(good|great|nice|lovely|decent|fun|better)( day| one)?\b|` +
		`\b(results?|grades?|marks?|scores?)\b.{0,20}\b(theyre|its|they are|it is|they were|it was) (really |actually |pretty |so )?(good|great|decent|amazing|fine)\b|` +
		`\b(i|we) got through (the|my|it|all)\b`)
	// reRepliedBack: someone wrote back; with an exclamation mark, good news.
	reRepliedBack = lazyre.MustCompile(`\b(texted|messaged|replied|wrote|called|got|rang) (me )?back$`)
	// reNotBad is good news said through a negative ("i didnt fail lol", "we made up, shes
	// not mad anymore").
	reNotBad = lazyre.MustCompile(`\b(didnt|did not|dont have to|wont have to|no need to) (fail|resit|retake|redo|move out|drop out)\b|\b(not|isnt|wasnt|arent) (mad|angry|upset|annoyed|cross) (at me )?any ?more\b|\b(we|us) (made up|sorted it out|worked it out|are ok again|are okay again|are good again)\b`)
)

// hardAfterBut: what follows a "but" is hard ("i passed but i still feel awful").
func hardAfterBut(n string) bool {
	_, after, ok := strings.Cut(" "+n+" ", " but ")
	return ok && (reHardCue.MatchString(after) || hardOwnWord(after) || len(DetectEmotions(after, 1)) > 0 && !feelingTalk[DetectEmotions(after, 1)[0]].positive)
}

// moreGoodNews: reGoodNewsMore with no hard word and no negation of it.
func moreGoodNews(text, n string) bool {
	if !(reGoodNewsMore.MatchString(n) || reRepliedBack.MatchString(n) && strings.Contains(text, "!")) || negatedNews(n) || reHardCue.MatchString(n) {
		return false
	}
	// A number is good news only when it is a good mark ("got 72", not "got 38").
	if m := reMarkNumber.FindStringSubmatch(n); m != nil && !reGoodNewsMoreNoNumber(n) {
		v, err := strconv.Atoi(m[1])
		return err == nil && v >= 60 && v <= 100
	}
	return true
}

// reMarkNumber is a mark got ("got 72").
var reMarkNumber = lazyre.MustCompile(`\b(?:got|get|getting|scored|achieved) (?:a |an )?(\d{2,3})\b`)

// reGoodNewsMoreNoNumber: the message is good news without its number.
func reGoodNewsMoreNoNumber(n string) bool {
	return reGoodNewsMore.MatchString(reMarkNumber.ReplaceAllString(n, " "))
}

// goodWord: the message says something good in a word of its own and nothing hard.
func goodWord(text, n string) bool {
	return (reGoodCue.MatchString(n) || strings.Contains(text, "!")) && !reHardCue.MatchString(n)
}

// byeBefore are the words a goodbye's "night" or "later" comes after ("ok night x", "talk
// to you later"); after any other ("last night", "ill text her later") it says when.
var byeBefore = setOf("good", "ok", "okay", "k", "kk", "night", "gn", "so", "anyway", "anyways",
	"alright", "right", "well", "you", "u", "ya", "yall", "talk", "speak", "chat", "catch",
	"bye", "byee", "thanks", "ty", "cheers", "then", "lol", "haha", "x", "xx", "xxx", "go", "gtg")

// timeNotBye: the message ends on "night" or "later" saying when something happens, not
// goodbye ("we argued all night", "ill deal with it later").
func timeNotBye(text string, words []string) bool {
	if ss := sentences(text); len(ss) > 1 && len(strings.Fields(plain(ss[len(ss)-1]))) <= 2 {
		return false // "thanks. i should sleep. night"
	}
	k := len(words)
	for k > 0 && strings.Trim(words[k-1], "x") == "" {
		k-- // a kiss after it
	}
	if k < 2 {
		return false
	}
	switch words[k-1] {
	case "night", "nite", "later", "laters":
		return !byeBefore[words[k-2]]
	}
	return false
}

// textspeakWords are the short forms students type, for reading a message's act ("r u a
// real person", "do u think shes annoyed").
var textspeakWords = map[string]string{"u": "you", "r": "are", "ur": "your", "ya": "you", "yu": "you",
	"ppl": "people", "abt": "about", "bc": "because", "cuz": "because", "cos": "because",
	"shld": "should", "wld": "would", "cld": "could", "y": "why", "wat": "what", "wot": "what",
	"dyou": "do you", "d'you": "do you", "dya": "do you", "iz": "is", "im": "im"}

// textspeak writes a plain message's short forms out.
func textspeak(n string) string {
	w := strings.Fields(n)
	changed := false
	for i, x := range w {
		if y, ok := textspeakWords[x]; ok && y != x {
			w[i], changed = y, true
		}
	}
	if !changed {
		return n
	}
	return strings.Join(w, " ")
}

// nearest is the similarity of text to the closest labelled example of a.
func nearest(text string, a act) float32 {
	v := encoder.Embed(text)
	var best float32
	for _, l := range actVectors() {
		if l.a == a {
			best = max(best, encoder.Cosine(&v, &l.v))
		}
	}
	return best
}

// hardOwnWord: the message names a hard feeling in a word of the user's own ("a bit
// disappointed"), which no good news comes with.
func hardOwnWord(n string) bool {
	switch ownFeelingWord(n) {
	case "", "relieved", "proud", "happy", "excited", "calm", "shocked":
		return false
	}
	return true
}

// negatedNews: "i didnt get the job" is not good news.
func negatedNews(n string) bool {
	for _, w := range strings.Fields(n) {
		switch w {
		case "didnt", "not", "never", "wasnt", "failed", "havent", "hasnt", "wrong", "no", "nah":
			return true
		}
	}
	return false
}

// actNames name the acts for the benchmark.
var actNames = map[act]string{actShare: "share", actOpinion: "opinion", actPractical: "practical",
	actSelf: "self", actGoodNews: "good_news", actGoodbye: "goodbye", actCallback: "callback", actCorrection: "correction"}

// MessageAct is the act the offline engine reads in a message on its own ("opinion",
// "practical", "self", "good_news", "goodbye", "callback", "correction" or "share");
// keywords ablates the encoder. The conversation benchmark measures it against its labels.
func MessageAct(text string, keywords bool) string {
	u := userTurn{text: text, feelText: withoutEvents(ownFeelingText(text))}
	u.feelings = DetectEmotions(u.feelText, 3)
	return actNames[readAct(u, keywords)]
}
