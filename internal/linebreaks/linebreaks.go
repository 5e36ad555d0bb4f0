// Package linebreaks reads a wrapped Japanese text for line breaks that
// split a word, by rules of its own, so that a test of the wrapping does
// not take the wrapping's word for it.
package linebreaks

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/width"
)

// InWords returns, for a wrapped Japanese text, the places where a line
// ends inside a word: each as the two lines' meeting, "…進|入…", and why.
// It knows nothing of how the text was wrapped; it reads only the two
// characters either side of every line end, by these rules, as a reader
// would see a word split:
//
//   - between two kanji or katakana, or a kanji and a katakana (進|入,
//     ユニ|ット, ドイツ|軍, 敵|ユニット): inside a word;
//   - before hiragana, but after 、。: or a full stop, which end a phrase
//     (除去|され, なりま|す, Bastogne|で): a word's ending or its particle
//     cut from it;
//   - after a single hiragana between kanji that is not a particle
//     (見出し|行, 引き|分け): the okurigana inside a word;
//   - after a number, before a kanji or katakana (3|戦力, -1|攻撃側): a
//     number cut from its counting word or what it counts;
//   - after a name, before its number in parentheses (Betzdorf|(5)), or
//     after an area's number, before its name (4|Luxembourg).
//
// A line end is a line break of the wrapping when the next line's first
// word (by the rules above) would not have fitted on the line within width
// columns, a Japanese character two: a line that ends where it had room
// left ended there by itself, as a heading does. A line laid out in
// columns (three spaces within it), a line of one Latin word (a hash) and
// a blank line are no wrapped text.
// InWords also reports a space after 。 or 、 within a line, which
// Japanese does not write. checked is the line breaks it read.
func InWords(text string, width int) (out []string, checked int) {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		for _, p := range []string{"。 ", "、 "} {
			if strings.Contains(strings.TrimRight(l, " "), p) {
				out = append(out, fmt.Sprintf("line %d: a space after %q: %s", i+1, strings.TrimSpace(p), l))
			}
		}
		if i+1 == len(lines) {
			break
		}
		a, b := strings.TrimRight(l, " "), strings.TrimLeft(lines[i+1], " ")
		if a == "" || b == "" || table(a) || columns(a)+1+columns(firstWord(b)) <= width {
			continue
		}
		checked++
		if why := splitWord(a, b); why != "" {
			out = append(out, fmt.Sprintf("line %d: %s: …%s|%s…", i+1, why, tail(a, 6), head(b, 6)))
		}
	}
	return out, checked
}

// splitWord says why a line ending with a and the next beginning with b
// split a word, or "" when they do not.
func splitWord(a, b string) string {
	x, _ := utf8.DecodeLastRuneInString(a)
	y, _ := utf8.DecodeRuneInString(b)
	before, _ := utf8.DecodeLastRuneInString(a[:len(a)-utf8.RuneLen(x)])
	switch {
	case word(x) && word(y):
		return "a kanji or katakana word"
	case hiragana(y) && !strings.ContainsRune("、。，．：:！？!?", x):
		return "a word's ending or particle"
	case okurigana(before, x, y):
		return "okurigana"
	case x >= '0' && x <= '9' && word(y):
		return "a number and what it counts"
	case x < utf8.RuneSelf && unicode.IsLetter(x) && areaNumber.MatchString(b):
		return "a name and its number"
	case number(lastField(a)) && len(b) > 1 && b[0] >= 'A' && b[0] <= 'Z' && b[1] >= 'a' && b[1] <= 'z':
		return "an area's number and its name"
	}
	return ""
}

// okurigana reports whether x, after before and before y, is a lone
// hiragana between kanji that is no particle: 見出し行, 引き分け.
func okurigana(before, x, y rune) bool {
	return hiragana(x) && unicode.Is(unicode.Han, before) && unicode.Is(unicode.Han, y) && !strings.ContainsRune("のはがをにでとへもやか", x)
}

// firstWord returns the first word of s by splitWord's rules: up to the
// first place where a line could end without splitting a word.
func firstWord(s string) string {
	prev := ' '
	for i, r := range s {
		narrow := r != ' ' && prev != ' ' && !isWide(r) && !isWide(prev)
		prev = r
		if i == 0 || r == ' ' || narrow || strings.ContainsRune(closers, r) {
			continue // within a word of Latin letters, its spaces, or before its punctuation
		}
		if a := strings.TrimRight(s[:i], " "); splitWord(a, s[i:]) == "" {
			return a
		}
	}
	return s
}

// table reports whether line a is laid out in columns, or is one word of
// Latin letters and digits alone: no wrapped text.
func table(a string) bool {
	a = strings.TrimLeft(a, " ")
	if strings.Contains(a, "   ") {
		return true
	}
	for i := 0; i < len(a); i++ {
		if a[i] == ' ' || a[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// closers are the punctuation no line begins with, which ends the word
// before it.
const closers = "、。，．：:！？!?,;)）」』】・"

// columns is the display width of s: an East Asian wide or full-width
// character two columns, any other one.
func columns(s string) int {
	n := 0
	for _, r := range s {
		if isWide(r) {
			n += 2
		} else {
			n++
		}
	}
	return n
}

func isWide(r rune) bool {
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return true
	}
	return false
}

// areaNumber is a number in parentheses, as a name's: (5), (1VP).
var areaNumber = regexp.MustCompile(`^\([0-9][0-9A-Za-z.]*\)`)

// word reports whether r is a kanji, a katakana or the long-vowel mark.
func word(r rune) bool {
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Katakana, r) || r == 'ー'
}

// hiragana reports whether r is a hiragana, or the long-vowel mark, which
// no word begins with.
func hiragana(r rune) bool { return unicode.Is(unicode.Hiragana, r) || r == 'ー' }

func number(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

func lastField(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return f[len(f)-1]
}

// tail and head are the last and first n characters of s.
func tail(s string, n int) string {
	r := []rune(s)
	return string(r[max(0, len(r)-n):])
}

func head(s string, n int) string {
	r := []rune(s)
	return string(r[:min(n, len(r))])
}
