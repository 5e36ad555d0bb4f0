package scenarios_test

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"titm/rules"
	"titm/rules/scenarios"
)

func load(t *testing.T, name string) *rules.Scenario {
	t.Helper()
	s, err := scenarios.Load(name)
	if err != nil {
		t.Fatalf("loading %s: %v", name, err)
	}
	return s
}

// Every shipped scenario loads with no problem: its map, its order of battle
// and itself pass every check of the validator.
func TestShippedScenariosLoad(t *testing.T) {
	for _, n := range scenarios.Names {
		s := load(t, n)
		if s.Name != n {
			t.Errorf("%s: name = %q", n, s.Name)
		}
		if len(s.Units) == 0 {
			t.Errorf("%s: no units", n)
		}
	}
}

// 3.22, 5.1: the area numbers and names the rulebook gives.
func TestNamedAreas(t *testing.T) {
	m := load(t, "campaign").Map
	want := map[int]string{
		10: "Irrel", 11: "Echternach", 19: "Nusbaum", 20: "Beaufort", 40: "Wahlerscheid",
		41: "Monschau", 51: "Dasburg", 55: "Gemund", 69: "Holzthum", 70: "Marnach",
	}
	for n, name := range want {
		if a := m.Area(n); a == nil || a.Name != name {
			t.Errorf("area %d = %v, want %s", n, a, name)
		}
	}
	for _, name := range rules.NamedPlaces {
		if m.AreaNamed(name) == nil {
			t.Errorf("no area named %s", name)
		}
	}
	if n := len(m.Areas); n < 100 || n > 130 {
		t.Errorf("%d areas; the map has on the order of 100-130", n)
	}
}

// 3.22: consecutively numbered areas are adjacent; the data joins each pair
// by a road or says why not.
func TestConsecutiveAreasJoined(t *testing.T) {
	m := load(t, "campaign").Map
	excused := map[int]string{}
	for _, nr := range m.NoRoads {
		excused[min(nr.A, nr.B)] = nr.Reason
	}
	for _, a := range m.Areas {
		if m.Area(a.ID+1) == nil {
			continue
		}
		if m.Road(a.ID, a.ID+1) == nil && strings.TrimSpace(excused[a.ID]) == "" {
			t.Errorf("areas %d and %d: no road and no reason", a.ID, a.ID+1)
		}
	}
	for _, b := range rules.BlownAtStart {
		if lo, hi := min(b[0], b[1]), max(b[0], b[1]); hi == lo+1 && excused[lo] != "" {
			t.Errorf("bridge %d-%d is also listed as no road", b[0], b[1])
		}
	}
}

// 5.1: five bridges are blown at start in every scenario; the 5th Panzer
// scenario also blows Diekirch-Ettelbruck.
func TestBridgesBlownAtStart(t *testing.T) {
	for _, n := range scenarios.Names {
		s := load(t, n)
		for _, b := range [][2]int{{40, 41}, {51, 70}, {55, 69}, {19, 20}, {10, 11}} {
			r := s.Map.Road(b[0], b[1])
			if r == nil || !r.Bridge {
				t.Fatalf("%s: no bridge %d-%d", n, b[0], b[1])
			}
			if !s.BlownAtStart(b[0], b[1]) {
				t.Errorf("%s: bridge %d-%d not blown at start (5.1)", n, b[0], b[1])
			}
		}
		d, e := s.Map.AreaNamed("Diekirch"), s.Map.AreaNamed("Ettelbruck")
		if r := s.Map.Road(d.ID, e.ID); r == nil || !r.Bridge {
			t.Fatalf("%s: no bridge Diekirch-Ettelbruck", n)
		}
		if got, want := s.BlownAtStart(d.ID, e.ID), n == "fifth-panzer"; got != want {
			t.Errorf("%s: Diekirch-Ettelbruck blown at start = %v, want %v", n, got, want)
		}
		blown := 0
		for _, r := range s.Map.Roads {
			if s.BlownAtStart(r.A, r.B) {
				blown++
			}
		}
		if want := map[bool]int{true: 6, false: 5}[n == "fifth-panzer"]; blown != want {
			t.Errorf("%s: %d bridges blown at start, want %d", n, blown, want)
		}
	}
	m := load(t, "campaign").Map
	w, ml := m.AreaNamed("Waimes"), m.AreaNamed("Malmedy")
	if r := m.Road(w.ID, ml.ID); r == nil || !r.Bridge || r.Blown {
		t.Errorf("Waimes-Malmedy: %+v, want an intact bridge (examples of play)", r)
	}
}

// Examples of play, movement: armour in Mersch reaches Rambrouch through
// Ettelbruck and Eschdorf for 5 MP (8.33); with bridge 58-59 blown the road
// through Sael costs 9 MP, beyond armour's 8 MP (8.31), since a blown bridge
// cannot be crossed but on foot (8.34).
func TestMovementExample(t *testing.T) {
	m := load(t, "campaign").Map
	mersch, ramb := m.AreaNamed("Mersch"), m.AreaNamed("Rambrouch")
	names := func(path []rules.Place) string {
		var s []string
		for _, p := range path {
			s = append(s, m.Area(p.Area).Name)
		}
		return strings.Join(s, " - ")
	}
	r := m.Road(58, 59)
	if r == nil || !r.Bridge {
		t.Fatalf("no bridge 58-59")
	}
	onRoute := map[string]bool{"Mersch": true, "Ettelbruck": true, "Eschdorf": true, "Rambrouch": true}
	if !onRoute[m.Area(58).Name] || !onRoute[m.Area(59).Name] {
		t.Errorf("bridge 58-59 joins %s and %s, not two places of Mersch - Ettelbruck - Eschdorf - Rambrouch", m.Area(58).Name, m.Area(59).Name)
	}
	areasOnly := func(_ rules.Place, l rules.Link) bool { return !l.To.IsZone() }
	cost, path, ok := m.CheapestPath(rules.AreaPlace(mersch.ID), rules.AreaPlace(ramb.ID), areasOnly)
	if !ok || cost != 5 || names(path) != "Mersch - Ettelbruck - Eschdorf - Rambrouch" {
		t.Errorf("Mersch to Rambrouch: %d MP by %s, want 5 MP through Ettelbruck and Eschdorf", cost, names(path))
	}
	blown := func(from rules.Place, l rules.Link) bool {
		return areasOnly(from, l) && !(l.Road != nil && l.Road.ID() == "58-59")
	}
	cost, path, ok = m.CheapestPath(rules.AreaPlace(mersch.ID), rules.AreaPlace(ramb.ID), blown)
	if !ok || cost != 9 || !strings.Contains(names(path), "Sael") {
		t.Errorf("Mersch to Rambrouch with 58-59 blown: %d MP by %s, want 9 MP through Sael", cost, names(path))
	}
	if v, _ := rules.Armor.Values(); cost <= v.MP {
		t.Errorf("armour's %d MP reach Rambrouch at %d MP; the example says it cannot", v.MP, cost)
	}
}

// Examples of play, supply: Bastogne, Sprimont and Moircy lie on one road
// line, and Nives is joined to Moircy.
func TestSupplyExample(t *testing.T) {
	m := load(t, "campaign").Map
	for _, p := range [][2]string{{"Bastogne", "Sprimont"}, {"Sprimont", "Moircy"}, {"Nives", "Moircy"}} {
		a, b := m.AreaNamed(p[0]), m.AreaNamed(p[1])
		if m.Road(a.ID, b.ID) == nil {
			t.Errorf("no road %s - %s", p[0], p[1])
		}
	}
}

// 3.21, 11.13, 11.22, 11.23: the zones, their sides, who may never enter
// them, and that each is joined to the map.
func TestZones(t *testing.T) {
	m := load(t, "campaign").Map
	for _, z := range m.Zones {
		if len(z.Areas) == 0 {
			t.Errorf("zone %s joins no area (11.13)", z.ID)
		}
		var side, closed rules.Side
		switch {
		case strings.Contains("ABC", z.ID):
			side, closed = rules.German, rules.Allied // 3.21, 11.23
		case strings.Contains("LMNP", z.ID):
			side, closed = rules.Allied, rules.German // 11.22
		default:
			side = rules.Allied
		}
		if z.Side != side || z.ClosedTo != closed {
			t.Errorf("zone %s: side %s closed to %q, want %s closed to %q", z.ID, z.Side, z.ClosedTo, side, closed)
		}
	}
	for _, id := range strings.Split("A B C D E F G H I J K L M N P", " ") {
		if m.Zone(id) == nil {
			t.Errorf("no zone %s", id)
		}
	}
	mult := 0
	for _, z := range m.Zones {
		if z.VPMultiplier > 0 {
			mult++
		}
	}
	if mult == 0 {
		t.Errorf("no zone carries a VP multiplier (3.28)")
	}
}

// 7.1: at set-up the Germans exceed the stacking limit in exactly two areas.
func TestGermansOverStackedInTwoAreas(t *testing.T) {
	s := load(t, "campaign")
	if g := rules.OverStacked(s.Units, rules.German); len(g) != 2 {
		t.Errorf("Germans over the limit in %v, want exactly two areas", g)
	}
	if a := rules.OverStacked(s.Units, rules.Allied); len(a) != 0 {
		t.Errorf("Allies over the limit in %v, want none", a)
	}
}

// The units each scenario names exist and take part.
func TestScenarioUnits(t *testing.T) {
	o := load(t, "campaign").OOB
	have := map[string]bool{}
	for _, u := range o.Units {
		have[u.Formation] = true
	}
	for _, f := range rules.NamedFormations {
		if !have[f] {
			t.Errorf("no unit of %s", f)
		}
	}
	in := func(s *rules.Scenario, formation string) (n int) {
		for _, u := range s.Units {
			if u.Formation == formation {
				n++
			}
		}
		return n
	}
	intro := load(t, "intro")
	for _, f := range []string{"212 VG", "276 VG", "352 VG", "47-2 Eng", "605 Eng", "44 MG", "7A PzJgr", "7A/15 Flak", "614 JgPz", "653 JgPz", "4 Inf", "9 Arm", "9 Arm Inf", "803 TD", "78/2 Rngr", "70 Tnk", "10 Arm Inf"} {
		if in(intro, f) == 0 {
			t.Errorf("intro: no unit of %s", f)
		}
	}
	for _, f := range []string{"28 Inf", "106 Inf", "116 Pz", "18 VG"} {
		if in(intro, f) != 0 {
			t.Errorf("intro: %s takes part", f)
		}
	}
	// The introductory scenario uses only the 9 Arm unit at Larochette.
	lar := intro.Map.AreaNamed("Larochette")
	for _, u := range intro.Units {
		if u.Formation == "9 Arm" && u.Setup != rules.AreaPlace(lar.ID) {
			t.Errorf("intro: 9 Arm unit %s is not the one at Larochette", u.ID)
		}
	}
	fifth := load(t, "fifth-panzer")
	for _, f := range []string{"18 VG", "244 Stg", "62 VG", "LVIII/1 Flak", "560 VG", "116 Pz", "182 Flak", "Lehr", "600 Eng", "2 Pz", "207 Eng", "26 VG", "5 FJ", "47-1 Eng", "653 JgPz", "669 Ost", "2SS Pz", "FBB", "Fuh Gren", "10SS Pz", "11 Pz", "614 JgPz",
		"106 Inf", "28 Inf", "1107 Eng", "1128 Eng", "1A/526", "78/2 Rngr", "70 Tnk", "7 Arm", "4 Inf", "10 Arm", "82 Abn", "101 Abn", "705 TD", "740 Tnk", "2HHC", "1313 Eng", "84 Inf", "551 Inf", "29 Tnk"} {
		if in(fifth, f) == 0 {
			t.Errorf("fifth-panzer: no unit of %s", f)
		}
	}
	sin := fifth.Map.AreaNamed("Sinspelt")
	for _, u := range fifth.Units {
		if u.Formation == "352 VG" && u.Setup != rules.AreaPlace(sin.ID) {
			t.Errorf("fifth-panzer: 352 VG unit %s is not the one at Sinspelt", u.ID)
		}
	}
	if c, d := load(t, "campaign"), load(t, "three-days"); len(c.Units) != len(o.Units) || len(d.Units) != len(o.Units) {
		t.Errorf("campaign %d and three-days %d units; both use all %d", len(c.Units), len(d.Units), len(o.Units))
	}
}

// The scenarios' lengths, supply sources and victory conditions.
func TestScenarioTerms(t *testing.T) {
	tests := []struct {
		name, start, end string
		german, allied   string
		whole, sf        bool
	}{
		{"intro", "G16-1", "A18-3", "C", "P Mersch", false, false},
		{"fifth-panzer", "G16-1", "G22-1", "B C", "G H I J K", false, true},
		{"three-days", "G16-1", "A18-3", "A B C", "D E F G H I J K L M N P", true, true},
		{"campaign", "G16-1", "A22-1", "A B C", "D E F G H I J K L M N P", true, true},
	}
	for _, tt := range tests {
		s := load(t, tt.name)
		if s.Start != tt.start || s.End != tt.end || s.WholeMap != tt.whole || s.SpecialForces != tt.sf {
			t.Errorf("%s: %s to %s, whole map %v, special forces %v", tt.name, s.Start, s.End, s.WholeMap, s.SpecialForces)
		}
		src := func(ps []rules.Place) string {
			var out []string
			for _, p := range ps {
				if p.IsZone() {
					out = append(out, p.Zone)
				} else {
					out = append(out, s.Map.Area(p.Area).Name)
				}
			}
			return strings.Join(out, " ")
		}
		if g, a := src(s.Supply.German), src(s.Supply.Allied); g != tt.german || a != tt.allied {
			t.Errorf("%s: supply German %q Allied %q", tt.name, g, a)
		}
	}
	// Victory levels, read back at their edges.
	for _, tt := range []struct {
		name string
		vp   int
		want string
	}{
		{"fifth-panzer", 16, "German decisive"}, {"fifth-panzer", 15, "German tactical"}, {"fifth-panzer", 10, "Draw"},
		{"fifth-panzer", 9, "Allied tactical"}, {"fifth-panzer", 6, "Allied decisive"},
		{"three-days", 13, "German decisive"}, {"three-days", 12, "German tactical"}, {"three-days", 8, "Draw"},
		{"three-days", 7, "Allied tactical"}, {"three-days", 5, "Allied decisive"},
		{"campaign", 0, "Allied decisive"}, {"campaign", 15, "Allied marginal"}, {"campaign", 29, "Draw"},
		{"campaign", 30, "German marginal"}, {"campaign", 40, "German decisive"},
	} {
		s := load(t, tt.name)
		got := ""
		for _, l := range s.Victory.Levels {
			if l.Includes(tt.vp) {
				got = l.Result
			}
		}
		if !strings.Contains(strings.ToLower(got), strings.ToLower(tt.want)) {
			t.Errorf("%s at %d VP: %q, want %q", tt.name, tt.vp, got, tt.want)
		}
	}
	td := load(t, "three-days")
	if td.Victory.MapVP || td.Victory.ControlledVP != 2 || td.Victory.ContestedVP != 1 || td.Victory.HoleVP != 3 || len(td.Victory.Areas) != 11 {
		t.Errorf("three-days victory: %+v", td.Victory)
	}
	intro := load(t, "intro")
	if intro.Victory.Kind != rules.VictoryControl || len(intro.Victory.Outcomes) != 6 {
		t.Errorf("intro victory: %+v", intro.Victory)
	}
}

// The validator finds a 5.1 bridge missing from a copy of the shipped map,
// and names the file, the line and the bridge.
func TestValidateMissingBridge(t *testing.T) {
	data, err := scenarios.Read(scenarios.Dir + "/map.toml")
	if err != nil {
		t.Fatal(err)
	}
	// Remove the [[road]] table joining 19 and 20, whichever way round.
	re := regexp.MustCompile(`(?m)^\[\[road\]\]\n(?:[^\[\n].*\n)*`)
	end := func(block, k string, n int) bool {
		return regexp.MustCompile(`(?m)^` + k + `\s*=\s*` + strconv.Itoa(n) + `\b`).MatchString(block)
	}
	src := string(data)
	cut := ""
	for _, loc := range re.FindAllStringIndex(src, -1) {
		block := src[loc[0]:loc[1]]
		if (end(block, "a", 19) && end(block, "b", 20)) || (end(block, "a", 20) && end(block, "b", 19)) {
			cut = src[:loc[0]] + src[loc[1]:]
			break
		}
	}
	if cut == "" {
		t.Fatal("no [[road]] table for 19-20 in the shipped map")
	}
	read := func(string) ([]byte, error) { return []byte(cut), nil }
	_, err = rules.LoadMap(read, "broken-map.toml")
	var ps rules.Problems
	if !errors.As(err, &ps) {
		t.Fatalf("error %v, want problems", err)
	}
	found := false
	for _, p := range ps {
		if p.File == "broken-map.toml" && p.Line > 0 && strings.Contains(p.Msg, "5.1: areas 19 and 20 must be joined by a road with a bridge blown at start") {
			found = true
			if !strings.Contains(strings.Split(cut, "\n")[p.Line-1], "[[area]]") {
				t.Errorf("line %d is not the area's table: %q", p.Line, strings.Split(cut, "\n")[p.Line-1])
			}
		}
	}
	if !found {
		t.Errorf("problems:\n%v\nwant the missing 5.1 bridge 19-20", ps)
	}
}

// The validator holds a shipped scenario on the game's map to its card: a
// changed supply source or end is a problem with its line.
func TestValidateScenarioTerms(t *testing.T) {
	name := scenarios.Dir + "/intro.toml"
	orig, err := scenarios.Read(name)
	if err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(string(orig), `allied = ["P", 59]`, `allied = ["P"]`, 1)
	changed = strings.Replace(changed, `end = "A18-3"`, `end = "A19-3"`, 1)
	if changed == string(orig) {
		t.Fatal("intro.toml no longer has the lines this test changes")
	}
	read := func(n string) ([]byte, error) {
		if n == name {
			return []byte(changed), nil
		}
		return scenarios.Read(n)
	}
	_, err = rules.LoadScenario(read, name)
	var ps rules.Problems
	if !errors.As(err, &ps) {
		t.Fatalf("error %v, want problems", err)
	}
	lines := strings.Split(changed, "\n")
	for _, want := range []struct{ msg, line string }{
		{`the scenario card gives the allied supply sources P Mersch (13.11); the file has "P"`, `allied = ["P"]`},
		{`the scenario card ends intro after A18-3: end = "A18-3"`, `end = "A19-3"`},
	} {
		found := false
		for _, p := range ps {
			if p.File == name && strings.Contains(p.Msg, want.msg) && p.Line > 0 && strings.HasPrefix(lines[p.Line-1], want.line) {
				found = true
			}
		}
		if !found {
			t.Errorf("problems:\n%v\nwant %q at the line %q", ps, want.msg, want.line)
		}
	}
}
