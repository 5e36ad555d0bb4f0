package conformance

import (
	"bufio"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"titm/rules"
)

const dir = "../../testdata/conformance"

// cases loads every case under testdata/conformance.
func cases(t *testing.T) []*Case {
	t.Helper()
	var out []*Case
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "maps" {
			return filepath.SkipDir
		}
		if d.IsDir() || filepath.Ext(path) != ".toml" {
			return nil
		}
		c, err := Load(path)
		if err != nil {
			t.Error(err)
			return nil
		}
		out = append(out, c)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCases plays every conformance case.
func TestCases(t *testing.T) {
	var l Loader
	for _, c := range cases(t) {
		name := strings.TrimSuffix(strings.TrimPrefix(filepath.ToSlash(c.File), dir+"/"), ".toml")
		t.Run(name, func(t *testing.T) {
			fails, err := l.Run(c)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range fails {
				t.Errorf("%s: %s", c.Rule, f)
			}
		})
	}
}

// rows reads the rows of the rulebook the cases must cover.
func rows(t *testing.T) []string {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "rows.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		row := fields[0]
		if row == "scenario" {
			row = strings.Join(fields[:2], " ")
			if len(fields) > 2 && fields[2] == "special-forces" {
				row += " special-forces"
			}
		}
		out = append(out, row)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRowsKnown: every case names rows of the rulebook.
func TestRowsKnown(t *testing.T) {
	known := map[string]bool{}
	for _, r := range rows(t) {
		known[r] = true
	}
	for _, c := range cases(t) {
		for _, r := range c.Rows() {
			if !known[r] {
				t.Errorf("%s: %q is not a row of testdata/conformance/rows.txt", c.File, r)
			}
		}
	}
}

// TestRunnerCatches: a case whose expectations are wrong fails, each wrong
// expectation with its own message; the runner cannot pass everything.
func TestRunnerCatches(t *testing.T) {
	c, err := Load(filepath.Join(dir, "8-movement", "8.37-entering-occupied-area.toml"))
	if err != nil {
		t.Fatal(err)
	}
	imp := &c.Impulses[0]
	imp.Events = []string{"G/AR moves 4-5 (2 MP)"}
	imp.Dice = []int{4}
	imp.Expect.Next = "G16-2"
	imp.Expect.Units[0].At = rulesPlace(t, "4")
	imp.Refused = nil
	fails, err := new(Loader).Run(c)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`no event "G/AR moves 4-5 (2 MP)"`, "1 of the 1 dice given were not rolled", "the next impulse is A16-1, want G16-2", "G/AR's place is 5, want 4"}
	if len(fails) != len(want) {
		t.Errorf("got %d failures, want %d:\n%s", len(fails), len(want), strings.Join(fails, "\n"))
	}
	for _, w := range want {
		found := false
		for _, f := range fails {
			found = found || strings.Contains(f, w)
		}
		if !found {
			t.Errorf("no failure %q among:\n%s", w, strings.Join(fails, "\n"))
		}
	}

	c.Impulses[0] = Impulse{Orders: "MOVE G/AR 5", Refused: []Refusal{{Line: 1, Rule: "8.25"}}}
	fails, _ = new(Loader).Run(c)
	if len(fails) != 1 || !strings.Contains(fails[0], "the orders were carried out") {
		t.Errorf("orders carried out where a refusal was expected: %q", fails)
	}
}

func rulesPlace(t *testing.T, s string) rules.Place {
	t.Helper()
	p, err := rules.ParsePlace(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// minCases is how many cases the suite holds at least.
const minCases = 150

// TestEveryRowCovered: every row of the rulebook has a case, and the suite
// is no smaller than it was made.
func TestEveryRowCovered(t *testing.T) {
	cs := cases(t)
	covered := Covered(cs)
	for _, r := range rows(t) {
		if len(covered[r]) == 0 {
			t.Errorf("row %s has no conformance case", r)
		}
	}
	if len(cs) < minCases {
		t.Errorf("%d cases; the suite has at least %d", len(cs), minCases)
	}
}

// Covered maps each row of the rulebook to the cases that cover it.
func Covered(cases []*Case) map[string][]string {
	out := map[string][]string{}
	for _, c := range cases {
		for _, r := range c.Rows() {
			out[r] = append(out[r], filepath.Base(c.File))
		}
	}
	for _, v := range out {
		sort.Strings(v)
	}
	return out
}
