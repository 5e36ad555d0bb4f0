package rules_test

import (
	"os"
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
