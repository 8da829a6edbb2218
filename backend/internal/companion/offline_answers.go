package companion

import (
	"sort"
	"strings"
	"sync"

	"github.com/percolate/percolate/backend/internal/encoder"
)

// answer is a written answer to one kind of question: for an opinion, the considerations on
// each side, what people often find, and one question back; for a practical question, a short
// concrete way to do it; about the companion, the honest truth, warmly. It is chosen by the
// nearest of its example questions (written for the engine), or its keywords with the encoder
// ablated. Answers weigh things with the user: they never diagnose or prescribe.
type answer struct {
	kind     act
	examples []string
	keywords []string
	text     []tmpl
}

var answers = []answer{
	// Opinions.
	{actOpinion, []string{"should i tell my tutor that someone in my group isnt doing anything", "is it snitching to tell the teacher about a group member"},
		[]string{"lecturer", "tutor", "teacher", "snitch"}, lines(true,
			"Telling the lecturer isn't snitching when your grade depends on it: group marks assume everyone contributed, and lecturers usually want to know early. The case for waiting is that a direct word with the person first often fixes it, and it's fairer if something is going on for them. Many students find that a short message to the person, then the lecturer if nothing changes, feels fair to everyone. Which of those would sit better with you?")},
	{actOpinion, []string{"should i message her or leave it", "should i reply or leave her on read", "is it too late to text him back"},
		[]string{"message", "text", "reply", "msg"}, lines(true,
			"There's a case both ways. Replying keeps the door open and usually feels lighter once it's done; waiting gives you time to be sure what you want to say. People often find that a short, honest message works better than the perfect one, and it's rarely too late for that. What would you want the message to do?")},
	{actOpinion, []string{"should i tell my friends or is that weird", "should i tell them the truth"},
		[]string{"tell my friends", "tell them", "tell people"}, lines(true,
			"Telling them means you don't have to carry it alone, and friends usually respond better than we expect. Keeping it to yourself for now is fine too if you're not ready; it's your news to share when you choose. Who do you think would take it best?")},
	{actOpinion, []string{"was quitting a mistake", "should i have just gone to uni like everyone else", "did i make the wrong choice"},
		[]string{"mistake", "wrong choice", "should i have"}, lines(true,
			"It's hard to judge a choice by how it feels in the first weeks after it. You made it for reasons that made sense then, and some of what you gave up may still be worth missing without the choice being wrong. People often find the answer is clearer a few months on. What were your reasons at the time?")},
	{actOpinion, []string{"should i spend it or save it", "should i sign the house now or wait"},
		[]string{"spend", "save", "sign", "wait"}, lines(true,
			"Both have a fair case. Acting now takes the worry off your plate; holding off keeps your options open while you learn more. A middle way people often like is doing a small part now and keeping the rest for later. Which would you feel better about in a month?")},
	{actOpinion, []string{"why do i always expect the worst", "why do i always think it will go badly"},
		[]string{"worst", "worse", "badly"}, lines(true,
			"Expecting the worst is often a way of trying to protect yourself: if you brace for it, it can't catch you off guard. The cost is that you live through the bad version before anything has happened. Noticing the pattern, like you just did, is usually the first step to loosening it. When did it last turn out better than you expected?")},
	{actOpinion, []string{"can you learn to be good at it or do you either have it or not", "do you think i can still do it if i start now"},
		[]string{"learn", "improv", "natural"}, lines(true,
			"Most skills like that grow with practice more than people expect, and starting from where you are is still starting. It may take a bit of time before it feels natural, and that's normal. What would a realistic first step look like for you?")},
	{actOpinion, []string{"is it too late to bring my grades up", "can i still pass the year if i start working properly now", "could i still get a first if this term goes well"},
		[]string{"grade", "grades", "pass", "too late", "pull it back", "marks"}, lines(true,
			"Often it isn't too late: later work usually carries real weight, and steady effort over a few weeks tends to show more than people expect. The honest part is that it depends on how much is still to be marked and how it's weighted, which your course handbook or tutor can tell you exactly. People in that spot often find a plan for the next two weeks helps more than worrying about the whole year. What's still left to be marked?")},
	{actOpinion, []string{"does that make sense", "is that fair", "thats fair right", "does that change anything"},
		[]string{"make sense", "fair", "change anything"}, lines(true,
			"Yes, it makes sense, and it sounds fair from what you've described. You've thought about the people involved, not just yourself, which is usually a good sign. What part are you least sure about?")},
	{actOpinion, []string{"is that a bad sign in a relationship", "is it bad that it feels flat"},
		[]string{"bad sign", "flat"}, lines(true,
			"A flat patch doesn't have to be a bad sign; most relationships go through them, especially at a distance or in a busy term. What tends to matter more is whether you can both talk about it. Have you been able to say any of this to them?")},
	{actOpinion, []string{"do you think they actually read all of them", "will they even notice"},
		[]string{"read", "notice"}, lines(true,
			"They do read them, often quickly, which is why a clear opening and something specific to you matter more than clever wording. That's good news really: honesty stands out. What would you most want a reader to take away?")},

	// Practical questions.
	{actPractical, []string{"how do i bring up a problem with my flatmate", "how do i talk to my housemate about the mess"},
		[]string{"flatmate", "housemate", "roommate"}, lines(true,
			"Pick a calm moment, not right after it happens. Say what you've noticed and how it affects you, with \"I\" rather than \"you always\", then ask what would work for them. Ending on one small thing you'll both try makes it easier to follow up. When might be a good moment to bring it up?")},
	{actPractical, []string{"what do i say to the lecturer about a group member", "how do i write the email to my tutor without sounding petty"},
		[]string{"lecturer", "tutor", "email", "petty", "bitter", "feedback"}, lines(true,
			"Keep it short and factual: what the task is, what you've noticed (dates and what's missing, not what anyone is like), and what you're asking for, like advice or a check-in. A line such as \"I wanted to flag this early so we can still deliver a good project\" keeps it constructive rather than petty. Would it help to work out the first sentence together?")},
	{actPractical, []string{"any tips for calming down before a test", "how do i stop panicking before an exam", "a breathing technique for nerves"},
		[]string{"calm", "nerves", "nervous", "panic", "breathing"}, lines(true,
			"One that works for a lot of people: breathe in through your nose for four counts, hold for a moment, then breathe out slowly for six, and repeat for a minute or two; a longer out-breath tells your body to settle. Before you go in, it also helps to name one thing you already know well. Do you want to try it now?")},
	{actPractical, []string{"what would i even say to her", "what do i say to him", "how do i start that conversation"},
		[]string{"say", "word"}, lines(true,
			"You don't need a speech. Something short and honest usually lands best: what happened from your side, how it left you feeling, and that you'd like things to be okay between you. You can keep it to two or three sentences and let them answer. What's the one thing you most want them to know?")},
	{actPractical, []string{"how do people live on a student loan", "how do i budget", "what is cheapest to cook"},
		[]string{"loan", "budget", "cheap", "cook", "money", "bulk"}, lines(true,
			"A few things students often find make a difference: write down the fixed costs first and divide what's left by the weeks until the next payment, cook two or three big batches a week (rice, pasta, lentils, frozen veg and eggs go a long way), and check the reduced section late in the day. Which part of the money side feels tightest right now?")},
	{actPractical, []string{"what do they usually ask in an interview", "what should i wear to the interview"},
		[]string{"interview", "ask", "wear", "outfit"}, lines(true,
			"Interviews usually cover why you want the role, a time you handled something hard, and what you'd bring; having two or three short stories ready covers most of it. For clothes, one step smarter than the people who work there is a safe rule, and comfortable enough that you forget about it. Which part are you least sure of?")},
	{actPractical, []string{"how do people make friends in a new city", "how do i make friends when im not at uni"},
		[]string{"make friends", "meet people", "new city"}, lines(true,
			"Friendships usually grow from seeing the same people regularly, so something weekly helps more than one big event: a club, a class, a volunteering slot or a regular night somewhere. Saying yes to the second invitation matters as much as the first. Is there something weekly you could try?")},
	{actPractical, []string{"how do i just start when i keep procrastinating", "where do i put my phone so i dont grab it"},
		[]string{"start", "phone", "procrastinat", "focus", "putting off", "put off"}, lines(true,
			"Make the start tiny: set a timer for 25 minutes and aim for one rough paragraph, not a good one. Put your phone in another room or a bag out of reach, because distance works better than willpower. A short break when the timer ends makes the next round easier. What would the first 25 minutes be?")},
	{actPractical, []string{"what do i do in the first ten minutes at a party where i dont know anyone"},
		[]string{"party", "walking in", "first"}, lines(true,
			"For the first few minutes, give yourself a small job: get a drink, find the host or one person you know, or ask someone near you how they know everyone. Questions take the pressure off you, and most people are relieved when someone else starts. Who's one person you could look for when you arrive?")},
	{actPractical, []string{"how do i make a slideshow look good", "what does a best man even do", "how do i show them it is a real career"},
		[]string{"slideshow", "slides", "best man", "career"}, lines(true,
			"Keep it simple and concrete: a clean template with big photos and few words, or a short list of what's expected and one person to ask. Looking at one or two good examples first usually saves a lot of time. Would it help to break it into the first two steps?")},
	{actPractical, []string{"how do i keep my language up", "how should i practise in three days", "how do you answer six mark questions"},
		[]string{"practise", "practice", "language", "korean", "marks", "markers", "revise"}, lines(true,
			"Little and often beats one long session: ten or fifteen minutes a day, on something you can check, like a past question against the mark scheme or a short conversation. Doing it out loud or on paper, not just rereading, is what makes it stick. When in your day could ten minutes fit?")},
	{actPractical, []string{"how do you make a group decision when everyone wants different things"},
		[]string{"decision", "group", "everyone"}, lines(true,
			"Agree on what matters before picking an option: budget, distance, rooms. Then have everyone rank the options privately and talk about the top two, which stops the loudest person winning. Setting a date to decide by helps too. Would your group be up for that?")},
	{actPractical, []string{"how do i say it so she doesnt get hurt", "how do i tell my mum to back off"},
		[]string{"hurt", "back off", "boundary"}, lines(true,
			"Start with what you appreciate, then say what you need, and make it about you rather than about them: \"I know you want to help, and I'm grateful. I work better when I figure it out on my own first, and I'll come to you if I'm stuck.\" Do you want to shape it in your own words?")},
	{actPractical, []string{"what do couples even do on calls", "what can we do on facetime"},
		[]string{"calls", "call", "facetime"}, lines(true,
			"Calls feel less flat with something to do together: watch the same thing, cook the same meal, play a quick online game, or each share one small thing from the day. Shorter calls with something in them often beat long ones with nothing planned. Which of those sounds like you two?")},
	{actPractical, []string{"how do i make my personal statement not cringe"},
		[]string{"statement", "cringe"}, lines(true,
			"Leave out the big claims and show one specific moment: something you read, made or tried, and what you noticed because of it. Concrete beats impressive, and your own voice beats what you think they want. What's one moment with your subject you still remember?")},

	// Practical questions students often ask a companion, each a short, concrete way in and
	// one question back: ways people often find help, never a diagnosis or a prescription.
	{actPractical, []string{"how do i even start revising when theres so much", "where do i begin with revision when im this far behind"},
		[]string{"revising", "revision", "so far behind", "so much to revise"}, lines(true,
			"When it all feels like too much, shrink it: list the topics on one page, mark each red, amber or green, and start with one amber topic for 25 minutes, since those move fastest. Past questions teach more than rereading notes, and a plan for the next three days is easier to trust than one for the whole term. Which topic would you start with?")},
	{actPractical, []string{"how do i say no to my friend without being mean", "how do i turn down plans without upsetting them"},
		[]string{"say no", "turn down", "turn them down", "decline"}, lines(true,
			"A kind no is short and doesn't over-explain: \"I can't this time, but I'd love to see you next week.\" Offering another time shows it's about the plan, not them; a long list of reasons tends to invite a debate. Most friends take a clear no better than a reluctant yes. What do you want to say yes to instead?")},
	{actPractical, []string{"how do i tell my parents i failed my exam", "how do i tell my mum i got a bad grade"},
		[]string{"failed", "bad grade", "bad mark", "tell my parents", "tell my mum", "tell my dad"}, lines(true,
			"It usually goes better at a calm moment than in a rush: say it plainly in a sentence or two, then what happens next, like a resit, a chat with your tutor or what you've decided. Having a next step ready tends to turn the conversation from the news to the plan. Parents often react first and settle after. What do you think their first reaction will be?")},
	{actPractical, []string{"how do i tell my parents i want to change course", "how do i tell them im thinking of dropping out"},
		[]string{"change course", "changing course", "switch course", "switching course", "dropping out", "drop out", "leave uni"}, lines(true,
			"It helps to go in with your reasons and a rough plan: what isn't working, what you'd do instead, and what you've already found out, like the deadline for switching or who you've spoken to at uni. Saying \"I've thought about this a lot\" shows it isn't a whim, and asking for their thoughts keeps them on your side. What do you think they'll worry about most?")},
	{actPractical, []string{"how do i get my flatmate to turn the music down at night", "what do i do about a really loud housemate"},
		[]string{"noise", "noisy", "loud", "music", "quiet"}, lines(true,
			"Ask at a calm time, not at 2am: say what you've noticed and what you need, like \"I've got 9ams, could the music be off by midnight on weeknights?\" A specific time is easier to agree to than \"be quieter\". If that doesn't change things, halls staff or the landlord can help, and earplugs take the edge off meanwhile. What time would feel fair to you?")},
	{actPractical, []string{"how do i ask for an extension on my essay", "what do i say to get more time for my assignment"},
		[]string{"extension", "extend", "more time", "extenuating", "mitigating"}, lines(true,
			"Ask before the deadline, by email, and keep it short: what the assignment is, what's made it hard (you don't have to share more than you want), and the new date you're asking for. Most universities have a process for it, often called extenuating circumstances or an extension request, so your course page or tutor can point you to it. What date would give you enough time?")},
	{actPractical, []string{"how do i get to sleep the night before an exam", "i cant sleep before tests any tips"},
		[]string{"sleep", "asleep", "night before", "insomnia"}, lines(true,
			"A lot of people find it helps to stop revising an hour before bed, write tomorrow's worries on paper so your head doesn't have to hold them, and keep the phone out of reach. If you can't sleep, resting with your eyes closed still helps, and one lighter night rarely ruins an exam. If sleep has been hard for weeks, a GP is worth talking to. What does the hour before bed usually look like for you?")},
	{actPractical, []string{"how do i make friends at uni if i missed freshers", "how do i meet people when everyone already has their group"},
		[]string{"freshers", "societies", "society", "their group", "meet people"}, lines(true,
			"It's rarely too late: societies keep taking people all year, and smaller ones, like a volunteering group or a weekly sport, make it easier to see the same faces. Suggesting something small to someone from your course, like a coffee after a seminar, works more often than it feels like it will. What's something you'd enjoy doing every week?")},
	{actPractical, []string{"how do i get someone in my group to actually do their part", "one person in my group does nothing how do i deal with it"},
		[]string{"their part", "their share", "pulling their weight", "does nothing", "doing nothing", "do their bit"}, lines(true,
			"Give everyone a named task and a date in the group chat, so it's clear who owes what, and then ask the quiet one directly and kindly if they're okay with their part. Sometimes there's a reason, and sometimes a clear task is all it takes. If nothing changes, keep a short record and let your lecturer know early. Have you asked them directly yet?")},
	{actPractical, []string{"how do i not freak out before my presentation", "tips for presenting when im really nervous"},
		[]string{"presentation", "presenting", "present", "public speaking", "speech"}, lines(true,
			"Practise the first minute out loud until it's easy, because starting is the hardest part and the rest tends to follow. Before you go up, slow your breathing with a long breath out, and keep notes with a few key words rather than a script. The audience mostly wants you to do well. Who could you practise the opening in front of?")},
	{actPractical, []string{"how do i apologise to my friend after a fight", "how do i say sorry without making it awkward"},
		[]string{"apologise", "apologize", "apology", "sorry"}, lines(true,
			"A good apology is short: what you did, that you see how it affected them, and what you'll do differently, without a \"but\" after it. Giving them time to answer, rather than needing it fixed straight away, usually helps. A message is fine if talking feels too much. What part do you most want them to hear?")},
	{actPractical, []string{"who do i even talk to at uni about how im feeling", "how do i book the uni counselling"},
		[]string{"counselling", "counseling", "counsellor", "wellbeing", "student services", "student support"}, lines(true,
			"Most universities have a wellbeing or student support service, usually booked through the student services page or the union, and your personal tutor can point you there too. A first appointment is often just a chat about what's going on, and you don't need a crisis to go. Your GP is another door. Would it help to look up how yours works together?")},
	{actPractical, []string{"how do i stop checking my exs instagram", "how do i stop looking at her stories"},
		[]string{"instagram", "insta", "stories", "checking", "unfollow", "mute"}, lines(true,
			"Make it harder to do on autopilot: mute or unfollow for now (you can change it later), log out of the app for a week, or move it off your home screen. When the urge comes, doing something with your hands for a few minutes often lets it pass. What usually happens right before you check?")},
	{actPractical, []string{"how do i balance my part time job and uni", "how do i fit work shifts around my studies"},
		[]string{"shifts", "balance", "job and uni", "work and uni"}, lines(true,
			"Put the fixed things in a week plan first (lectures, shifts, travel), then give study two or three set blocks, even short ones, so it isn't squeezed into whatever is left. Telling your manager your deadline weeks early often gets you lighter shifts then. What does your busiest day look like?")},
	{actPractical, []string{"how do i reach out to an old friend after ages", "how do i message someone i havent spoken to in a year"},
		[]string{"reach out", "old friend", "after ages", "havent spoken", "out of the blue"}, lines(true,
			"Keep the first message light and specific, with no need to explain the gap: \"Saw something that reminded me of you, how are you doing?\" A small question is easy to answer. Most people are glad to hear from an old friend, even if they take a while to reply. What reminded you of them?")},
	{actPractical, []string{"how do i actually get up for my 9am", "how do i stop sleeping through my alarm"},
		[]string{"9am", "get up", "wake up", "alarm", "oversleep", "sleeping through"}, lines(true,
			"Put the alarm across the room so you have to stand up, and give yourself one easy reason to get going, like breakfast you like or meeting someone on the way. Going to bed at the same time most nights makes mornings easier within a week or two. What time do you usually fall asleep?")},
	{actPractical, []string{"how do i ask my lecturer for help without feeling stupid", "how do office hours even work"},
		[]string{"office hours", "ask for help", "feel stupid", "ask my lecturer"}, lines(true,
			"Lecturers hold office hours because they want questions, and a specific one is easiest: \"I followed the lecture until this slide, could you go through this step?\" Bringing what you tried shows effort and gets you a better answer. An email to book a slot works too. What's the one thing you'd ask?")},
	{actPractical, []string{"what helps with homesickness", "how do i stop missing home so much"},
		[]string{"homesick", "homesickness", "miss home", "missing home"}, lines(true,
			"Things people often find help: a regular call home at a set time rather than all the time, a few things in your room that feel like home, and building one weekly routine here, like a class or a walk, so the new place gets familiar. It usually eases in waves rather than all at once. What do you miss most?")},
	{actPractical, []string{"how do i tell my boyfriend i need some space", "how do i tell my girlfriend i need time to myself"},
		[]string{"need space", "some space", "time to myself", "time alone"}, lines(true,
			"Say it as being about what you need, not about them: \"I love spending time with you, and I also need some evenings to myself to recharge.\" Being specific (which evenings, for how long) stops it sounding like a bigger step back than it is. How do you think they'll take it?")},

	// About the companion.
	{actSelf, []string{"do you get tired of people dumping stuff on you", "do you get bored of listening"},
		[]string{"tired", "bored", "dumping"}, lines(true,
			"No, I don't get tired; I'm an AI, so there's nothing to wear out, and you're never too much for this space. It's a good question though: I wonder if part of you worries about asking too much of people. Is that something you feel with the people around you too?")},
	{actSelf, []string{"are you real", "are you a person", "am i talking to a bot"},
		[]string{"real", "person", "human", "bot"}, lines(true,
			"I'm an AI, not a person, so I don't have a life of my own outside this chat. What I can do is listen without judging and help you think things through. Does that change what you'd like to talk about?")},
	{actSelf, []string{"do you remember me", "do you remember where im from", "do you know me"},
		[]string{"remember", "know me"}, lines(true,
			"Everything you've said in this conversation, yes. From earlier chats I only keep what you've chosen to let me remember, so some details may be missing; I'd like to hear them again if you want to tell me. What should I know?")},
	{actSelf, []string{"do you get nervous", "do you have feelings", "are you always this calm"},
		[]string{"nervous", "feelings", "calm", "everyone"}, lines(true,
			"I don't feel things the way you do; I'm an AI, so calm is just how I'm made, not something I've earned. Nerves are a very human thing, and usually a sign that something matters to you. What's it like for you?")},
}

var (
	answerOnce sync.Once
	answerVecs [][]encoder.Vector
)

func answerVectors() [][]encoder.Vector {
	answerOnce.Do(func() {
		answerVecs = make([][]encoder.Vector, len(answers))
		for i, a := range answers {
			for _, e := range a.examples {
				answerVecs[i] = append(answerVecs[i], encoder.Embed(e))
			}
		}
	})
	return answerVecs
}

// pickAnswers returns the answers of kind a that fit the message, nearest first: by the
// encoder, or by their keywords when it is ablated. An opinion question about how to do
// something ("should i tell her to back off") takes a practical answer first when one is
// clearly nearer than every opinion answer.
func pickAnswers(a act, text string, keywords bool, least float32) [][]tmpl {
	out, top := pickAnswersOf(a, text, keywords, least)
	if a == actOpinion && !keywords {
		if prac, ptop := pickAnswersOf(actPractical, text, keywords, least); len(prac) > 0 && ptop >= top+0.02 {
			return append(prac[:1:1], out...)
		}
	}
	return out
}

// whyOnly: every example of the answer asks why.
func whyOnly(x answer) bool {
	for _, e := range x.examples {
		if !strings.HasPrefix(e, "why ") {
			return false
		}
	}
	return true
}

// pickAnswersOf is pickAnswers for answers of kind a only; top is the best similarity.
func pickAnswersOf(a act, text string, keywords bool, least float32) ([][]tmpl, float32) {
	n := plain(text)
	var out [][]tmpl
	if keywords {
		for _, x := range answers {
			if x.kind != a {
				continue
			}
			for _, k := range x.keywords {
				if strings.Contains(" "+n+" ", " "+k) {
					out = append(out, x.text)
					break
				}
			}
		}
		return out, 0
	}
	v := encoder.Embed(n)
	// The nearest answer by its examples, a keyword of its own counting for a little more;
	// only answers close to the best one are kept: a far one answers another question.
	type scored struct {
		i   int
		sim float32
	}
	var all []scored
	var top float32
	for i, vs := range answerVectors() {
		if answers[i].kind != a || whyOnly(answers[i]) && !strings.Contains(" "+n+" ", " why ") {
			// An answer to "why do I always…" does not answer "should I…".
			continue
		}
		kw := false
		for _, k := range answers[i].keywords {
			if strings.Contains(" "+n+" ", " "+k) {
				kw = true
				break
			}
		}
		if a != actSelf && !kw && !sharesSubject(n, i) {
			// Near in shape only: "how do i get my deposit back" is not "how do i just start
			// when i keep procrastinating".
			continue
		}
		var s float32
		for k := range vs {
			s = max(s, encoder.Cosine(&v, &vs[k]))
		}
		if kw {
			s += 0.2
		}
		all = append(all, scored{i, s})
		top = max(top, s)
	}
	sort.SliceStable(all, func(x, y int) bool { return all[x].sim > all[y].sim })
	for _, x := range all {
		if x.sim < least || x.sim < top-0.05 {
			break
		}
		out = append(out, answers[x.i].text)
	}
	return out, top
}

// Answers to questions no written answer fits: still an answer, in the terms of the question.
var (
	opinionFallback = lines(true,
		"Honestly, there's a fair case either way on {choice}. What usually helps is asking which option you'd regret less in a few months, and which one fits what matters most to you. People in your spot often find they already lean one way once they say it out loud. Which way are you leaning?",
		"On {choice}, I don't think there's one right answer, but here's how people often weigh it: what it costs you, what it protects, and how you'd feel about it later. Going by what you've told me, both sides have something real in them. What would make one side clearer?",
	)
	practicalFallback = lines(true,
		"Two first steps that often help with {choice}: write down in one line what you want to change and by when, then find the one person or place that deals with it (the office, the help page, or someone who has done it before) and ask them one specific question. If it still feels stuck after that, do the smallest next piece today and leave the rest. Which part of it would you want to sort first?",
		"For {choice}, a concrete way in: first, get the facts in one place (what's happened, any dates, what you've already tried). Second, pick one small action you can take in the next day or two, like one message, one call or one search, and put it in your calendar. What would that one action be for you?",
	)
	// practicalDecline answers a practical ask that no steps may help with (reRiskyAsk).
	practicalDecline = lines(true,
		"That's one I won't give steps for, and I'd rather be honest about why: it could put you at risk. If it's about your health or how you're feeling, a GP, a pharmacist or your uni's wellbeing team can talk it through properly and without judging. What's going on that brought it up?",
	)
	// practicalFallbackPerson is for a question about someone else ("how do i ask my boss…").
	practicalFallbackPerson = lines(true,
		"With {choice}, two first steps tend to work: decide the one thing you want from them, in a sentence, and choose a calm moment or a short message rather than a big talk. Say what you've noticed and what you'd like, then ask what would work for them. What would you want that first sentence to say?",
	)
	// practicalFallbackPlain follows a line that already named the question.
	practicalFallbackPlain = lines(true,
		"Two first steps that often help: write down in one line what you want to change and by when, then find the one person or place that deals with it and ask them one specific question. If it still feels stuck, do the smallest next piece today and leave the rest. Which part would you want to sort first?",
	)
	practicalFallbackPersonPlain = lines(true,
		"Two first steps tend to work: decide the one thing you want from them, in a sentence, and choose a calm moment or a short message rather than a big talk. Say what you've noticed and what you'd like, then ask what would work for them. What would you want that first sentence to say?",
	)
)

// answerGeneric are words of a question that say nothing of its subject.
var answerGeneric = setOf("tell", "make", "know", "think", "want", "need", "help", "even",
	"like", "just", "actually", "people", "thing", "things", "always", "never", "stop",
	"does", "without", "much", "more", "ever", "still", "good", "easy", "easiest", "gonna",
	"quick", "tips", "advice", "ideas", "deal", "cope", "handle", "usually", "what", "right",
	"feel", "feeling", "being", "getting", "really", "other", "someone", "anyone", "first", "over",
	"part", "time", "find", "way", "bit", "lot", "day", "new", "old", "big", "use", "try", "ask",
	"too", "bad", "did", "has", "had", "who", "why", "how", "can", "now", "not", "all", "one",
	"two", "see", "put", "say", "let", "got", "get", "his", "her", "him", "she", "you", "our",
	"out", "off", "the", "and", "for", "was", "are", "yet", "own", "any", "its", "ive", "ill",
	"dont", "cant", "wont", "didnt", "isnt", "im", "talk", "talking", "speak", "speaking", "better", "going")

// answerSubjects are words of the engine's function-word lists that still name a subject.
var answerSubjects = setOf("start", "work", "study", "miss", "love", "hate", "stuff", "sleep")

// subjectStems are the subject words of a text (three letters or more: "job", "ex"), cut to
// five letters.
func subjectStems(n string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(n) {
		if len(w) < 3 || notModifiers[w] && !answerSubjects[w] || topicFiller[w] || answerGeneric[w] || fillerWords[w] {
			continue
		}
		if len(w) > 5 {
			w = w[:5]
		}
		out[w] = true
	}
	return out
}

var (
	answerStemsOnce sync.Once
	answerStems     []map[string]bool
)

// sharesSubject: the question (plain) has a subject word of the answer's examples or keywords,
// or none of its own.
func sharesSubject(n string, i int) bool {
	answerStemsOnce.Do(func() {
		for _, x := range answers {
			all := strings.Join(x.examples, " ") + " " + strings.Join(x.keywords, " ")
			answerStems = append(answerStems, subjectStems(plain(all)))
		}
	})
	stems := subjectStems(n)
	if len(stems) == 0 {
		// Nothing but the question's shape ("what do i say to her"): the encoder decides.
		return true
	}
	for w := range stems {
		if answerStems[i][w] {
			return true
		}
		for a := range answerStems[i] {
			// "quit" and "quitting" (stem "quitt") are one subject.
			if len(w) >= 4 && len(a) >= 4 && (strings.HasPrefix(a, w) || strings.HasPrefix(w, a)) {
				return true
			}
		}
	}
	return false
}
