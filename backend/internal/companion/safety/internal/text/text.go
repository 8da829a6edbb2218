// Package text is the normalisation every layer of the crisis screen and its trainer share.
package text

import (
	"strings"
	"unicode"
)

// Common misspellings and slang mapped to canonical words before matching.
var canonWords = map[string]string{
	"kil": "kill", "kiling": "killing", "killl": "kill", "myslef": "myself", "mysef": "myself",
	"mself": "myself", "meself": "myself", "mysel": "myself", "selfharm": "self harm",
	"sucide": "suicide", "suicde": "suicide", "suiside": "suicide", "sucidal": "suicidal",
	"suicidel": "suicidal", "suecide": "suicide", "suiced": "suicide", "suicid": "suicide",
	"wanna": "wanna", "gonna": "gonna", "ded": "dead", "diee": "die",
	"overdoes": "overdose", "overdos": "overdose", "od": "od", "pils": "pills",
	"wrist": "wrist", "wrsts": "wrists", "anymore": "anymore", "any more": "anymore",
	"u": "you", "ur": "your", "bc": "because", "cuz": "because",
}

// fuzzyTargets are long keywords also matched within one edit (typos like "suicdie").
var fuzzyTargets = []string{"suicide", "suicidal", "myself", "overdose", "overdosing", "unalive", "molested", "threatening"}

// Normalize puts a message in the canonical form every layer reads: lower case, no
// apostrophes, look-alike digits and symbols turned into letters, runs of a letter squeezed,
// common misspellings and algospeak mapped to canonical words, a few emoji turned into words,
// and words separated by single spaces, with a space at each end.
func Normalize(s string) string {
	s = strings.ToLower(s)
	s = emoji.Replace(s)
	s = punctuation.Replace(s)
	s = bangInWord(s)
	// Words: letters, with look-alike digits and symbols inside words turned into letters.
	var words []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '@' || r == '$')
	}) {
		words = append(words, canonWord(deleet(f)))
	}
	t := " " + strings.Join(words, " ") + " "
	return algospeak.Replace(t)
}

var punctuation = strings.NewReplacer("’", "", "'", "", "‘", "", "`", "", "-", " ", "_", " ", "s/h", "sh")

// emoji that stand for a means or a feeling become words, so that "a long nap 💊💊💊" reads
// as pills.
var emoji = strings.NewReplacer(
	"💊", " pills ", "🔪", " knife ", "🗡", " knife ", "🩸", " blood ", "🪢", " rope ", "🔫", " gun ",
	"⚰", " coffin ", "🪦", " grave ", "💀", " skull ", "😂", " lol ", "🤣", " lol ", "😭", " crying ",
	"🥲", " crying ", "😔", " sad ", "😞", " sad ", "😢", " sad ", "🙃", " ", "👻", " ghost ",
	"🌉", " bridge ", "🚆", " train ", "🚄", " train ", "🚂", " train ",
)

// bangInWord turns "!" and "|" between two letters into "i" ("su!c!de", "d!e").
func bangInWord(s string) string {
	if !strings.ContainsAny(s, "!|") {
		return s
	}
	r := []rune(s)
	for i := 1; i+1 < len(r); i++ {
		if (r[i] == '!' || r[i] == '|') && unicode.IsLetter(r[i-1]) && unicode.IsLetter(r[i+1]) {
			r[i] = 'i'
		}
	}
	return string(r)
}

// algospeak maps coded spellings of suicide and self-harm, and slang for swallowing at once, on
// normalised text, to the plain words the rules and the scorer know.
var algospeak = strings.NewReplacer(
	" sewer slide ", " suicide ", " sewerslide ", " suicide ", " sewer side ", " suicide ",
	" sewerslid ", " suicide ", " suey ", " suicide ",
	" kms ", " kill myself ", " kys ", " kill yourself ", " ctb ", " catch the bus ",
	" self delete ", " kill myself ", " self deleting ", " killing myself ", " self deleted ", " killed myself ",
	" un alive ", " unalive ", " unaliving ", " unalive ", " unalived ", " unalive ", " unalives ", " unalive ",
	" unalive myself ", " kill myself unalive ", " sh ", " self harm ", " shd ", " self harmed ",
	" shing ", " self harming ", " s h ", " self harm ",
	// Slang for swallowing at once, which the overdose rules read as "downed".
	" necked ", " downed ", " chugged ", " downed ",
)

func deleet(w string) string {
	hasLetter := strings.ContainsFunc(w, unicode.IsLetter)
	if !hasLetter {
		return w
	}
	return leet.Replace(w)
}

var leet = strings.NewReplacer("1", "i", "3", "e", "0", "o", "@", "a", "$", "s", "4", "a", "5", "s", "7", "t")

func canonWord(w string) string {
	w = squeeze(w)
	if c, ok := canonWords[w]; ok {
		return c
	}
	if len(w) >= 5 {
		for _, t := range fuzzyTargets {
			if w != t && editDistanceAtMostOne(w, t) {
				return t
			}
		}
	}
	return w
}

// squeeze shortens runs of three or more of the same letter to two ("sooooo" → "soo",
// "killlll" → "kill").
func squeeze(w string) string {
	r := []rune(w)
	out := r[:0]
	for i, c := range r {
		if i >= 2 && c == r[i-1] && c == r[i-2] {
			continue
		}
		out = append(out, c)
	}
	return string(out)
}

// editDistanceAtMostOne reports whether a and b differ by at most one insertion, deletion,
// substitution or transposition of adjacent letters.
func editDistanceAtMostOne(a, b string) bool {
	if a == b {
		return true
	}
	la, lb := len(a), len(b)
	if la-lb > 1 || lb-la > 1 {
		return false
	}
	i := 0
	for i < la && i < lb && a[i] == b[i] {
		i++
	}
	switch {
	case la == lb:
		if a[i+1:] == b[i+1:] {
			return true
		}
		return i+1 < la && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
	case la > lb:
		return a[i+1:] == b[i:]
	default:
		return a[i:] == b[i+1:]
	}
}
