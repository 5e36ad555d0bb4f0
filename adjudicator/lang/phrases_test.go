package lang

import (
	"strings"
	"testing"
)

// TestPhrasesYield: Phrases cuts a text where Wrap may break it, each
// phrase with the spaces before it, and the phrases with their spaces are
// the text as Wrap reads it; every line Wrap makes is whole phrases.
func TestPhrasesYield(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want []string // the phrases, each after its spaces
	}{
		{"エリア: Luxembourg (4)、Betzdorf (5)", []string{"エリア:", " Luxembourg (4)、", "Betzdorf (5)"}},
		{"インパルス終了時に G/IN が 4 Eastbank から除去されます", []string{"インパルス終了時に", " G/IN が", " 4 Eastbank から", "除去されます"}},
		{"支配 (12.22): ドイツ軍(青灰色)、連合軍(緑)。 支配下", []string{"支配", " (12.22):", " ドイツ軍", "(青灰色)、", "連合軍", "(緑)。", "支配下"}},
		{"a line  joins a town ", []string{"a", " line", "  joins", " a", " town"}},
		{"", nil},
	} {
		var got []string
		for gap, p := range Phrases(tc.s) {
			got = append(got, strings.Repeat(" ", gap)+p)
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("Phrases(%q):\n got %q\nwant %q", tc.s, got, tc.want)
		}
		if j, want := strings.Join(got, ""), strings.TrimRight(tidy(tc.s), " "); j != want {
			t.Errorf("Phrases(%q) join to %q, want %q", tc.s, j, want)
		}
		widest := 0
		for _, p := range got {
			widest = max(widest, Width(strings.TrimLeft(p, " ")))
		}
		// Lines as wide as the widest phrase or wider: no phrase is
		// broken as a last resort.
		for _, w := range []int{widest, widest + 5, 2 * widest} {
			for _, l := range Wrap(tc.s, "", "", w) {
				if l = strings.TrimRight(l, " "); !wholePhrases(l, got) {
					t.Errorf("Wrap(%q, %d): the line %q is not whole phrases %q", tc.s, w, l, got)
				}
			}
		}
	}
}

// wholePhrases reports whether line l is a run of the phrases ps, the
// first without its spaces.
func wholePhrases(l string, ps []string) bool {
	for i := range ps {
		rest := l
		for j := i; j < len(ps) && rest != ""; j++ {
			p := ps[j]
			if j == i {
				p = strings.TrimLeft(p, " ")
			}
			if !strings.HasPrefix(rest, p) {
				break
			}
			rest = rest[len(p):]
		}
		if rest == "" {
			return true
		}
	}
	return l == ""
}
