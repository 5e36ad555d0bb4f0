package rules

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// checker collects the problems of one file.
type checker struct {
	file string
	ps   Problems
}

func (c *checker) add(line int, format string, args ...any) {
	c.ps = append(c.ps, Problem{c.file, line, fmt.Sprintf(format, args...)})
}

// checkMap checks a map's own consistency, and the rulebook's facts if the
// map claims to be the game's. The checks run in a fixed order, each table's
// entries in the file's order: problems on the same line keep that order.
func checkMap(m *Map, loc *locator) Problems {
	c := &checker{file: m.File}
	if len(m.Areas) == 0 {
		c.add(0, "the map has no areas: add [[area]] tables (docs/data-format.md)")
	}
	c.checkAreas(m, loc)
	c.checkZones(m, loc)
	c.checkZoneNeighbours(m, loc)
	rivers := c.checkRivers(m, loc)
	c.checkRoads(m, loc, rivers)
	excused := c.checkNoRoads(m)
	c.checkConsecutiveAreas(m, excused)
	c.checkReachable(m)
	if m.Rulebook {
		c.ps = append(c.ps, checkMapFacts(m, loc)...)
	}
	return c.ps
}

// checkAreas checks each [[area]] on its own: a number and a name of its
// own (3.22), a real position, its VP (3.26) and the scenarios it names.
func (c *checker) checkAreas(m *Map, loc *locator) {
	ids := map[int]int{}      // area number: the line of its first area
	names := map[string]int{} // lower-case name: the line of its first area
	for i, a := range m.Areas {
		c.checkAreaID(loc, i, a, ids)
		c.checkAreaName(loc, i, a, names)
		c.latLon(loc.key("area", i, "lat"), fmt.Sprintf("area %d", a.ID), a.Lat, a.Lon)
		// 3.26: an area is worth 0 to 9 VP.
		if a.VP < 0 || a.VP > 9 {
			c.add(loc.key("area", i, "vp"), "area %d: vp = %d; an area is worth 0 to 9 VP (3.26)", a.ID, a.VP)
		}
		c.scenarioNames(loc.key("area", i, "scenarios"), a.Scenarios)
	}
}

// checkAreaID checks that the i-th area's number (3.22) is one the map can
// print, 1 to 999, and no other area's: orders name areas by number. ids
// holds the numbers seen so far, with their lines.
func (c *checker) checkAreaID(loc *locator, i int, a *Area, ids map[int]int) {
	switch {
	case a.ID < 1 || a.ID > 999:
		c.add(loc.key("area", i, "id"), "area id %d: area numbers run from 1 to 999", a.ID)
	case ids[a.ID] != 0:
		c.add(loc.key("area", i, "id"), "duplicate area id %d (first at line %d): every area needs its own number", a.ID, ids[a.ID])
	default:
		ids[a.ID] = a.line
	}
}

// checkAreaName checks that the i-th area has a name, and one no other area
// has without regard to case: reports and examples name areas. names holds
// the names seen so far, in lower case, with their lines.
func (c *checker) checkAreaName(loc *locator, i int, a *Area, names map[string]int) {
	if strings.TrimSpace(a.Name) == "" {
		c.add(a.line, "area %d has no name: add name = \"...\"", a.ID)
	} else if first, dup := names[strings.ToLower(a.Name)]; dup {
		c.add(loc.key("area", i, "name"), "duplicate area name %q (first at line %d): names must be unique", a.Name, first)
	} else {
		names[strings.ToLower(a.Name)] = a.line
	}
}

// checkZones checks each [[zone]] on its own: its letter (3.21), whose it is
// and who may not enter it (3.21, 11.22, 11.23), its VP multiplier (3.28),
// its position, the areas its primary roads lead to (11.13) and the
// scenarios it names.
func (c *checker) checkZones(m *Map, loc *locator) {
	zones := map[string]int{} // zone letter: the line of its first zone
	for i, z := range m.Zones {
		c.checkZoneID(loc, i, z, zones)
		c.checkZoneSides(loc, i, z)
		c.checkZoneVP(loc, i, z)
		c.latLon(loc.key("zone", i, "lat"), "zone "+z.ID, z.Lat, z.Lon)
		c.checkZoneAreas(m, loc, i, z)
		c.scenarioNames(loc.key("zone", i, "scenarios"), z.Scenarios)
	}
}

// checkZoneID checks that the i-th zone is one letter A to P (3.21) and no
// other zone's. zones holds the letters seen so far, with their lines.
func (c *checker) checkZoneID(loc *locator, i int, z *Zone, zones map[string]int) {
	switch {
	case !isZoneID(z.ID):
		c.add(loc.key("zone", i, "id"), "zone id %q: a zone is one capital letter from A to P (3.21)", z.ID)
	case zones[z.ID] != 0:
		c.add(loc.key("zone", i, "id"), "duplicate zone %s (first at line %d)", z.ID, zones[z.ID])
	default:
		zones[z.ID] = z.line
	}
}

// checkZoneSides checks that a zone belongs to a side (3.21) and is closed,
// if at all, to the other side (11.22, 11.23).
func (c *checker) checkZoneSides(loc *locator, i int, z *Zone) {
	if !z.Side.valid() {
		c.add(loc.key("zone", i, "side"), "zone %s: side = %q; it must be \"german\" or \"allied\" (3.21)", z.ID, z.Side)
	}
	if z.ClosedTo != "" && !z.ClosedTo.valid() {
		c.add(loc.key("zone", i, "closed_to"), "zone %s: closed_to = %q; it must be \"german\", \"allied\" or \"\" (11.22, 11.23)", z.ID, z.ClosedTo)
	}
	if z.ClosedTo != "" && z.ClosedTo == z.Side {
		c.add(loc.key("zone", i, "closed_to"), "zone %s is closed to its own side %s: closed_to names the enemy side that may not enter (11.22, 11.23)", z.ID, z.Side)
	}
}

// checkZoneVP checks a zone's VP multiplier: 0, or 1 to 3 for an Allied
// zone, whose exit earns the Germans VP (3.28, 12.23).
func (c *checker) checkZoneVP(loc *locator, i int, z *Zone) {
	switch {
	case z.VPMultiplier < 0 || z.VPMultiplier > 3:
		c.add(loc.key("zone", i, "vp_multiplier"), "zone %s: vp_multiplier = %d; it must be 0 or 1 to 3 (3.28)", z.ID, z.VPMultiplier)
	case z.VPMultiplier > 0 && z.Side != Allied:
		c.add(loc.key("zone", i, "vp_multiplier"), "zone %s: only Allied zones carry a VP multiplier (3.28, 12.23)", z.ID)
	}
}

// checkZoneAreas checks that a zone's primary roads lead to at least one
// area, and only to areas of the map (11.13).
func (c *checker) checkZoneAreas(m *Map, loc *locator, i int, z *Zone) {
	if len(z.Areas) == 0 {
		c.add(z.line, "zone %s joins no area: list the areas its primary roads lead to, areas = [...] (11.13)", z.ID)
	}
	for _, n := range z.Areas {
		if m.Area(n) == nil {
			c.add(loc.key("zone", i, "areas"), "zone %s joins area %d, which the map does not have%s", z.ID, n, c.closestArea(m, n))
		}
	}
}

// checkZoneNeighbours checks the zones' neighbours along the map's edge,
// along which a reinforcement's entry shifts (11.14): other zones of the
// map, each naming the other.
func (c *checker) checkZoneNeighbours(m *Map, loc *locator) {
	for i, z := range m.Zones {
		for _, nb := range z.Neighbours {
			o := m.Zone(nb)
			switch {
			case o == nil:
				c.add(loc.key("zone", i, "neighbours"), "zone %s names neighbour %q, which is not a zone of the map", z.ID, nb)
			case nb == z.ID:
				c.add(loc.key("zone", i, "neighbours"), "zone %s names itself as its neighbour", z.ID)
			case !contains(o.Neighbours, z.ID):
				c.add(loc.key("zone", i, "neighbours"), "zone %s names %s as neighbour but %s does not name %s: neighbours go both ways (11.14)", z.ID, nb, nb, z.ID)
			}
		}
	}
}

// checkRivers checks that every [[river]] has a name, for the bridges that
// cross it (3.23), and a course of real positions to be drawn. It returns
// the rivers' names.
func (c *checker) checkRivers(m *Map, loc *locator) map[string]bool {
	rivers := map[string]bool{}
	for i, r := range m.Rivers {
		if r.Name == "" {
			c.add(r.line, "river without a name: add name = \"...\"")
		}
		rivers[r.Name] = true
		if len(r.Points) < 2 {
			c.add(loc.key("river", i, "points"), "river %s: a river needs at least two points [lat, lon] to be drawn", r.Name)
		}
		for _, p := range r.Points {
			if !c.latLon(loc.key("river", i, "points"), "river "+r.Name, p[0], p[1]) {
				break
			}
		}
	}
	return rivers
}

// checkRoads checks each [[road]]: it joins two different areas of the map
// (3.22), once; its class sets its cost (3.22, 8.33); and a bridge, blown
// or not, crosses a river the map describes (3.23, 5.1).
func (c *checker) checkRoads(m *Map, loc *locator, rivers map[string]bool) {
	seen := map[[2]int]int{} // the two areas, lower first: the line of the first road
	for i, r := range m.Roads {
		c.checkRoadEnds(m, r, seen)
		if r.Class != Primary && r.Class != Secondary {
			c.add(loc.key("road", i, "class"), "road %d-%d: class = %q; it must be \"primary\" or \"secondary\" (3.22, 8.33)", r.A, r.B, r.Class)
		}
		c.checkRoadBridge(loc, i, r, rivers)
	}
}

// checkRoadEnds checks that a road joins two different areas of the map
// (3.22), and that no other road joins the same two. seen holds the pairs
// of areas joined so far, lower first, with their roads' lines.
func (c *checker) checkRoadEnds(m *Map, r *Road, seen map[[2]int]int) {
	for _, end := range []int{r.A, r.B} {
		if m.Area(end) == nil {
			c.add(r.line, "road %d-%d: area %d is not on the map%s", r.A, r.B, end, c.closestArea(m, end))
		}
	}
	if r.A == r.B {
		c.add(r.line, "road %d-%d joins area %d to itself: a road joins two different areas (3.22)", r.A, r.B, r.A)
	}
	k := [2]int{min(r.A, r.B), max(r.A, r.B)}
	if first, dup := seen[k]; dup {
		c.add(r.line, "road %d-%d is listed twice (first at line %d): two areas are joined by at most one road", r.A, r.B, first)
	}
	seen[k] = r.line
}

// checkRoadBridge checks a road's river crossing: every crossing has a
// bridge, every bridge crosses a river of the map (3.23), and only bridges
// are blown (5.1, 10.0).
func (c *checker) checkRoadBridge(loc *locator, i int, r *Road, rivers map[string]bool) {
	switch {
	case r.Bridge && r.River == "":
		c.add(r.line, "road %d-%d has a bridge but no river: add river = \"...\" naming a [[river]] (3.23)", r.A, r.B)
	case r.Bridge && !rivers[r.River]:
		c.add(loc.key("road", i, "river"), "road %d-%d crosses river %q, which no [[river]] describes%s", r.A, r.B, r.River, closest(r.River, keys(rivers)))
	case !r.Bridge && r.River != "":
		c.add(loc.key("road", i, "river"), "road %d-%d crosses river %q without a bridge: every crossing has a bridge, add bridge = true (3.23)", r.A, r.B, r.River)
	}
	if r.Blown && !r.Bridge {
		c.add(loc.key("road", i, "blown"), "road %d-%d is blown but has no bridge: only bridges are blown (5.1, 10.0)", r.A, r.B)
	}
}

// checkNoRoads checks each [[no_road]]: consecutive areas, which 3.22 makes
// adjacent, with no road between them and a reason why. It returns the
// lower areas of the pairs excused.
func (c *checker) checkNoRoads(m *Map) map[int]bool {
	excused := map[int]bool{}
	for _, nr := range m.NoRoads {
		lo, hi := min(nr.A, nr.B), max(nr.A, nr.B)
		switch {
		case hi != lo+1:
			c.add(nr.line, "no_road %d-%d: only consecutive areas (n and n+1) need a reason for having no road (3.22)", nr.A, nr.B)
		case m.Road(lo, hi) != nil:
			c.add(nr.line, "no_road %d-%d, but a road joins them (line %d): remove one of the two", lo, hi, m.Road(lo, hi).line)
		case strings.TrimSpace(nr.Reason) == "":
			c.add(nr.line, "no_road %d-%d gives no reason: say why the adjacent areas have no road, reason = \"...\" (3.22)", lo, hi)
		}
		excused[lo] = true
	}
	return excused
}

// checkConsecutiveAreas checks 3.22: consecutive numbers are always
// adjacent, so the data joins them by a road or, for the pairs excused,
// says why not.
func (c *checker) checkConsecutiveAreas(m *Map, excused map[int]bool) {
	for _, a := range m.Areas {
		if m.Area(a.ID) != a {
			continue
		}
		next := m.Area(a.ID + 1)
		if next == nil || m.Road(a.ID, a.ID+1) != nil || excused[a.ID] {
			continue
		}
		c.add(a.line, "areas %d %s and %d %s are consecutive, so adjacent (3.22), but no road joins them: add a [[road]] a = %d, b = %d, or a [[no_road]] with the reason",
			a.ID, a.Name, next.ID, next.Name, a.ID, next.ID)
	}
}

// checkReachable checks that every area can be reached by road from a
// zone, or no unit could reach it or trace supply through it (13.11). On a
// map without zones nothing is reachable, and nothing is checked.
func (c *checker) checkReachable(m *Map) {
	if len(m.Zones) == 0 {
		return
	}
	reach := map[Place]bool{}
	var stack []Place
	for _, z := range m.Zones {
		stack = append(stack, ZonePlace(z.ID))
	}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if reach[p] {
			continue
		}
		reach[p] = true
		for _, l := range m.Links(p) {
			stack = append(stack, l.To)
		}
	}
	for _, a := range m.Areas {
		if !reach[AreaPlace(a.ID)] && m.Area(a.ID) == a {
			c.add(a.line, "area %d %s cannot be reached by road from any zone: join it to the road network", a.ID, a.Name)
		}
	}
}

// latLon checks a position and reports whether it is valid.
func (c *checker) latLon(line int, what string, lat, lon float64) bool {
	if lat < -90 || lat > 90 || lon < -180 || lon > 180 || (lat == 0 && lon == 0) {
		c.add(line, "%s: position lat = %g, lon = %g is not a place on Earth; give the real latitude and longitude in degrees", what, lat, lon)
		return false
	}
	return true
}

// scenarioNames checks the names of the partial-map scenarios an area or
// zone lists.
func (c *checker) scenarioNames(line int, names []string) {
	for _, n := range names {
		if !validScenarioName(n) {
			c.add(line, "scenario name %q: names are lower-case letters, digits and dashes, as \"fifth-panzer\"", n)
		}
	}
}

func validScenarioName(n string) bool {
	if n == "" {
		return false
	}
	for _, r := range n {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

// closestArea suggests the existing area numbers nearest to n.
func (c *checker) closestArea(m *Map, n int) string {
	if len(m.Areas) == 0 {
		return ""
	}
	best := []int{}
	for d := 1; d < 1000 && len(best) == 0; d++ {
		for _, k := range []int{n - d, n + d} {
			if m.Area(k) != nil {
				best = append(best, k)
			}
		}
	}
	parts := make([]string, len(best))
	for i, k := range best {
		parts[i] = m.Area(k).Label()
	}
	return "; nearest: " + strings.Join(parts, ", ")
}

func contains[T comparable](s []T, v T) bool { return slices.Contains(s, v) }

func keys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// closest suggests the candidates nearest to s by edit distance, those
// equally nearest together.
func closest(s string, candidates []string) string {
	near := nearest(s, candidates, nil, 3)
	if len(near) == 0 {
		return ""
	}
	var best []string
	for _, n := range near {
		if n.dist == near[0].dist {
			best = append(best, n.name)
		}
	}
	return fmt.Sprintf("; did you mean %q?", strings.Join(best, `" or "`))
}
