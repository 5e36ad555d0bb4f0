package rules_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"titm/rules"
	"titm/rules/scenarios"
)

// The victory tests use the hand-drawn map of testdata/victory/map.toml:
//
//	D == 7 --p-- 5 --p-- 3 --p-- 1 == A
//	     |p      |p      |p      |p
//	E == 8 --p-- 6 --p-- 4 --p-- 2 == B
//	F == 8
//
// German zones A and B (supply), Allied zones D (VP ×2), E (VP ×3) and F (no
// multiplier). VP areas 3 (1 VP) and 7 (2 VP); release areas 5 and 6; the
// scenario's victory areas are 5 and 6 (2 controlled, 1 contested) and holes
// run from A-B to D-E (3 VP each). Each case starts from an empty map and
// puts the units it names.

const victoryDir = "../testdata/victory/"

// vicScenario loads the scenario of testdata/victory.
func vicScenario(t testing.TB) *rules.Scenario {
	t.Helper()
	s, err := rules.LoadScenario(readOS, victoryDir+"scenario.toml")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// vicShipped loads a shipped scenario.
func vicShipped(t testing.TB, name string) *rules.Scenario {
	t.Helper()
	s, err := scenarios.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// vicEmpty returns a new state of s with every unit off the map and no area
// controlled.
func vicEmpty(s *rules.Scenario) *rules.State {
	st := rules.NewState(s)
	for _, u := range st.Units {
		u.Place, u.TurnStart, u.Arrived = rules.Place{}, rules.Place{}, false
	}
	st.Control = map[int]rules.Side{}
	return st
}

// vicPut puts units where at says, as if they had begun the turn there.
func vicPut(t testing.TB, st *rules.State, at map[string]rules.Place) {
	t.Helper()
	for id, p := range at {
		u := st.Unit(id)
		if u == nil {
			t.Fatalf("no unit %s", id)
		}
		u.Place, u.TurnStart, u.Arrived, u.Eliminated = p, p, true, false
	}
}

// vicControl gives each area held by one side alone to that side, as the
// engine does at the end of every player impulse (12.22).
func vicControl(s *rules.Scenario, st *rules.State) {
	for _, a := range s.Map.Areas {
		var g, al bool
		for _, u := range st.UnitsAt(s, rules.AreaPlace(a.ID), "") {
			if s.OOB.Unit(u.ID).Side == rules.German {
				g = true
			} else {
				al = true
			}
		}
		switch {
		case g && !al:
			st.Control[a.ID] = rules.German
		case al && !g:
			st.Control[a.ID] = rules.Allied
		}
	}
}

func vA(n int) rules.Place     { return rules.AreaPlace(n) }
func vZ(id string) rules.Place { return rules.ZonePlace(id) }

// vicEvents returns the events of type T.
func vicEvents[T any](events []rules.Event) []T {
	var out []T
	for _, e := range events {
		if x, ok := e.(T); ok {
			out = append(out, x)
		}
	}
	return out
}

// vicResult returns the GameResult event, failing if there is not exactly one
// and it is not the last.
func vicResult(t testing.TB, events []rules.Event) rules.GameResult {
	t.Helper()
	rs := vicEvents[rules.GameResult](events)
	if len(rs) != 1 || len(events) == 0 {
		t.Fatalf("want one GameResult, got %v", events)
	}
	if _, last := events[len(events)-1].(rules.GameResult); !last {
		t.Errorf("the GameResult is not the last event: %v", events)
	}
	return rs[0]
}

// TestVictory_12_21_AreasScoreEachTurn: the Germans score the VP of every VP
// area they control at the end of each turn (3.26, 12.11, 12.21), and not
// when the scenario does not count the map's VP areas.
func TestVictory_12_21_AreasScoreEachTurn(t *testing.T) {
	s := vicScenario(t)
	st := vicEmpty(s)
	vicPut(t, st, map[string]rules.Place{"G/AR": vA(3), "G/IN": vA(7), "U/IN": vA(5)})
	vicControl(s, st)

	st.Next = rules.Impulse{Side: rules.German, Day: 17, N: 1} // the 16 December turn is over
	ev := st.ScoreTurn(s)
	want := []rules.Event{rules.VPScored{Area: 3, VP: 1}, rules.VPScored{Area: 7, VP: 2}, rules.VPTotal{Turn: 16, VP: 3, Total: 3}}
	if !reflect.DeepEqual(ev, want) {
		t.Errorf("16 December: events %v, want %v", ev, want)
	}
	st.Next = rules.Impulse{Side: rules.German, Day: 18, N: 1}
	ev = st.ScoreTurn(s)
	if tot := vicEvents[rules.VPTotal](ev); len(tot) != 1 || tot[0] != (rules.VPTotal{Turn: 17, VP: 3, Total: 6}) {
		t.Errorf("17 December: %v, want 3 VP scored and 6 in all", ev)
	}
	if st.VP != 6 {
		t.Errorf("VP = %d after two turns, want 6", st.VP)
	}

	// A scenario that does not count the map's VP areas (The First Three
	// Days) scores nothing in the victory phase.
	s.Victory.MapVP = false
	st.Next = rules.Impulse{Side: rules.German, Day: 19, N: 1}
	ev = st.ScoreTurn(s)
	if len(ev) != 1 || ev[0] != (rules.VPTotal{Turn: 18, VP: 0, Total: 6}) || st.VP != 6 {
		t.Errorf("map_vp = false: events %v, VP %d; want nothing scored", ev, st.VP)
	}
}

// TestVictory_12_21_OnlyTheScenarioMap: in a partial-map scenario only the VP
// areas of its map count (The 5th Panzer Army: Bastogne is inside the red
// boundary, Malmedy outside). The last impulse of a scenario that ends in
// mid-day (G22-1) scores its day.
func TestVictory_12_21_OnlyTheScenarioMap(t *testing.T) {
	s := vicShipped(t, "fifth-panzer")
	st := rules.NewState(s)
	st.Control[88], st.Control[44] = rules.German, rules.German // Bastogne (3 VP), Malmedy (1 VP)
	st.Next = rules.Impulse{Side: rules.Allied, Day: 22, N: 1}  // G22-1 has been played
	ev := st.ScoreTurn(s)
	want := []rules.Event{rules.VPScored{Area: 88, VP: 3}, rules.VPTotal{Turn: 22, VP: 3, Total: 3}}
	if !reflect.DeepEqual(ev, want) {
		t.Errorf("events %v, want %v", ev, want)
	}
}

// TestVictory_12_22_ControlLastHolder: an area belongs to the last side to
// hold it alone at the end of an impulse, even if the other side is now
// there and stronger; an area the Germans took goes on scoring after they
// leave it (12.22). Each step is the position at the end of an impulse, then
// the victory phase.
func TestVictory_12_22_ControlLastHolder(t *testing.T) {
	s := vicScenario(t)
	st := vicEmpty(s)
	steps := []struct {
		name    string
		at      map[string]rules.Place
		control map[int]rules.Side // expected, for areas 3 and 7
		scored  int
	}{
		{"the Germans take 7 alone and 3 alone",
			map[string]rules.Place{"G/IN": vA(7), "G/AR": vA(3)},
			map[int]rules.Side{3: rules.German, 7: rules.German}, 3},
		{"stronger Allied units enter 7: still German",
			map[string]rules.Place{"U/AR": vA(7), "U/IN": vA(7)},
			map[int]rules.Side{3: rules.German, 7: rules.German}, 3},
		{"the Germans leave 3 empty: still German",
			map[string]rules.Place{"G/AR": vA(1)},
			map[int]rules.Side{3: rules.German, 7: rules.German}, 3},
		{"the Germans leave 7 to the Allies alone",
			map[string]rules.Place{"G/IN": vA(5)},
			map[int]rules.Side{3: rules.German, 7: rules.Allied}, 1},
		{"the Allies end an impulse alone in 3",
			map[string]rules.Place{"U/MX": vA(3)},
			map[int]rules.Side{3: rules.Allied, 7: rules.Allied}, 0},
	}
	total := 0
	for i, step := range steps {
		vicPut(t, st, step.at)
		vicControl(s, st)
		for a, side := range step.control {
			if st.Control[a] != side {
				t.Errorf("step %d (%s): area %d controlled by %q, want %q", i+1, step.name, a, st.Control[a], side)
			}
		}
		st.Next = rules.Impulse{Side: rules.German, Day: 17 + i, N: 1}
		ev := st.ScoreTurn(s)
		total += step.scored
		tot := vicEvents[rules.VPTotal](ev)
		if len(tot) != 1 || tot[0].VP != step.scored || tot[0].Total != total || st.VP != total {
			t.Errorf("step %d (%s): %v; want %d scored, %d in all", i+1, step.name, ev, step.scored, total)
		}
	}
}

// vicOnly keeps only the named parts of the test scenario's victory: "zones",
// "areas", "holes" (the map's VP areas are scored by ScoreTurn, not Finish).
func vicOnly(s *rules.Scenario, parts ...string) {
	keep := map[string]bool{}
	for _, p := range parts {
		keep[p] = true
	}
	if !keep["zones"] {
		s.Victory.ZoneVP = false
	}
	if !keep["areas"] {
		s.Victory.Areas = nil
	}
	if !keep["holes"] {
		s.Victory.HoleVP = 0
	}
}

// TestVictory_12_23_ZoneMultiplier: at the end German SP in an Allied VP zone
// score SP × the zone's multiplier (3.28, 12.23); a zone without a
// multiplier scores nothing; Allied units in the zone change nothing (11.21).
func TestVictory_12_23_ZoneMultiplier(t *testing.T) {
	cases := []struct {
		name     string
		at       map[string]rules.Place
		strength map[string]int
		zoneVP   bool
		want     []rules.ZoneVP
	}{
		{"4 SP in E ×3", map[string]rules.Place{"G/AR": vZ("E")}, nil, true,
			[]rules.ZoneVP{{Zone: "E", SP: 4, Multiplier: 3, VP: 12}}},
		{"two units in D ×2", map[string]rules.Place{"G/IN": vZ("D"), "G/MX": vZ("D")}, nil, true,
			[]rules.ZoneVP{{Zone: "D", SP: 6, Multiplier: 2, VP: 12}}},
		{"a reduced unit counts its SP left", map[string]rules.Place{"G/AR": vZ("E")}, map[string]int{"G/AR": 2}, true,
			[]rules.ZoneVP{{Zone: "E", SP: 2, Multiplier: 3, VP: 6}}},
		{"both zones, Allied units there too", map[string]rules.Place{"G/IN": vZ("D"), "U/RF": vZ("D"), "G/EN": vZ("E")}, nil, true,
			[]rules.ZoneVP{{Zone: "D", SP: 3, Multiplier: 2, VP: 6}, {Zone: "E", SP: 2, Multiplier: 3, VP: 6}}},
		{"zone F has no multiplier", map[string]rules.Place{"G/EN": vZ("F")}, nil, true, nil},
		{"Germans on the map next to the zone", map[string]rules.Place{"G/AR": vA(8)}, nil, true, nil},
		{"zone_vp = false", map[string]rules.Place{"G/AR": vZ("E")}, nil, false, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := vicScenario(t)
			vicOnly(s, "zones")
			s.Victory.ZoneVP = c.zoneVP
			st := vicEmpty(s)
			vicPut(t, st, c.at)
			for id, n := range c.strength {
				st.Unit(id).Strength = n
			}
			ev := st.Finish(s)
			got := vicEvents[rules.ZoneVP](ev)
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("zone events %v, want %v", got, c.want)
			}
			vp := 0
			for _, z := range c.want {
				vp += z.VP
			}
			if st.VP != vp {
				t.Errorf("VP = %d, want %d", st.VP, vp)
			}
			if r := vicResult(t, ev); r.VP != vp {
				t.Errorf("result %v, want %d VP", r, vp)
			}
		})
	}
}

// TestVictory_12_24_OutOfSupplyScoresNothing: a German unit out of supply at
// the end scores nothing in a VP zone (12.24). Supply is judged at the end,
// whatever the unit's last recorded state: the only way from zone E is area
// 8, which Allied units hold alone (13.12); if Germans are in 8 too the line
// passes (13.13).
func TestVictory_12_24_OutOfSupplyScoresNothing(t *testing.T) {
	s := vicScenario(t)
	vicOnly(s, "zones")
	st := vicEmpty(s)
	vicPut(t, st, map[string]rules.Place{"G/AR": vZ("E"), "G/IN": vZ("D"), "U/AR": vA(8)})
	st.Unit("G/AR").InSupply = true // as last judged; wrong now
	ev := st.Finish(s)
	want := []rules.ZoneVP{
		{Zone: "D", SP: 3, Multiplier: 2, VP: 6},
		{Zone: "E", SP: 0, Multiplier: 3, VP: 0, Unsupplied: 4},
	}
	if got := vicEvents[rules.ZoneVP](ev); !reflect.DeepEqual(got, want) {
		t.Errorf("zone events %v, want %v", got, want)
	}
	if sc := vicEvents[rules.SupplyChange](ev); len(sc) != 1 || sc[0] != (rules.SupplyChange{Unit: "G/AR", InSupply: false}) {
		t.Errorf("supply changes %v, want G/AR out of supply", sc)
	}
	if st.VP != 6 {
		t.Errorf("VP = %d, want 6", st.VP)
	}

	s = vicScenario(t)
	vicOnly(s, "zones")
	st = vicEmpty(s)
	vicPut(t, st, map[string]rules.Place{"G/AR": vZ("E"), "U/AR": vA(8), "G/EN": vA(8)})
	st.Finish(s)
	if st.VP != 12 {
		t.Errorf("line through contested 8: VP = %d, want 12", st.VP)
	}
}

// vicCheckLines checks that lines are holes: from a zone of from to a zone of
// to along the map's links, through areas without Allied units, no area in
// two lines.
func vicCheckLines(t *testing.T, s *rules.Scenario, st *rules.State, lines [][]rules.Place) {
	t.Helper()
	used := map[int]bool{}
	for _, l := range lines {
		if len(l) < 3 || !l[0].IsZone() || !l[len(l)-1].IsZone() {
			t.Errorf("line %v does not run from zone to zone through areas", l)
			continue
		}
		if !contains(s.Victory.HolesFrom, l[0].Zone) || !contains(s.Victory.HolesTo, l[len(l)-1].Zone) {
			t.Errorf("line %v: wrong ends", l)
		}
		for i, p := range l {
			if i > 0 {
				linked := false
				for _, k := range s.Map.Links(l[i-1]) {
					linked = linked || k.To == p
				}
				if !linked {
					t.Errorf("line %v: %v and %v are not joined by a road", l, l[i-1], p)
				}
			}
			if i == 0 || i == len(l)-1 {
				continue
			}
			if p.IsZone() {
				t.Errorf("line %v passes through zone %v", l, p)
			}
			if used[p.Area] {
				t.Errorf("area %d is in two lines: %v", p.Area, lines)
			}
			used[p.Area] = true
			if len(st.UnitsAt(s, p, rules.Allied)) > 0 {
				t.Errorf("line %v passes through %v, which holds Allied units", l, p)
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestVictory_ThreeDaysHolesCounted: the holes of The First Three Days on the
// test map: a hole is a line of roads from a German zone to an Allied one
// that passes through no area holding Allied units, and holes are counted as
// lines sharing no area (the fewest areas the Allies would need to close
// them all).
func TestVictory_ThreeDaysHolesCounted(t *testing.T) {
	cases := []struct {
		name string
		at   map[string]rules.Place
		want int
	}{
		{"no Allied unit on the map: two separate lines", nil, 2},
		{"the Allies hold 4: one gap, whichever German zone", map[string]rules.Place{"U/MX": vA(4)}, 1},
		{"the Allies hold 5: gaps at 3 and 4 both lead through 6", map[string]rules.Place{"U/EN": vA(5)}, 1},
		{"the Allies hold 4 and 6: one line reaches both D and E", map[string]rules.Place{"U/MX": vA(4), "U/AR": vA(6)}, 1},
		{"the Allies hold 7: only through 8", map[string]rules.Place{"U/IN": vA(7)}, 1},
		{"the Allies hold the front 3 and 4", map[string]rules.Place{"U/IN": vA(3), "U/MX": vA(4)}, 0},
		{"the Allies hold the rear 7 and 8", map[string]rules.Place{"U/IN": vA(7), "U/AR": vA(8)}, 0},
		{"3 contested, 4 Allied: Allied units close it", map[string]rules.Place{"U/IN": vA(3), "G/AR": vA(3), "U/MX": vA(4)}, 0},
		{"German units alone in 3 and 4 do not block", map[string]rules.Place{"G/AR": vA(3), "G/IN": vA(4)}, 2},
		{"Allied units waiting in zones D and E do not block", map[string]rules.Place{"U/RF": vZ("D"), "U/IN": vZ("E")}, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := vicScenario(t)
			vicOnly(s, "holes")
			st := vicEmpty(s)
			vicPut(t, st, c.at)
			lines := st.HoleLines(s)
			if len(lines) != c.want {
				t.Errorf("%d holes %v, want %d", len(lines), lines, c.want)
			}
			vicCheckLines(t, s, st, lines)
			ev := st.Finish(s)
			h := vicEvents[rules.HolesScored](ev)
			if len(h) != 1 || h[0].N != c.want || h[0].VP != 3*c.want || st.VP != 3*c.want {
				t.Errorf("holes event %v, VP %d; want %d holes for %d VP", h, st.VP, c.want, 3*c.want)
			}
		})
	}
}

// TestVictory_ScenarioAreas: the scenario's victory areas at the end: 2 VP
// for each the Germans control and 1 for each contested (The First Three
// Days); contested means units of both sides are there, whoever controls it
// (12.22); an empty area the Germans held last is German.
func TestVictory_ScenarioAreas(t *testing.T) {
	cases := []struct {
		name    string
		at      map[string]rules.Place
		control map[int]rules.Side
		want    []rules.ScenarioVP
	}{
		{"German alone in 5, Allied alone in 6", map[string]rules.Place{"G/AR": vA(5), "U/AR": vA(6)}, nil,
			[]rules.ScenarioVP{{Area: 5, Hold: rules.HoldGerman, VP: 2}, {Area: 6, Hold: rules.HoldAllied}}},
		{"both contested, 5 German-controlled", map[string]rules.Place{"G/AR": vA(5), "U/EN": vA(5), "G/IN": vA(6), "U/AR": vA(6)},
			map[int]rules.Side{5: rules.German, 6: rules.Allied},
			[]rules.ScenarioVP{{Area: 5, Hold: rules.HoldContested, VP: 1}, {Area: 6, Hold: rules.HoldContested, VP: 1}}},
		{"empty, 5 held last by the Germans", nil, map[int]rules.Side{5: rules.German},
			[]rules.ScenarioVP{{Area: 5, Hold: rules.HoldGerman, VP: 2}, {Area: 6, Hold: rules.HoldAllied}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := vicScenario(t)
			vicOnly(s, "areas")
			st := vicEmpty(s)
			vicPut(t, st, c.at)
			vicControl(s, st)
			for a, side := range c.control {
				st.Control[a] = side
			}
			ev := st.Finish(s)
			if got := vicEvents[rules.ScenarioVP](ev); !reflect.DeepEqual(got, c.want) {
				t.Errorf("area events %v, want %v", got, c.want)
			}
			vp := 0
			for _, a := range c.want {
				vp += a.VP
			}
			if st.VP != vp {
				t.Errorf("VP %d, want %d", st.VP, vp)
			}
		})
	}
}

// TestVictory_FinishOnce: Finish sets the result and ends the game; a second
// call changes nothing.
func TestVictory_FinishOnce(t *testing.T) {
	s := vicScenario(t)
	st := vicEmpty(s)
	// 3 is contested: it closes the holes but not supply (13.13).
	vicPut(t, st, map[string]rules.Place{"G/AR": vZ("E"), "U/IN": vA(3), "G/IN": vA(3), "U/MX": vA(4)})
	st.VP = 2
	ev := st.Finish(s)
	r := vicResult(t, ev)
	// 2 earlier + 12 zone E; no hole; 5 and 6 Allied.
	if st.VP != 14 || r.VP != 14 || r.Result != "German victory" || st.Result != "German victory" || !st.Over {
		t.Errorf("VP %d, result %v, state %q over=%v; want 14, German victory", st.VP, r, st.Result, st.Over)
	}
	if again := st.Finish(s); again != nil || st.VP != 14 {
		t.Errorf("second Finish: %v, VP %d", again, st.VP)
	}
}

// TestVictory_IntroOutcomes: the six results of the introductory scenario,
// on the shipped data: control of Luxembourg (4) and Mersch (59) at the end
// (12.22; 継戦状態 = units of both sides in the town).
func TestVictory_IntroOutcomes(t *testing.T) {
	const lux, mersch = 4, 59
	g1, g2, a1, a2 := "352/915", "276/986", "4/12", "4/8"
	cases := []struct {
		name    string
		at      map[string]rules.Place
		control map[int]rules.Side // set after the position's own control
		want    string
		counts  [3]int
	}{
		{"the Germans hold both", map[string]rules.Place{g1: vA(lux), g2: vA(mersch)}, nil,
			"German decisive victory", [3]int{2, 0, 0}},
		{"the Germans took Mersch and left it; they hold Luxembourg", map[string]rules.Place{g1: vA(lux)}, map[int]rules.Side{mersch: rules.German},
			"German decisive victory", [3]int{2, 0, 0}},
		{"German Luxembourg, contested Mersch", map[string]rules.Place{g1: vA(lux), g2: vA(mersch), a1: vA(mersch)}, nil,
			"German tactical victory", [3]int{1, 1, 0}},
		{"German Luxembourg, Mersch contested though German-controlled", map[string]rules.Place{g1: vA(lux), g2: vA(mersch), a1: vA(mersch)},
			map[int]rules.Side{mersch: rules.German},
			"German tactical victory", [3]int{1, 1, 0}},
		{"both contested", map[string]rules.Place{g1: vA(lux), a1: vA(lux), g2: vA(mersch), a2: vA(mersch)}, nil,
			"Draw", [3]int{0, 2, 0}},
		{"Luxembourg contested, Mersch Allied", map[string]rules.Place{g1: vA(lux), a1: vA(lux), a2: vA(mersch)}, nil,
			"Allied tactical victory", [3]int{0, 1, 1}},
		{"neither contested nor German", map[string]rules.Place{a1: vA(lux), g1: vA(13)}, nil,
			"Allied decisive victory", [3]int{0, 0, 2}},
		{"German Luxembourg, Allied Mersch", map[string]rules.Place{g1: vA(lux), a1: vA(mersch)}, nil,
			"Both sides lose", [3]int{1, 0, 1}},
		{"German Luxembourg, empty Mersch never taken", map[string]rules.Place{g1: vA(lux)}, nil,
			"Both sides lose", [3]int{1, 0, 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := vicShipped(t, "intro")
			st := vicEmpty(s)
			vicPut(t, st, c.at)
			vicControl(s, st)
			for a, side := range c.control {
				st.Control[a] = side
			}
			ev := st.Finish(s)
			r := vicResult(t, ev)
			if r.Result != c.want || st.Result != c.want || !st.Over {
				t.Errorf("result %q (state %q, over %v), want %q", r.Result, st.Result, st.Over, c.want)
			}
			if got := [3]int{r.German, r.Contested, r.Allied}; got != c.counts {
				t.Errorf("counts %v, want %v", got, c.counts)
			}
			if st.VP != 0 {
				t.Errorf("a victory by control scores no VP: %d", st.VP)
			}
		})
	}
}

// TestVictory_FifthPanzerLevels: the 5th Panzer Army's levels on the shipped
// data (16+ German decisive ... 6 or less Allied decisive), with the VP zones
// (12.23) added at the end.
func TestVictory_FifthPanzerLevels(t *testing.T) {
	levels := []struct {
		vp   int
		want string
	}{
		{0, "Allied decisive victory"}, {6, "Allied decisive victory"},
		{7, "Allied tactical victory"}, {9, "Allied tactical victory"},
		{10, "Draw"}, {12, "Draw"},
		{13, "German tactical victory"}, {15, "German tactical victory"},
		{16, "German decisive victory"}, {40, "German decisive victory"},
	}
	for _, c := range levels {
		t.Run(fmt.Sprint(c.vp, " VP"), func(t *testing.T) {
			s := vicShipped(t, "fifth-panzer")
			st := rules.NewState(s)
			st.VP = c.vp
			r := vicResult(t, st.Finish(s))
			if r.Result != c.want || st.Result != c.want || r.VP != c.vp {
				t.Errorf("%d VP: %v, want %q", c.vp, r, c.want)
			}
		})
	}
	t.Run("zone H adds 3 SP × 3", func(t *testing.T) {
		s := vicShipped(t, "fifth-panzer")
		st := rules.NewState(s)
		for _, u := range st.Units { // the Allies gone: nothing cuts supply
			if s.OOB.Unit(u.ID).Side == rules.Allied {
				u.Place, u.Arrived = rules.Place{}, false
			}
		}
		for a, side := range st.Control { // nor the areas they held (13.12)
			if side == rules.Allied {
				delete(st.Control, a)
			}
		}
		vicPut(t, st, map[string]rules.Place{"116/60": vZ("H")})
		st.VP = 10
		ev := st.Finish(s)
		if z := vicEvents[rules.ZoneVP](ev); len(z) != 1 || z[0] != (rules.ZoneVP{Zone: "H", SP: 3, Multiplier: 3, VP: 9}) {
			t.Errorf("zone events %v", z)
		}
		if r := vicResult(t, ev); r.VP != 19 || r.Result != "German decisive victory" {
			t.Errorf("result %v, want 19 VP German decisive victory", r)
		}
	})
}

// TestVictory_ThreeDaysTownsAndHoles: The First Three Days on the shipped
// map: 2 VP per scenario town controlled, 1 per contested, 3 per hole from
// zones A-C to D-K, German SP in VP zones as usual (12.23, 12.24), and the
// levels (13+ German decisive ... 5 or less Allied decisive).
func TestVictory_ThreeDaysTownsAndHoles(t *testing.T) {
	// Allied units on every area next to zones A, B and C close the front.
	cordon := []int{33, 39, 40, 25, 26, 29, 31, 10, 18, 19, 24}
	cases := []struct {
		name   string
		gaps   []int // cordon areas left empty
		holes  int
		zoneVP int // the 2 SP in zone F ×1, if in supply
		want   string
	}{
		{"the front closed: no hole, zone F cut off", nil, 0, 0, "Allied tactical victory"},     // 7
		{"a gap at Losheim (33)", []int{33}, 1, 2, "German tactical victory"},                   // 7+3+2
		{"gaps at Losheim (33) and Irrel (10)", []int{33, 10}, 2, 2, "German decisive victory"}, // 7+6+2
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := vicShipped(t, "three-days")
			st := vicEmpty(s)
			var germans, allies []string
			for _, u := range s.Units {
				if u.Side == rules.German {
					germans = append(germans, u.ID)
				} else {
					allies = append(allies, u.ID)
				}
			}
			at := map[string]rules.Place{}
			for i, a := range cordon {
				if !containsInt(c.gaps, a) {
					at[allies[i]] = vA(a)
				}
			}
			// Towns: Bastogne and Houffalize German, Monschau contested,
			// Luxembourg Allied, Malmedy empty but taken by the Germans.
			at[germans[0]] = vA(88)
			at[germans[1]] = vA(85)
			at[germans[2]] = vA(41)
			at[allies[20]] = vA(41)
			at[allies[21]] = vA(4)
			// A German unit of 2 SP in zone F (×1).
			at[germans[3]] = vZ("F")
			vicPut(t, st, at)
			st.Unit(germans[3]).Strength = 2
			vicControl(s, st)
			st.Control[44] = rules.German

			ev := st.Finish(s)
			towns := 0
			for _, e := range vicEvents[rules.ScenarioVP](ev) {
				towns += e.VP
			}
			if towns != 7 {
				t.Errorf("towns score %d, want 7: %v", towns, vicEvents[rules.ScenarioVP](ev))
			}
			h := vicEvents[rules.HolesScored](ev)
			if len(h) != 1 || h[0].N != c.holes || h[0].VP != 3*c.holes {
				t.Errorf("holes %v, want %d", h, c.holes)
			} else {
				vicCheckLines(t, s, st, h[0].Lines)
			}
			zone := 0
			for _, z := range vicEvents[rules.ZoneVP](ev) {
				zone += z.VP
			}
			if zone != c.zoneVP {
				t.Errorf("zone VP %d, want %d", zone, c.zoneVP)
			}
			r := vicResult(t, ev)
			if want := 7 + 3*c.holes + c.zoneVP; r.VP != want || st.VP != want {
				t.Errorf("VP %d (state %d), want %d", r.VP, st.VP, want)
			}
			if r.Result != c.want {
				t.Errorf("result %q with %d VP, want %q", r.Result, r.VP, c.want)
			}
		})
	}
}

func containsInt(list []int, n int) bool {
	for _, x := range list {
		if x == n {
			return true
		}
	}
	return false
}

// TestVictory_EventsCiteRules: every event of this file says which rule it
// applies.
func TestVictory_EventsCiteRules(t *testing.T) {
	events := []struct {
		e    rules.Event
		want string
	}{
		{rules.VPScored{Area: 7, VP: 2}, "12.2"},
		{rules.VPTotal{Turn: 16, VP: 3, Total: 3}, "12.11"},
		{rules.ZoneVP{Zone: "E", SP: 2, Multiplier: 3, VP: 6, Unsupplied: 1}, "12.24"},
		{rules.ScenarioVP{Area: 5, Hold: rules.HoldGerman, VP: 2}, "12.22"},
		{rules.HolesScored{N: 1, VP: 3, Lines: [][]rules.Place{{vZ("A"), vA(1), vZ("D")}}}, "A-1-D"},
		{rules.GameResult{Result: "Draw", Kind: "vp", VP: 8}, "12.0"},
		{rules.Released{Group: "north", Area: 6, GermanSP: 4, AlliedSP: 3}, "11.33"},
	}
	for _, c := range events {
		if s := c.e.String(); !strings.Contains(s, c.want) {
			t.Errorf("%T: %q does not contain %q", c.e, s, c.want)
		}
	}
}

// TestVictory_ThreeDaysNoHoleAtStart: the Allied line of the set-up (5.2)
// has no hole; with every unit off the map the shipped map has eight
// separate lines from zones A-C to zones D-K.
func TestVictory_ThreeDaysNoHoleAtStart(t *testing.T) {
	s := vicShipped(t, "three-days")
	st := rules.NewState(s)
	if lines := st.HoleLines(s); len(lines) != 0 {
		t.Errorf("holes at set-up: %v", lines)
	}
	st = vicEmpty(s)
	lines := st.HoleLines(s)
	if len(lines) != 8 {
		t.Errorf("empty map: %d holes %v, want 8", len(lines), lines)
	}
	vicCheckLines(t, s, st, lines)
}

func TestControl_12_22(t *testing.T) {
	s, st := moveGame(t)
	if st.Control[1] != rules.Allied || st.Control[4] != rules.German {
		t.Errorf("control at start: %v", st.Control)
	}
	if _, ok := st.Control[3]; ok {
		t.Errorf("empty area 3 controlled at start")
	}
	next, ev := mustPlay(t, s, st, "MOVE G/MX 4 3")
	if next.Control[3] != rules.German {
		t.Errorf("area 3 not German after a German unit ended the impulse there alone (12.22)")
	}
	found := false
	for _, e := range ev {
		found = found || e == rules.Event(rules.ControlChanged{Area: 3, Side: rules.German})
	}
	if !found {
		t.Errorf("no control event: %v", ev)
	}
}
