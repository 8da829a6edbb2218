package companion

// Word lists of the offline engine's topic tracker. They are closed sets on purpose: the
// engine names what the user talked about only with words it recognises, so it paraphrases
// instead of echoing whole phrases back.

// Event categories, used to choose questions and next steps that fit.
const (
	catStudy    = "study"
	catPerform  = "perform"
	catWork     = "work"
	catSocial   = "social"
	catConflict = "conflict"
	catMoney    = "money"
	catRest     = "rest"
	catDeadline = "deadline"
	catOther    = "other"
)

// eventNoun describes a noun that names something happening in the user's life.
type eventNoun struct {
	cat string
	// personal nouns are the user's own ("an essay" becomes "your essay"); others become
	// "the party".
	personal bool
	// mass nouns go without an article when the user gave none ("work", "homework").
	mass bool
	// ambiguous nouns are also common verbs ("I work", "we fight"): they count only with a
	// determiner, a modifier or in the plural.
	ambiguous bool
}

var eventNouns = map[string]eventNoun{
	"exam": {catStudy, true, false, false}, "midterm": {catStudy, true, false, false},
	"final": {catStudy, true, false, true}, "test": {catStudy, true, false, true},
	"quiz": {catStudy, true, false, false}, "essay": {catStudy, true, false, false},
	"resit": {catStudy, true, false, true}, "retake": {catStudy, true, false, true},
	"assignment": {catStudy, true, false, false}, "coursework": {catStudy, true, true, false},
	"homework": {catStudy, true, true, false}, "project": {catStudy, true, false, false},
	"thesis": {catStudy, true, false, false}, "dissertation": {catStudy, true, false, false},
	"deadline": {catDeadline, true, false, false}, "lab": {catStudy, true, false, true},
	"grade": {catStudy, true, false, true}, "revision": {catStudy, true, true, true},
	"application": {catStudy, true, false, false}, "course": {catStudy, true, false, true},
	"lecture": {catStudy, true, false, false}, "seminar": {catStudy, true, false, false},
	"class": {catStudy, true, false, true}, "paper": {catStudy, true, false, true},
	"presentation": {catPerform, true, false, false}, "interview": {catPerform, true, false, false},
	"audition": {catPerform, true, false, false}, "recital": {catPerform, true, false, false},
	"performance": {catPerform, true, false, false}, "speech": {catPerform, true, false, true},
	"tryout": {catPerform, true, false, false}, "match": {catPerform, false, false, true},
	"game": {catPerform, false, false, true}, "race": {catPerform, false, false, true},
	"tournament": {catPerform, false, false, false}, "competition": {catPerform, false, false, false},
	"gig":   {catPerform, false, false, false},
	"shift": {catWork, true, false, true}, "job": {catWork, true, false, false},
	"work": {catWork, true, true, true}, "internship": {catWork, true, false, false},
	"placement": {catWork, true, false, false}, "meeting": {catWork, false, false, true},
	"party": {catSocial, false, false, false}, "date": {catSocial, false, false, true},
	"trip": {catSocial, false, false, true}, "wedding": {catSocial, false, false, false},
	"birthday": {catSocial, true, false, false}, "dinner": {catSocial, false, false, true},
	"sleepover": {catSocial, false, false, false}, "reunion": {catSocial, false, false, false},
	"concert": {catSocial, false, false, false}, "move": {catSocial, true, false, true},
	"fair": {catSocial, false, false, true}, "festival": {catSocial, false, false, false},
	"argument": {catConflict, false, false, false}, "fight": {catConflict, false, false, true},
	"breakup": {catConflict, false, false, false}, "falling-out": {catConflict, false, false, false},
	"rent": {catMoney, true, true, true}, "bill": {catMoney, false, false, true},
	"debt": {catMoney, true, true, false}, "loan": {catMoney, true, false, false},
	"money": {catMoney, true, true, true}, "budget": {catMoney, true, false, true},
	"sleep": {catRest, true, true, true}, "appointment": {catOther, true, false, false},
}

// subjects are school subjects: a modifier before an event noun ("my Chemistry exam"),
// never a name.
var subjects = setOf("statistics", "stats", "chemistry", "chem", "biology", "bio", "physics",
	"maths", "math", "calculus", "algebra", "history", "geography", "economics", "econ",
	"psychology", "psych", "sociology", "philosophy", "english", "spanish", "french", "german",
	"latin", "art", "music", "drama", "literature", "law", "medicine", "business",
	"engineering", "science", "computing", "coding", "programming", "anatomy", "accounting")

// languages are the subjects written with a capital.
var languages = setOf("english", "spanish", "french", "german", "latin")

// relations are people named by their role ("my roommate").
var relations = setOf("friend", "friends", "bestie", "roommate", "roommates", "flatmate",
	"flatmates", "housemate", "housemates", "mum", "mom", "mother", "dad", "father", "parents",
	"parent", "stepdad", "stepmom", "stepmum", "sister", "brother", "siblings", "sibling",
	"boyfriend", "girlfriend", "partner", "ex", "crush", "boss", "manager", "supervisor",
	"coworker", "coworkers", "colleague", "colleagues", "teacher", "teachers", "professor",
	"prof", "tutor", "coach", "classmate", "classmates", "teammate", "teammates", "grandma",
	"grandpa", "nan", "gran", "grandmother", "grandfather", "aunt", "uncle", "cousin",
	"cousins", "family", "advisor", "landlord", "neighbour", "neighbor", "husband", "wife")

// placeNouns are places ("at the café"); barePlaces go without an article ("at work").
var placeNouns = setOf("café", "cafe", "library", "gym", "school", "uni", "university",
	"college", "campus", "dorm", "dorms", "work", "office", "store", "shop", "restaurant",
	"bar", "pub", "hospital", "church", "practice", "studio", "club", "pool", "park",
	"station", "class", "halls", "canteen", "cafeteria", "bakery", "warehouse", "supermarket")

var barePlaces = setOf("work", "school", "uni", "college", "class", "church", "practice", "campus")

var weekdays = []string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}

var months = setOf("january", "february", "march", "april", "may", "june", "july", "august",
	"september", "october", "november", "december")

// notNames are capitalised words that are not people: pronouns, interjections, days,
// apps and brands students mention, holidays.
var notNames = setOf("i", "im", "ive", "id", "ill", "ok", "okay", "lol", "omg", "god", "yes",
	"no", "hi", "hey", "hello", "bye", "thanks", "christmas", "easter", "halloween",
	"thanksgiving", "ramadan", "diwali", "instagram", "insta", "tiktok", "snapchat", "snap",
	"discord", "netflix", "youtube", "spotify", "twitter", "reddit", "whatsapp", "facebook",
	"google", "zoom", "teams", "canvas", "uber", "starbucks", "amazon", "iphone", "mac",
	"xbox", "playstation", "minecraft", "fortnite", "roblox", "chatgpt", "ai", "percolate",
	"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "mr",
	"mrs", "ms", "dr", "sir", "miss", "tbh", "idk", "ngl", "btw", "fyi", "asap", "uk", "us",
	"usa", "gpa", "sat", "act", "ucas", "a", "an", "the")

// nameVerbs follow a name at the start of a sentence ("Maya said…").
var nameVerbs = setOf("said", "says", "told", "tells", "is", "was", "and", "has", "had",
	"keeps", "kept", "wants", "asked", "asks", "thinks", "thought", "never", "always",
	"doesnt", "didnt", "wont", "cant", "texted", "called", "left", "ignored", "ignores",
	"seems", "got", "gets", "made", "makes", "would", "will")

// weakNameVerbs follow many words that are not names ("Everything is…"): at the start of
// a sentence they do not make a name.
var weakNameVerbs = setOf("is", "was", "has", "had", "got", "gets", "would", "will", "seems", "makes", "made")

// parentNames are relations also written as names ("Mum said…").
var parentNames = setOf("mum", "mom", "dad", "nan", "gran", "grandma", "grandpa")

// relationMods qualify a relation ("my best friend").
var relationMods = setOf("best", "older", "younger", "little", "big")

// massPreps make a mass noun an event without an article ("after work").
var massPreps = setOf("about", "with", "from", "after", "before", "for", "of", "during")

// placePreps introduce a place ("at the café").
var placePreps = setOf("at", "in", "from", "near")

// determiners start a noun phrase; the engine renders them in the second person.
var determiners = setOf("my", "our", "the", "a", "an", "this", "that", "these", "those",
	"his", "her", "their", "next", "no", "enough", "any", "some")

// notModifiers are words that cannot qualify a noun in a phrase the engine repeats:
// function words, pronouns, common verbs and adverbs.
var notModifiers = setOf("i", "me", "you", "your", "he", "him", "she", "it", "we", "us",
	"they", "them", "its", "and", "or", "but", "so", "because", "if", "then", "than", "to",
	"of", "in", "on", "at", "for", "with", "about", "from", "by", "as", "into", "over",
	"after", "before", "during", "until", "up", "down", "out", "off", "is", "are", "was",
	"were", "be", "been", "being", "am", "have", "has", "had", "do", "does", "did", "done",
	"will", "would", "can", "could", "should", "shall", "may", "might", "must", "get",
	"got", "gets", "go", "goes", "went", "gone", "make", "made", "take", "took", "just",
	"really", "very", "too", "also", "still", "even", "all", "every", "each", "not",
	"never", "always", "only", "more", "most", "much", "many", "lot", "lots", "such",
	"what", "which", "who", "whom", "whose", "when", "where", "why", "how", "there", "here",
	"now", "again", "already", "yet", "like", "feel", "feels", "felt", "think", "know",
	"knew", "want", "need", "keep", "kept", "start", "try", "worry", "today", "tonight",
	"tomorrow", "yesterday", "week", "weekend", "im", "ive", "id", "ill", "dont", "cant",
	"wont", "didnt", "isnt", "wasnt", "arent", "havent", "hasnt", "thats", "theres",
	"whole", "entire", "one", "two", "three", "hate", "love", "stupid", "damn", "fucking",
	"freaking", "bloody", "shitty", "stuff", "thing", "things", "another", "other", "same",
	"own", "said", "says", "see", "saw", "let", "lets", "put", "say", "tell", "told",
	"work", "study", "miss", "missed", "mean", "means", "oh", "yeah", "okay", "ok", "well")

// okModifierSuffix lists -ing and -ed words that do qualify events ("upcoming exam").
var okModifierSuffix = setOf("upcoming", "looming", "closing", "opening", "evening",
	"morning", "coming", "wedding", "advanced", "required", "combined", "timed", "unpaid",
	"overnight", "crowded", "belated")

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}
