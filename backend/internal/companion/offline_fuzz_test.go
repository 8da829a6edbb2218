package companion

import (
	"strings"
	"testing"
)

// FuzzOfflineReply drives three turns of a session with any text, profile and memory: the
// engine never panics, never exceeds the length, never says nothing and never repeats a
// run of eight of the user's words (the fixed crisis reply to a flagged message aside).
// The seed corpus is in testdata/fuzz/FuzzOfflineReply.
func FuzzOfflineReply(f *testing.F) {
	f.Add("I've been working the late shifts at the café with Maya and I'm exhausted.", "idk", "What should I do?", "sleep, confidence", "my dad")
	f.Fuzz(func(t *testing.T, first, second, msg, focus, sensitive string) {
		o := &Offline{}
		prof := Profile{FocusAreas: focus, PrimaryConcerns: second, SensitiveTopics: sensitive}
		hist := []Turn{{RoleUser, starter}, {RoleAssistant, Welcome("", false)}}
		var users []string
		for _, m := range []string{first, second, msg} {
			users = append(users, m)
			reply := o.Compose(Prompt{History: hist, Message: m, Profile: prof, Memories: []string{first, focus}})
			if reply == CrisisReply || reply == CheckInReply {
				if !screenIn(m, contextAfter(hist)).Risky() {
					t.Fatalf("crisis reply or check-in to an unflagged message %q", m)
				}
			} else {
				if n := len(strings.Fields(reply)); n == 0 || n > ReplyWords {
					t.Fatalf("reply to %q has %d words: %q", m, n, reply)
				}
				userGrams := map[string]bool{}
				for _, u := range users {
					for _, g := range grams(u) {
						userGrams[g] = true
					}
				}
				for _, g := range grams(reply) {
					if userGrams[g] {
						t.Fatalf("reply %q copies %q", reply, g)
					}
				}
			}
			hist = append(hist, Turn{RoleUser, m}, Turn{RoleAssistant, reply})
		}
	})
}

// BenchmarkOfflineCompose measures one reply late in a typical session (15 exchanges) and
// in a session at the chat path's context budget (about 3,000 tokens of history and a
// message at the 4,000-character limit).
func BenchmarkOfflineCompose(b *testing.B) {
	o := &Offline{}
	typical := []Turn{{RoleUser, starter}, {RoleAssistant, Welcome("", false)}}
	for _, m := range cafeScript[:14] {
		typical = append(typical, Turn{RoleUser, m}, Turn{RoleAssistant, o.Compose(Prompt{History: typical, Message: m})})
	}
	long := strings.Repeat("My statistics midterm on Tuesday with Maya at the café keeps me up, and I'm not sure what to do about it. ", 40)[:4000]
	var full []Turn
	for len(full) < 6 {
		full = append(full, Turn{RoleUser, long}, Turn{RoleAssistant, o.Compose(Prompt{History: full, Message: long})})
	}
	for _, c := range []struct {
		name string
		hist []Turn
		msg  string
	}{{"typical", typical, "thanks, bye"}, {"budget", full, long}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				o.Compose(Prompt{History: c.hist, Message: c.msg})
			}
		})
	}
}
