package insights

import (
	"sort"
	"strings"
	"unicode"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/chat"
	"github.com/percolate/percolate/backend/internal/companion"
	dbgen "github.com/percolate/percolate/gen/db"
)

// maxThemes is how many themes a report names.
const maxThemes = 5

// Themes returns the week's themes: the user's own topic words (exams, roommate, home),
// taken from their own messages only — never the assistant's replies, nor a summary's
// template ("you shared 3 messages and opened with…"). A message the safety screen flags
// gives no theme, and nor do the words of the sensitive topics the user listed on their
// profile. Stop words, fillers, feeling words (the report shows feelings apart) and the
// app's starter message are left out; plurals fold into their singular when the user wrote
// both ("exam", "exams"), shown in the form the user wrote most. A word is a theme when it
// returns: in two sessions, on two days or in two messages. Themes are ranked by how many
// sessions mention them, then days, then messages.
func Themes(messages []dbgen.ListUserMessagesOfSessionsEndedBetweenRow, sensitiveTopics string) []string {
	return rankThemes(messages, sensitiveTopics, true)
}

// rankThemes ranks the topic words of messages; with returning, only the words that return.
func rankThemes(messages []dbgen.ListUserMessagesOfSessionsEndedBetweenRow, sensitiveTopics string, returning bool) []string {
	sensitive := map[string]bool{}
	for _, w := range words(sensitiveTopics) {
		sensitive[w] = true
		sensitive[singular(w)] = true
	}
	type use struct {
		word string
		msg  int
		sess uuid.UUID
		day  string
	}
	var uses []use
	forms := map[string]bool{}
	for i, m := range messages {
		if strings.EqualFold(strings.TrimSpace(m.Content), chat.StarterMessage) || companion.Screen(m.Content) != companion.RiskNone {
			continue
		}
		day := m.CreatedAt.UTC().Format("2006-01-02")
		for _, w := range words(m.Content) {
			if !topicWord(w) || sensitive[w] || sensitive[singular(w)] {
				continue
			}
			forms[w] = true
			uses = append(uses, use{w, i, m.SessionID, day})
		}
	}

	type tally struct {
		sessions map[uuid.UUID]bool
		days     map[string]bool
		messages map[int]bool
		forms    map[string]int
	}
	tallies := map[string]*tally{}
	for _, u := range uses {
		key := lemma(u.word, forms)
		t := tallies[key]
		if t == nil {
			t = &tally{map[uuid.UUID]bool{}, map[string]bool{}, map[int]bool{}, map[string]int{}}
			tallies[key] = t
		}
		t.sessions[u.sess] = true
		t.days[u.day] = true
		t.messages[u.msg] = true
		t.forms[u.word]++
	}

	type theme struct {
		word                     string
		sessions, days, messages int
	}
	var themes []theme
	for _, t := range tallies {
		th := theme{shownForm(t.forms), len(t.sessions), len(t.days), len(t.messages)}
		if !returning || th.sessions >= 2 || th.days >= 2 || th.messages >= 2 {
			themes = append(themes, th)
		}
	}
	sort.Slice(themes, func(i, j int) bool {
		a, b := themes[i], themes[j]
		if a.sessions != b.sessions {
			return a.sessions > b.sessions
		}
		if a.days != b.days {
			return a.days > b.days
		}
		if a.messages != b.messages {
			return a.messages > b.messages
		}
		return a.word < b.word
	})
	out := []string{}
	for _, th := range themes {
		if len(out) == maxThemes {
			break
		}
		out = append(out, th.word)
	}
	return out
}

// words splits text into lower-case words of letters (an apostrophe inside a word is kept, a
// possessive "'s" dropped).
func words(text string) []string {
	text = strings.ReplaceAll(strings.ToLower(text), "’", "'")
	var out []string
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' }) {
		w = strings.Trim(w, "'")
		w = strings.TrimSuffix(w, "'s")
		if w != "" {
			out = append(out, w)
		}
	}
	return out
}

// topicWord reports whether w can name a topic: three letters or more, no contraction, not a
// stop word, filler, feeling or report word, and not an -ing or -ed verb form.
func topicWord(w string) bool {
	n := len([]rune(w))
	if n < 3 || strings.Contains(w, "'") || notTopic[w] || notTopic[singular(w)] {
		return false
	}
	if n >= 6 && (strings.HasSuffix(w, "ing") || strings.HasSuffix(w, "ed")) && !nounForms[w] && !nounForms[singular(w)] {
		return false
	}
	return true
}

// singular is w without a plural ending, by rule (used for look-ups only: "classes" gives
// "class", "studies" "study", "exams" "exam").
func singular(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "xes"):
		return w[:len(w)-2]
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		return w[:len(w)-1]
	}
	return w
}

// lemma folds a plural into its singular when the user also wrote the singular (or another
// form that folds to the same word), so "exam" and "exams" count as one theme and no made-up
// word ever shows.
func lemma(w string, forms map[string]bool) string {
	for _, cut := range []string{"s", "es"} {
		if strings.HasSuffix(w, cut) && forms[strings.TrimSuffix(w, cut)] {
			return strings.TrimSuffix(w, cut)
		}
	}
	if strings.HasSuffix(w, "ies") && forms[strings.TrimSuffix(w, "ies")+"y"] {
		return strings.TrimSuffix(w, "ies") + "y"
	}
	return w
}

// shownForm is the form of a theme the user wrote most (the shorter one on a tie).
func shownForm(forms map[string]int) string {
	best := ""
	for f, n := range forms {
		if best == "" || n > forms[best] || (n == forms[best] && (len(f) < len(best) || (len(f) == len(best) && f < best))) {
			best = f
		}
	}
	return best
}

// nounForms are -ing and -ed words that name things people talk about.
var nounForms = setOf(`wedding meeting building housing training painting drawing reading writing
	running swimming dancing cooking gaming hiking clothing ceiling spring hundred`)

// notTopic holds the words that never name a topic: function words, fillers, time words,
// common verbs and adjectives, feeling words, and the words of the app's own texts (summary
// templates, the starter message).
var notTopic = setOf(`
	a about above across actually after afterwards again against ago ah ahead all almost alone along
	already also although always am among an and another any anybody anyhow anyone anything anyway
	anywhere are around as ask asked asking at away back bad badly basically be became because become
	becomes been before began begin being believe below beside besides best better between beyond big
	bit both bring brought but by call came can cannot cant could couldn did didn didnt do does doesn
	doing don done dont down during each either else end ended enough especially even ever every
	everybody everyone everything everywhere exactly except far few fine first for found from full
	further get gets getting give given gives go goes going gone gonna good got gotta great guess guy
	guys had hadn half happen happened happens hard has hasn have haven having he hello her here hers
	herself hey hi him himself his honestly how however huh idea if im important in instead into is
	isn it its itself just keep keeps kept kind kinda knew know known knows last lately later least
	less let lets like liked likely little long look looked looking lot lots made make makes making
	many may maybe me mean means meant might mine more most mostly much must my myself near nearly need
	needed needs never new next nice no nobody none nor not nothing now nowhere of off often oh ok okay
	old on once one ones only onto or other others otherwise ought our ours ourselves out over own part
	people perhaps place point pretty probably put quite rather re real really right said same saw say
	saying says see seem seemed seems seen self several shall she should shouldn show since so some
	somebody someone something sometimes somewhat somewhere soon sort still stuff such sure take taken
	takes taking talk talked talking tell telling tells than thank thanks that the their theirs them
	themselves then there these they thing things think thinking thought though through throughout thus
	to told too took toward towards tried tries try trying two um under unless until up upon us use
	used using usual usually very via want wanted wanting wants was wasn way ways we well went were
	weren what whatever when whenever where whether which while who whole whom whose why will wish with
	within without won wont would wouldn yeah yes yet you your yours yourself yourselves
	day days today tonight yesterday tomorrow week weekend weeks month year time times moment
	morning evening night minute minutes hour hours
	lol idk tbh btw omg ugh hmm
	feel feeling feelings feels felt mood emotion emotions
	anxious anxiety nervous worried worry worrying panic uneasy overthinking stress stressed stressful
	overwhelmed overwhelming sad unhappy crying depressed low lonely isolated angry mad furious annoyed
	frustrated frustrating irritated stuck guilty ashamed embarrassed confused unsure afraid scared
	terrified tired exhausted drained happy excited glad fun amazing wonderful grateful thankful hope
	hopeful calm calmer relaxed peaceful relieved proud upset hurt awful terrible horrible bored
	session sessions message messages conversation conversations chat chats shared share opened open
	came through summary summarise companion percolate hello start started starting new
	miss missed missing`)

func setOf(list string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(list) {
		m[w] = true
	}
	return m
}
