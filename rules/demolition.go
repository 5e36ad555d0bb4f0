package rules

import "fmt"

// Bridges (10.0): the non-phasing side may try to blow a bridge as an enemy
// stack crosses it (10.2, demolish, called from the movement of the phasing
// side), and engineers try to repair blown bridges at the end of their
// impulse, after the battles (10.1, 6.0 II.4).

// repairProblem returns why the engineer may not try to repair the bridge
// now, or nothing.
func (g *game) repairProblem(r Repair, seen map[string]bool) Message {
	if m := g.repairOrderProblem(r, seen); m.Key != "" {
		return m
	}
	u, info := g.st.Unit(r.Unit), g.info(r.Unit)
	switch {
	case !u.OnMap() || u.Place.IsZone():
		return M("%s is not in an area of the map", r.Unit)
	case u.Place.Area != r.Bridge.A && u.Place.Area != r.Bridge.B:
		return M("%s is not at either end of bridge %s (10.12)", r.Unit, r.Bridge.String())
	case u.TurnStart != u.Place || (u.Moved && !u.Bridging) || u.Attacked:
		return M("%s moved or attacked this turn: an engineer repairs from where it began the turn, without moving or attacking (10.12, 10.14)", r.Unit)
	case !u.InSupply:
		return M("%s is out of supply: no repair (13.24)", r.Unit)
	case g.fought[u.Place.Area]:
		return M("%s's area had a battle this impulse: no repair (10.14)", r.Unit)
	case g.hasEnemy(u.Place, info.Side):
		return M("%s shares its area with enemy units: no repair (10.13)", r.Unit)
	}
	far := r.Bridge.A
	if u.Place.Area == far {
		far = r.Bridge.B
	}
	if len(g.st.UnitsAt(g.s, AreaPlace(far), info.Side)) == 0 {
		return M("no friendly unit stands at the other end of bridge %s, in %s (10.12)", r.Bridge.String(), g.s.Map.PlaceMessage(AreaPlace(far)))
	}
	return Message{}
}

// repairOrderProblem checks what a REPAIR order names: an engineer of the
// side and a blown bridge of the map, not tried already this impulse.
func (g *game) repairOrderProblem(r Repair, seen map[string]bool) Message {
	u, info := g.st.Unit(r.Unit), g.info(r.Unit)
	b := g.st.Bridge(r.Bridge.A, r.Bridge.B)
	switch {
	case u == nil || info == nil:
		return M("%s does not take part in this scenario", r.Unit)
	case info.Side != g.side():
		return M("%s is not yours", r.Unit)
	case info.Type != Engineer:
		return M("%s is %s: only engineers repair bridges (10.11)", r.Unit, info.Type.Text())
	case b == nil:
		return M("there is no bridge %s on this scenario's map", r.Bridge.String())
	case !b.Blown:
		return M("bridge %s is not blown", r.Bridge.String())
	case seen[r.Bridge.String()]:
		return M("bridge %s is already being repaired this impulse: one try per bridge per impulse (10.17)", r.Bridge.String())
	}
	return Message{}
}

// checkRepairs refuses the REPAIR orders that cannot be tried, judged after
// all the moves of the impulse (a friendly unit at the far end may have
// arrived in it, 10.12).
func (g *game) checkRepairs() {
	seen := map[string]bool{}
	for _, ro := range g.repairs {
		if why := g.repairProblem(ro.o, seen); why.Key != "" {
			g.refuseWith(ro.line, ro.o, why)
		}
		seen[ro.o.Bridge.String()] = true
	}
}

// repair rolls for each REPAIR order: success on 1-4, one more for each
// earlier failure at that bridge, which stays with the bridge (10.15,
// 10.16). The engineer spends all its MP (8.36).
func (g *game) repair() {
	seen := map[string]bool{}
	for _, ro := range g.repairs {
		r := ro.o
		if why := g.repairProblem(r, seen); why.Key != "" {
			g.refuseWith(ro.line, r, why) // a battle may have changed the board
			continue
		}
		seen[r.Bridge.String()] = true
		b := g.st.Bridge(r.Bridge.A, r.Bridge.B)
		need := 4 + b.RepairFailures
		roll, err := g.dice.Roll(fmt.Sprintf("%s repair %s by %s", g.imp, r.Bridge, r.Unit))
		if err != nil {
			g.err = err
			return
		}
		ok := roll <= need
		if ok {
			b.Blown, b.RepairFailures = false, 0
		} else {
			b.RepairFailures++
		}
		u := g.st.Unit(r.Unit)
		u.Moved, u.Bridging = true, true // 10.14: no move or attack this turn
		g.event(RepairTried{Bridge: r.Bridge.String(), Unit: r.Unit, Roll: roll, Need: need, Repaired: ok})
	}
}

// demolish lets the non-phasing side try to blow the bridge as the phasing
// side crosses it (10.2, 8.41), as its standing orders say (B1), and reports
// whether it was blown. It rolls a die only when a try is allowed.
func (g *game) demolish(r *Road, mover Side) bool {
	b := g.st.Bridge(r.A, r.B)
	if b == nil {
		// A state saved before it kept the bridges on the edge of the 5th
		// Panzer scenario's map (NewState) has nothing to mark blown.
		return false
	}
	enemy := mover.Enemy()
	named, ok := g.blowOrdered(r, enemy)
	if !ok {
		return false
	}
	u, need := g.demolisher(r, enemy, named)
	if u == nil {
		return false
	}
	g.tried[r.ID()] = true
	g.tries[u.ID]++
	roll, err := g.dice.Roll(fmt.Sprintf("%s demolition %s by %s", g.imp, r.ID(), u.ID))
	if err != nil {
		g.err = err
		return true
	}
	blown := roll <= need
	g.event(DemolitionTried{Bridge: r.ID(), Unit: u.ID, Roll: roll, Need: need, Blown: blown})
	if blown {
		b.Blown = true
	}
	return blown
}

// blowOrdered reports whether the side may try to blow the bridge of road r
// now and its standing BLOW order says to (B1), and returns the unit the
// order names for the bridge, if any.
func (g *game) blowOrdered(r *Road, side Side) (named string, ok bool) {
	if side == Allied && g.imp.Day == FirstDay {
		return "", false // 10.26: the Allies never try on 16 December
	}
	if g.tried[r.ID()] {
		return "", false // 10.25: one try per bridge per impulse
	}
	st := g.st.Standing[side]
	if st == nil || st.Blow.None {
		return "", false
	}
	if st.Blow.All {
		return "", true
	}
	for _, b := range st.Blow.Bridges {
		if b.Bridge.String() == r.ID() {
			named, ok = b.Unit, true
		}
	}
	return named, ok
}

// demolisher picks the side's unit that tries to blow the bridge of road r:
// the unit named, if it may try, else the one most likely to blow it
// (B1). It returns nil if no unit may try.
func (g *game) demolisher(r *Road, side Side, named string) (best *UnitState, bestNeed int) {
	for _, u := range g.st.Units {
		need, ok := g.demolitionTry(u, r, side)
		if !ok {
			continue
		}
		if u.ID == named {
			return u, need
		}
		if need > bestNeed {
			best, bestNeed = u, need
		}
	}
	return best, bestNeed
}

// demolitionTry reports whether the unit may try to blow the bridge of road
// r for its side, and the highest roll that blows it.
func (g *game) demolitionTry(u *UnitState, r *Road, side Side) (need int, ok bool) {
	if !u.OnMap() || u.Place.IsZone() || (u.Place.Area != r.A && u.Place.Area != r.B) {
		return 0, false // 10.21, 10.22: in an area at one end of the bridge
	}
	info := g.info(u.ID)
	switch {
	case info.Side != side,
		!info.Type.InfantryType(), // 10.22: not armour
		!u.InSupply,               // 13.24
		g.tries[u.ID] >= 2,        // 10.23: two bridges an impulse
		g.startHeld[u.Place]:      // 10.24: not from an area the enemy held at the start of the impulse
		return 0, false
	}
	need = demolitionNeed(info.Type, u.Moved)
	// 14.23: special forces with DEMOLITION in the unit's area: only a 1
	// blows the bridge.
	if sf := g.st.SF; sf != nil && sf.Effect == SFDemolition && side == Allied && u.Place == AreaPlace(sf.Area) {
		need = 1
	}
	return need, true
}

// demolitionNeed is the highest roll that blows a bridge (10.29): an
// engineer 8, or 4 once it has moved this turn; another infantry-type unit
// 4, or 2 once it has moved.
func demolitionNeed(t UnitType, moved bool) int {
	need := 4
	if t == Engineer {
		need = 8
	}
	if moved {
		need /= 2
	}
	return need
}

// DemolitionTried: the non-phasing side tried to blow a bridge as the enemy
// crossed it (10.2, 10.29).
type DemolitionTried struct {
	Bridge, Unit string
	Roll, Need   int
	Blown        bool
}

// RepairTried: an engineer tried to repair a bridge (10.1).
type RepairTried struct {
	Bridge, Unit string
	Roll, Need   int
	Repaired     bool
}

// String writes the event as the report prints it.
func (e DemolitionTried) String() string { return e.Text().String() }

// Text is the event as a message.
func (e DemolitionTried) Text() Message {
	if e.Blown {
		return M("%s tries to blow bridge %s: rolls %d, needs %d or less: the bridge is blown (10.29)", e.Unit, e.Bridge, e.Roll, e.Need)
	}
	return M("%s tries to blow bridge %s: rolls %d, needs %d or less: the bridge holds (10.29)", e.Unit, e.Bridge, e.Roll, e.Need)
}

// String writes the event as the report prints it.
func (e RepairTried) String() string { return e.Text().String() }

// Text is the event as a message.
func (e RepairTried) Text() Message {
	if e.Repaired {
		return M("%s tries to repair bridge %s: rolls %d, needs %d or less: repaired (10.15, 10.16)", e.Unit, e.Bridge, e.Roll, e.Need)
	}
	return M("%s tries to repair bridge %s: rolls %d, needs %d or less: still blown (10.15, 10.16)", e.Unit, e.Bridge, e.Roll, e.Need)
}
