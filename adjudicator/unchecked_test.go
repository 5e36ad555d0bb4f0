package adjudicator

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var limitRow = regexp.MustCompile("^\\| `([^`]*)` \\| `([^`]*)` \\| (\\w+) \\| (.*) \\|$")

// docLimits returns the rows of the table under heading in docs/verify.md.
func docLimits(t *testing.T, path, heading string) []Limit {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(data), "\n"+heading+"\n")
	if !ok {
		t.Fatalf("%s has no %q", path, heading)
	}
	var out []Limit
	for _, line := range strings.Split(rest, "\n") {
		if strings.HasPrefix(line, "#") {
			break
		}
		if m := limitRow.FindStringSubmatch(line); m != nil {
			out = append(out, Limit{Kind: m[1], Field: m[2], Check: m[3], Why: m[4]})
		}
	}
	return out
}

// checkDocLimits checks that the table under heading of docs/verify.md
// lists exactly the limits of the program, in its order.
func checkDocLimits(t *testing.T, path, heading string, limits []Limit) {
	t.Helper()
	doc := docLimits(t, path, heading)
	if !slices.Equal(doc, limits) {
		t.Errorf("%s, %s, lists %d fields verify cannot check fully, and the program %d: they differ", path, heading, len(doc), len(limits))
		for i := range max(len(doc), len(limits)) {
			var d, l Limit
			if i < len(doc) {
				d = doc[i]
			}
			if i < len(limits) {
				l = limits[i]
			}
			if d != l {
				t.Errorf("row %d: the page has %+v, the program %+v", i+1, d, l)
			}
		}
	}
	for _, l := range limits {
		if l.Check != CheckedOrder && l.Check != CheckedLater && l.Check != CheckedNone {
			t.Errorf("%+v: no such check", l)
		}
	}
}

// docs/verify.md lists the fields of a game verify cannot check fully,
// exactly as Unchecked has them.
func TestUncheckedDocumented(t *testing.T) {
	checkDocLimits(t, "../docs/verify.md", "### Games", Unchecked)
}
