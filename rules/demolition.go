package rules

import "fmt"

// Bridge repair (10.1): engineers try at the end of their impulse, after the
// battles (6.0 II.4).

// repairProblem returns why the engineer may not try to repair the bridge
// now, or "".
func (g *game) repairProblem(r Repair, seen map[string]bool) string {
	u, info := g.st.Unit(r.Unit), g.info(r.Unit)
	b := g.st.Bridge(r.Bridge.A, r.Bridge.B)
	switch {
	case u == nil || info == nil:
		return fmt.Sprintf("%s does not take part in this scenario", r.Unit)
	case info.Side != g.side():
		return fmt.Sprintf("%s is not yours", r.Unit)
	case info.Type != Engineer:
		return fmt.Sprintf("%s is %s: only engineers repair bridges (10.11)", r.Unit, info.Type)
	case b == nil:
		return fmt.Sprintf("there is no bridge %s on this scenario's map", r.Bridge)
	case !b.Blown:
		return fmt.Sprintf("bridge %s is not blown", r.Bridge)
	case seen[r.Bridge.String()]:
		return fmt.Sprintf("bridge %s is already being repaired this impulse: one try per bridge per impulse (10.17)", r.Bridge)
	case !u.OnMap() || u.Place.IsZone():
		return fmt.Sprintf("%s is not in an area of the map", r.Unit)
	case u.Place.Area != r.Bridge.A && u.Place.Area != r.Bridge.B:
		return fmt.Sprintf("%s is not at either end of bridge %s (10.12)", r.Unit, r.Bridge)
	case u.TurnStart != u.Place || (u.Moved && !u.Bridging) || u.Attacked:
		return fmt.Sprintf("%s moved or attacked this turn: an engineer repairs from where it began the turn, without moving or attacking (10.12, 10.14)", r.Unit)
	case !u.InSupply:
		return fmt.Sprintf("%s is out of supply: no repair (13.24)", r.Unit)
	case g.fought[u.Place.Area]:
		return fmt.Sprintf("%s's area had a battle this impulse: no repair (10.14)", r.Unit)
	case g.hasEnemy(u.Place, info.Side):
		return fmt.Sprintf("%s shares its area with enemy units: no repair (10.13)", r.Unit)
	}
	far := r.Bridge.A
	if u.Place.Area == far {
		far = r.Bridge.B
	}
	if len(g.st.UnitsAt(g.s, AreaPlace(far), info.Side)) == 0 {
		return fmt.Sprintf("no friendly unit stands at the other end of bridge %s, in %s (10.12)", r.Bridge, g.s.Map.PlaceName(AreaPlace(far)))
	}
	return ""
}

// checkRepairs refuses the REPAIR orders that cannot be tried, judged after
// all the moves of the impulse (a friendly unit at the far end may have
// arrived in it, 10.12).
func (g *game) checkRepairs() {
	seen := map[string]bool{}
	for _, ro := range g.repairs {
		if why := g.repairProblem(ro.o, seen); why != "" {
			g.refuse(ro.line, ro.o, "%s", why)
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
		if why := g.repairProblem(r, seen); why != "" {
			g.refuse(ro.line, r, "%s", why) // a battle may have changed the board
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
