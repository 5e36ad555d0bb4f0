package rules

import (
	"os"
	"strings"
	"testing"
)

// 12.25 on its own terms: a walk that has entered an Allied VP zone takes no
// step out of it, the entry counting from the step that made it, even for a
// path that the check of the orders (planMove) did not see first.
func TestWalk_12_25_NoStepOutOfVPZone(t *testing.T) {
	s, err := LoadScenario(func(n string) ([]byte, error) { return os.ReadFile(n) }, "../testdata/move/scenario.toml")
	if err != nil {
		t.Fatal(err)
	}
	st := NewState(s)
	st.Next, _ = ParseImpulse("G17-1")
	st.Unit("U/IN").Eliminated, st.Unit("U/IN").Place = true, Place{}
	u := st.Unit("G/AR")
	u.Place, u.TurnStart = AreaPlace(1), AreaPlace(1)
	g := &game{s: s, st: st, imp: st.Next}
	g.startImpulse()
	o := Move{Units: []string{"G/AR"}, Path: []Place{AreaPlace(1), ZonePlace("D"), AreaPlace(1)}}
	p := &movePlan{line: 1, o: o, units: []*UnitState{u}, from: AreaPlace(1), path: o.Path[1:], mp: 8}
	if _, ok := g.walk(p); ok {
		t.Fatalf("G/AR walked out of the Allied VP zone D it entered (12.25)")
	}
	if len(g.errs) != 1 || !strings.Contains(g.errs[0].Msg, "(12.25)") {
		t.Errorf("refusals %v, want one citing 12.25", g.errs)
	}
}
