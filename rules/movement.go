package rules

import "strings"

// Movement (8.2, 8.3) and entrenchment (8.5): each MOVE, FOOT or ENTRENCH
// line is checked against the board the earlier lines left and, if legal,
// carried out at once.

// mpOf returns the MP a unit may spend this turn: 8 or 5 by type (8.31,
// 8.32), 5 when moving as infantry this turn (8.34) or dismounted since it
// crossed a blown bridge (8.35).
func (g *game) mpOf(u *UnitState, foot bool) int {
	v, _ := g.info(u.ID).Type.Values()
	if foot || u.Dismounted {
		return min(v.MP, 5)
	}
	return v.MP
}

// hasEnemy reports whether the place holds units of the enemy of side.
func (g *game) hasEnemy(p Place, side Side) bool {
	enemy := side.Enemy()
	for _, u := range g.st.Units {
		// The area first: one comparison rules out most units, and a move
		// asks it of every place of its path (8.22, 8.36, 8.37).
		if u.Place.Area == p.Area && u.Place == p && u.OnMap() && g.s.OOB.Unit(u.ID).Side == enemy {
			return true
		}
	}
	return false
}

// move checks a MOVE or FOOT line against the board the earlier lines left
// and, if legal, carries it out: validate (planMove), walk the path step by
// step with its MP and ELSE paths (walk), then apply it to the units
// (applyMove), undoing it if it leaves a unit out of supply (8.28).
func (g *game) move(line int, o Move) {
	p, ok := g.planMove(line, o)
	if !ok {
		return
	}
	w, ok := g.walk(p)
	if !ok {
		return
	}
	if g.overStacks(p, w) { // 7.1
		return
	}
	if w.spent == 0 && w.at == p.from {
		return // carried out, nothing was possible
	}
	saved := g.applyMove(p, w)
	// 8.28, 13.23: no move that leaves a unit out of supply, judged on the
	// board after the move; refused if so. A move cut short by a blown
	// bridge was not the player's choice and stands.
	if !w.forced {
		if u := g.unsuppliedBy(p, w); u != nil {
			g.undoMove(saved)
			g.refuse(line, o, "%s would be out of supply in %s: no unit may move so that it becomes out of supply (8.28)", u.ID, g.s.Map.PlaceMessage(w.at))
			return
		}
	}
	g.event(Moved{Units: o.Units, Path: w.walked, MP: w.spent, Foot: o.Foot, Steps: w.steps})
}

// A movePlan is a MOVE or FOOT line checked against the board before its
// first step: the units that move together (8.21), where they start, the
// places to enter and the MP they have.
type movePlan struct {
	line  int
	o     Move
	units []*UnitState
	from  Place   // where the walk starts: the units' place, or the zone they shift to (11.14)
	path  []Place // the places to enter, in order
	shift int     // MP spent to shift zone (11.14)
	mp    int     // the MP of the slowest unit (8.31, 8.32, 8.34, 8.35)
}

// planMove checks what can be checked before the first step: that every
// unit may move (mayMove), that they began the turn together (8.21), a
// reinforcement's change of zone (11.12, 11.14), and the one area of a unit
// out of supply (8.29, 13.23). It refuses the move if not.
func (g *game) planMove(line int, o Move) (*movePlan, bool) {
	p := &movePlan{line: line, o: o}
	if !g.stackOf(p) {
		return nil, false
	}
	first := p.units[0]
	p.from, p.path = first.Place, o.Path
	if len(p.path) > 0 && p.path[0] == p.from {
		p.path = p.path[1:]
	}
	// B7, 11.12, 11.14: a reinforcement in its zone may leave by another of
	// its zones in its arrival impulse, or by a shifted zone later.
	if p.from.IsZone() && len(p.path) > 0 && p.path[0].IsZone() && p.path[0] != p.from {
		mp, ok := g.entryShift(line, o, p.units, p.from, p.path[0])
		if !ok {
			return nil, false
		}
		p.shift, p.from, p.path = mp, p.path[0], p.path[1:]
	}
	if len(p.path) == 0 {
		g.refuse(line, o, "the path leads nowhere: after the start area, name the areas to move through")
		return nil, false
	}
	if !g.pathsAllowed(p) {
		return nil, false
	}
	p.mp = g.mpOf(first, o.Foot)
	for _, u := range p.units[1:] {
		p.mp = min(p.mp, g.mpOf(u, o.Foot))
	}
	// 13.15, 8.29, 13.23: supply is judged before the move; a unit out of
	// supply moves one area only.
	for _, u := range p.units {
		if g.judgeMove(u, g.info(u.ID)).oneArea && len(p.path) > 1 {
			g.refuse(line, o, "%s is out of supply and may move only one area (8.29, 13.23)", u.ID)
			return nil, false
		}
	}
	return p, true
}

// stackOf gives the plan its units, each one that may move, all of which
// began the turn together; else it refuses the order.
func (g *game) stackOf(p *movePlan) bool {
	o := p.o
	for _, id := range o.Units {
		u, why := g.mayMove(id, o.Foot)
		if why.Key != "" {
			g.refuseWith(p.line, o, why)
			return false
		}
		p.units = append(p.units, u)
	}
	// 8.21: only units that began the turn in the same place move as one
	// stack.
	first := p.units[0]
	for _, u := range p.units[1:] {
		if u.Place != first.Place || u.TurnStart != first.TurnStart {
			g.refuse(p.line, o, "%s and %s did not begin the turn together in one area, so they cannot move as a stack (8.21)", first.ID, u.ID)
			return false
		}
	}
	return true
}

// pathsAllowed checks where the move's path and its ELSE paths may go;
// else it refuses the order.
func (g *game) pathsAllowed(p *movePlan) bool {
	o := p.o
	// 3.21, 8.26, 11.13, 12.25: a move may end in a zone but never goes on
	// from one it entered, by its path or an ELSE path (which starts where
	// the stack stands). Leaving the zone it starts in, or shifting zone
	// first (11.14), is no passing through.
	paths := [][]Place{p.path}
	for _, e := range o.Else {
		if len(e) > 1 {
			paths = append(paths, e[1:])
		}
	}
	if why := g.throughZone(paths); why.Key != "" {
		g.refuseWith(p.line, o, why)
		return false
	}
	// The 5th Panzer scenario: a unit outside its map passes through areas
	// outside it only on its way in ("上記のマップ範囲外へユニットを移動させる
	// ことはできません"): its move, and each ELSE path, ends inside.
	if g.s.RemoveUnsuppliedOutsiders && !g.s.Uses(p.from) {
		for _, path := range append([][]Place{p.path}, o.Else...) {
			if len(path) > 0 && !g.s.Uses(path[len(path)-1]) {
				g.refuse(p.line, o, "%s is outside the map of %s: a unit outside it may pass through areas outside it only on its way in", g.s.Map.PlaceMessage(path[len(path)-1]), g.s.TitleMessage())
				return false
			}
		}
	}
	return true
}

// throughZone returns why one of the paths (the places to enter, in order)
// passes through a zone, or nothing: only the last place of a path may be
// one.
func (g *game) throughZone(paths [][]Place) Message {
	for _, path := range paths {
		for _, pl := range path[:len(path)-1] {
			if !pl.IsZone() {
				continue
			}
			if enemyVPZone(g.s.Map, pl, g.side()) {
				return M("the path passes through zone %s, an Allied VP zone: a German unit that enters one never returns to the map (12.25)", pl.Zone)
			}
			return M("the path passes through zone %s: a zone ends a move and is never passed through (3.21, 8.26, 11.13)", pl.Zone)
		}
	}
	return Message{}
}

// enemyVPZone reports whether the place is a VP zone of the enemy of side:
// a German unit that enters an Allied one never returns to the map (12.25).
func enemyVPZone(m *Map, p Place, side Side) bool {
	if !p.IsZone() {
		return false
	}
	z := m.Zone(p.Zone)
	return z != nil && z.Side != side && z.VPMultiplier > 0
}

// mayMove returns the unit if it may move in this impulse, or why not:
// the unit's own state is judged by judgeMove, as UNITS shows it; FOOT
// adds 8.34.
func (g *game) mayMove(id string, foot bool) (*UnitState, Message) {
	side := g.side()
	u, info := g.st.Unit(id), g.info(id)
	switch {
	case u == nil || info == nil:
		return nil, M("%s does not take part in this scenario", id)
	case info.Side != side:
		return nil, M("%s is not yours to move: this is the %s impulse", id, side)
	}
	if v := g.judgeMove(u, info); !v.May {
		return nil, v.Refusal
	}
	if foot && info.Type == Armor {
		return nil, M("%s is armour, which cannot move as infantry (8.34)", id)
	}
	return u, Message{}
}

// stayedRefusal says, for a unit that stayed without attacking in an area
// where its side fought a battle earlier this turn, that it may not act
// (move again, or attack) this turn, and why (9.14, B5).
func (g *game) stayedRefusal(u *UnitState, move bool) Message {
	if move {
		return M("%s stayed without attacking in %s, where a battle was fought, earlier this turn: it counts as moved and may not move again this turn (9.14, B5)", u.ID, g.s.Map.PlaceMessage(u.Place))
	}
	return M("%s stayed without attacking in %s, where a battle was fought, earlier this turn: it counts as moved and may not attack this turn (9.14, B5)", u.ID, g.s.Map.PlaceMessage(u.Place))
}

// A walk is how far a move got along its path.
type walk struct {
	at        Place   // where the units are now
	walked    []Place // the places passed, the start first
	spent     int     // MP spent, the zone shift included
	steps     []Step  // each step and what it cost, the zone shift first
	exited    bool    // entered an Allied VP zone (12.25)
	crossed   bool    // the last step crossed a river (9.71)
	overBlown bool    // crossed a blown bridge (8.35)
	// forced: the move ended early: a bridge blown under it (8.42), or, when
	// carried out, a step no longer possible.
	forced bool
}

// walk takes the plan's steps one by one, paying each (8.33-8.38): a
// bridge the enemy blows under the stack costs 1 MP and sends it on by its
// ELSE path from the near side, or stops it there (8.42, B2); a unit
// entering an area held by the enemy stops there (8.22). It refuses a step
// it cannot take: while the orders are checked the move is then refused
// (ok false); when they are carried out the move stops where it stands.
func (g *game) walk(p *movePlan) (w walk, ok bool) {
	side := g.side()
	w = walk{at: p.from, walked: []Place{p.from}, spent: p.shift}
	if p.shift > 0 {
		w.steps = append(w.steps, Step{From: p.units[0].Place, To: p.from, Shift: p.shift, MP: p.shift})
	}
	steps := p.path
	for i := 0; i < len(steps); i++ {
		to := steps[i]
		// 12.25: a unit that entered an Allied VP zone, in an earlier order
		// or by the step before, never returns to the map.
		if w.at.IsZone() {
			if id := exitedUnit(p.units, w.exited); id != "" {
				g.refuse(p.line, p.o, "%s entered an Allied VP zone and may never return to the map (12.25)", id)
				w.forced = true
				return w, g.exec
			}
		}
		st, blown, ok := g.stepCost(p.line, p.o, p.units, w.at, to)
		cost := st.MP
		if !ok {
			w.forced = true
			return w, g.exec
		}
		if blown {
			// 8.42, B2: the bridge was blown as the stack crossed: it pays
			// 1 MP (8.36), then goes on by its ELSE path from the near side,
			// or stops there.
			w.spent++
			st.BlownUnder, st.MP = true, 1
			w.steps = append(w.steps, st)
			w.forced = true
			alt := elsePath(p.o, w.at)
			if alt == nil {
				return w, true
			}
			steps, i = alt, -1
			continue
		}
		if w.spent+cost > p.mp {
			units := strings.Join(p.o.Units, " ")
			if len(p.o.Units) == 1 {
				g.refuse(p.line, p.o, "entering %s needs %d MP, but %s has only %d left (8.38)", g.s.Map.PlaceMessage(to), cost, units, p.mp-w.spent)
			} else {
				g.refuse(p.line, p.o, "entering %s needs %d MP, but %s have only %d left (8.38)", g.s.Map.PlaceMessage(to), cost, units, p.mp-w.spent)
			}
			w.forced = true
			return w, g.exec
		}
		if l := g.link(w.at, to); l != nil && g.bridgeBlown(l.Road) {
			w.overBlown = true // 8.35
		}
		w.step(g.s.Map, side, to, cost)
		w.steps = append(w.steps, st)
		// 8.22: a unit entering an area with enemy units stops there.
		if !to.IsZone() && g.hasEnemy(to, side) {
			if i < len(steps)-1 {
				g.refuse(p.line, p.o, "%s holds enemy units: a unit entering it stops there (8.22)", g.s.Map.PlaceMessage(to))
				w.forced = true
				return w, g.exec
			}
			return w, true
		}
	}
	return w, true
}

// step records a step into to that cost cost MP.
func (w *walk) step(m *Map, side Side, to Place, cost int) {
	w.spent += cost
	if enemyVPZone(m, to, side) {
		w.exited = true // 12.25: from this step on
	}
	w.crossed = stepRiver(m, w.at, to) // 9.71
	w.at = to
	w.walked = append(w.walked, to)
}

// exitedUnit returns a unit that entered an Allied VP zone (12.25): the
// first of the units if the walk just did, else one marked so by an earlier
// move, or "".
func exitedUnit(units []*UnitState, walked bool) string {
	if walked {
		return units[0].ID
	}
	for _, u := range units {
		if u.Exited {
			return u.ID
		}
	}
	return ""
}

// elsePath returns the rest of the move's ELSE path that starts where the
// stack stands, or nil (8.42, B2).
func elsePath(o Move, at Place) []Place {
	for _, e := range o.Else {
		if len(e) > 1 && e[0] == at {
			return e[1:]
		}
	}
	return nil
}

// applyMove puts the units where the walk ended and records the move, and
// returns what the units and the impulse's records of them were before,
// for undoMove.
func (g *game) applyMove(p *movePlan, w walk) []unitSave {
	enemyThere := !w.at.IsZone() && g.hasEnemy(w.at, g.side())
	saved := make([]unitSave, 0, len(p.units))
	for _, u := range p.units {
		saved = append(saved, g.saveUnit(u))
		u.Place = w.at
		u.Moved = true
		if w.at != p.from {
			u.Entrenched = false // 8.58: a unit leaving its entrenchment loses it
		}
		if p.o.Foot {
			g.foot[u.ID] = true // 8.34: 5 MP for the rest of the turn
		}
		// 8.35: a mech, mot or engineer unit that crossed a blown bridge
		// (on foot, or already dismounted) stays at 5 MP until it traces
		// supply without one (JudgeSupply); moving as infantry without
		// crossing one is for the turn only (8.34).
		if w.overBlown && g.info(u.ID).Type != Infantry {
			u.Dismounted = true
		}
		if w.exited {
			u.Exited = true // 12.25
		}
		g.mpUsed[u.ID] = max(w.spent, 1)
		if len(w.walked) > 1 {
			g.crossed[u.ID] = w.crossed // 9.71
		}
		if enemyThere {
			g.entered[u.ID] = true // 9.12: it must attack
		}
	}
	return saved
}

// unsuppliedBy returns a unit the move leaves out of supply, judged on the
// board after it (8.28, 13.23 1: "ユニットは自ら補給切れとなるような移動は行え
// ません"), or nil. A unit already out of supply is judged too: the
// rulebook's supply example forbids the armour in Nives, cut off, its move
// to Moircy, "because it could not trace a supply line to its destination"
// (移動先エリアへ補給線を引くことができないからです). A move into a zone is not
// judged.
func (g *game) unsuppliedBy(p *movePlan, w walk) *UnitState {
	if w.at.IsZone() {
		return nil
	}
	for _, u := range p.units {
		if !g.st.supplyJudge(g.s, u, true, &g.supply) { // Supplied, with the Play's searches kept
			return u
		}
	}
	return nil
}

// unitSave is a unit as it was before a move, with what the impulse had
// recorded of it, so that an undone move leaves it exactly as before.
type unitSave struct {
	u   *UnitState
	was UnitState // the whole unit: place, Moved, Entrenched, Dismounted, Exited ...

	// The impulse's records of the unit, each with whether it had one.
	mpUsed                                 int
	entered, crossed, foot                 bool
	hadMP, hadEntered, hadCrossed, hadFoot bool
}

// saveUnit saves a unit before a move.
func (g *game) saveUnit(u *UnitState) unitSave {
	s := unitSave{u: u, was: *u}
	s.mpUsed, s.hadMP = g.mpUsed[u.ID]
	s.entered, s.hadEntered = g.entered[u.ID]
	s.crossed, s.hadCrossed = g.crossed[u.ID]
	s.foot, s.hadFoot = g.foot[u.ID]
	return s
}

// undoMove puts the units and the impulse's records of them back as they
// were before the move.
func (g *game) undoMove(saved []unitSave) {
	for _, s := range saved {
		*s.u = s.was
		restore(g.mpUsed, s.u.ID, s.mpUsed, s.hadMP)
		restore(g.entered, s.u.ID, s.entered, s.hadEntered)
		restore(g.crossed, s.u.ID, s.crossed, s.hadCrossed)
		restore(g.foot, s.u.ID, s.foot, s.hadFoot)
	}
}

// restore puts back a map entry saved with its presence.
func restore[V any](m map[string]V, k string, v V, had bool) {
	if had {
		m[k] = v
	} else {
		delete(m, k)
	}
}

// stepCost returns the step from one place to the next with its MP (8.33,
// 8.34, 8.36, 8.37, 8.26), or refuses the move. blown reports that the
// enemy blew the bridge as the stack crossed (10.2): the step is not taken.
func (g *game) stepCost(line int, o Move, units []*UnitState, from, to Place) (st Step, blown, ok bool) {
	link := g.link(from, to)
	if why := g.stepForbidden(link, from, to); why.Key != "" {
		g.refuseWith(line, o, why)
		return st, false, false
	}
	st = Step{From: from, To: to, Road: link.Class()}
	st.MP = link.Class().Cost() // 8.33; 8.26, 11.13: a zone costs the primary road only
	if r := link.Road; r != nil && r.Bridge {
		st.Bridge = r.ID()
		if g.bridgeBlown(r) {
			// 8.34, 8.35: only units moving as infantry cross a blown
			// bridge, for 3 MP flat.
			if why := g.blownBridgeBars(units, o.Foot, r); why.Key != "" {
				g.refuseWith(line, o, why)
				return st, false, false
			}
			st.MP, st.Blown = 3, true
		} else if g.rehearsal != nil {
			g.rehearsal.mayDemolish(g, line, units, r, from, to)
		} else if g.exec && g.demolish(r, g.side()) {
			return st, true, g.err == nil
		}
	}
	st.Occupied, st.LeavesEnemy, st.Delay = g.extraCosts(from, to)
	st.MP += st.extra()
	return st, false, true
}

// bridgeBlown reports whether road r crosses a river by a blown bridge.
func (g *game) bridgeBlown(r *Road) bool {
	if r == nil || !r.Bridge {
		return false
	}
	b := g.st.Bridge(r.A, r.B)
	return b != nil && b.Blown
}

// link returns the link from one place to the next, or nil if no road
// joins them.
func (g *game) link(from, to Place) *Link {
	var link *Link
	for _, l := range g.s.Map.Links(from) {
		if l.To == to {
			l := l
			link = &l
		}
	}
	return link
}

// stepForbidden returns why units of the side to move may not step from
// one place to the next along link (nil: no road), whatever their MP, or
// nothing.
func (g *game) stepForbidden(link *Link, from, to Place) Message {
	side := g.side()
	name := g.s.Map.PlaceMessage
	switch {
	case link == nil:
		return M("no road joins %s and %s (3.22)", name(from), name(to))
	case g.leavesMap(from, to):
		return M("%s is outside the map of %s", name(to), g.s.TitleMessage())
	case to.IsZone() && g.s.Map.Zone(to.Zone).ClosedTo == side:
		return M("zone %s is closed to %s units (11.22, 11.23)", to.Zone, side)
	// 11.21 forbids Allied reinforcements to enter from a zone held by
	// Germans; moving into one is refused alike.
	case to.IsZone() && side == Allied && g.hasEnemy(to, side):
		return M("zone %s holds German units (11.21)", to.Zone)
	case from.IsZone() && !to.IsZone() && side == Allied && g.hasEnemy(from, side):
		return M("zone %s holds German units: Allied reinforcements cannot enter from it (11.21)", from.Zone)
	// 8.27: never straight from one enemy-held area to another.
	case !from.IsZone() && !to.IsZone() && g.hasEnemy(from, side) && g.hasEnemy(to, side):
		return M("%s and %s both hold enemy units: no unit moves directly from one to the other (8.27)", name(from), name(to))
	}
	return Message{}
}

// leavesMap reports whether a step (or a reinforcement's change of zone,
// 11.14) from one place to the next goes off the scenario's map where no
// unit may. In the partial-map scenarios no unit moves off the map. In the
// 5th Panzer scenario a unit that set up or arrived outside it may pass
// through places outside it on its way in (it is removed at the end of the
// turn unless inside and in supply), but once inside, no unit steps out.
func (g *game) leavesMap(from, to Place) bool {
	return !g.s.Uses(to) && (g.s.Uses(from) || !g.s.RemoveUnsuppliedOutsiders)
}

// blownBridgeBars returns why one of the units cannot cross the blown
// bridge of road r, or nothing: only units moving as infantry cross,
// armour never (8.34, 8.35).
func (g *game) blownBridgeBars(units []*UnitState, foot bool, r *Road) Message {
	for _, u := range units {
		t := g.info(u.ID).Type
		if t == Armor {
			return M("bridge %s is blown: armour cannot cross it (8.34)", r.ID())
		}
		if !foot && t != Infantry && !u.Dismounted {
			return M("bridge %s is blown: %s crosses it only moving as infantry, with FOOT (8.34, 8.35)", r.ID(), u.ID)
		}
	}
	return Message{}
}

// extraCosts returns what a step costs on top of its road: +1 entering an
// area holding units (8.37), +1 leaving one holding enemy units (8.36), and
// the MP special forces with DELAY add (14.22).
func (g *game) extraCosts(from, to Place) (occupied, leavesEnemy bool, delay int) {
	side := g.side()
	// 8.37: entering an area holding other units, friend or foe.
	occupied = !to.IsZone() && len(g.st.UnitsAt(g.s, to, "")) > 0
	// 8.36: leaving an area holding enemy units.
	leavesEnemy = !from.IsZone() && g.hasEnemy(from, side)
	// 14.22: special forces with DELAY cost Allied units 1 MP more to
	// enter their area and 1 more to leave it.
	if sf := g.st.SF; sf != nil && sf.Effect == SFDelay && side == Allied {
		if to == AreaPlace(sf.Area) {
			delay++
		}
		if from == AreaPlace(sf.Area) {
			delay++
		}
	}
	return occupied, leavesEnemy, delay
}

// A Step is one step of a move and what it cost (8.33-8.38), for the
// report and a CHECK to show the MP step by step.
type Step struct {
	From, To Place
	Road     RoadClass // the road taken (8.33; a zone is entered by a primary road, 11.13)
	Bridge   string    // the bridge crossed, as 3-4, if any
	Blown    bool      // the bridge is blown, crossed on foot for 3 MP (8.34, 8.35)
	// BlownUnder: the enemy blew the bridge as the stack crossed: it pays
	// 1 MP on the near side, and goes on by its ELSE path or stops there
	// (8.36, 8.42, B2).
	BlownUnder  bool
	Occupied    bool // +1: the area entered holds units (8.37)
	LeavesEnemy bool // +1: the area left holds enemy units (8.36)
	Delay       int  // special forces with DELAY (14.22)
	Shift       int  // a reinforcement's change of zone before it enters (11.14)
	MP          int  // the step's MP in all
}

// extra is the MP the step costs on top of its road.
func (s Step) extra() int {
	n := s.Delay
	if s.Occupied {
		n++
	}
	if s.LeavesEnemy {
		n++
	}
	return n
}

// Cost writes how the step's MP add up: "2 secondary +1 entering an
// occupied area (8.37) = 3".
func (s Step) Cost() string { return s.CostText().String() }

// CostText is Cost as a message, for the reader's language.
func (s Step) CostText() Message {
	var parts []Message
	switch {
	case s.Shift > 0:
		return M("%d, change of zone (11.14)", s.Shift)
	case s.BlownUnder:
		return M("1, bridge %s blown as the stack crossed: it stays on the near side (8.36, 8.42)", s.Bridge)
	case s.Blown:
		parts = append(parts, M("3 over blown bridge %s on foot (8.34)", s.Bridge))
	default:
		road := s.Road.costText()
		if s.Bridge != "" {
			road = M("%s over bridge %s", road, s.Bridge)
		}
		parts = append(parts, road)
	}
	if s.Occupied {
		parts = append(parts, M("+1 entering an occupied area (8.37)"))
	}
	if s.LeavesEnemy {
		parts = append(parts, M("+1 leaving an enemy-held area (8.36)"))
	}
	if s.Delay > 0 {
		parts = append(parts, M("+%d special forces DELAY (14.22)", s.Delay))
	}
	if len(parts) == 1 && !s.Blown {
		return parts[0]
	}
	return M("%s = %d", Spaced(parts), s.MP)
}

// costText writes what a road costs: "1 primary", "2 secondary" (8.33).
func (c RoadClass) costText() Message {
	switch c {
	case Primary:
		return M("%d primary", c.Cost())
	case Secondary:
		return M("%d secondary", c.Cost())
	}
	return M("%d %s", c.Cost(), string(c))
}

// entrench carries out ENTRENCH (8.5, 5.23): the unit's own state is
// judged by judgeEntrench, as UNITS shows it; what it spent this impulse
// here (8.52, 8.53).
func (g *game) entrench(line int, o Entrench) {
	for _, id := range o.Units {
		u, info := g.st.Unit(id), g.info(id)
		switch {
		case u == nil || info == nil:
			g.refuse(line, o, "%s is not in an area of the map", id)
			continue
		case info.Side != g.side():
			g.refuse(line, o, "%s is not yours", id)
			continue
		}
		if v := g.judgeEntrench(u, info); !v.May {
			g.refuseWith(line, o, v.Refusal)
			continue
		}
		used, mp := g.mpUsed[id], g.mpOf(u, g.foot[id]) // 8.34: on foot, 5 MP
		if info.Type == Engineer {
			// 8.52: an engineer entrenches for 4 MP, after moving up to 4.
			if used > mp-4 {
				g.refuse(line, o, "%s has spent %d MP: an engineer entrenches for 4 MP, after at most %d MP of movement (8.52)", id, used, mp-4)
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
		g.mpUsed[id] = mp
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
	// Steps are the steps with what each cost; the log keeps the text
	// alone, so the report of a replayed impulse has them from the replay.
	Steps []Step
}

// Entrenched: a unit entrenched (8.5).
type Entrenched struct{ Unit string }

// String writes the event as the report prints it.
func (e Moved) String() string { return e.Text().String() }

// Text is the event as a message.
func (e Moved) Text() Message {
	var p []string
	for _, pl := range e.Path {
		p = append(p, pl.String())
	}
	units, path := strings.Join(e.Units, " "), strings.Join(p, "-")
	if e.Foot {
		return M("%s moves on foot %s (%d MP)", units, path, e.MP)
	}
	return M("%s moves %s (%d MP)", units, path, e.MP)
}

// String writes the event as the report prints it.
func (e Entrenched) String() string { return e.Text().String() }

// Text is the event as a message.
func (e Entrenched) Text() Message { return M("%s entrenches", e.Unit) }
