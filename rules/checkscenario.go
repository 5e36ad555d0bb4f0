package rules

import (
	"fmt"
	"strings"
)

// checkScenario checks a scenario against its map and order of battle and
// resolves its impulses, blown bridges and units. The checks run in a fixed
// order: problems on the same line keep that order.
func checkScenario(s *Scenario, loc *locator) Problems {
	c := &checker{file: s.File}
	if !validScenarioName(s.Name) {
		c.add(loc.key("", 0, "name"), "name = %q: a scenario's name is lower-case letters, digits and dashes, as \"fifth-panzer\"", s.Name)
	}
	if strings.TrimSpace(s.Title) == "" {
		c.add(loc.key("", 0, "title"), "the scenario has no title: add title = \"...\"")
	}
	c.checkImpulses(s, loc)
	c.checkScenarioAreas(s, loc)
	switch {
	case s.Boundary != "" && s.Boundary != "green" && s.Boundary != "red":
		c.add(loc.key("", 0, "boundary"), "boundary = %q: the colour of the scenario's boundary is \"green\" or \"red\"", s.Boundary)
	case s.Boundary != "" && s.WholeMap:
		c.add(loc.key("", 0, "boundary"), "boundary = %q: a whole-map scenario has no boundary; remove it or set whole_map = false", s.Boundary)
	}
	c.checkScenarioBlown(s, loc)
	c.checkSupplySources(s, loc)
	c.selectUnits(s, loc)
	c.checkOutsiders(s)
	checkVictory(c, s, loc)
	checkScenarioFacts(c, s, loc)
	if s.Position != nil && len(c.ps) == 0 {
		_, ps := s.Position.state(s, s.File, loc, "position")
		c.ps = append(c.ps, ps...)
	}
	return c.ps
}

// checkImpulses reads the scenario's first and last impulses (5.31) into
// s.StartImpulse and s.EndImpulse, and checks that it ends no earlier than
// it starts.
func (c *checker) checkImpulses(s *Scenario, loc *locator) {
	var err error
	if s.StartImpulse, err = ParseImpulse(s.Start); err != nil {
		c.add(loc.key("", 0, "start"), "start: %v", err)
	}
	if s.EndImpulse, err = ParseImpulse(s.End); err != nil {
		c.add(loc.key("", 0, "end"), "end: %v", err)
	}
	if s.StartImpulse.Day != 0 && s.EndImpulse.Day != 0 && s.EndImpulse.Before(s.StartImpulse) {
		c.add(loc.key("", 0, "end"), "end %s comes before start %s", s.End, s.Start)
	}
}

// checkScenarioAreas checks that a scenario played on part of the map has
// some of it: an area whose scenarios list it.
func (c *checker) checkScenarioAreas(s *Scenario, loc *locator) {
	if s.WholeMap {
		return
	}
	n := 0
	for _, a := range s.Map.Areas {
		if s.Uses(AreaPlace(a.ID)) {
			n++
		}
	}
	if n == 0 {
		c.add(loc.key("", 0, "whole_map"), "no area of %s lists scenario %q: list it in the areas' scenarios, or set whole_map = true", s.Map.File, s.Name)
	}
}

// checkScenarioBlown checks the bridges the scenario blows at start
// besides those of 5.1: bridges of the map not blown already. It records
// them in s.blown.
func (c *checker) checkScenarioBlown(s *Scenario, loc *locator) {
	s.blown = map[string]bool{}
	for _, b := range s.Blown {
		a, bb, ok := parseBridge(b)
		switch r := s.Map.Road(a, bb); {
		case !ok:
			c.add(loc.key("", 0, "blown"), "blown: %q is not a bridge; write its two areas, as \"57-58\"", b)
		case r == nil || !r.Bridge:
			c.add(loc.key("", 0, "blown"), "blown: no bridge joins %d and %d on the map", a, bb)
		case r.Blown:
			c.add(loc.key("", 0, "blown"), "blown: bridge %s is already blown at start by 5.1 (the map marks it)", r.ID())
		default:
			s.blown[r.ID()] = true
		}
	}
}

// checkSupplySources checks 13.11: each side has supply sources, places of
// the scenario's map, zones among them its own side's.
func (c *checker) checkSupplySources(s *Scenario, loc *locator) {
	m := s.Map
	for _, side := range []Side{German, Allied} {
		src := s.Supply.Sources(side)
		line := loc.key("supply", 0, string(side))
		if len(src) == 0 {
			c.add(line, "[supply] %s = [...] is missing: name the %s supply sources (13.11)", side, side)
		}
		for _, p := range src {
			switch {
			case p.bad != "":
				c.add(line, "[supply] %s: %s is neither an area number nor a zone letter", side, p.bad)
			case !m.Has(p):
				c.add(line, "[supply] %s: %s is not on the map", side, p)
			case !s.Uses(p):
				c.add(line, "[supply] %s: %s is outside the scenario's map", side, m.PlaceName(p))
			case p.IsZone() && m.Zone(p.Zone).Side != side:
				c.add(line, "[supply] %s: zone %s is a %s zone; a side draws supply from its own zones (13.11)", side, p.Zone, m.Zone(p.Zone).Side)
			}
		}
	}
}

// selectUnits resolves the scenario's [[units]] entries into the units
// that take part, s.Units, in the order of battle's order, checking that
// each entry selects units of the order of battle.
func (c *checker) selectUnits(s *Scenario, loc *locator) {
	o := s.OOB
	s.unit = map[*Unit]bool{}
	byFormation := map[string][]*Unit{}
	for _, u := range o.Units {
		byFormation[u.Formation] = append(byFormation[u.Formation], u)
	}
	for i, sel := range s.Select {
		for _, u := range c.selected(s, loc.item("units", i), sel, byFormation) {
			s.unit[u] = true
		}
	}
	for _, u := range o.Units {
		if s.unit[u] {
			s.Units = append(s.Units, u)
		}
	}
	if len(s.Units) == 0 && len(s.Select) > 0 {
		c.add(0, "the scenario selects no unit")
	}
}

// selected returns the units one [[units]] entry, at line, selects: one
// unit by id, or a formation's units; it checks that the entry does one or
// the other, of units the order of battle has.
func (c *checker) selected(s *Scenario, line int, sel Selector, byFormation map[string][]*Unit) []*Unit {
	o := s.OOB
	switch {
	case sel.ID != "" && sel.Formation != "":
		c.add(line, "give either id or formation, not both")
	case sel.ID != "":
		if u := o.Unit(sel.ID); u != nil {
			return []*Unit{u}
		}
		c.add(line, "unit %q is not in the order of battle %s%s", sel.ID, o.File, closest(sel.ID, unitIDs(o)))
	case sel.Formation != "":
		return c.selectedOfFormation(s, line, sel, byFormation)
	default:
		c.add(line, "a [[units]] entry needs formation = \"...\" or id = \"...\"")
	}
	return nil
}

// selectedOfFormation returns the units of a formation that an entry, at
// line, selects: all of them, or those that set up in one place or arrive
// on one impulse; it checks that there are some.
func (c *checker) selectedOfFormation(s *Scenario, line int, sel Selector, byFormation map[string][]*Unit) []*Unit {
	o, m := s.OOB, s.Map
	if byFormation[sel.Formation] == nil {
		c.add(line, "formation %q is not in the order of battle %s%s", sel.Formation, o.File, closest(sel.Formation, keys(byFormation)))
		return nil
	}
	if sel.At.bad != "" {
		c.add(line, "at = %s is neither an area number nor a zone letter", sel.At.bad)
		return nil
	}
	var picked []*Unit
	for _, u := range byFormation[sel.Formation] {
		if (sel.At.IsZero() || u.Setup == sel.At) && (sel.Arrives == "" || u.Arrives == sel.Arrives) {
			picked = append(picked, u)
		}
	}
	if len(picked) == 0 {
		what := []string{}
		if !sel.At.IsZero() {
			what = append(what, "sets up in "+m.PlaceName(sel.At))
		}
		if sel.Arrives != "" {
			what = append(what, "arrives "+sel.Arrives)
		}
		c.add(line, "no unit of %s %s", sel.Formation, strings.Join(what, " and "))
	}
	return picked
}

// checkOutsiders checks that the units of a partial-map scenario start
// inside it, or enter by a zone of it; only the 5th Panzer rule
// (remove_unsupplied_outsiders) lets them start or arrive outside and be
// removed if unsupplied.
func (c *checker) checkOutsiders(s *Scenario) {
	if s.WholeMap || s.RemoveUnsuppliedOutsiders {
		return
	}
	for _, u := range s.Units {
		if !u.Setup.IsZero() && !s.Uses(u.Setup) {
			c.add(0, "unit %s sets up in %s, outside the scenario's map: select other units, or list the area in the scenario", u.ID, s.Map.PlaceName(u.Setup))
		}
		if len(u.Zones) > 0 {
			in := false
			for _, z := range u.Zones {
				in = in || s.Uses(ZonePlace(z))
			}
			if !in {
				c.add(0, "unit %s enters by zones %s, none of which the scenario uses", u.ID, strings.Join(u.Zones, ", "))
			}
		}
	}
}

// checkVictory checks the scenario's [victory] table (12.0): its areas and
// holes, and the results of its kind, "vp" or "control".
func checkVictory(c *checker, s *Scenario, loc *locator) {
	v := s.Victory
	line := loc.item("victory", 0)
	if line == 0 {
		c.add(0, "the scenario has no [victory] table (12.0)")
		return
	}
	c.checkVictoryPlaces(s, loc, line)
	switch v.Kind {
	case VictoryVP:
		c.checkVPLevels(s, loc, line)
	case VictoryControl:
		c.checkControlOutcomes(s, loc, line)
	default:
		c.add(loc.key("victory", 0, "kind"), "victory kind = %q; it must be \"vp\" or \"control\"", v.Kind)
	}
}

// checkVictoryPlaces checks the victory areas, which must be the
// scenario's, and the zones holes are counted between, given together with
// the VP a hole is worth; line is the [victory] table's.
func (c *checker) checkVictoryPlaces(s *Scenario, loc *locator, line int) {
	v, m := s.Victory, s.Map
	for _, n := range v.Areas {
		if m.Area(n) == nil {
			c.add(loc.key("victory", 0, "areas"), "victory area %d is not on the map%s", n, c.closestArea(m, n))
		} else if !s.Uses(AreaPlace(n)) {
			c.add(loc.key("victory", 0, "areas"), "victory area %s is outside the scenario's map", m.Area(n).Label())
		}
	}
	for _, z := range append(append([]string{}, v.HolesFrom...), v.HolesTo...) {
		if m.Zone(z) == nil {
			c.add(loc.key("victory", 0, "holes_from"), "holes: %q is not a zone of the map", z)
		}
	}
	if (len(v.HolesFrom) > 0) != (len(v.HolesTo) > 0) || (len(v.HolesFrom) > 0 && v.HoleVP <= 0) {
		c.add(line, "holes need holes_from, holes_to and hole_vp together")
	}
}

// checkVPLevels checks a "vp" victory: levels, each with its result, that
// give every German VP total from 0 up exactly one result (12.0); line is
// the [victory] table's.
func (c *checker) checkVPLevels(s *Scenario, loc *locator, line int) {
	v := s.Victory
	if len(v.Levels) == 0 {
		c.add(line, "a \"vp\" victory needs [[victory.level]] tables with the result for each VP total")
	}
	if len(v.Outcomes) > 0 {
		c.add(loc.item("victory.outcome", 0), "[[victory.outcome]] belongs to kind = \"control\"")
	}
	// Every total from 0 up must fall in exactly one level.
	for vp := 0; vp <= 200; vp++ {
		var in []int
		for i, l := range v.Levels {
			if l.Includes(vp) {
				in = append(in, i)
			}
		}
		if len(in) != 1 && len(v.Levels) > 0 {
			what := "no level"
			if len(in) > 1 {
				what = fmt.Sprintf("%d levels (lines %d and %d)", len(in), loc.item("victory.level", in[0]), loc.item("victory.level", in[1]))
			}
			c.add(line, "a German total of %d VP falls in %s: the levels must cover every total once", vp, what)
			break
		}
	}
	for i, l := range v.Levels {
		if strings.TrimSpace(l.Result) == "" {
			c.add(loc.item("victory.level", i), "level without result: add result = \"...\"")
		}
	}
}

// checkControlOutcomes checks a "control" victory: victory areas, and
// outcomes that give every way of sharing their control, German, contested
// or Allied (12.22), exactly one result; line is the [victory] table's.
func (c *checker) checkControlOutcomes(s *Scenario, loc *locator, line int) {
	v := s.Victory
	if len(v.Areas) == 0 {
		c.add(line, "a \"control\" victory needs areas = [...], the areas whose control decides")
	}
	seen := map[[3]int]int{} // German, contested, Allied: the outcome's line
	for i, o := range v.Outcomes {
		l := loc.item("victory.outcome", i)
		if o.German+o.Contested+o.Allied != len(v.Areas) {
			c.add(l, "outcome %q counts %d areas, but there are %d victory areas", o.Result, o.German+o.Contested+o.Allied, len(v.Areas))
		}
		k := [3]int{o.German, o.Contested, o.Allied}
		if first, dup := seen[k]; dup {
			c.add(l, "outcome %q repeats the counts of line %d", o.Result, first)
		}
		seen[k] = l
	}
	n := len(v.Areas)
	for g := 0; g <= n; g++ {
		for ct := 0; g+ct <= n; ct++ {
			if _, ok := seen[[3]int{g, ct, n - g - ct}]; !ok {
				c.add(line, "no outcome for %d German, %d contested, %d Allied: every end state needs a result", g, ct, n-g-ct)
			}
		}
	}
}

// parseBridge reads "a-b".
func parseBridge(s string) (a, b int, ok bool) {
	x, y, found := strings.Cut(strings.TrimSpace(s), "-")
	if !found || !isNumber(x) || !isNumber(y) {
		return 0, 0, false
	}
	fmt.Sscan(x, &a)
	fmt.Sscan(y, &b)
	return a, b, a > 0 && b > 0
}

func unitIDs(o *OOB) []string {
	out := make([]string, len(o.Units))
	for i, u := range o.Units {
		out[i] = u.ID
	}
	return out
}
