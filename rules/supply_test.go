package rules_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"titm/rules"
	"titm/rules/scenarios"
)

// The supply tests use the hand-drawn map of testdata/supply/map.toml:
//
//	            Erst       Zweit
//	  D == 1 -p- 2 -p- 3 =p= 4 =p= 5 -p- 6 == A
//	                    \     |s    \s   |s  //
//	                     =s== 8 ==s== 7 ----'
//	                           \\     //
//	                            == B ==
//
// German supply comes from zone A (east), Allied from zone D (west); zone B
// is German but no source. =p= and =s= are roads over a bridge, == joins a
// zone. Each case puts the units it names on the map and leaves every other
// unit off it.

const supplyDir = "../testdata/supply/"

func supA(n int) rules.Place     { return rules.AreaPlace(n) }
func supZ(id string) rules.Place { return rules.ZonePlace(id) }

// supplyScenario loads a scenario of testdata/supply.
func supplyScenario(t testing.TB, file string) *rules.Scenario {
	t.Helper()
	s, err := rules.LoadScenario(os.ReadFile, supplyDir+file)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// supplyPosition returns a new state of s in which only the units of at are
// on the map, where at puts them, and the bridges of blown ("3-4") are blown.
// Each area held by one side alone is that side's, and no other area is
// anyone's (12.22), as if the position had stood at the end of an impulse;
// a case that needs more sets State.Control itself.
func supplyPosition(t testing.TB, s *rules.Scenario, at map[string]rules.Place, blown ...string) *rules.State {
	t.Helper()
	st := rules.NewState(s)
	for _, u := range st.Units {
		u.Place, u.TurnStart, u.Arrived = rules.Place{}, rules.Place{}, false
	}
	for id, p := range at {
		supplyPut(t, st, id, p)
	}
	for _, b := range blown {
		supplyBlow(t, st, b, true)
	}
	st.Control = map[int]rules.Side{}
	vicControl(s, st)
	return st
}

// supplyPut puts a unit somewhere, as if it had begun the turn there.
func supplyPut(t testing.TB, st *rules.State, id string, p rules.Place) {
	t.Helper()
	u := st.Unit(id)
	if u == nil {
		t.Fatalf("no unit %s", id)
	}
	u.Place, u.TurnStart, u.Arrived, u.Eliminated = p, p, true, false
}

// supplyBlow blows (or repairs) the bridge "a-b".
func supplyBlow(t testing.TB, st *rules.State, bridge string, blown bool) {
	t.Helper()
	x, y, _ := strings.Cut(bridge, "-")
	a, _ := strconv.Atoi(x)
	b, _ := strconv.Atoi(y)
	br := st.Bridge(a, b)
	if br == nil {
		t.Fatalf("no bridge %s in the state", bridge)
	}
	br.Blown = blown
}

// A supplyCase is a position and the verdict expected for some of its units.
type supplyCase struct {
	name  string
	at    map[string]rules.Place
	blown []string
	want  map[string]bool
}

type supplyJudge func(*rules.State, *rules.Scenario, *rules.UnitState) bool

// runSupplyCases checks each case with judge, and checks that JudgeSupply,
// which judges every unit at once, agrees with Supplied unit by unit.
func runSupplyCases(t *testing.T, s *rules.Scenario, judge supplyJudge, cases []supplyCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkSupply(t, s, judge, supplyPosition(t, s, c.at, c.blown...), c.want)
		})
	}
}

// checkSupply checks the units of want in st with judge, and that
// JudgeSupply agrees with Supplied unit by unit.
func checkSupply(t *testing.T, s *rules.Scenario, judge supplyJudge, st *rules.State, want map[string]bool) {
	t.Helper()
	for id, w := range want {
		if got := judge(st, s, st.Unit(id)); got != w {
			t.Errorf("%s in %s: got %v, want %v", id, st.Unit(id).Place, got, w)
		}
	}
	all := st.Clone()
	all.JudgeSupply(s)
	for _, u := range all.Units {
		if u.OnMap() && u.InSupply != st.Supplied(s, st.Unit(u.ID)) {
			t.Errorf("%s: JudgeSupply says %v, Supplied says %v", u.ID, u.InSupply, !u.InSupply)
		}
	}
}

func TestSupply_13_11_LineAlongRoads(t *testing.T) {
	s := supplyScenario(t, "scenario.toml")
	runSupplyCases(t, s, (*rules.State).Supplied, []supplyCase{
		{"next to its source zone", map[string]rules.Place{"G/IN": supA(6)}, nil, map[string]bool{"G/IN": true}},
		{"a long line across two bridges", map[string]rules.Place{"G/IN": supA(1), "G/AR": supA(2)}, nil,
			map[string]bool{"G/IN": true, "G/AR": true}},
		{"in its own source zone", map[string]rules.Place{"U/IN": supZ("D"), "G/AR": supZ("A")}, nil,
			map[string]bool{"U/IN": true, "G/AR": true}},
		{"from an enemy zone back to its own", map[string]rules.Place{"G/IN": supZ("D")}, nil, map[string]bool{"G/IN": true}},
		{"the enemy's zones are not its sources", map[string]rules.Place{"U/IN": supA(6), "G/IN": supA(5), "G/IN2": supA(8)}, nil,
			map[string]bool{"U/IN": false}},
	})
}

// TestSupply_ZonesAreLineEnds: a line may start in a zone (a unit there) or
// end in a source zone, but never runs area - zone - area.
func TestSupply_ZonesAreLineEnds(t *testing.T) {
	s := supplyScenario(t, "scenario.toml")
	runSupplyCases(t, s, (*rules.State).Supplied, []supplyCase{
		{"from a zone that is no source", map[string]rules.Place{"G/RE": supZ("B")}, nil, map[string]bool{"G/RE": true}},
		{"not through zone B round the blown bridge 7-8", map[string]rules.Place{"G/AR": supA(8), "G/IN": supA(8), "U/IN": supA(4)}, []string{"7-8"},
			map[string]bool{"G/AR": false, "G/IN": true}},
	})
}

func TestSupply_NotOnMap(t *testing.T) {
	s := supplyScenario(t, "scenario.toml")
	st := supplyPosition(t, s, map[string]rules.Place{"G/IN": supA(6)})
	u := st.Unit("G/AR") // not arrived
	if st.Supplied(s, u) || st.SuppliedWithoutBlownBridge(s, u) {
		t.Error("a unit not on the map is not in supply")
	}
	u.InSupply = true
	st.JudgeSupply(s)
	if !u.InSupply {
		t.Error("JudgeSupply judged a unit not on the map")
	}
	if st.Supplied(s, nil) {
		t.Error("nil unit in supply")
	}
}

func TestSupply_13_12_EnemyOnlyAreaBlocks(t *testing.T) {
	s := supplyScenario(t, "scenario.toml")
	runSupplyCases(t, s, (*rules.State).Supplied, []supplyCase{
		{"the line goes round an enemy-held area", map[string]rules.Place{"G/IN": supA(5), "U/IN": supA(6)}, nil,
			map[string]bool{"G/IN": true}},
		{"every way out leads through enemy-held areas", map[string]rules.Place{"G/IN": supA(5), "U/IN": supA(6), "U/IN2": supA(7)}, nil,
			map[string]bool{"G/IN": false, "U/IN": true, "U/IN2": true}},
		{"cut off between the rivers", map[string]rules.Place{"G/IN": supA(4), "U/IN": supA(5), "U/IN2": supA(7)}, nil,
			map[string]bool{"G/IN": false}},
		{"an enemy-held area behind the unit does not matter", map[string]rules.Place{"G/IN": supA(5), "U/IN": supA(4)}, nil,
			map[string]bool{"G/IN": true}},
		{"the unit's own area holds the enemy too", map[string]rules.Place{"G/IN": supA(6), "U/IN": supA(6), "U/IN2": supA(7)}, nil,
			map[string]bool{"G/IN": true}},
		{"Allied line blocked by a German-held area", map[string]rules.Place{"U/IN": supA(4), "G/IN": supA(2)}, nil,
			map[string]bool{"U/IN": false, "G/IN": true}},
		{"two units cut each other off", map[string]rules.Place{"U/IN": supA(2), "G/IN": supA(1)}, nil,
			map[string]bool{"U/IN": false, "G/IN": false}},
	})
}

// TestSupply_13_13_ContestedAreaPasses: units of both sides in an area do
// not block a line (supplyPosition leaves a contested area nobody's; one the
// enemy controls blocks, TestSupply_13_12_EnemyControlledArea).
func TestSupply_13_13_ContestedAreaPasses(t *testing.T) {
	s := supplyScenario(t, "scenario.toml")
	runSupplyCases(t, s, (*rules.State).Supplied, []supplyCase{
		{"through a contested area", map[string]rules.Place{"G/IN": supA(5), "U/IN": supA(6), "G/IN2": supA(6), "U/IN2": supA(7)}, nil,
			map[string]bool{"G/IN": true, "G/IN2": true}},
		{"through a contested area between the rivers", map[string]rules.Place{"G/IN": supA(4), "U/IN": supA(5), "G/AR": supA(5), "U/IN2": supA(7)}, nil,
			map[string]bool{"G/IN": true}},
		{"Allied line through a contested area", map[string]rules.Place{"U/IN": supA(3), "G/IN": supA(2), "U/IN2": supA(2)}, nil,
			map[string]bool{"U/IN": true, "U/IN2": true}},
	})
}

// TestSupply_13_12_EnemyControlledArea: 13.12 "補給線は、敵ユニットに支配されて
// いるエリアを通過できず" speaks of control (12.22: the side that last held
// the area alone): an area blocks a line through it when the enemy holds it
// alone, or when nobody holds it alone (empty or contested) and the enemy was
// the last to. 13.13: a contested area that is not the enemy's lets it pass.
// An area held alone now is its holder's, whoever had it before.
func TestSupply_13_12_EnemyControlledArea(t *testing.T) {
	s := supplyScenario(t, "scenario.toml")
	sources := supplyScenario(t, "area-source.toml")
	G, A := rules.German, rules.Allied
	cases := []struct {
		name    string
		s       *rules.Scenario
		at      map[string]rules.Place
		control map[int]rules.Side
		want    map[string]bool
	}{
		{"empty areas nobody holds", s, map[string]rules.Place{"G/IN": supA(5)}, nil,
			map[string]bool{"G/IN": true}},
		{"empty areas the enemy held last", s, map[string]rules.Place{"G/IN": supA(5)}, map[int]rules.Side{6: A, 7: A},
			map[string]bool{"G/IN": false}},
		{"one of them is held now", s, map[string]rules.Place{"G/IN": supA(5), "G/IN2": supA(6)}, map[int]rules.Side{6: A, 7: A},
			map[string]bool{"G/IN": true, "G/IN2": true}},
		{"the unit's own area is the enemy's", s, map[string]rules.Place{"G/IN": supA(6), "U/IN": supA(6)}, map[int]rules.Side{6: A, 7: A},
			map[string]bool{"G/IN": true}},
		{"a contested area the enemy controls", s, map[string]rules.Place{"G/IN": supA(5), "G/IN2": supA(6), "U/IN": supA(6), "U/IN2": supA(7)}, map[int]rules.Side{6: A},
			map[string]bool{"G/IN": false, "G/IN2": true}},
		{"a contested area of one's own (13.13)", s, map[string]rules.Place{"G/IN": supA(5), "G/IN2": supA(6), "U/IN": supA(6), "U/IN2": supA(7)}, map[int]rules.Side{6: G},
			map[string]bool{"G/IN": true, "G/IN2": true}},
		{"Allied line through an empty German area", s, map[string]rules.Place{"U/IN": supA(3)}, map[int]rules.Side{2: G},
			map[string]bool{"U/IN": false}},
		{"a source area the enemy controls", sources, map[string]rules.Place{"U/IN": supA(1), "G/IN": supZ("D")}, map[int]rules.Side{2: G},
			map[string]bool{"U/IN": false}},
		{"a source area taken back", sources, map[string]rules.Place{"U/IN": supA(1), "U/IN2": supA(2), "G/IN": supZ("D")}, map[int]rules.Side{2: G},
			map[string]bool{"U/IN": true, "U/IN2": true}},
		{"in a contested source area the enemy controls", sources, map[string]rules.Place{"U/IN": supA(2), "G/IN": supA(2), "G/IN2": supZ("D")}, map[int]rules.Side{2: G},
			map[string]bool{"U/IN": false}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := supplyPosition(t, c.s, c.at)
			for a, side := range c.control {
				st.Control[a] = side
			}
			checkSupply(t, c.s, (*rules.State).Supplied, st, c.want)
		})
	}
}

func TestSupply_13_12_EnemyHeldSourceZone(t *testing.T) {
	s := supplyScenario(t, "scenario.toml")
	runSupplyCases(t, s, (*rules.State).Supplied, []supplyCase{
		{"the only source held by the enemy alone", map[string]rules.Place{"U/IN": supA(1), "G/IN": supZ("D")}, nil,
			map[string]bool{"U/IN": false}},
		{"13.13: the source held by both sides", map[string]rules.Place{"U/IN": supA(1), "G/IN": supZ("D"), "U/IN2": supZ("D")}, nil,
			map[string]bool{"U/IN": true, "U/IN2": true}},
		{"a unit in its own source zone with the enemy", map[string]rules.Place{"U/IN": supZ("D"), "G/IN": supZ("D")}, nil,
			map[string]bool{"U/IN": true}},
	})
}

// TestSupply_13_11_SourceArea: an area can be a source, as Mersch in the
// introductory scenario (testdata/supply/area-source.toml: D and area 2).
func TestSupply_13_11_SourceArea(t *testing.T) {
	s := supplyScenario(t, "area-source.toml")
	runSupplyCases(t, s, (*rules.State).Supplied, []supplyCase{
		{"the source zone is lost, the source area is not", map[string]rules.Place{"U/IN": supA(1), "G/IN": supZ("D")}, nil,
			map[string]bool{"U/IN": true}},
		{"13.12: the source area held by the enemy alone", map[string]rules.Place{"U/IN": supA(1), "G/IN": supZ("D"), "G/IN2": supA(2)}, nil,
			map[string]bool{"U/IN": false}},
		{"in the source area with the enemy", map[string]rules.Place{"U/IN": supA(2), "G/IN": supA(2), "G/IN2": supZ("D")}, nil,
			map[string]bool{"U/IN": true}},
		{"a line ends in the source area", map[string]rules.Place{"U/AR": supA(4), "G/IN": supZ("D"), "G/IN2": supA(1)}, nil,
			map[string]bool{"U/AR": true}},
	})
}

func TestSupply_13_14_BlownBridge(t *testing.T) {
	s := supplyScenario(t, "scenario.toml")
	runSupplyCases(t, s, (*rules.State).Supplied, []supplyCase{
		{"a blown bridge behind the unit", map[string]rules.Place{"G/AR": supA(4)}, []string{"3-4"},
			map[string]bool{"G/AR": true}},
		{"armour goes round a blown bridge", map[string]rules.Place{"G/AR": supA(4)}, []string{"4-5"},
			map[string]bool{"G/AR": true}},
		{"armour: every line crosses a blown bridge", map[string]rules.Place{"G/AR": supA(4)}, []string{"4-5", "7-8"},
			map[string]bool{"G/AR": false}},
		{"armour: by the middle road between two blown bridges", map[string]rules.Place{"G/AR": supA(3)}, []string{"3-4", "7-8"},
			map[string]bool{"G/AR": true}},
		{"Allied armour cut off by the Erst", map[string]rules.Place{"U/AR": supA(4)}, []string{"3-4", "3-8"},
			map[string]bool{"U/AR": false}},
	})
}

func TestSupply_13_14_InfantryCrossesOneBlownBridge(t *testing.T) {
	s := supplyScenario(t, "scenario.toml")
	at := map[string]rules.Place{"G/IN": supA(4), "G/MX": supA(4), "G/AR": supA(4)}
	runSupplyCases(t, s, (*rules.State).Supplied, []supplyCase{
		{"infantry, mech: one blown bridge; armour: none", at, []string{"4-5", "7-8"},
			map[string]bool{"G/IN": true, "G/MX": true, "G/AR": false}},
		{"from the west bank", map[string]rules.Place{"G/IN": supA(3), "G/AR": supA(3)}, []string{"4-5", "7-8", "3-8"},
			map[string]bool{"G/IN": true, "G/AR": false}},
		{"the one blown bridge is the first of the line", map[string]rules.Place{"G/IN": supA(2), "G/AR": supA(2)}, []string{"3-4", "3-8"},
			map[string]bool{"G/IN": true, "G/AR": false}},
		{"Allied infantry across the Erst", map[string]rules.Place{"U/IN": supA(4), "U/AR": supA(4)}, []string{"3-4", "3-8"},
			map[string]bool{"U/IN": true, "U/AR": false}},
	})
}

func TestSupply_13_14_NotTwoBlownBridges(t *testing.T) {
	s := supplyScenario(t, "scenario.toml")
	runSupplyCases(t, s, (*rules.State).Supplied, []supplyCase{
		{"every line crosses both rivers at blown bridges", map[string]rules.Place{"G/IN": supA(3), "G/MX": supA(1)}, []string{"3-4", "4-5", "3-8", "7-8"},
			map[string]bool{"G/IN": false, "G/MX": false}},
		{"the short line crosses two, a longer one only one", map[string]rules.Place{"G/IN": supA(3), "G/AR": supA(3)}, []string{"3-4", "4-5", "3-8"},
			map[string]bool{"G/IN": true, "G/AR": false}},
		{"between the rivers one is enough", map[string]rules.Place{"G/IN": supA(4)}, []string{"3-4", "4-5", "3-8", "7-8"},
			map[string]bool{"G/IN": true}},
		{"Allied infantry from the east bank: one blown bridge", map[string]rules.Place{"U/IN": supA(6)}, []string{"4-5", "7-8", "3-4"},
			map[string]bool{"U/IN": true}},
		{"Allied infantry from the east bank: two", map[string]rules.Place{"U/IN": supA(6)}, []string{"4-5", "7-8", "3-4", "3-8"},
			map[string]bool{"U/IN": false}},
	})
}

func TestSupply_8_35_SuppliedWithoutBlownBridge(t *testing.T) {
	s := supplyScenario(t, "scenario.toml")
	at := map[string]rules.Place{"G/MX": supA(3), "G/AR": supA(3)}
	runSupplyCases(t, s, (*rules.State).SuppliedWithoutBlownBridge, []supplyCase{
		{"round the blown bridge", at, []string{"3-4"}, map[string]bool{"G/MX": true, "G/AR": true}},
		{"by the middle road", at, []string{"3-4", "7-8"}, map[string]bool{"G/MX": true}},
		{"every line crosses a blown bridge", at, []string{"3-4", "7-8", "4-5"}, map[string]bool{"G/MX": false, "G/AR": false}},
	})
	// The same position: in supply (one blown bridge) but not without one.
	st := supplyPosition(t, s, at, "3-4", "7-8", "4-5")
	if !st.Supplied(s, st.Unit("G/MX")) {
		t.Error("G/MX crosses one blown bridge: in supply (13.14)")
	}
}

func TestSupply_8_35_DismountedRestored(t *testing.T) {
	s := supplyScenario(t, "scenario.toml")
	cases := []struct {
		name          string
		at            map[string]rules.Place
		blown         []string
		inSupply      bool
		staysDismount bool
	}{
		{"in supply only across the blown bridge", map[string]rules.Place{"G/MX": supA(3)}, []string{"3-4", "4-5", "7-8"}, true, true},
		{"a line without a blown bridge", map[string]rules.Place{"G/MX": supA(3)}, []string{"3-4", "4-5"}, true, false},
		{"the intact line is held by the enemy", map[string]rules.Place{"G/MX": supA(3), "U/IN": supA(8)}, []string{"3-4"}, true, true},
		{"out of supply", map[string]rules.Place{"G/MX": supA(3)}, []string{"3-4", "4-5", "3-8", "7-8"}, false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := supplyPosition(t, s, c.at, c.blown...)
			u := st.Unit("G/MX")
			u.Dismounted = true
			st.JudgeSupply(s)
			if u.InSupply != c.inSupply || u.Dismounted != c.staysDismount {
				t.Errorf("in supply %v, dismounted %v; want %v, %v", u.InSupply, u.Dismounted, c.inSupply, c.staysDismount)
			}
		})
	}
	// Repairing a bridge (10.1) gives the MP back at the next judgement.
	st := supplyPosition(t, s, map[string]rules.Place{"G/MX": supA(3)}, "3-4", "4-5", "7-8")
	u := st.Unit("G/MX")
	u.Dismounted = true
	st.JudgeSupply(s)
	supplyBlow(t, st, "4-5", false)
	if !u.Dismounted {
		t.Fatal("restored before the repair")
	}
	st.JudgeSupply(s)
	if u.Dismounted {
		t.Error("bridge 4-5 repaired: G/MX traces 3-8-4-5 without a blown bridge and is no longer dismounted")
	}
}

// TestSupply_13_15_JudgeSupplySimultaneous: every unit is judged on the
// position before any InSupply changes; the changes come in unit order.
func TestSupply_13_15_JudgeSupplySimultaneous(t *testing.T) {
	s := supplyScenario(t, "scenario.toml")
	// G/IN and U/IN cut each other off; G/AR off the map keeps its mark.
	st := supplyPosition(t, s, map[string]rules.Place{"G/IN": supA(1), "U/IN": supA(2), "G/IN2": supA(6)})
	for _, u := range st.Units {
		u.InSupply = true
	}
	st.Unit("G/IN2").InSupply = false
	got := st.JudgeSupply(s)
	want := []rules.SupplyChange{{Unit: "G/IN", InSupply: false}, {Unit: "G/IN2", InSupply: true}, {Unit: "U/IN", InSupply: false}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("changes %v, want %v", got, want)
	}
	if again := st.JudgeSupply(s); len(again) != 0 {
		t.Errorf("judging again changed %v", again)
	}
	if !st.Unit("G/AR").InSupply {
		t.Error("a unit off the map was judged")
	}
}

func TestSupply_13_21_AttritionSimultaneous(t *testing.T) {
	s := supplyScenario(t, "scenario.toml")
	cases := []struct {
		name     string
		at       map[string]rules.Place
		blown    []string
		want     []rules.Attrited
		strength map[string]int // after the phase
	}{
		{
			// U/IN (infantry) in 5 traces 5-4-3-2-1-D: 4 is contested only
			// because U/AR is there with G/IN, and it crosses the blown
			// bridge 3-4, its one. U/AR (armour, 1 SP) cannot cross it and
			// is eliminated. Judged before the loss, U/IN stays in supply
			// and loses nothing, although 4 is then German alone.
			"a line through an area whose unit dies",
			map[string]rules.Place{"U/IN": supA(5), "U/AR": supA(4), "G/IN": supA(4), "G/IN2": supA(8)},
			[]string{"3-4"},
			[]rules.Attrited{{Unit: "U/AR", Strength: 0, Eliminated: true}},
			map[string]int{"U/IN": 3, "U/AR": 0, "G/IN": 3, "G/IN2": 2},
		},
		{
			"every unit out of supply loses 1 SP, both sides",
			map[string]rules.Place{"G/IN": supA(5), "G/IN2": supA(8), "U/IN": supA(6), "U/IN2": supA(7), "U/MX": supA(1)},
			nil,
			[]rules.Attrited{{Unit: "G/IN", Strength: 2}, {Unit: "G/IN2", Strength: 1}, {Unit: "U/IN", Strength: 2}, {Unit: "U/IN2", Strength: 1}},
			map[string]int{"G/IN": 2, "G/IN2": 1, "U/IN": 2, "U/IN2": 1, "U/MX": 2},
		},
		{
			"nobody out of supply",
			map[string]rules.Place{"G/IN": supA(6), "U/IN": supA(1)},
			nil, nil,
			map[string]int{"G/IN": 3, "U/IN": 3},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := supplyPosition(t, s, c.at, c.blown...)
			got := st.Attrition(s)
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("attrition %v, want %v", got, c.want)
			}
			for id, n := range c.strength {
				if u := st.Unit(id); u.Strength != n {
					t.Errorf("%s has %d SP, want %d", id, u.Strength, n)
				}
			}
			for _, a := range got {
				u := st.Unit(a.Unit)
				if a.Eliminated != (u.Eliminated && u.Place.IsZero() && !u.OnMap()) {
					t.Errorf("%s: eliminated %v, but the state has Eliminated %v in %q", a.Unit, a.Eliminated, u.Eliminated, u.Place)
				}
			}
		})
	}
	// A second attrition phase takes a second SP.
	st := supplyPosition(t, s, map[string]rules.Place{"G/IN": supA(1), "U/IN": supA(2)})
	st.Attrition(s)
	st.Attrition(s)
	if g, u := st.Unit("G/IN"), st.Unit("U/IN"); g.Strength != 1 || u.Strength != 1 {
		t.Errorf("after two phases G/IN %d SP, U/IN %d SP; want 1 and 1", g.Strength, u.Strength)
	}
}

// TestSupply_5thPanzer_InsideTheMap: in the 5th Panzer scenario lines run
// only inside the scenario's map (testdata/supply/part.toml: areas 1-6 and
// zones A, D), and a unit outside it is in supply only where the special
// rule says: its set-up place, or its entry zone when placed.
func TestSupply_5thPanzer_InsideTheMap(t *testing.T) {
	part := supplyScenario(t, "part.toml")
	whole := supplyScenario(t, "scenario.toml")
	at := map[string]rules.Place{"G/IN": supA(5), "U/IN": supA(6)}
	runSupplyCases(t, whole, (*rules.State).Supplied, []supplyCase{
		{"whole map: round through 7", at, nil, map[string]bool{"G/IN": true}},
	})
	runSupplyCases(t, part, (*rules.State).Supplied, []supplyCase{
		{"partial map: 7 is outside", at, nil, map[string]bool{"G/IN": false}},
		{"outside, at its set-up place", map[string]rules.Place{"G/OUT": supA(8)}, nil, map[string]bool{"G/OUT": true}},
		{"outside, elsewhere", map[string]rules.Place{"G/OUT": supA(7)}, nil, map[string]bool{"G/OUT": false}},
		{"outside, in its entry zone", map[string]rules.Place{"G/RE": supZ("B")}, nil, map[string]bool{"G/RE": true}},
		{"outside, out of its entry zone", map[string]rules.Place{"G/RE": supA(7)}, nil, map[string]bool{"G/RE": false}},
		{"inside: the ordinary rules", map[string]rules.Place{"G/OUT": supA(4)}, nil, map[string]bool{"G/OUT": true}},
	})
}

// TestSupply_13_1_RulebookExample reconstructs the rulebook's supply example
// ("プレイの例", 補給) on the shipped map: Bastogne (88), Sprimont (105) and
// Moircy (104) on one road, Nives (108) joined to Moircy (and to Sprimont).
// At the start of the turn the Allies hold a line from north to south; German
// infantry is in Bastogne with Allied units left over from the last turn's
// battle ("連合軍エリアの一部には、前ターンの戦闘で残ったドイツ軍ユニットが含まれて
// います"), and German armour in Nives. The Germans may not move the infantry
// from Bastogne to Sprimont, nor the armour from Nives to Moircy: neither
// could trace supply there (8.28). In impulse 1 the Germans clear Bastogne;
// "連合軍インパルスに連合軍プレイヤーが Bastogne や Sprimont へユニットを移動させ
// なかった場合", in impulse 2 the Germans trace supply through Bastogne and
// Sprimont to Moircy, and the armour may move there.
//
// The figure is not in the rulebook text. Reconstruction: Allied units in
// Bastogne (with the German infantry) and on the line Hollange (106),
// Saint-Hubert (103), Libramont (110), Martelange (107), Neufchâteau (109),
// which closes every way out of Sprimont, Moircy and Nives but Bastogne.
// Sprimont is empty throughout, as the text has it (the Allies need only not
// move into it), and nobody has held it. What changes between the impulses
// is Bastogne: contested and the Allies' in impulse 1 (12.22: they held it
// alone last), the Germans' alone in impulse 2. So a contested area the
// enemy controls blocks a line through it (13.12), as in impulse 1, while one
// that is not the enemy's lets it pass (13.13), as when the Allies come back
// into Bastogne in impulse 2.
func TestSupply_13_1_RulebookExample(t *testing.T) {
	s, err := scenarios.Load("campaign")
	if err != nil {
		t.Fatal(err)
	}
	var gInf, gArm string
	var allied []string
	for _, u := range s.Units {
		switch {
		case u.Side == rules.German && u.Type == rules.Infantry && gInf == "":
			gInf = u.ID
		case u.Side == rules.German && u.Type == rules.Armor && gArm == "":
			gArm = u.ID
		case u.Side == rules.Allied && u.Type == rules.Infantry:
			allied = append(allied, u.ID)
		}
	}
	bastogne, sprimont, moircy, nives := supA(88), supA(105), supA(104), supA(108)
	line := map[string]rules.Place{}
	for i, n := range []int{106, 103, 110, 107, 109} {
		line[allied[2+i]] = supA(n)
	}
	// Control at the start of each German impulse (12.22): Bastogne the
	// Allies' in impulse 1, the Germans' after they clear it; Nives the
	// Germans'; Sprimont and Moircy nobody's.
	g1 := map[int]rules.Side{88: rules.Allied, 108: rules.German}
	g2 := map[int]rules.Side{88: rules.German, 108: rules.German}
	cases := []struct {
		name               string
		gi, ga             rules.Place // the German infantry and armour
		inBastogne, inSpri bool        // Allied units in Bastogne, in Sprimont
		control            map[int]rules.Side
		want               map[string]bool
	}{
		{"G1: the infantry in contested Bastogne, its own area", bastogne, nives, true, false, g1,
			map[string]bool{gInf: true}},
		{"G1: the infantry moved to Sprimont leaves Bastogne to the Allies (13.12)", sprimont, nives, true, false, g1,
			map[string]bool{gInf: false}},
		{"G1: the armour moved to Moircy: Bastogne is the Allies' (13.12, 12.22)", bastogne, moircy, true, false, g1,
			map[string]bool{gArm: false}},
		{"G1: the pocket of Nives is cut off", bastogne, nives, true, false, g1,
			map[string]bool{gArm: false}},
		{"G2: through Bastogne and Sprimont to Moircy", bastogne, moircy, false, false, g2,
			map[string]bool{gArm: true, gInf: true}},
		{"G2: the infantry moved to Sprimont", sprimont, nives, false, false, g2,
			map[string]bool{gInf: true, gArm: true}},
		{"G2, but the Allies moved into Sprimont", bastogne, moircy, false, true, g2,
			map[string]bool{gArm: false}},
		{"G2, the Allies are back in Bastogne, still the Germans' (13.13)", bastogne, moircy, true, false, g2,
			map[string]bool{gArm: true}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			at := map[string]rules.Place{gInf: c.gi, gArm: c.ga}
			for id, p := range line {
				at[id] = p
			}
			if c.inBastogne {
				at[allied[0]] = bastogne
			}
			if c.inSpri {
				at[allied[1]] = sprimont
			}
			st := supplyPosition(t, s, at)
			for a, side := range c.control {
				st.Control[a] = side
			}
			checkSupply(t, s, (*rules.State).Supplied, st, c.want)
		})
	}
}

// TestSupply_AgreesWithForwardSearch compares Supplied and
// SuppliedWithoutBlownBridge, which search once from the sources outward,
// with a plain search from each unit towards the sources, written from the
// rules' words, on many positions of the test map (a fixed sequence of
// positions, the same at every run).
func TestSupply_AgreesWithForwardSearch(t *testing.T) {
	for _, file := range []string{"scenario.toml", "area-source.toml", "part.toml"} {
		t.Run(file, func(t *testing.T) { supplyAgreesWithForwardSearch(t, supplyScenario(t, file)) })
	}
}

func supplyAgreesWithForwardSearch(t *testing.T, s *rules.Scenario) {
	// Places and bridges of the scenario's map only: the 5th Panzer rule for
	// units outside it is tested above.
	var places []rules.Place
	for _, p := range []rules.Place{supA(1), supA(2), supA(3), supA(4), supA(5), supA(6), supA(7), supA(8), supZ("A"), supZ("B"), supZ("D")} {
		if s.Uses(p) {
			places = append(places, p)
		}
	}
	var bridges []string
	for _, b := range rules.NewState(s).Bridges {
		bridges = append(bridges, fmt.Sprintf("%d-%d", b.A, b.B))
	}
	r := rand.New(rand.NewPCG(13, 14))
	for i := range 1000 {
		at := map[string]rules.Place{}
		for _, u := range s.Units {
			if r.IntN(3) > 0 {
				at[u.ID] = places[r.IntN(len(places))]
			}
		}
		var blown []string
		for _, b := range bridges {
			if r.IntN(3) == 0 {
				blown = append(blown, b)
			}
		}
		st := supplyPosition(t, s, at, blown...)
		// Control as it may stand during an impulse: any area may be
		// anyone's, whoever is in it now.
		for _, p := range places {
			if p.IsZone() {
				continue
			}
			switch r.IntN(3) {
			case 0:
				delete(st.Control, p.Area)
			case 1:
				st.Control[p.Area] = rules.German
			case 2:
				st.Control[p.Area] = rules.Allied
			}
		}
		for id := range at {
			u := st.Unit(id)
			allow := 0
			if s.OOB.Unit(id).Type.InfantryType() {
				allow = 1
			}
			if got, want := st.Supplied(s, u), forwardSupplied(s, st, u, allow); got != want {
				t.Fatalf("position %d %v control %v blown %v: %s Supplied %v, forward search %v", i, at, st.Control, blown, id, got, want)
			}
			if got, want := st.SuppliedWithoutBlownBridge(s, u), forwardSupplied(s, st, u, 0); got != want {
				t.Fatalf("position %d %v control %v blown %v: %s SuppliedWithoutBlownBridge %v, forward search %v", i, at, st.Control, blown, id, got, want)
			}
		}
	}
}

// forwardSupplied searches from the unit along roads towards its sources,
// crossing at most allow blown bridges (13.14), never through an area the
// enemy controls (13.12: held by the enemy alone, or held by neither side
// alone and last held alone by the enemy, 12.22) nor through a zone, and
// ending in a source that is not the enemy's (a zone: not held by the enemy
// alone; 13.12, 13.13).
func forwardSupplied(s *rules.Scenario, st *rules.State, u *rules.UnitState, allow int) bool {
	side := s.OOB.Unit(u.ID).Side
	held := map[rules.Place]map[rules.Side]bool{}
	for _, v := range st.Units {
		if v.OnMap() {
			if held[v.Place] == nil {
				held[v.Place] = map[rules.Side]bool{}
			}
			held[v.Place][s.OOB.Unit(v.ID).Side] = true
		}
	}
	enemys := func(p rules.Place) bool {
		switch e, own := held[p][side.Enemy()], held[p][side]; {
		case e && !own:
			return true
		case own && !e:
			return false
		}
		c, ok := st.Control[p.Area]
		return !p.IsZone() && ok && c == side.Enemy()
	}
	source := func(p rules.Place) bool {
		for _, q := range s.Supply.Sources(side) {
			if q == p {
				return s.Uses(p) && !enemys(p)
			}
		}
		return false
	}
	type node struct {
		p     rules.Place
		blown int
	}
	if source(u.Place) {
		return true
	}
	seen := map[node]bool{{u.Place, 0}: true}
	queue := []node{{u.Place, 0}}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, l := range s.Map.Links(n.p) {
			if !s.Uses(l.To) {
				continue
			}
			next := node{l.To, n.blown}
			if l.Road != nil && l.Road.Bridge && st.Bridge(l.Road.A, l.Road.B).Blown {
				next.blown++
			}
			if next.blown > allow || seen[next] {
				continue
			}
			if source(next.p) {
				return true
			}
			seen[next] = true
			if !next.p.IsZone() && !enemys(next.p) {
				queue = append(queue, next)
			}
		}
	}
	return false
}

// TestSupply_SetUpInSupply: every unit of every shipped scenario is in
// supply at set-up (the 5th Panzer scenario says so: "初期配置時には全ユニットは
// 補給下にあります"; the others by their set-up).
func TestSupply_SetUpInSupply(t *testing.T) {
	for _, name := range scenarios.Names {
		s, err := scenarios.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		st := rules.NewState(s)
		if ch := st.JudgeSupply(s); len(ch) != 0 {
			t.Errorf("%s: out of supply at set-up: %v", name, ch)
		}
	}
}

// The supply events are reported as events.
var (
	_ rules.Event = rules.SupplyChange{}
	_ rules.Event = rules.Attrited{}
)

// BenchmarkJudgeSupply judges every unit of the campaign at set-up.
func BenchmarkJudgeSupply(b *testing.B) {
	s, err := scenarios.Load("campaign")
	if err != nil {
		b.Fatal(err)
	}
	st := rules.NewState(s)
	for b.Loop() {
		st.JudgeSupply(s)
	}
}

// BenchmarkSupplied judges one unit of the campaign at set-up, as the
// movement rules do after each move (8.28).
func BenchmarkSupplied(b *testing.B) {
	s, err := scenarios.Load("campaign")
	if err != nil {
		b.Fatal(err)
	}
	st := rules.NewState(s)
	u := st.Units[0]
	for b.Loop() {
		st.Supplied(s, u)
	}
}

func TestAttrition_13_21_EndOfTurn(t *testing.T) {
	s, st := moveGame(t)
	place(st, "U/IN", rules.AreaPlace(6))
	place(st, "G/IN", rules.AreaPlace(1))
	for st.Next.String() != "G17-1" {
		st, _ = mustPlay(t, s, st, "")
	}
	// 6.0 VIII: out of supply at the end of the turn, U/MX and U/IN lose
	// 1 SP each (13.21); G/IN, traced back to zone A, does not.
	if u := st.Unit("U/MX"); u.Strength != 1 {
		t.Errorf("U/MX strength %d, want 1", u.Strength)
	}
	if u := st.Unit("U/IN"); u.Strength != 2 {
		t.Errorf("U/IN strength %d, want 2", u.Strength)
	}
	if u := st.Unit("G/IN"); u.Strength != 3 {
		t.Errorf("G/IN strength %d, want 3", u.Strength)
	}
}
