package rules

import (
	"maps"
	"slices"
	"strconv"
	"strings"
)

// 7.1: at the end of a movement impulse a side may have at most this many
// units and SP in one area.
const (
	StackUnits = 4
	StackSP    = 10
)

// OverStacked returns the areas, in ascending order, where the side's units
// set up beyond the limits of 7.1. Zones have no limit (7.3).
func OverStacked(units []*Unit, side Side) []int {
	n, sp := map[int]int{}, map[int]int{}
	for _, u := range units {
		if u.Side != side || u.Setup.Area == 0 {
			continue
		}
		n[u.Setup.Area]++
		sp[u.Setup.Area] += u.Strength
	}
	var out []int
	for _, a := range slices.Sorted(maps.Keys(n)) {
		if n[a] > StackUnits || sp[a] > StackSP {
			out = append(out, a)
		}
	}
	return out
}

// checkOOB checks an order of battle and its references to the map m (nil:
// references to places are not checked). The checks run in a fixed order,
// each table's entries in the file's order: problems on the same line keep
// that order.
func checkOOB(o *OOB, m *Map, loc *locator) Problems {
	c := &checker{file: o.File}
	if len(o.Units) == 0 {
		c.add(0, "the order of battle has no units: add [[unit]] tables (docs/data-format.md)")
	}
	groups := c.checkGroups(o, m, loc)
	c.checkReleaseAreasUsed(o, m)
	c.checkUnits(o, m, loc, groups)
	if o.Rulebook {
		c.ps = append(c.ps, checkOOBFacts(o, m)...)
	}
	return c.ps
}

// checkGroups checks each [[group]] of the panzer reserve (11.3): an id of
// its own, and release areas (11.31) that the map marks as such (3.27,
// 11.32). It returns the groups' ids, with their lines.
func (c *checker) checkGroups(o *OOB, m *Map, loc *locator) map[string]int {
	groups := map[string]int{}
	for i, g := range o.Groups {
		if g.ID == "" {
			c.add(g.line, "group without id: add id = \"...\"")
		} else if first, dup := groups[g.ID]; dup {
			c.add(loc.key("group", i, "id"), "duplicate group %q (first at line %d)", g.ID, first)
		}
		groups[g.ID] = g.line
		if len(g.Release) == 0 {
			c.add(g.line, "group %s has no release areas: list them, release = [...] (11.31)", g.ID)
		}
		if m == nil {
			continue
		}
		for _, n := range g.Release {
			switch a := m.Area(n); {
			case a == nil:
				c.add(loc.key("group", i, "release"), "group %s: release area %d is not on the map%s", g.ID, n, c.closestArea(m, n))
			case !a.Release:
				c.add(loc.key("group", i, "release"), "group %s: area %s is not marked as a release area on the map (3.27, 11.32): set release = true there or choose another", g.ID, a.Label())
			}
		}
	}
	return groups
}

// checkReleaseAreasUsed checks that every release area the map marks
// (3.27) releases some group, where the order of battle has groups.
func (c *checker) checkReleaseAreasUsed(o *OOB, m *Map) {
	if m == nil || len(o.Groups) == 0 {
		return
	}
	for _, a := range m.Areas {
		used := false
		for _, g := range o.Groups {
			used = used || contains(g.Release, a.ID)
		}
		if a.Release && !used {
			c.add(0, "area %s is a release area on the map (3.27) but no group of the order of battle names it", a.Label())
		}
	}
}

// checkUnits checks each [[unit]] as printed on its counter (4.1) and where
// it starts or enters, and reads its arrival. groups holds the ids of the
// order of battle's groups.
func (c *checker) checkUnits(o *OOB, m *Map, loc *locator, groups map[string]int) {
	ids := map[string]int{} // lower-case id: the line of its first unit
	for i, u := range o.Units {
		c.checkUnitID(loc, i, u, ids)
		if strings.TrimSpace(u.Formation) == "" {
			c.add(u.line, "unit %s has no formation: add formation = \"...\", the division or brigade the scenarios name", u.ID)
		}
		c.checkUnitCounter(loc, i, u)
		c.checkUnitStart(m, loc, i, u)
		c.checkUnitArrival(m, loc, i, u)
		if u.Group != "" && o.Group(u.Group) == nil {
			c.add(loc.key("unit", i, "group"), "unit %s belongs to group %q, which no [[group]] defines%s", u.ID, u.Group, closest(u.Group, keys(groups)))
		}
		c.checkEntrenched(loc, i, u)
	}
}

// checkUnitID checks the i-th unit's id: orders name units by id, so it
// must have one without spaces that orders cannot take for an area (a
// number) or a zone (one letter), and unique without regard to case. ids
// holds the ids seen so far, in lower case, with their lines.
func (c *checker) checkUnitID(loc *locator, i int, u *Unit, ids map[string]int) {
	id := u.ID
	switch {
	case id == "":
		c.add(u.line, "unit without id: add id = \"...\", as \"116/60\"")
	case strings.ContainsAny(id, " \t"):
		c.add(loc.key("unit", i, "id"), "unit id %q contains a space: ids are written without spaces, as \"116/60\"", id)
	case isNumber(id):
		c.add(loc.key("unit", i, "id"), "unit id %q is a bare number, which orders read as an area: add the formation or a letter, as \"%s/1\"", id, id)
	case len(id) == 1:
		c.add(loc.key("unit", i, "id"), "unit id %q is a single letter, which orders read as a zone: use a longer id", id)
	}
	if first, dup := ids[strings.ToLower(id)]; dup && id != "" {
		c.add(loc.key("unit", i, "id"), "duplicate unit id %q (first at line %d): ids are unique, without regard to case", id, first)
	} else {
		ids[strings.ToLower(id)] = u.line
	}
}

// checkUnitCounter checks what a unit's counter shows: its side, a service
// of that side (4.12), its type (4.11) and its full strength (4.16).
func (c *checker) checkUnitCounter(loc *locator, i int, u *Unit) {
	id := u.ID
	if !u.Side.valid() {
		c.add(loc.key("unit", i, "side"), "unit %s: side = %q; it must be \"german\" or \"allied\"", id, u.Side)
	}
	if s := u.Service.Side(); s == "" {
		c.add(loc.key("unit", i, "service"), "unit %s: service = %q; it must be one of ss, heer, luftwaffe (German) or us, british, garrison (Allied) (4.12)", id, u.Service)
	} else if u.Side.valid() && s != u.Side {
		c.add(loc.key("unit", i, "service"), "unit %s: service %q belongs to the %s side, but the unit is %s (4.12)", id, u.Service, s, u.Side)
	}
	if _, ok := u.Type.Values(); !ok {
		c.add(loc.key("unit", i, "type"), "unit %s: type = %q; it must be one of armor, engineer, mech, mot, infantry (4.11)", id, u.Type)
	}
	if u.Strength < 1 || u.Strength > 4 {
		c.add(loc.key("unit", i, "strength"), "unit %s: strength = %d; a unit has 1 to 4 SP at full strength (4.16)", id, u.Strength)
	}
}

// checkUnitStart checks how a unit comes into play: exactly one of set up
// at start (5.21), arriving on an impulse (11.11) or released with its
// group (11.3); and a set-up place on the map, from which it may not be
// barred (11.22, 11.23), with no entry zones, which are for reinforcements
// only (11.11).
func (c *checker) checkUnitStart(m *Map, loc *locator, i int, u *Unit) {
	id := u.ID
	has := 0
	for _, b := range []bool{!u.Setup.IsZero(), u.Arrives != "", u.Group != ""} {
		if b {
			has++
		}
	}
	if has != 1 {
		c.add(u.line, "unit %s: give exactly one of setup (area or zone), arrives (\"17-1\") with zones, or group with zones (5.21, 11.11, 11.3)", id)
	}
	if u.Setup.IsZero() {
		return
	}
	switch {
	case u.Setup.bad != "":
		c.add(loc.key("unit", i, "setup"), "unit %s: setup = %s is neither an area number nor a zone letter A-P", id, u.Setup.bad)
	case m != nil && !m.Has(u.Setup):
		c.add(loc.key("unit", i, "setup"), "unit %s sets up in %s, which is not on the map%s", id, u.Setup, c.placeHint(m, u.Setup))
	case m != nil && u.Setup.IsZone():
		c.zoneFor(m, loc.key("unit", i, "setup"), u, u.Setup.Zone)
	}
	if len(u.Zones) > 0 {
		c.add(loc.key("unit", i, "zones"), "unit %s sets up on the map: zones are only for reinforcements (11.11)", id)
	}
}

// checkUnitArrival reads a reinforcement's impulse of arrival into
// u.Arrival (4.14, 11.11), and checks that a reinforcement, arriving on an
// impulse or with its group, enters by zones of its own side that it may
// enter (11.11, 11.22, 11.23).
func (c *checker) checkUnitArrival(m *Map, loc *locator, i int, u *Unit) {
	id := u.ID
	if u.Arrives != "" {
		day, n, err := ParseDayImpulse(u.Arrives)
		if err != nil {
			c.add(loc.key("unit", i, "arrives"), "unit %s: %v", id, err)
		} else {
			u.Arrival = Impulse{u.Side, day, n}
		}
	}
	if u.Arrives == "" && u.Group == "" {
		return
	}
	if len(u.Zones) == 0 {
		c.add(u.line, "unit %s is a reinforcement but names no entry zone: zones = [\"...\"] (11.11)", id)
	}
	for _, z := range u.Zones {
		if m != nil {
			c.zoneFor(m, loc.key("unit", i, "zones"), u, z)
		} else if !isZoneID(z) {
			c.add(loc.key("unit", i, "zones"), "unit %s: %q is not a zone letter A-P", id, z)
		}
	}
}

// checkEntrenched checks a unit that starts entrenched: never armour
// (8.54), and only set up in an area (5.22).
func (c *checker) checkEntrenched(loc *locator, i int, u *Unit) {
	if !u.Entrenched {
		return
	}
	if u.Type == Armor {
		c.add(loc.key("unit", i, "entrenched"), "unit %s is armour, which never entrenches (8.54)", u.ID)
	}
	if u.Setup.IsZero() || u.Setup.IsZone() {
		c.add(loc.key("unit", i, "entrenched"), "unit %s: only units set up in an area start entrenched (5.22)", u.ID)
	}
}

// zoneFor checks that a unit may be placed in zone id.
func (c *checker) zoneFor(m *Map, line int, u *Unit, id string) {
	z := m.Zone(id)
	switch {
	case z == nil:
		c.add(line, "unit %s enters by zone %q, which is not a zone of the map", u.ID, id)
	case z.ClosedTo == u.Side:
		c.add(line, "unit %s may not be in zone %s: %s units never enter it (11.22, 11.23)", u.ID, id, u.Side)
	case z.Side != u.Side:
		c.add(line, "unit %s enters by zone %s, a %s zone: reinforcements enter by their own side's zones (11.11)", u.ID, id, z.Side)
	}
}

// placeHint suggests the areas nearest to a place that is not on the map.
func (c *checker) placeHint(m *Map, p Place) string {
	if p.IsZone() {
		return ""
	}
	return c.closestArea(m, p.Area)
}

func isNumber(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil
}

// checkOOBFacts checks what the rulebook fixes about the order of battle,
// in a fixed order; on the map m (nil: not what needs places).
func checkOOBFacts(o *OOB, m *Map) Problems {
	c := &checker{file: o.File}
	formations := map[string][]*Unit{}
	for _, u := range o.Units {
		formations[u.Formation] = append(formations[u.Formation], u)
	}
	c.checkNamedFormations(formations)
	if m == nil {
		return c.ps
	}
	c.checkNamedSetups(m, formations)
	c.checkFourthInfantry(formations)
	c.checkSetupStacking(o, m)
	return c.ps
}

// checkNamedFormations checks that every formation the scenarios name
// (NamedFormations) has at least one unit; formations holds the units of
// each formation.
func (c *checker) checkNamedFormations(formations map[string][]*Unit) {
	for _, f := range NamedFormations {
		if len(formations[f]) == 0 {
			c.add(0, "the scenarios name the formation %q: give it to at least one unit, formation = %q%s", f, f, closest(f, keys(formations)))
		}
	}
}

// checkNamedSetups checks that the formations the scenarios name at a
// place have a unit set up there: 9 Arm at Larochette and Weiswampach,
// 28 Inf at Vianden and Diekirch, 352 VG at Sinspelt. A place the map
// lacks is passed over here: checkNamedAreas reports it on a map that
// claims to be the game's.
func (c *checker) checkNamedSetups(m *Map, formations map[string][]*Unit) {
	for _, f := range []struct{ formation, place string }{
		{"9 Arm", "Larochette"}, {"9 Arm", "Weiswampach"},
		{"28 Inf", "Vianden"}, {"28 Inf", "Diekirch"}, {"352 VG", "Sinspelt"},
	} {
		a := m.AreaNamed(f.place)
		found := false
		for _, u := range formations[f.formation] {
			found = found || (a != nil && u.Setup == AreaPlace(a.ID))
		}
		if a != nil && !found {
			c.add(0, "the scenarios name a unit of %s set up at %s: set one up there, setup = %d", f.formation, a.Label(), a.ID)
		}
	}
}

// checkFourthInfantry checks that the 4th Infantry has both what the
// scenarios name: units set up at start and units arriving 17-1.
func (c *checker) checkFourthInfantry(formations map[string][]*Unit) {
	var setup, arrives bool
	for _, u := range formations["4 Inf"] {
		setup = setup || !u.Setup.IsZero()
		arrives = arrives || u.Arrives == "17-1"
	}
	if !setup || !arrives {
		c.add(0, "the scenarios name units of 4 Inf set up at start and units of 4 Inf arriving 17-1: the order of battle needs both")
	}
}

// checkSetupStacking checks 7.1 at set-up: the Germans exceed the stacking
// limit in exactly two areas, the Allies in none.
func (c *checker) checkSetupStacking(o *OOB, m *Map) {
	if g := OverStacked(o.Units, German); len(g) != 2 {
		c.add(0, "7.1: at set-up the Germans exceed the stacking limit (4 units, 10 SP) in exactly two areas; this order of battle has %d: %s", len(g), areaList(m, g))
	}
	if a := OverStacked(o.Units, Allied); len(a) > 0 {
		c.add(0, "7.1: the Allies set up within the stacking limit (4 units, 10 SP) everywhere; over it in %s", areaList(m, a))
	}
}

// areaList names the areas ids on the map m, as "Irrel (10), Echternach
// (11)", or "none".
func areaList(m *Map, ids []int) string {
	if len(ids) == 0 {
		return "none"
	}
	parts := make([]string, len(ids))
	for i, n := range ids {
		parts[i] = m.PlaceName(AreaPlace(n))
	}
	return strings.Join(parts, ", ")
}
