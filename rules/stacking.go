package rules

// Stacking (7.0): at the end of its movement impulse a side may have at most
// StackUnits units and StackSP SP in one area (7.1); over the limit, its
// owner removes whole units until within it (7.2). Zones have no limit
// (7.3): only the map's areas are counted. The 16 December ban on moves that
// make a German stack over the limit (7.1) is checked with each move
// (overStacks, called by move).

// stacking removes units over the limit at the end of the movement impulse
// (7.1, 7.2): the player's REMOVE order for the area first, then ruling B6.
// On 16 December the Germans' set-up stacks wait until the end of 16-3.
func (g *game) stacking() {
	side := g.side()
	// The side's units by area, in the units' order as UnitsAt gives them,
	// from one pass over the units rather than one an area.
	byArea := map[int][]*UnitState{}
	for _, u := range g.st.Units {
		if u.OnMap() && !u.Place.IsZone() && g.s.OOB.Unit(u.ID).Side == side {
			byArea[u.Place.Area] = append(byArea[u.Place.Area], u)
		}
	}
	for _, a := range g.s.Map.Areas {
		us := byArea[a.ID]
		if !overLimit(us) {
			continue
		}
		if SetupOverLimit(side, g.imp) {
			continue
		}
		order := g.removal[a.ID]
		for overLimit(us) {
			var victim *UnitState
			why := RemovedByPolicy
			for len(order) > 0 && victim == nil {
				if u := g.st.Unit(order[0]); u != nil && u.OnMap() && u.Place == AreaPlace(a.ID) {
					victim, why = u, RemovedByOrder
				}
				order = order[1:]
			}
			if victim == nil {
				victim = g.b6Victim(us)
			}
			victim.Eliminated, victim.Place = true, Place{}
			g.event(StackRemoved{victim.ID, a.ID, why})
			us = g.st.UnitsAt(g.s, AreaPlace(a.ID), side)
		}
	}
}

// overStacks refuses a German move on 16 December that would end in a
// stack over the limit (7.1): the Germans start the day over it in two
// areas, and may make no move that creates another.
func (g *game) overStacks(p *movePlan, w walk) bool {
	if g.side() != German || g.imp.Day != FirstDay || w.at.IsZone() || w.at == p.from {
		return false
	}
	stack := append(g.st.UnitsAt(g.s, w.at, German), p.units...)
	if !overLimit(stack) {
		return false
	}
	g.refuse(p.line, p.o, "the move would make a German stack over 4 units or 10 SP in %s, which 7.1 forbids on 16 December", g.s.Map.PlaceMessage(w.at))
	return true
}

// SetupOverLimit reports whether the side's stacks may be over the limit
// at the end of impulse imp: 7.1, the Germans start over it in two areas,
// and 7.2 applies to those at the end of 16-3.
func SetupOverLimit(side Side, imp Impulse) bool {
	return side == German && imp.Day == FirstDay && imp.N < 3
}

// overLimit reports whether the units are over the stacking limit (7.1).
func overLimit(us []*UnitState) bool {
	sp := 0
	for _, u := range us {
		sp += u.Strength
	}
	return len(us) > StackUnits || sp > StackSP
}

// b6Victim picks the unit ruling B6 removes: the lowest SP, then the lowest
// quality (9.51), then the unit id.
func (g *game) b6Victim(us []*UnitState) *UnitState {
	best := us[0]
	q := func(u *UnitState) int { v, _ := g.info(u.ID).Type.Values(); return v.Quality }
	for _, u := range us[1:] {
		switch {
		case u.Strength != best.Strength:
			if u.Strength < best.Strength {
				best = u
			}
		case q(u) != q(best):
			if q(u) < q(best) {
				best = u
			}
		case u.ID < best.ID:
			best = u
		}
	}
	return best
}

// StackRemoved: a unit was removed for over-stacking (7.2).
type StackRemoved struct {
	Unit string
	Area int
	Why  string // RemovedByOrder or RemovedByPolicy
}

// Why a unit over the stacking limit is removed (7.2): its owner's REMOVE
// order, or the fixed policy of B6. The log keeps them in its events'
// English.
const (
	RemovedByOrder  = "order"
	RemovedByPolicy = "policy B6"
)

// String writes the event as the report prints it.
func (e StackRemoved) String() string { return e.Text().String() }

// Text is the event as a message.
func (e StackRemoved) Text() Message {
	switch e.Why {
	case RemovedByOrder:
		return M("%s is removed from %d: over the stacking limit (7.2, by order)", e.Unit, e.Area)
	case RemovedByPolicy:
		return M("%s is removed from %d: over the stacking limit (7.2, by policy B6)", e.Unit, e.Area)
	}
	return M("%s is removed from %d: over the stacking limit (7.2, by %s)", e.Unit, e.Area, e.Why)
}
