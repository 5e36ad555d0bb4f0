package rules_test

import (
	"errors"
	"os"
	"strings"
	"testing"

	"titm/rules"
)

func readOS(name string) ([]byte, error) { return os.ReadFile(name) }

func TestLoadTiny(t *testing.T) {
	s, err := rules.LoadScenario(readOS, "../testdata/tiny/scenario.toml")
	if err != nil {
		t.Fatalf("tiny scenario: %v", err)
	}
	if got := len(s.Map.Areas); got != 5 {
		t.Errorf("areas = %d, want 5", got)
	}
	if got := len(s.Units); got != 4 {
		t.Errorf("units = %d, want 4", got)
	}
	if !s.BlownAtStart(3, 2) {
		t.Errorf("bridge 2-3 not blown at start")
	}
	if s.StartImpulse.String() != "G16-1" || s.EndImpulse.String() != "A17-3" {
		t.Errorf("impulses %v %v", s.StartImpulse, s.EndImpulse)
	}
	u := s.OOB.Unit("9e")
	if u == nil || u.Group != "reserve" {
		t.Fatalf("unit 9E by lower-case id: %+v", u)
	}
	if a := s.OOB.Unit("7/2"); a.Arrival.String() != "A16-2" {
		t.Errorf("7/2 arrives %v, want A16-2", a.Arrival)
	}
	// 8.33: primary 1, secondary 2: 1 -> 4 is 3 MP by the bridge, 5 MP round it.
	cost, _, ok := s.Map.CheapestPath(rules.AreaPlace(1), rules.AreaPlace(4), nil)
	if !ok || cost != 3 {
		t.Errorf("1->4 costs %d, want 3", cost)
	}
	noBridge := func(_ rules.Place, l rules.Link) bool { return l.Road == nil || !l.Road.Bridge }
	cost, _, _ = s.Map.CheapestPath(rules.AreaPlace(1), rules.AreaPlace(3), noBridge)
	if cost != 6 {
		t.Errorf("1->3 without the bridge costs %d, want 6 (1+2+2+1)", cost)
	}
}

// The tiny example in docs/data-format.md is the fixture itself.
func TestDocExampleIsFixture(t *testing.T) {
	doc, err := os.ReadFile("../docs/data-format.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"map.toml", "oob.toml", "scenario.toml"} {
		want, err := os.ReadFile("../testdata/tiny/" + f)
		if err != nil {
			t.Fatal(err)
		}
		head := "`testdata/tiny/" + f + "`:\n\n```toml\n"
		_, rest, ok := strings.Cut(string(doc), head)
		block, _, ok2 := strings.Cut(rest, "```\n")
		if !ok || !ok2 {
			t.Fatalf("docs/data-format.md has no block for %s", f)
		}
		if block != string(want) {
			t.Errorf("docs/data-format.md shows a %s that differs from testdata/tiny/%s", f, f)
		}
	}
}

// FuzzLoadMap: no input makes the loader panic, and every problem names the
// file.
func FuzzLoadMap(f *testing.F) {
	for _, name := range []string{"../testdata/tiny/map.toml", "../testdata/bad/road-to-itself.toml", "../testdata/bad/not-toml.toml"} {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		read := func(string) ([]byte, error) { return data, nil }
		_, err := rules.LoadMap(read, "fuzz.toml")
		var ps rules.Problems
		if err != nil && !errors.As(err, &ps) {
			t.Fatalf("error %v is not Problems", err)
		}
		for _, p := range ps {
			if p.File != "fuzz.toml" || p.Msg == "" {
				t.Fatalf("problem %+v", p)
			}
		}
		_, _ = rules.LoadOOB(read, "fuzz.toml", nil)
		_, _ = rules.LoadScenario(read, "fuzz.toml")
	})
}
