package lang

import (
	"iter"
	"strings"
)

// Phrases yields s cut where Wrap may break a line, for a layout that
// measures its lines otherwise than in columns, as a picture's legend does
// in pixels: at spaces and, in Japanese text, between phrases, never
// inside one (see Wrap). It yields each phrase with the spaces that stand
// before it in s: none where two Japanese phrases meet. A phrase may hold
// spaces of its own, as "Betzdorf (5)" and "Bastogne で" do. The spaces
// after 。 and 、 are dropped, as Wrap drops them.
func Phrases(s string) iter.Seq2[int, string] {
	return func(yield func(int, string) bool) {
		s := strings.TrimRight(tidy(s), " ")
		ja := japanese(s)
		var ahead atom
		for i := 0; i < len(s); {
			start, end, gap, _ := nextPhrase(s, i, ja, &ahead)
			if start == len(s) || !yield(gap, s[start:end]) {
				return
			}
			i = end
		}
	}
}
