package rules

import "testing"

// TestHelpTextsMatchTable: HELP's texts of the table's orders, in English,
// are the table's own syntax and summary, and its sections' titles the
// sections: the catalog of HELP holds the same English as the parser.
func TestHelpTextsMatchTable(t *testing.T) {
	for _, k := range kinds {
		syntax, summary := kindTexts(English, k)
		if syntax != k.syntax {
			t.Errorf("%s: HELP's syntax %q, the table's %q", k.keyword, syntax, k.syntax)
		}
		if summary != k.summary {
			t.Errorf("%s: HELP's summary %q, the table's %q", k.keyword, summary, k.summary)
		}
	}
	for _, sec := range sections {
		if got := sectionTitle(English, sec); got != sec {
			t.Errorf("section %q: HELP's title %q", sec, got)
		}
	}
}
