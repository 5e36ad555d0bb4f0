package rules

import (
	"fmt"
	"strings"
)

// Movement (8.2, 8.3): each MOVE or FOOT line is checked against the board
// the earlier lines left and, if legal, carried out at once.

// mpOf returns the MP a unit may spend this turn: 8 or 5 by type (8.31,
// 8.32), 5 when moving as infantry (8.34) or dismounted (8.35).
func (g *game) mpOf(u *UnitState, foot bool) int {
	v, _ := g.info(u.ID).Type.Values()
	if foot || u.Dismounted {
		return min(v.MP, 5)
	}
	return v.MP
}

// hasEnemy reports whether the place holds units of the enemy of side.
func (g *game) hasEnemy(p Place, side Side) bool {
	return len(g.st.UnitsAt(g.s, p, side.Enemy())) > 0
}

func (g *game) move(line int, o Move) {
	side := g.side()
	var units []*UnitState
	for _, id := range o.Units {
		u, info := g.st.Unit(id), g.info(id)
		switch {
		case u == nil || info == nil:
			g.refuse(line, o, "%s does not take part in this scenario", id)
			return
		case info.Side != side:
			g.refuse(line, o, "%s is not yours to move: this is the %s impulse", id, side.Title())
			return
		case u.Eliminated:
			g.refuse(line, o, "%s has been eliminated", id)
			return
		case !u.Arrived:
			g.refuse(line, o, "%s has not arrived yet: it arrives %s in zone %s (11.11)", id, info.Arrival, strings.Join(info.Zones, "/"))
			return
		case u.Bridging:
			g.refuse(line, o, "%s tried to repair a bridge this turn and may not move (10.14)", id)
			return
		case u.Moved:
			g.refuse(line, o, "%s already moved in an earlier impulse this turn (8.25)", id)
			return
		case u.Attacked:
			g.refuse(line, o, "%s attacked this turn and may not move (9.16)", id)
			return
		case g.mpUsed[id] > 0:
			g.refuse(line, o, "%s already moved in this impulse (8.25)", id)
			return
		}
		// 5.24: red-triangle German units do not move before 16-2; 5.23: on
		// 16-1 only green-triangle Allied units move.
		if g.imp.Day == FirstDay && g.imp.N == 1 {
			if side == German && info.Triangle {
				g.refuse(line, o, "%s has a red triangle: it may not move before 16-2 (5.24)", id)
				return
			}
			if side == Allied && !info.Triangle {
				g.refuse(line, o, "%s has no green triangle: on 16-1 only green-triangle units move (5.23)", id)
				return
			}
		}
		if o.Foot && info.Type == Armor {
			g.refuse(line, o, "%s is armour, which cannot move as infantry (8.34)", id)
			return
		}
		units = append(units, u)
	}
	// 8.21: only units that began the turn in the same place move as one
	// stack.
	from := units[0].Place
	for _, u := range units[1:] {
		if u.Place != from || u.TurnStart != units[0].TurnStart {
			g.refuse(line, o, "%s and %s did not begin the turn together in one area, so they cannot move as a stack (8.21)", units[0].ID, u.ID)
			return
		}
	}
	path := o.Path
	if len(path) > 0 && path[0] == from {
		path = path[1:]
	}
	// B7, 11.12, 11.14: a reinforcement in its zone may leave by another of
	// its zones in its arrival impulse, or by a shifted zone later.
	shiftMP := 0
	if from.IsZone() && len(path) > 0 && path[0].IsZone() && path[0] != from {
		mp, ok := g.entryShift(line, o, units, path[0])
		if !ok {
			return
		}
		shiftMP, from, path = mp, path[0], path[1:]
	}
	if len(path) == 0 {
		g.refuse(line, o, "the path leads nowhere: after the start area, name the areas to move through")
		return
	}
	mp := g.mpOf(units[0], o.Foot)
	for _, u := range units[1:] {
		mp = min(mp, g.mpOf(u, o.Foot))
	}
	// 13.15, 8.29, 13.23: supply is judged before the move; a unit out of
	// supply moves one area only.
	for _, u := range units {
		if !u.InSupply && len(path) > 1 {
			g.refuse(line, o, "%s is out of supply and may move only one area (8.29, 13.23)", u.ID)
			return
		}
	}
	spent := shiftMP
	at := from
	exited := false
	walked := []Place{from}
	forced := false // the move ended early: a bridge blown under it (8.42), or, when carried out, a step no longer possible
	steps := path
	for i := 0; i < len(steps); i++ {
		to := steps[i]
		cost, blown, ok := g.stepCost(line, o, units, at, to)
		if !ok {
			if g.exec {
				forced = true
				break
			}
			return
		}
		if blown {
			// 8.42, B2: the bridge was blown as the stack crossed: it pays
			// 1 MP (8.36), then goes on by its ELSE path from the near side,
			// or stops there.
			spent++
			forced = true
			var alt []Place
			for _, e := range o.Else {
				if len(e) > 1 && e[0] == at {
					alt = e[1:]
					break
				}
			}
			if alt == nil {
				break
			}
			steps, i = alt, -1
			continue
		}
		spent += cost
		if spent > mp {
			g.refuse(line, o, "entering %s needs %d MP, but %s %s only %d left (8.38)",
				g.s.Map.PlaceName(to), cost, strings.Join(o.Units, " "), hasHave(len(o.Units)), mp-(spent-cost))
			if g.exec {
				spent -= cost
				forced = true
				break
			}
			return
		}
		if to.IsZone() {
			if z := g.s.Map.Zone(to.Zone); z != nil && z.Side != side && z.VPMultiplier > 0 {
				exited = true // 12.25
			}
		}
		at = to
		walked = append(walked, to)
		for _, u := range units {
			g.crossed[u.ID] = stepRiver(g.s.Map, walked[len(walked)-2], to) // 9.71
		}
		// 8.22: a unit entering an area with enemy units stops there.
		if !to.IsZone() && g.hasEnemy(to, side) {
			if i < len(steps)-1 {
				g.refuse(line, o, "%s holds enemy units: a unit entering it stops there (8.22)", g.s.Map.PlaceName(to))
				if !g.exec {
					return
				}
				forced = true
			}
			break
		}
	}
	// 7.1: on 16 December the Germans may make no move that creates a stack
	// over the limit.
	if side == German && g.imp.Day == FirstDay && !at.IsZone() && at != from {
		stack := append(g.st.UnitsAt(g.s, at, German), units...)
		if overLimit(stack) {
			g.refuse(line, o, "the move would make a German stack over 4 units or 10 SP in %s, which 7.1 forbids on 16 December", g.s.Map.PlaceName(at))
			return
		}
	}
	if spent == 0 && at == from {
		return // carried out, nothing was possible
	}
	enemyThere := !at.IsZone() && g.hasEnemy(at, side)
	for _, u := range units {
		u.Place = at
		u.Moved = true
		if at != from {
			u.Entrenched = false // 8.58: a unit leaving its entrenchment loses it
		}
		if o.Foot && g.info(u.ID).Type != Infantry {
			u.Dismounted = true // 8.35
		}
		if exited {
			u.Exited = true
		}
		g.mpUsed[u.ID] = max(spent, 1)
		if enemyThere {
			g.entered[u.ID] = true // 9.12: it must attack
		}
	}
	// 8.28, 13.23: no move that leaves a unit out of supply, judged on the
	// board after the move; refused if so. A move cut short by a blown
	// bridge was not the player's choice and stands.
	if !forced {
		for _, u := range units {
			if u.InSupply && !at.IsZone() && !g.st.Supplied(g.s, u) {
				for _, v := range units {
					v.Place, v.Moved = from, false
					delete(g.mpUsed, v.ID)
					delete(g.entered, v.ID)
				}
				g.refuse(line, o, "%s would be out of supply in %s: no unit may move so that it becomes out of supply (8.28)", u.ID, g.s.Map.PlaceName(at))
				return
			}
		}
	}
	g.event(Moved{Units: o.Units, Path: walked, MP: spent, Foot: o.Foot})
}

func hasHave(n int) string {
	if n == 1 {
		return "has"
	}
	return "have"
}

// stepCost returns the MP to go from one place to the next (8.33, 8.34,
// 8.36, 8.37, 8.26), or refuses the move. blown reports that the enemy blew
// the bridge as the stack crossed (10.2): the step is not taken.
func (g *game) stepCost(line int, o Move, units []*UnitState, from, to Place) (cost int, blown, ok bool) {
	side := g.side()
	var link *Link
	for _, l := range g.s.Map.Links(from) {
		if l.To == to {
			l := l
			link = &l
		}
	}
	if link == nil {
		g.refuse(line, o, "no road joins %s and %s (3.22)", g.s.Map.PlaceName(from), g.s.Map.PlaceName(to))
		return 0, false, false
	}
	// The partial-map scenarios: no unit moves off the scenario's map. In
	// the 5th Panzer scenario units that set up or arrive outside it may
	// move towards it (they are removed at the end of the turn unless
	// inside and in supply), but nobody leaves it.
	if !g.s.Uses(to) && (g.s.Uses(from) || !g.s.RemoveUnsuppliedOutsiders) {
		g.refuse(line, o, "%s is outside the map of %s", g.s.Map.PlaceName(to), g.s.Title)
		return 0, false, false
	}
	if to.IsZone() {
		if z := g.s.Map.Zone(to.Zone); z.ClosedTo == side {
			g.refuse(line, o, "zone %s is closed to %s units (11.22, 11.23)", to.Zone, side.Title())
			return 0, false, false
		}
		if side == Allied && g.hasEnemy(to, side) {
			// 11.21 forbids Allied reinforcements to enter from a zone
			// held by Germans; moving into one is refused alike.
			g.refuse(line, o, "zone %s holds German units (11.21)", to.Zone)
			return 0, false, false
		}
	}
	if from.IsZone() && !to.IsZone() && side == Allied && g.hasEnemy(from, side) {
		g.refuse(line, o, "zone %s holds German units: Allied reinforcements cannot enter from it (11.21)", from.Zone)
		return 0, false, false
	}
	if from.IsZone() && !to.IsZone() {
		if u := units[0]; u.Exited {
			g.refuse(line, o, "%s entered an Allied VP zone and may never return to the map (12.25)", u.ID)
			return 0, false, false
		}
	}
	// 8.27: never straight from one enemy-held area to another.
	if !from.IsZone() && !to.IsZone() && g.hasEnemy(from, side) && g.hasEnemy(to, side) {
		g.refuse(line, o, "%s and %s both hold enemy units: no unit moves directly from one to the other (8.27)", g.s.Map.PlaceName(from), g.s.Map.PlaceName(to))
		return 0, false, false
	}
	cost = link.Class().Cost() // 8.33; 8.26, 11.13: a zone costs the primary road only
	if r := link.Road; r != nil && r.Bridge {
		if b := g.st.Bridge(r.A, r.B); b != nil && b.Blown {
			// 8.34, 8.35: only units moving as infantry cross a blown
			// bridge, for 3 MP flat.
			for _, u := range units {
				t := g.info(u.ID).Type
				if t == Armor {
					g.refuse(line, o, "bridge %s is blown: armour cannot cross it (8.34)", r.ID())
					return 0, false, false
				}
				if !o.Foot && t != Infantry && !u.Dismounted {
					g.refuse(line, o, "bridge %s is blown: %s crosses it only moving as infantry, with FOOT (8.34, 8.35)", r.ID(), u.ID)
					return 0, false, false
				}
			}
			cost = 3
		} else if g.exec && g.demolish(r, side) {
			return 0, true, g.err == nil
		}
	}
	if !to.IsZone() && len(g.st.UnitsAt(g.s, to, "")) > 0 {
		cost++ // 8.37: entering an area holding other units, friend or foe
	}
	if !from.IsZone() && g.hasEnemy(from, side) {
		cost++ // 8.36: leaving an area holding enemy units
	}
	// 14.22: special forces with DELAY cost Allied units 1 MP more to
	// enter their area and 1 more to leave it.
	if sf := g.st.SF; sf != nil && sf.Effect == SFDelay && side == Allied {
		if to == AreaPlace(sf.Area) {
			cost++
		}
		if from == AreaPlace(sf.Area) {
			cost++
		}
	}
	return cost, false, true
}

// entrench carries out ENTRENCH (8.5, 5.23).
func (g *game) entrench(line int, o Entrench) {
	for _, id := range o.Units {
		u, info := g.st.Unit(id), g.info(id)
		switch {
		case u == nil || info == nil || !u.OnMap() || u.Place.IsZone():
			g.refuse(line, o, "%s is not in an area of the map", id)
			continue
		case info.Side != g.side():
			g.refuse(line, o, "%s is not yours", id)
			continue
		case info.Type == Armor:
			g.refuse(line, o, "%s is armour, which never entrenches (8.54)", id)
			continue
		case g.hasEnemy(u.Place, info.Side):
			g.refuse(line, o, "%s shares its area with enemy units: no entrenching there (8.55)", id)
			continue
		case u.Entrenched:
			g.refuse(line, o, "%s is already entrenched", id)
			continue
		case u.Moved && g.mpUsed[id] == 0:
			g.refuse(line, o, "%s moved in an earlier impulse this turn (8.25)", id)
			continue
		}
		used := g.mpUsed[id]
		if info.Type == Engineer {
			// 8.52: an engineer entrenches for 4 MP, after moving up to 4.
			if used > g.mpOf(u, false)-4 {
				g.refuse(line, o, "%s has spent %d MP: an engineer entrenches for 4 MP, after at most %d MP of movement (8.52)", id, used, g.mpOf(u, false)-4)
				continue
			}
		} else if used > 0 {
			// 8.53: other infantry-type units spend all their MP (13.23:
			// out of supply, they still may, without moving).
			g.refuse(line, o, "%s moved this impulse: it entrenches only with all its MP (8.53)", id)
			continue
		}
		// 5.23: on 16-1 every Allied unit may entrench, triangle or not.
		u.Entrenched = true
		u.Moved = true
		g.mpUsed[id] = g.mpOf(u, false)
		g.event(Entrenched{id})
	}
}

// stepRiver reports whether the road from one place to the next crosses a
// river, bridge intact or not (9.71).
func stepRiver(m *Map, from, to Place) bool {
	for _, l := range m.Links(from) {
		if l.To == to {
			return l.Road != nil && l.Road.Bridge
		}
	}
	return false
}

// Moved: units moved along a path, spending MP (8.2, 8.3).
type Moved struct {
	Units []string
	Path  []Place
	MP    int
	Foot  bool
}

// Entrenched: a unit entrenched (8.5).
type Entrenched struct{ Unit string }

func (e Moved) String() string {
	how := "moves"
	if e.Foot {
		how = "moves on foot"
	}
	var p []string
	for _, pl := range e.Path {
		p = append(p, pl.String())
	}
	return fmt.Sprintf("%s %s %s (%d MP)", strings.Join(e.Units, " "), how, strings.Join(p, "-"), e.MP)
}

func (e Entrenched) String() string { return e.Unit + " entrenches" }
