package tournament

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"titm/adjudicator"
)

var limitRow = regexp.MustCompile("^\\| `([^`]*)` \\| `([^`]*)` \\| (\\w+) \\| (.*) \\|$")

// docs/verify.md lists the fields of a tournament Verify cannot check
// fully, exactly as Unchecked has them.
func TestUncheckedDocumented(t *testing.T) {
	data, err := os.ReadFile("../../docs/verify.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(data), "\n### Tournaments\n")
	if !ok {
		t.Fatal("docs/verify.md has no table of the tournaments' fields")
	}
	var doc []adjudicator.Limit
	for _, line := range strings.Split(rest, "\n") {
		if strings.HasPrefix(line, "#") {
			break
		}
		if m := limitRow.FindStringSubmatch(line); m != nil {
			doc = append(doc, adjudicator.Limit{Kind: m[1], Field: m[2], Check: m[3], Why: m[4]})
		}
	}
	if !slices.Equal(doc, Unchecked) {
		t.Errorf("docs/verify.md lists %d fields of a tournament verify cannot check fully, and Unchecked %d: they differ", len(doc), len(Unchecked))
		for i := range max(len(doc), len(Unchecked)) {
			var d, u adjudicator.Limit
			if i < len(doc) {
				d = doc[i]
			}
			if i < len(Unchecked) {
				u = Unchecked[i]
			}
			if d != u {
				t.Errorf("row %d: the page has %+v, Unchecked %+v", i+1, d, u)
			}
		}
	}
}
