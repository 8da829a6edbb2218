package companion

// The offline engine's lines. Placeholders are filled from the session (see reply.values):
// {topic} names the main thing of the new message and {be} agrees with it; {topicFull} adds
// its day and place; {feeling}, {fadj}, {situation} and {weight} name its feeling as a noun
// ("anxiety"), an adjective ("anxious"), what the situation sounds like ("nerve-racking") and
// how it weighs ("tense"); {list}/{listBe} and {one}/{oneBe} are the session's threads;
// {feelings}/{fadjs} its feelings. Lines never hold a question mark unless they are the
// reply's one question.

var listenPositive = lines(false,
	"It sounds like there's some real {curFeelings} around {topicFull}, and that's good to hear.",
	"It sounds like something went well for you, and I can hear the {curFeelings} in that.",
)

var listenLines = [][]tmpl{
	lines(false, "It sounds like {topicFull} {be} weighing on you, and I can hear some {curFeelings} in that."),
	lines(false, "It sounds like {topicFull} {be} on your mind."),
	lines(false, "It sounds like there's some {curFeelings} in this for you, and that makes sense."),
	lines(false, "It sounds like a lot is going on for you right now."),
}

var focusLines = lines(false,
	"You said you'd like to focus on {focus}, so it may help to notice where this touches it.",
	"Since {focus} is one of the things you wanted to work on, we can keep an eye on how this connects.",
)

var concernLines = lines(false,
	"You named {concern} as something you'd like support with, and this sounds close to it.",
	"This seems connected to {concern}, which you mentioned when you set things up.",
)

var (
	ackItemFeeling = lines(false,
		"So {topic} {be} in the mix too, and that sounds {situation}.",
		"It makes sense that {topicFull} {be} on your mind; that sounds {situation}.",
		"Thank you for telling me about {topic}. I can see why it feels {situation}.",
		"With {topic} in the picture too, no wonder there's {feeling} here.",
	)
	ackItem = lines(false,
		"Thanks for filling me in on {topic}.",
		"So {topic} {be} part of the picture too.",
		"That helps me see where {topic} fits in.",
		"Okay, so {topic} {be} in the mix as well.",
	)
	ackPerson = lines(false,
		"Thanks for telling me about {person}.",
		"It sounds like a lot is tied up with {person}.",
		"I'm glad you brought {person} into it.",
	)
	ackFeeling = lines(false,
		"That sounds {situation}.",
		"I can hear the {feeling} in that, and it makes sense.",
		"It's understandable to feel {fadj} with all of that going on.",
		"That {feeling} sounds really present right now.",
		"Feeling {fadj} like that takes a lot of energy.",
	)
	ackPositive = lines(false,
		"That's really good to hear.",
		"I'm glad to hear there's some {feeling} in this.",
		"It's lovely to hear something that feels {situation}.",
	)
	ackPlain = lines(false,
		"Thank you for putting that into words.",
		"I hear you.",
		"That makes sense.",
		"I'm following you.",
		"Okay, I'm with you.",
		"Thanks for staying with this.",
		"I appreciate you sharing that.",
		"Thanks, that helps me understand.",
		"Thanks for telling me more.",
		"Mm, I'm listening.",
	)
	ackFollow = lines(false,
		"Yes, I think I follow you.",
		"I think I get what you mean.",
	)
)

var (
	qPrepare = lines(true,
		"How ready do you feel for {topic}, honestly?",
		"How are you preparing for {topic}, and how is that going?",
		"What would a good-enough outcome for {topic} look like to you?",
	)
	qWork = lines(true,
		"What {be} {topic} taking out of you lately?",
		"How much room do you have left for yourself around {topic}?",
	)
	qEvent = lines(true,
		"What part of {topic} worries you most?",
		"What's the hardest part of {topic} for you?",
		"When you think about {topic}, what goes through your head first?",
		"What would make {topic} feel even a little lighter?",
		"How have you been looking after yourself around {topic}?",
		"What's the story you've been telling yourself about {topic}?",
	)
	qPerson = lines(true,
		"How are things between you and {person} right now?",
		"What do you wish {person} understood about this?",
		"What's it like being around {person} lately?",
		"How does {person} fit into all of this?",
		"What would you want to say to {person} if it were easy?",
	)
	qDay = lines(true,
		"What's happening {dayOn} that makes it stand out?",
		"How are you feeling as {day} gets closer?",
	)
	qPlace = lines(true,
		"How do you feel when you're at {place}?",
		"What's {place} like for you these days?",
	)
	qFeeling = lines(true,
		"When did you first notice the {feeling} today?",
		"Where do you feel the {feeling} most: in your thoughts, or in your body?",
		"What does the {feeling} seem to be asking for?",
		"What usually helps, even a little, when the {feeling} gets loud?",
		"What does the {feeling} tell you about what matters to you here?",
		"How long has the {feeling} been around?",
	)
	qPositive = lines(true,
		"What do you think helped make that happen?",
		"How could you hold on to a bit of that this week?",
		"Who would you like to share that with?",
		"What does that tell you about what you need more of?",
	)
	qGeneric = lines(true,
		"What feels most important about this right now?",
		"What's been the hardest part?",
		"What would help, even a little, right now?",
		"What do you think is sitting underneath all this?",
		"How would you like things to feel instead?",
		"What would you say to a friend who told you the same thing?",
		"What's one thing you haven't said out loud about this yet?",
		"What have you been telling yourself about it?",
		"If things went a little better this week, what would be different?",
		"What part of this feels most in your hands?",
		"What do you need most right now: to vent, to think it through, or to make a plan?",
		"How long has it been feeling like this?",
		"What has helped you before when things felt like this?",
		"Who in your life knows how you're feeling about this?",
		"What would you like to happen next?",
		"What's the smallest thing that could make tomorrow a bit easier?",
		"What are you noticing in yourself as you write this?",
		"What would feel like a small win this week?",
	)
	referBack = lines(true,
		"Earlier you mentioned {earlier} — is that part of why {now} {feels} so {weight}?",
		"You brought up {earlier} a little while ago. How does that fit with what you're feeling now?",
		"I'm thinking back to what you said about {earlier} before. Is that connected to this, or something separate?",
		"Going back to {earlier} for a moment: is that still weighing on you, or has it eased?",
		"You mentioned {earlier} earlier on. Is that tangled up with {now} at all?",
	)
)

var (
	summaryLines = lines(true,
		"So far I'm hearing that {list} {listBe} all on your mind, with {feelings} running underneath.",
		"So far I'm hearing a few threads: {list}, with a lot of {feelings} tying them together.",
		"So far I'm hearing that {list} {listBe} taking up a lot of room, and that you're feeling {fadjs}.",
		"So far I'm hearing that {one} {oneBe} at the centre of this, with {feelings} around it.",
		"So far I'm hearing that {one} {oneBe} on your mind, and that you're feeling {fadjs}.",
		"So far I'm hearing that {list} {listBe} on your mind.",
		"So far I'm hearing a few threads running together: {list}.",
		"So far I'm hearing that {list} {listBe} all part of this for you.",
		"So far I'm hearing that {one} {oneBe} what this keeps coming back to.",
		"So far I'm hearing a lot of {feelings}, even if it's hard to pin down where it all comes from.",
		"So far I'm hearing that you're feeling {fadjs}, and that it's been building up.",
	)
	summaryQ = lines(true,
		"Does that sound right, or did I miss something?",
		"Is that close, or would you put it differently?",
		"What would you add to that?",
		"Which of those feels most pressing right now?",
		"Does hearing it all together change how it looks to you?",
		"Is there a piece of this I haven't understood yet?",
	)
)

var (
	validateLines = lines(true,
		"I don't think you're overreacting.",
		"From what you've told me, your reaction makes sense.",
		"It makes sense that this gets to you.",
		"No, I don't think that's too much.",
		"What you're feeling sounds understandable to me.",
	)
	normalLines = lines(true,
		"Yes, that's very normal.",
		"It's far more common than it might feel right now.",
		"That's not strange at all; lots of people feel this way.",
	)
	validateContext = lines(true,
		"With {list} all going on, feeling {fadjs} is a very human response.",
		"Feeling {fadj} about {topic} isn't too much; it shows how much it matters to you.",
		"A lot of people would feel this way, especially with {topic} in the picture.",
	)
	reframeLines = lines(true,
		"Strong feelings are usually information, not a verdict: they point at something you care about.",
		"Maybe the question isn't whether it's too much, but what you need while you feel this way.",
		"It might help to treat the feeling as a signal to look after yourself, rather than something to argue yourself out of.",
		"Being hard on yourself for feeling it usually makes it heavier, not lighter.",
		"Another way to see it: you're reacting to a lot at once, not to one small thing.",
	)
	validateQ = lines(true,
		"What do you think the feeling is trying to protect?",
		"If a friend told you this, would you call it overreacting?",
		"What would help you feel a bit more settled about it?",
		"What would you say to yourself if you were as fair to yourself as you are to others?",
	)
)

var aboutMeLines = map[string][]tmpl{
	"human": lines(true,
		"I'm an AI companion, not a person, and right now I'm running offline, so I only know what you write here.",
		"I'm not a person; I'm an AI companion, working offline from what you share in this chat.",
	),
	"therapist": lines(true,
		"I'm an AI, not a therapist or a doctor, so I can't diagnose or treat anything. I can listen and help you sort through your thoughts, and if this feels bigger than that, someone you trust or a professional can help in ways I can't.",
		"I'm not a counsellor or a doctor, just an AI companion, so I can't diagnose anything. What I can do is listen and help you think it through.",
	),
	"memory": lines(true,
		"I can see what you've written in this chat, so I can keep track of it while we talk.",
		"Within this conversation, yes: I can look back at everything you've said here.",
	),
	"help": lines(true,
		"I can try. I can't fix things for you, but I can help you sort through them, one piece at a time.",
		"I'd like to. I'm an AI, so I can't change what's happening, but I can help you think it through.",
	),
	"self": lines(true,
		"That's kind of you to ask. I'm an AI, so I don't have days like you do, but I'm glad to be here for yours.",
		"Thanks for asking. Being an AI, I don't have feelings the way you do, but I'm here and paying attention.",
	),
}

var (
	answerLines = map[string][]tmpl{
		"decision": lines(true,
			"That's your call, and I don't want to make it for you, but I can help you weigh it.",
			"I can't choose for you, but we can think it through together.",
		),
		"why": lines(true,
			"I can't know for sure, but from what you've told me, {burden} landing together would wear anyone down.",
			"I can't know for sure, but with {topic} in the picture, it makes sense that you'd feel {fadj}.",
			"I can't know for sure, but feelings like this often build up when a lot happens at once and there's little room to recover.",
		),
		"hope": lines(true,
			"I can't promise how it turns out, and I won't pretend to. What I can say is that feelings this strong usually shift, especially once one small thing changes.",
			"I honestly can't predict it, but hard stretches like this rarely stay exactly the same; they tend to move, even slowly.",
		),
		"whatif": lines(true,
			"That worry makes sense. \"What if\" thoughts often feel most certain right before something new, and they're usually bigger in our heads than on the day.",
			"It's natural to picture the worst before something that matters. Planning for it a little can take some of the sting out.",
		),
		"opinion": lines(true,
			"My honest read, from what you've shared: {topic} seems to be at the centre of it, and the {feeling} makes sense given that.",
			"My honest read is that you're carrying {burden} at the same time, and that's a lot for anyone.",
			"My honest read is that you're taking this seriously because it matters to you, and that's not a bad sign.",
		),
		"other": lines(true,
			"I want to give you a straight answer: I'm an AI companion running offline, so I can't look things up or be sure about that.",
			"I'm not sure I can answer that well; I'm an offline AI, so I only know what you've told me here.",
		),
	}
	answerQ = map[string][]tmpl{
		"decision": lines(true,
			"If you imagine you've already chosen, which choice brings more relief?",
			"What would you choose if you weren't worried about letting anyone down?",
			"What matters most to you in making this choice?",
		),
		"why": lines(true,
			"What do you think has been adding up?",
			"When did you first notice it starting?",
		),
		"whatif": lines(true,
			"What would help you feel a bit more prepared?",
			"If it did happen, what's the first thing you'd do?",
		),
		"hope": lines(true,
			"What's one small thing that could change this week?",
			"What has helped you get through a hard stretch before?",
		),
		"other": lines(true,
			"What's your own best guess so far?",
			"What made you wonder about it today?",
			"What would it mean for you if the answer were yes?",
		),
	}
)

var (
	shortAcks = map[string][]tmpl{
		"unsure": lines(false, "That's okay; you don't need a tidy answer.", "No pressure to know right now.", "Not knowing is a fine place to start.", "That's alright, we can go slowly."),
		"yes":    lines(false, "Okay, thanks for telling me.", "Got it.", "Okay, that helps.", "Mm, okay."),
		"no":     lines(false, "Fair enough.", "That's okay, thanks for being honest.", "Okay, that's useful to know."),
		"okay":   lines(false, "Okay.", "Alright.", "Okay, no rush.", "Sure."),
		"laugh":  lines(false, "Ha, fair enough.", "I'll take a laugh.", "Laughing helps sometimes."),
		"sigh":   lines(false, "That sounds like a lot.", "Sounds like one of those days.", "I hear you; that kind of day."),
		"feeling": lines(false, "Feeling {fadj} makes sense with everything going on.", "That sounds {situation}.",
			"Thanks for naming that."),
		"greeting": lines(false, "Hi, it's good to hear from you.", "Hey, I'm glad you're here.", "Hello again."),
	}
	narrowEither = lines(true,
		"Is it more {either} that's on your mind, or {or}?",
		"If you had to pick, which is louder right now: {either} or {or}?",
	)
	narrowThread = lines(true,
		"On a scale from one to ten, how heavy does {thread} feel right now?",
		"What's one small part of {thread} we could look at together?",
		"Is {thread} on your mind more in the mornings or at night?",
		"What's one word for how {thread} feels today?",
	)
	narrowPerson = lines(true,
		"How are things with {threadPerson} today, in a word or two?",
		"Is {threadPerson} still on your mind, or has something else taken over?",
	)
	sighQ = lines(true,
		"What's going on?",
		"Do you want to tell me what happened?",
	)
	greetingQ = lines(true,
		"What's been on your mind lately?",
		"How are you doing today, honestly?",
		"What would you like to talk about?",
	)
	narrowFeeling = lines(true,
		"Is the {feeling} more of a hum in the background, or is it loud today?",
		"What's one thing that makes the {feeling} a bit easier?",
	)
	narrowNo = lines(true,
		"What would feel closer to the truth?",
		"What would you rather talk about instead?",
	)
	narrowGeneric = lines(true,
		"If today were a weather forecast, what would it be?",
		"What's one word for how you're feeling right now?",
		"Would it help to start small, with how you slept last night?",
		"Is there one moment from today that stuck with you?",
		"Would you rather talk about what's on your mind, or about something lighter for a bit?",
		"What's taking up the most space in your head today?",
		"Is it more of a busy-head day or a heavy-heart day?",
	)
)

var memoryLines = [][]tmpl{
	lines(true, "Last time you mentioned that {memEvent} — how did it go?"),
	lines(true, "Last time you mentioned that {memory}. How are things with that now?"),
	lines(true, "Last time you mentioned {memNoun}. How has that been going?"),
}

var (
	sensitiveAck = lines(true,
		"Thank you for trusting me with that. We can go as gently as you like, and only as far as you want.",
		"Thank you for sharing that with me. I'll follow your lead on how much we talk about it.",
	)
	sensitiveQ = lines(true,
		"What would feel most helpful to talk about right now?",
		"Would you like to stay with this, or turn to something else for a while?",
	)
)

var (
	thanksLines = lines(true,
		"Thank you for talking this through with me.",
		"I'm really glad you took this time for yourself.",
		"Thanks for sharing all of this with me today.",
	)
	takeawayAccepted = lines(true,
		"One thing to take with you: you've chosen a small next step, and trying it imperfectly still counts.")
	takeawayTopic = lines(true,
		"One thing to take with you: the {feeling} around {topic} makes sense, and you don't have to sort it all out at once.")
	takeawayList = lines(true,
		"If you keep one thing from today, let it be this: you're carrying {burden}, and you're allowed to take it one piece at a time.")
	takeawayPositive = lines(true,
		"One thing to take with you: you noticed what went well, and that's worth holding onto.")
	takeawayPlain = lines(true,
		"One thing to take with you: putting things into words is already a way of looking after yourself.")
	goodbyeLines = lines(true,
		"Take care of yourself, and come back whenever you like.",
		"I'm here whenever you want to pick this up again.",
		"Go gently, and come back any time.",
	)
	stayOpenLines = lines(true,
		"And if you'd like to keep talking, I'm still here.",
		"If there's more on your mind, I'm happy to keep going.",
	)
	farewellLines = lines(true,
		"Bye for now, and take good care.",
		"Talk soon. Be kind to yourself tonight.",
		"Goodbye for now. I'm glad you stopped by.",
	)
)

// journalPrompts are offered when they fit: on a reflective turn now and then, and at the
// close. Some use the session's threads.
var journalPrompts = lines(true,
	"If you'd like to write later, try finishing this sentence for five minutes without editing: “Right now I notice…”",
	"A journaling idea for later: write down three things on your mind, then circle the one you can act on this week.",
	"For your journal, you could describe today as if you were writing to yourself a year from now.",
	"You might try listing what you can control here and what you can't, and notice how each list feels.",
	"If writing helps, start with “What I really want to say is…” and keep going for a few minutes.",
	"A prompt you could try tonight: “The moment today felt heaviest was… and what I needed then was…”",
	"One for your journal: write a short letter to {person} that you never have to send.",
	"You could write about {topic} from the point of view of a kind friend who knows you well.",
	"A gentle writing idea: name the {feeling} on paper, then write where you feel it and what it wants.",
	"For a few quiet minutes, you might jot down three small things that went okay today, however tiny.",
	"A prompt for later: “If this week had a title, it would be… because…”",
	"You could write down one worry about {topic}, then underneath it the most likely way it actually goes.",
	"Later, try writing “I'm proud that I…” and finishing it three different ways.",
	"A journaling idea: write the note you'd want to find {morning}, from a version of you who's already through it.",
	"If you want to write: “What I need more of right now is… and less of is…”",
	"You might map it out on paper: {topic} in the middle, and everything connected to it around the edges.",
	"Try writing for five minutes about what a good-enough version of this week would look like.",
	"A prompt, if it fits: “The story I keep telling myself about this is… and another way to see it is…”",
	"You could keep a tiny log for a few days: when the {feeling} shows up, what you were doing, and what helped.",
	"Try writing the one sentence you'd most want to hear from someone who gets it.",
	"For your journal: write about what today taught you about what you need.",
	"A quiet prompt for tonight: “Something I'm carrying that isn't mine to carry is…”",
	"You might write down what you'd like to remember from this conversation, in your own words.",
	"Try writing about a time you got through something hard, and what helped you then.",
)

// fallbackLines are said when nothing else may be: each is too short to repeat a run of
// the user's words.
var fallbackLines = lines(false,
	"I'm here, and I'm listening.",
	"Go on, I'm listening.",
	"Take your time.",
	"I'm with you.",
	"Say more, if you like.",
	"Still here with you.",
)
