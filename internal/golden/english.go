package golden

import (
	"regexp"
	"strings"

	"titm/rules"
)

var (
	latinWord = regexp.MustCompile(`\p{Latin}*[a-zß-ÿ]\p{Latin}*`) // with a small letter: not a keyword of the orders
	lineBreak = regexp.MustCompile(`\n\s*`)
	// What is written in Latin letters without being language: hashes,
	// tokens, addresses, and the game's name.
	notLanguage = regexp.MustCompile(`[0-9a-f]{64}|[a-z0-9]{4}(-[a-z0-9]{4}){4}|[\w.-]+@[\w.-]+|Tigers in the Mist|titm (verify|export)`)
)

// EnglishWords returns the words of a text meant to be Japanese that are
// written in Latin letters and are not what the Japanese rulebook itself
// writes so: not the order language (its keywords are capitals), not a
// place name or a unit id of the scenario s, not a hash, token or address,
// not a language's name or code (English, en, ja), and not one of the
// quoted, which the game's people wrote themselves. A letter alone is a
// unit (24h) or a mark (A3e). The text's lines are read joined, as
// wrapping may break what it quotes.
func EnglishWords(text string, s *rules.Scenario, quoted ...string) []string {
	names := map[string]bool{"English": true, "en": true, "ja": true}
	for _, a := range s.Map.Areas {
		for _, w := range latinWord.FindAllString(a.Name, -1) {
			names[w] = true
		}
	}
	for _, z := range s.Map.Zones {
		for _, w := range latinWord.FindAllString(z.Name, -1) {
			names[w] = true
		}
	}
	for _, u := range s.Units {
		for _, w := range latinWord.FindAllString(u.ID, -1) {
			names[w] = true
		}
	}
	text = lineBreak.ReplaceAllString(text, " ")
	for _, q := range quoted {
		text = strings.ReplaceAll(text, q, " ")
	}
	var out []string
	for _, w := range latinWord.FindAllString(notLanguage.ReplaceAllString(text, " "), -1) {
		if !names[w] && len([]rune(w)) > 1 {
			out = append(out, w)
		}
	}
	return out
}
