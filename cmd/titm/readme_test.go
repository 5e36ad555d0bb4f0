package main

import (
	"os"
	"regexp"
	"strings"
	"testing"

	ref "titm/adjudicator/referee"
	"titm/rules"
)

// unescapedPipe is a cell boundary of a GitHub table row: a | not escaped
// as \|. GitHub splits the row there before it reads code spans, so a | in
// backticks must be escaped too.
var unescapedPipe = regexp.MustCompile(`(^|[^\\])\|`)

// The README's command table is one table of two columns, which names every
// command; the README states the Go version go.mod requires.
func TestReadme(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	start := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "| command |") {
			start = i
			break
		}
	}
	if start < 0 {
		t.Fatal("no command table in the README")
	}
	named := map[string]bool{}
	i := start
	for ; i < len(lines) && lines[i] != ""; i++ {
		l := lines[i]
		// A line that is not a row ends the table; the next rows would
		// be a paragraph.
		if !strings.HasPrefix(l, "|") || !strings.HasSuffix(l, "|") {
			t.Errorf("README line %d breaks the command table: %q", i+1, l)
			continue
		}
		if n := len(unescapedPipe.FindAllString(l, -1)); n != 3 {
			t.Errorf("README line %d has %d cells, not 2: escape a | in a cell as \\|: %q", i+1, n-1, l)
		}
		if first, _, ok := strings.Cut(strings.TrimPrefix(l, "| `titm "), " "); ok && i > start+1 {
			for _, name := range strings.Split(strings.TrimSuffix(first, "`"), `\|`) {
				named[name] = true
			}
		}
	}
	for _, c := range commands {
		if !named[c.name] {
			t.Errorf("the README's command table does not name titm %s", c.name)
		}
	}
	if i-start < len(commands) {
		t.Errorf("the command table has %d lines", i-start)
	}

	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindSubmatch(mod)
	if m == nil {
		t.Fatal("no go line in go.mod")
	}
	if want := "Go " + string(m[1]) + " or later"; !strings.Contains(string(data), want) {
		t.Errorf("the README does not say %q", want)
	}
}

// The players' page lists every request the referee answers, and the
// README points to it.
func TestPlayersDocRequests(t *testing.T) {
	data, err := os.ReadFile("../../docs/players.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range ref.Keywords {
		if k.Class == rules.Request && !strings.Contains(string(data), "| `"+k.Name) {
			t.Errorf("docs/players.md does not list the request %s", k.Name)
		}
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"docs/players.md", "`BRIEF`", "`PICTURE OFF`"} {
		if !strings.Contains(string(readme), want) {
			t.Errorf("the README does not name %s", want)
		}
	}
}
