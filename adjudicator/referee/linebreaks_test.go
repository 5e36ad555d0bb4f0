package referee_test

import (
	"strings"
	"testing"

	"titm/internal/linebreaks"
)

// TestJapaneseGameBreaksBetweenPhrases reads every line break of every
// reply and mail the Japanese player of the scripted game gets (the
// reports, HELP, BRIEF, UNITS, CHECK, the refusals, the notices) with
// package linebreaks, which knows nothing of the wrapping: none falls
// inside a word, between a word and its ending or particle, a number and
// what it counts, or a name and its number.
func TestJapaneseGameBreaksBetweenPhrases(t *testing.T) {
	texts, _ := scriptedGameIn(t, "ja")
	read, lines, breaks := 0, 0, 0
	for _, x := range texts {
		if !strings.Contains(x.step, "hasso@example.org") && !strings.HasSuffix(x.step, "(German): the reply") || strings.Contains(x.step, "subject") {
			continue
		}
		read++
		lines += strings.Count(x.body, "\n") + 1
		broken, n := linebreaks.InWords(x.body, 78)
		breaks += n
		for _, b := range broken {
			t.Errorf("%s: %s\n%s", x.step, b, x.body)
		}
	}
	t.Logf("%d texts, %d lines, %d line breaks read", read, lines, breaks)
	if read < 25 || breaks < 100 {
		t.Errorf("only %d texts and %d line breaks", read, breaks)
	}
}
