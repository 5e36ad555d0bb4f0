package rules

// Reinforcements (11.0): units due in an impulse are placed in their entry
// zone in the reinforcement phase (11.11) and may move onto the map from it
// (11.12), or from a zone further along the edge later (11.14), or wait
// (11.15). The panzer reserve (11.3) is released at the end of an Allied
// impulse by German superiority in one of its release areas. The zones
// closed to a side (11.21-11.23) are checked with each step of a move
// (movement.go).

// placeReinforcements plays the reinforcement phase before a pair of
// impulses (6.0 I): both sides' units due in this impulse number are placed
// in their entry zone (11.11).
func (g *game) placeReinforcements() {
	for _, u := range g.s.Units {
		us := g.st.Unit(u.ID)
		if us.Arrived || us.Eliminated || u.Arrival.Day != g.imp.Day || u.Arrival.N != g.imp.N || len(u.Zones) == 0 {
			continue
		}
		z := g.s.EntryZone(u)
		us.Arrived, us.Place, us.TurnStart = true, ZonePlace(z), ZonePlace(z)
		us.InSupply = true // reinforcements are in supply when placed
		g.event(Arrived{u.ID, z})
	}
}

// EntryZone returns the zone a reinforcement is placed in (11.11): the first
// of its zones on the scenario's map (B7: unmoved, a unit with several zones
// waits in the first listed; a zone off a partial map is not one the
// scenario uses), or its first zone if none is on the map (the 5th Panzer
// scenario places such a unit outside its map, StartsOutside). It is "" for
// a unit without zones.
func (s *Scenario) EntryZone(u *Unit) string {
	for _, z := range u.Zones {
		if s.Uses(ZonePlace(z)) {
			return z
		}
	}
	if len(u.Zones) == 0 {
		return ""
	}
	return u.Zones[0]
}

// StartsOutside reports whether the unit sets up, or is placed as a
// reinforcement, outside the scenario's map, which only the 5th Panzer
// scenario allows (RemoveUnsuppliedOutsiders): such a unit may move through
// areas outside the map on its way in, and is removed at the end of the turn
// it appears unless it is then inside the map and in supply.
func (s *Scenario) StartsOutside(u *Unit) bool {
	if !s.RemoveUnsuppliedOutsiders {
		return false
	}
	if !u.Setup.IsZero() {
		return !s.Uses(u.Setup)
	}
	z := s.EntryZone(u)
	return z != "" && !s.Uses(ZonePlace(z))
}

// arrival returns the impulse a reinforcement arrives in, the first it may
// move in (11.11, 11.12): its scheduled impulse, or for a unit of a released
// panzer-reserve group (11.3) the German impulse after the Allied impulse at
// whose end the group was released. It is zero for a unit that sets up and
// for a reserve not released.
func (st *State) arrival(u *Unit) Impulse {
	if u.Group == "" {
		return u.Arrival
	}
	r, ok := st.ReleasedAt[u.Group]
	if !ok {
		return Impulse{}
	}
	r = NextImpulse(r)
	if r.Side != German {
		r = NextImpulse(r)
	}
	return r
}

// entryShift checks a reinforcement leaving by another zone than the one it
// waits in (from): one of its own zones in its arrival impulse (11.11, B7),
// or a zone k steps along the edge from its zones, k impulses later, for 2
// MP a step (11.14). A released panzer-reserve unit is a reinforcement like
// any other, arriving in the German impulse after its release (11.3,
// State.arrival). No unit shifts off the scenario's map (leavesMap).
func (g *game) entryShift(line int, o Move, units []*UnitState, from, z Place) (int, bool) {
	if g.leavesMap(from, z) {
		g.refuse(line, o, "%s is outside the map of %s", g.s.Map.PlaceMessage(z), g.s.TitleMessage())
		return 0, false
	}
	steps := 0
	for _, u := range units {
		info := g.info(u.ID)
		arr := g.st.arrival(info)
		if arr.Day == 0 {
			g.refuse(line, o, "%s is not a reinforcement: it cannot change zones", u.ID)
			return 0, false
		}
		if g.imp == arr && contains(info.Zones, z.Zone) {
			continue
		}
		k := g.zoneSteps(info.Zones, z.Zone)
		if k < 0 || impulsesBetween(arr, g.imp) < k {
			g.refuse(line, o, "%s cannot enter by zone %s: a reinforcement may enter by a zone next to its own one impulse later, for 2 MP a zone (11.14)", u.ID, z.Zone)
			return 0, false
		}
		steps = max(steps, k)
	}
	return 2 * steps, true
}

// zoneSteps returns the fewest steps along the zones' neighbours from any of
// the zones to z, or -1.
func (g *game) zoneSteps(from []string, z string) int {
	dist := map[string]int{}
	queue := []string{}
	for _, f := range from {
		dist[f] = 0
		queue = append(queue, f)
	}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == z {
			return dist[c]
		}
		zz := g.s.Map.Zone(c)
		if zz == nil {
			continue
		}
		for _, n := range zz.Neighbours {
			if _, seen := dist[n]; !seen {
				dist[n] = dist[c] + 1
				queue = append(queue, n)
			}
		}
	}
	return -1
}

// impulsesBetween counts the side's impulses from a to b.
func impulsesBetween(a, b Impulse) int {
	n := 0
	for i := a; i.Before(b); i = NextImpulse(i) {
		if i.Side == b.Side {
			n++
		}
	}
	return n
}

// Arrived: a reinforcement was placed in its entry zone (11.11).
type Arrived struct {
	Unit string
	Zone string
}

// String writes the event as the report prints it.
func (e Arrived) String() string { return e.Text().String() }

// Text is the event as a message.
func (e Arrived) Text() Message { return M("%s arrives in zone %s", e.Unit, e.Zone) }

// Released: a panzer-reserve group was released (11.3, 11.33) because at the
// end of the Allied impulse the Germans had more SP than the Allies in its
// release area Area (GermanSP against AlliedSP). Its units follow as Arrived
// events. It is an Event.
type Released struct {
	Group    string
	Area     int
	GermanSP int
	AlliedSP int
}

// String writes the event as the report prints it.
func (e Released) String() string { return e.Text().String() }

// Text is the event as a message.
func (e Released) Text() Message {
	return M("panzer reserve %s is released: the Germans have %d SP against %d in area %d at the end of the Allied impulse (11.3, 11.33)",
		e.Group, e.GermanSP, e.AlliedSP, e.Area)
}

// ReleaseReserves applies 11.3 at the end of an Allied impulse: every
// panzer-reserve group of the order of battle (11.31) not yet released
// (st.Released), and with units taking part in the scenario, is released if
// in any one of its release areas (11.33) the Germans have more SP than the
// Allies ("連合軍インパルス終了時にエリア内の合計戦力が相手を上回っている": at the
// end of the Allied impulse the total strength in the area exceeds the
// enemy's). Strength is the units' present SP, summed over the units in the
// area; an area with no German unit never qualifies. Release areas outside
// the scenario's map do not count. Units in zones are in no area.
//
// A released group's units arrive as reinforcements (11.0): each is placed at
// once in its entry zone (11.11, Scenario.EntryZone), in supply
// (reinforcements are in supply when placed), as if it had begun the turn
// there (8.21). They have not moved (8.25), so they may move onto the map in
// the next German impulse (11.12: reinforcements may move in the impulse
// they arrive; the next German impulse is the first they can use), or wait
// in the zone (11.15), or leave by another of its zones then (B7) or by a
// zone further along the edge later (11.14), counting impulses from the
// next German impulse. The group's id is appended to st.Released, and the
// impulse of the release, st.Next (the Allied impulse being played), is
// recorded in st.ReleasedAt. It returns, for each group released, a Released event
// followed by an Arrived event for each unit placed.
//
// The engine calls it at the end of every Allied impulse, after its battles
// and stacking (7.2) and before the attrition phase that may follow (6.0
// VIII): the superiority is judged on the position at the end of the
// impulse.
func (st *State) ReleaseReserves(s *Scenario) []Event {
	var events []Event
	for _, g := range s.OOB.Groups {
		if contains(st.Released, g.ID) {
			continue
		}
		var units []*Unit
		for _, u := range s.Units {
			if u.Group == g.ID {
				units = append(units, u)
			}
		}
		if len(units) == 0 {
			continue // the group takes no part in the scenario
		}
		area, gsp, asp, ok := 0, 0, 0, false
		for _, n := range g.Release {
			if !s.Uses(AreaPlace(n)) {
				continue
			}
			gsp, asp = st.sideSP(s, n, German), st.sideSP(s, n, Allied)
			if gsp > asp { // 11.3: more SP than the enemy; 11.33: any one area
				area, ok = n, true
				break
			}
		}
		if !ok {
			continue
		}
		st.Released = append(st.Released, g.ID)
		if st.ReleasedAt == nil {
			st.ReleasedAt = map[string]Impulse{}
		}
		st.ReleasedAt[g.ID] = st.Next
		events = append(events, Released{Group: g.ID, Area: area, GermanSP: gsp, AlliedSP: asp})
		for _, u := range units {
			us := st.Unit(u.ID)
			if us == nil || us.Arrived || us.Eliminated || len(u.Zones) == 0 {
				continue
			}
			z := s.EntryZone(u)
			p := ZonePlace(z)
			us.Arrived, us.Place, us.TurnStart, us.InSupply = true, p, p, true
			events = append(events, Arrived{Unit: u.ID, Zone: z})
		}
	}
	return events
}

// sideSP sums the present strength of the side's units in an area.
func (st *State) sideSP(s *Scenario, area int, side Side) int {
	sp := 0
	for _, u := range st.UnitsAt(s, AreaPlace(area), side) {
		sp += u.Strength
	}
	return sp
}
