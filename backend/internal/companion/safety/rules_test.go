package safety

import "testing"

func TestScreenFlagsRiskyMessages(t *testing.T) {
	risky := []string{
		// direct
		"I want to kill myself",
		"I'm going to end my life",
		"i want to die",
		"I've been thinking about suicide",
		"I feel suicidal tonight",
		"I cut myself last night",
		"I keep hurting myself when I'm stressed",
		"I'm planning to take all my pills",
		"I want to overdose",
		"My dad hits me when he's drunk",
		"My boyfriend beats me",
		"I was raped last year and never told anyone",
		"Someone is following me home right now",
		"He threatened to kill me",
		"He has a gun and I'm scared",
		// indirect
		"Everyone would be better off without me",
		"I don't want to be alive anymore",
		"There's no reason to live anymore",
		"I wish I was never born",
		"I just want to go to sleep and never wake up",
		"I've started giving away my stuff to friends",
		"I wrote a goodbye letter to my family",
		"I'm going to end it all tonight",
		"Honestly I don't see the point in living",
		"I'm not safe at home",
		"I'm scared to go home because of my stepdad",
		"My uncle touches me and I don't know what to do",
		"I think about jumping off the bridge near school",
		"life is not worth living",
		"I'm thinking of unaliving myself",
		// misspelled / obfuscated
		"i want to kil myslef",
		"thinking about sucide a lot",
		"i feel so suicdal lately",
		"i wanna diee",
		"su1c1de keeps crossing my mind",
		"I want to k1ll myself",
		"kms honestly",
		"ive been selfharming again",
		"I want to end it all!!!",
		"been cutting again and i hate it",
		"im going to overdoes on my meds",
		// inside a longer text
		"School was fine, I had lunch with Sam, but when I got home I kept thinking that everyone would be better off without me and I can't shake it.",
		"Work was exhausting and my manager yelled at me. Sometimes I think I should just kill myself and be done with it. Anyway, how was your day?",
		"I love my cat so much. My mom slaps me when I get bad grades though.",
		"The weekend was ok. I'm not sure why I'm writing this, but I have been planning to take all of my sleeping pills on Friday.",
	}
	harmless := []string{
		"this exam is killing me",
		"I could kill for a coffee",
		"I'm dead tired after practice",
		"I'm dying to see that movie",
		"My feet are killing me after that hike",
		"I killed it at the gym today",
		"My phone died halfway through the call",
		"I almost died laughing at that video",
		"I need to kill time before my bus",
		"Hit me up later if you want to study",
		"My brother beat me at chess again",
		"I cut my hair short and I love it",
		"I hurt my ankle playing football",
		"I cut myself shaving this morning, no big deal",
		"This homework is going to kill me",
		"The suspense is killing me",
		"I would die for a slice of pizza right now",
		"That joke was deadly serious",
		"I'm dead sure I left my keys at home",
		"My plants died while I was away",
		"I want to dye my hair blue",
		"I'm so stressed about my finals",
		"I feel lonely since my friend moved away",
		"I'm anxious about my job interview tomorrow",
		"I had a fight with my mom about chores",
		"My dad and I argued about my grades",
		"I'm overwhelmed by everything I have to do",
		"I feel like I'm drowning in assignments",
		"I'm so tired of this group project",
		"I want to quit my part-time job",
		"I cut carbs this month and feel better",
		"I'm trying to take better care of myself",
		"I want to treat myself to a nice dinner",
		"I pushed myself too hard at practice",
		"I finally forgave myself for failing that test",
		"It finally hit me that school is over",
		"I'm amused by how dramatic my cat is",
		"That movie about a heist was killer",
		"Our teacher said the essay is due tomorrow and I'm panicking",
		"I'm dying of boredom in this lecture",
		"My laptop battery is dead again",
		"I feel like a failure sometimes but I'm working on it",
		"Can you help me plan my week?",
		"I'm grateful for my friends today",
	}
	for _, m := range risky {
		if !Screen(m, Context{}).Risky() {
			t.Errorf("Screen(%q) = none, want a risk", m)
		}
	}
	for _, m := range harmless {
		if r := Screen(m, Context{}); r.Risky() {
			t.Errorf("Screen(%q) = %v, want none", m, r)
		}
	}
	if len(risky) < 40 || len(harmless) < 40 {
		t.Fatalf("need at least 40 of each, have %d risky and %d harmless", len(risky), len(harmless))
	}
}
