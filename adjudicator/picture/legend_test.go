package picture

import (
	"strings"
	"testing"

	"titm/adjudicator/lang"
	"titm/internal/linebreaks"
	"titm/rules"
)

// TestLegendPhrases reads the Japanese legend's lines, as the picture
// draws them, for a line break inside a word (進|入, 除去|され,
// Betzdorf|(5)) with linebreaks.InWords, which knows nothing of how they
// were wrapped: every line end within an entry is a break of the
// wrapping, so each is read. The lines keep within the legend's width,
// and lose nothing of the text. Intro has the boundary's entry, which the
// campaign's whole map has not.
func TestLegendPhrases(t *testing.T) {
	fs, err := newFaces()
	if err != nil {
		t.Fatal(err)
	}
	textW := legendW - 2*legendPad - legendSampleW - 8
	ja := lang.For(lang.Japanese)
	checked := 0
	for _, n := range []string{"intro", "campaign"} {
		s := load(t, n)
		p := layout(s, rules.NewState(s), fs, nil, ja)
		for _, row := range p.legendRowsKept {
			if row.heading != "" {
				continue
			}
			// Width 0: every line end is the wrapping's.
			broken, c := linebreaks.InWords(strings.Join(row.lines, "\n"), 0)
			checked += c
			for _, b := range broken {
				t.Errorf("%s: %q: %s", n, row.text, b)
			}
			for _, l := range row.lines {
				if w := fs.small.width(l); w > textW {
					t.Errorf("%s: the line %q is %d pixels wide; the legend's text is %d", n, l, w, textW)
				}
			}
			if got, want := strings.ReplaceAll(strings.Join(row.lines, ""), " ", ""), strings.ReplaceAll(row.text, " ", ""); got != want {
				t.Errorf("%s: the lines %q lose text of %q", n, row.lines, row.text)
			}
		}
	}
	if checked == 0 {
		t.Error("no line break read: the legend's entries all fit on a line")
	}
	t.Logf("%d line breaks read", checked)
}
