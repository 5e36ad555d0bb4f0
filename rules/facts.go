package rules

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// The facts the rulebook fixes about the map: the areas the rules name, the
// bridges blown at start (5.1), the examples of play and the zones (3.21,
// 11.22, 11.23). A map or order of battle with rulebook = true claims to be
// the game's and must agree with every one of them; the shipped
// reconstruction does, and so must an exact copy of the published map.

// NamedAreas are the area numbers the rules name (5.1 and the examples).
var NamedAreas = map[int]string{
	10: "Irrel", 11: "Echternach", 19: "Nusbaum", 20: "Beaufort",
	40: "Wahlerscheid", 41: "Monschau", 51: "Dasburg", 55: "Gemund",
	69: "Holzthum", 70: "Marnach",
}

// BlownAtStart are the bridges blown when every scenario starts (5.1).
var BlownAtStart = [][2]int{{40, 41}, {51, 70}, {55, 69}, {19, 20}, {10, 11}}

// NamedPlaces are the places the scenarios and examples of play name; each
// must be an area of the game's map.
var NamedPlaces = []string{
	"Luxembourg", "Mersch", "Larochette", "Vianden", "Diekirch", "Ettelbruck",
	"Wallendorf", "Arlon", "Martelange", "Bastogne", "Noville", "Houffalize",
	"Vielsalm", "Stavelot", "Malmedy", "Monschau", "Weiswampach", "Sinspelt",
	"Hoffraai", "Eschdorf", "Rambrouch", "Sael", "Waimes", "Sprimont",
	"Moircy", "Nives",
}

// NamedFormations are the formations the scenarios name; each must be the
// formation of at least one unit of the game's order of battle (or an alias
// the scenario files explain).
var NamedFormations = []string{
	"212 VG", "276 VG", "352 VG", "47-1 Eng", "47-2 Eng", "605 Eng", "44 MG",
	"7A PzJgr", "7A/15 Flak", "614 JgPz", "653 JgPz", "18 VG", "244 Stg",
	"62 VG", "LVIII/1 Flak", "560 VG", "116 Pz", "182 Flak", "Lehr", "600 Eng",
	"2 Pz", "207 Eng", "26 VG", "5 FJ", "669 Ost", "2SS Pz", "FBB", "Fuh Gren",
	"10SS Pz", "11 Pz",
	"4 Inf", "9 Arm", "9 Arm Inf", "803 TD", "78/2 Rngr", "70 Tnk",
	"10 Arm Inf", "106 Inf", "28 Inf", "1107 Eng", "1128 Eng", "1A/526",
	"7 Arm", "10 Arm", "82 Abn", "101 Abn", "705 TD", "740 Tnk", "2HHC",
	"1313 Eng", "84 Inf", "551 Inf", "29 Tnk",
}

// AreaNamed returns the area with the name, compared without regard to case,
// or nil.
func (m *Map) AreaNamed(name string) *Area {
	for _, a := range m.Areas {
		if strings.EqualFold(a.Name, name) {
			return a
		}
	}
	return nil
}

func checkMapFacts(m *Map, loc *locator) Problems {
	c := &checker{file: m.File}
	line := func(n int) int {
		if a := m.Area(n); a != nil {
			return a.line
		}
		return 0
	}
	for _, n := range slices.Sorted(maps.Keys(NamedAreas)) {
		name := NamedAreas[n]
		if a := m.Area(n); a == nil || !strings.EqualFold(a.Name, name) {
			c.add(line(n), "the rulebook numbers %s %d (5.1, 3.22): area %d must be named %q", name, n, n, name)
		}
	}
	for _, name := range NamedPlaces {
		if m.AreaNamed(name) == nil {
			c.add(0, "the scenarios and examples of play name %s: the map needs an area of that name", name)
		}
	}

	// 5.1: these bridges, and no others, are blown at start on the map.
	must := map[string]bool{}
	for _, b := range BlownAtStart {
		must[BridgeID(b[0], b[1])] = true
		r := m.Road(b[0], b[1])
		switch {
		case r == nil:
			c.add(line(b[0]), "5.1: areas %d and %d must be joined by a road with a bridge blown at start; add [[road]] a = %d, b = %d, bridge = true, blown = true", b[0], b[1], b[0], b[1])
		case !r.Bridge || !r.Blown:
			c.add(r.line, "5.1: the bridge %s is blown at start: set bridge = true and blown = true", r.ID())
		}
	}
	for _, r := range m.Roads {
		if r.Blown && !must[r.ID()] {
			c.add(r.line, "bridge %s is marked blown, but 5.1 blows only 40-41, 51-70, 55-69, 19-20 and 10-11 at start; a scenario that blows more lists them in its own blown = [...]", r.ID())
		}
	}

	bridgeBetween := func(rule, x, y string) *Road {
		a, b := m.AreaNamed(x), m.AreaNamed(y)
		if a == nil || b == nil {
			return nil // reported as a missing place
		}
		r := m.Road(a.ID, b.ID)
		if r == nil || !r.Bridge {
			c.add(a.line, "%s: %s and %s must be joined by a road with a bridge", rule, a.Label(), b.Label())
			return nil
		}
		return r
	}
	bridgeBetween("5th Panzer scenario", "Diekirch", "Ettelbruck")
	bridgeBetween("examples of play (bridge demolition)", "Waimes", "Malmedy")
	if r := m.Road(58, 59); r == nil || !r.Bridge {
		c.add(line(58), "examples of play (movement): areas 58 and 59 must be joined by a road with a bridge, on the road Mersch - Ettelbruck - Eschdorf - Rambrouch")
	}

	// Examples of play, movement: armour in Mersch reaches Rambrouch through
	// Ettelbruck and Eschdorf for 5 MP; with 58-59 blown the road through
	// Sael costs 9 MP, out of reach of armour's 8 MP (8.31).
	mersch, ramb := m.AreaNamed("Mersch"), m.AreaNamed("Rambrouch")
	if mersch != nil && ramb != nil {
		areasOnly := func(_ Place, l Link) bool { return !l.To.IsZone() }
		cost, path, ok := m.CheapestPath(AreaPlace(mersch.ID), AreaPlace(ramb.ID), areasOnly)
		if !ok || cost != 5 || !m.pathThrough(path, "Ettelbruck", "Eschdorf") {
			c.add(mersch.line, "examples of play (movement): the cheapest road from Mersch to Rambrouch must cost 5 MP through Ettelbruck and Eschdorf; the map gives %s", m.describePath(cost, path, ok))
		}
		noBridge := func(from Place, l Link) bool {
			return areasOnly(from, l) && !(l.Road != nil && l.Road.ID() == "58-59")
		}
		cost, path, ok = m.CheapestPath(AreaPlace(mersch.ID), AreaPlace(ramb.ID), noBridge)
		if !ok || cost != 9 || !m.pathThrough(path, "Sael") {
			c.add(mersch.line, "examples of play (movement): with bridge 58-59 blown the cheapest road from Mersch to Rambrouch must cost 9 MP through Sael; the map gives %s", m.describePath(cost, path, ok))
		}
	}

	// Examples of play, supply: Bastogne - Sprimont - Moircy on one road
	// line, and Nives joined to Moircy.
	for _, pair := range [][2]string{{"Bastogne", "Sprimont"}, {"Sprimont", "Moircy"}, {"Nives", "Moircy"}} {
		a, b := m.AreaNamed(pair[0]), m.AreaNamed(pair[1])
		if a != nil && b != nil && m.Road(a.ID, b.ID) == nil {
			c.add(a.line, "examples of play (supply): %s and %s must be joined by a road", a.Label(), b.Label())
		}
	}

	// 3.21, 11.22, 11.23: the zones and who may enter them.
	for _, id := range []string{"A", "B", "C"} {
		z := m.Zone(id)
		if z == nil {
			c.add(0, "3.21: the map needs the German zone %s", id)
		} else if z.Side != German || z.ClosedTo != Allied {
			c.add(z.line, "3.21, 11.23: zone %s is German and closed to the Allies: side = \"german\", closed_to = \"allied\"", id)
		}
	}
	for id := 'D'; id <= 'P'; id++ {
		z := m.Zone(string(id))
		if z == nil {
			continue // letters may be skipped (there is no O)
		}
		if z.Side != Allied {
			c.add(z.line, "3.21: zone %s is Allied (zones D to P): side = \"allied\"", z.ID)
		}
		closed := strings.ContainsRune("LMNP", id)
		if closed && z.ClosedTo != German {
			c.add(z.line, "11.22: German units may never enter zone %s: closed_to = \"german\"", z.ID)
		}
		if !closed && z.ClosedTo != "" {
			c.add(z.line, "zone %s: only A-C (11.23) and L, M, N, P (11.22) are closed; remove closed_to", z.ID)
		}
	}
	for _, id := range []string{"G", "H", "I", "J", "K", "L", "M", "N", "P"} {
		if m.Zone(id) == nil {
			c.add(0, "the scenarios name zone %s (5th Panzer supply G-K, 11.22 L, M, N, P): the map needs it", id)
		}
	}
	var vp, front, release, mult int
	for _, a := range m.Areas {
		if a.VP > 0 {
			vp++
		}
		if a.Frontline {
			front++
		}
		if a.Release {
			release++
		}
	}
	for _, z := range m.Zones {
		if z.VPMultiplier > 0 {
			mult++
		}
	}
	for _, f := range []struct {
		n    int
		what string
	}{{vp, "VP areas (3.26): vp = N"}, {front, "Allied front-line areas (3.25): frontline = true"}, {release, "panzer-reserve release areas (3.27): release = true"}, {mult, "Allied VP zones (3.28): vp_multiplier = 1..3"}} {
		if f.n == 0 {
			c.add(0, "the map marks no %s", f.what)
		}
	}
	return c.ps
}

func (m *Map) pathThrough(path []Place, names ...string) bool {
	for _, n := range names {
		a := m.AreaNamed(n)
		if a == nil || !contains(path, AreaPlace(a.ID)) {
			return false
		}
	}
	return true
}

func (m *Map) describePath(cost int, path []Place, ok bool) string {
	if !ok {
		return "no road at all"
	}
	parts := make([]string, len(path))
	for i, p := range path {
		parts[i] = m.PlaceName(p)
	}
	return fmt.Sprintf("%d MP by %s", cost, strings.Join(parts, " - "))
}

// scenarioTerms are what the rulebook's scenario cards fix about the four
// scenarios: their end, supply sources (13.11), extra blown bridges and the
// First Three Days' holes and towns.
var scenarioTerms = map[string]struct {
	end            string
	german, allied string // zones by letter, areas by name, space-separated
	blown          string // "Diekirch-Ettelbruck"
	holesFrom      string
	holesTo        string
	towns          string // comma-separated
}{
	"intro":        {end: "A18-3", german: "C", allied: "P Mersch"},
	"fifth-panzer": {end: "G22-1", german: "B C", allied: "G H I J K", blown: "Diekirch-Ettelbruck"},
	"three-days": {end: "A18-3", german: "A B C", allied: "D E F G H I J K L M N P",
		holesFrom: "A B C", holesTo: "D E F G H I J K",
		towns: "Luxembourg,Arlon,Martelange,Bastogne,Noville,Houffalize,Vielsalm,Stavelot,Malmedy,Hoffraai,Monschau"},
	"campaign": {end: "A22-1", german: "A B C", allied: "D E F G H I J K L M N P"},
}

// checkScenarioFacts checks a shipped scenario's terms when it runs on the
// game's map.
func checkScenarioFacts(c *checker, s *Scenario, loc *locator) {
	t, ok := scenarioTerms[s.Name]
	if !ok || !s.Map.Rulebook {
		return
	}
	top := func(k string) int { return loc.key("", 0, k) }
	if s.Start != "G16-1" {
		c.add(top("start"), "5.31: every scenario starts with G16-1")
	}
	if s.End != t.end {
		c.add(top("end"), "the scenario card ends %s after %s: end = %q", s.Name, t.end, t.end)
	}
	places := func(ps []Place) string {
		var out []string
		for _, p := range ps {
			if p.IsZone() {
				out = append(out, p.Zone)
			} else if a := s.Map.Area(p.Area); a != nil {
				out = append(out, a.Name)
			}
		}
		return strings.Join(out, " ")
	}
	for _, side := range []Side{German, Allied} {
		want := t.german
		if side == Allied {
			want = t.allied
		}
		if got := places(s.Supply.Sources(side)); got != want {
			c.add(loc.key("supply", 0, string(side)), "the scenario card gives the %s supply sources %s (13.11); the file has %q", side, want, got)
		}
	}
	var blown []string
	for _, b := range s.Blown {
		if x, y, ok := parseBridge(b); ok && s.Map.Area(x) != nil && s.Map.Area(y) != nil {
			blown = append(blown, s.Map.Area(x).Name+"-"+s.Map.Area(y).Name)
		}
	}
	if got := strings.Join(blown, " "); got != t.blown && !(t.blown != "" && got == reversed(t.blown)) {
		c.add(top("blown"), "the scenario card blows at start, besides 5.1: %q; the file has %q", t.blown, got)
	}
	if strings.Join(s.Victory.HolesFrom, " ") != t.holesFrom || strings.Join(s.Victory.HolesTo, " ") != t.holesTo {
		c.add(loc.item("victory", 0), "the scenario card counts holes from %q to %q", t.holesFrom, t.holesTo)
	}
	if t.towns != "" {
		var got []string
		for _, n := range s.Victory.Areas {
			if a := s.Map.Area(n); a != nil {
				got = append(got, a.Name)
			}
		}
		if strings.Join(got, ",") != t.towns {
			c.add(loc.key("victory", 0, "areas"), "the scenario card's VP towns are %s, in that order", t.towns)
		}
	}
}

func reversed(pair string) string {
	a, b, _ := strings.Cut(pair, "-")
	return b + "-" + a
}
