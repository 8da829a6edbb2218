package companion

import (
	"slices"
	"sort"
	"strings"
)

// OfflineSummary is the summary of the offline engine (also the fallback for labels a
// model did not give): two or three sentences in its own words of what the session was
// about, how it felt, and how it ended. A withheld or flagged message is never quoted or
// named; places are never named (a place can be where a risk is).
func OfflineSummary(transcript []Turn) Summary {
	var kept []string
	n := 0
	for _, t := range transcript {
		if t.Role != RoleUser {
			continue
		}
		n++
		if t.Content != Withheld && !flagged(t.Content) {
			kept = append(kept, t.Content)
		}
	}
	if n == 0 {
		return Summary{Text: "This was a short session without messages from you. There is nothing to summarise yet.", Emotions: []string{"calm"}}
	}
	emotions, closing := summaryEmotions(kept)
	var out []string
	title := ""
	if topics := summaryTopics(kept); len(topics) > 0 {
		out = append(out, "You talked about "+joinAnd(topics)+".")
		title = SessionTitle(capFirst(joinAnd(topics[:min(2, len(topics))])))
	} else {
		out = append(out, "You took some time to put what's going on into words.")
	}
	if len(emotions) > 0 && emotions[0] != "calm" {
		out = append(out, capFirst(joinAnd(emotions[:min(2, len(emotions))]))+" came through most.")
	}
	if len(closing) > 0 {
		switch c := closing[0]; {
		case positiveEmotion[c] && !slices.Contains(emotions[:min(2, len(emotions))], c):
			out = append(out, "By the end it sounded a little lighter, with some "+c+" in it.")
		case positiveEmotion[c]:
			out = append(out, "It ended on a note of "+c+".")
		default:
			out = append(out, "By the end, the "+c+" was still there, and that's okay to carry for now.")
		}
	}
	return Summary{Text: strings.Join(out, " "), Emotions: emotions, Title: title}
}

// sessionTitleMax is the longest title a summary gives a session, in characters.
const sessionTitleMax = 60

// SessionTitle cleans a title made from a conversation: one line, no quotes or closing
// full stop, at most sessionTitleMax characters; empty when it is empty, too long, or the
// safety screen flags it (the session then keeps its title).
func SessionTitle(s string) string {
	s = strings.Join(strings.Fields(CleanText(s)), " ")
	s = strings.Trim(s, "\"'“”‘’. ")
	if s == "" || len([]rune(s)) > sessionTitleMax || Screen(s) != RiskNone {
		return ""
	}
	return s
}

var positiveEmotion = setOf("joy", "gratitude", "hope", "calm", "pride", "love")

// outcomeCues are what happened, when the student names no feeling: a rejection is sad
// news whether or not the word "sad" is said.
var outcomeCues = []struct {
	emotion string
	words   []string
}{
	{"sadness", []string{"rejected", "rejection", "didnt get", "didn't get", "turned down", "failed", "broke up", "dumped", "didnt make it", "didn't make it"}},
	{"frustration", []string{"unfair", "done nothing", "ignored me", "again and again"}},
	{"joy", []string{"passed", "got in", "got the", "won", "accepted", "offered me", "went well", "went okay", "better than i feared"}},
}

// summaryEmotions are the session's labels, most felt first, and the feelings of its close,
// which count twice: how a session ends is part of what it was. The close is the last
// message that says more than a goodbye, read from its last sentence back ("I'm tired and
// stressed. But I'm hopeful." ends hopeful).
func summaryEmotions(texts []string) (all, closing []string) {
	counts := map[string]int{}
	feel := func(text string) map[string]int {
		c := feelingCounts(text)
		low := " " + plain(text) + " "
		for _, cue := range outcomeCues {
			for _, w := range cue.words {
				if strings.Contains(low, " "+plain(w)+" ") {
					c[cue.emotion]++
				}
			}
		}
		if len(strings.Fields(text)) <= 4 {
			delete(c, "gratitude") // "thanks, bye" is a goodbye, not a feeling
		}
		return c
	}
	last := -1
	for i := len(texts) - 1; i >= 0 && last < 0; i-- {
		if len(feel(texts[i])) > 0 {
			last = i
		}
	}
	for i, t := range texts {
		w := 1
		if i == last {
			w = 2
		}
		for e, k := range feel(t) {
			counts[e] += k * w
		}
	}
	if last >= 0 {
		sens := sentences(texts[last])
		for i := len(sens) - 1; i >= 0 && len(closing) == 0; i-- {
			closing = ranked(feel(sens[i]))
		}
	}
	all = ranked(counts)
	if len(all) == 0 {
		all = []string{"calm"}
	}
	return all[:min(5, len(all))], closing
}

func ranked(counts map[string]int) []string {
	var out []string
	for _, e := range Emotions {
		if counts[e] > 0 {
			out = append(out, e)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return counts[out[i]] > counts[out[j]] })
	return out
}

// summaryTopics are the people and events the session came back to most, at most three,
// named the way the engine says them back ("your group project", "Marcus").
func summaryTopics(texts []string) []string {
	count := map[string]int{}
	name := map[string]string{}
	var order []string
	for _, t := range texts {
		for _, sen := range sentences(t) {
			for _, it := range extractItems(sen) {
				if it.kind == kindDay || it.kind == kindPlace {
					continue
				}
				if _, seen := count[it.key]; !seen {
					order = append(order, it.key)
					name[it.key] = it.short
				}
				count[it.key]++
			}
		}
	}
	sort.SliceStable(order, func(i, j int) bool { return count[order[i]] > count[order[j]] })
	var out []string
	for _, k := range order[:min(3, len(order))] {
		out = append(out, name[k])
	}
	return out
}
