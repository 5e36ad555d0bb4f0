package rules

import (
	"errors"
	"sort"
)

// The dry run (CHECK): an impulse's orders carried out on a copy of the
// position to just before the first die, to tell the player what they would
// do. It never consults the enemy's standing orders, which are his own
// (B1, B3): a bridge the moves cross is never blown in it; the crossings
// where the enemy may try are listed instead, for every crossing the rules
// allow a try at, whatever the enemy ordered.

// A Rehearsal is what an impulse's orders would do, carried out to just
// before the first die.
type Rehearsal struct {
	Impulse Impulse
	// Events are what happens before the battles, in order: supply judged
	// (13.15), reinforcements, the moves with their steps (Moved.Steps),
	// entrenchments, special forces. The bridges crossed hold.
	Events []Event
	// Crossings are the bridges the moves cross where the enemy may try to
	// blow the bridge, each drawing a die (10.2): at most one try per
	// bridge an impulse (10.25), so a later crossing of the same bridge
	// draws one only if no earlier one did.
	Crossings []Crossing
	// Stacks are the side's stacks, after the moves, in each area that
	// units moved into or entrenched in, by area.
	Stacks []Stack
	// Removed are the units that would be removed, over the stacking
	// limit, at the end of the impulse, if the battles change nothing
	// (7.1, 7.2: the REMOVE order, then ruling B6).
	Removed []StackRemoved
	// Spent are the side's units that will have acted for the turn, and
	// why (8.25, 9.14, B5, 9.16, 10.14).
	Spent []Spent
	// Battles are the battles that will be fought, in their order (B4),
	// with both sides' units as they stand after the moves.
	Battles []BattleBegins
	// FirstDie is what the first die after the moves would be rolled for,
	// as the dice would be asked (B10): a battle's or a repair's; "" when
	// the impulse needs no die but the crossings' (then Rest tells the
	// rest of the impulse).
	FirstDie string
	Rest     []Event
}

// A Crossing is a bridge a move crosses where the enemy may try to blow it
// (10.2, 10.21-10.29): the order's line, the units crossing and the enemy
// units that may try, each with the highest roll that blows it.
type Crossing struct {
	Line    int
	Units   []string
	From    Place
	To      Place
	Bridge  string
	Chances []Chance
}

// A Chance is an enemy unit that may try to blow a bridge, and the highest
// roll with which it succeeds (10.29, 14.23).
type Chance struct {
	Unit string
	Need int
}

// A Stack is one side's units in a place.
type Stack struct {
	Place Place
	Units []Combatant
}

// SP returns the stack's strength.
func (s Stack) SP() int {
	n := 0
	for _, c := range s.Units {
		n += c.Strength
	}
	return n
}

// Over reports whether the stack is over the limit (7.1).
func (s Stack) Over() bool { return len(s.Units) > StackUnits || s.SP() > StackSP }

// Spent is a unit that has acted for the turn and why: it moved (8.25),
// entrenched (8.5), attacks (9.16), stays without attacking where its side
// fights after moving in (9.14, B5), or tries a repair (10.14).
type Spent struct {
	Unit string
	Why  string // in English: one of the Spent... reasons below
}

// The reasons a unit is spent for the turn, as Spent.Why gives them; each
// has its own text (Spent.Text).
const (
	SpentEntrenches = "entrenches (8.5)"
	SpentMovesDigs  = "moves and entrenches (8.25, 8.52)"
	SpentMoves      = "moves (8.25)"
	SpentAttacks    = "attacks (9.11, 9.16)"
	SpentStays      = "stays without attacking where its side fights, and counts as moved (9.14, B5)"
	SpentRepairs    = "tries to repair a bridge (10.14)"
)

// Text says it of the unit, for the reader's language: "116/60 moves
// (8.25)".
func (s Spent) Text() Message {
	switch s.Why {
	case SpentEntrenches:
		return M("%s entrenches (8.5)", s.Unit)
	case SpentMovesDigs:
		return M("%s moves and entrenches (8.25, 8.52)", s.Unit)
	case SpentMoves:
		return M("%s moves (8.25)", s.Unit)
	case SpentAttacks:
		return M("%s attacks (9.11, 9.16)", s.Unit)
	case SpentStays:
		return M("%s stays without attacking where its side fights, and counts as moved (9.14, B5)", s.Unit)
	case SpentRepairs:
		return M("%s tries to repair a bridge (10.14)", s.Unit)
	}
	return M("%s %s", s.Unit, s.Why)
}

// errRehearsed stops a rehearsal at its first die.
var errRehearsed = errors.New("rules: the dry run stops at the first die")

// firstDie asks for no die: it notes what the first one was for.
type firstDie struct{ purpose string }

func (d *firstDie) Roll(purpose string) (int, error) {
	if d.purpose == "" {
		d.purpose = purpose
	}
	return 0, errRehearsed
}

// rehearsal is what the game notes while it rehearses an impulse.
type rehearsal struct {
	crossings []Crossing
}

// mayDemolish notes a crossing of the intact bridge of road r where the
// enemy may try to blow it, whatever his standing orders (10.2, 10.26).
func (rh *rehearsal) mayDemolish(g *game, line int, units []*UnitState, r *Road, from, to Place) {
	enemy := g.side().Enemy()
	if enemy == Allied && g.imp.Day == FirstDay {
		return // 10.26: the Allies never try on 16 December
	}
	if g.st.Bridge(r.A, r.B) == nil {
		return
	}
	c := Crossing{Line: line, From: from, To: to, Bridge: r.ID()}
	for _, u := range units {
		c.Units = append(c.Units, u.ID)
	}
	for _, u := range g.st.Units {
		if need, ok := g.demolitionTry(u, r, enemy); ok {
			c.Chances = append(c.Chances, Chance{u.ID, need})
		}
	}
	if len(c.Chances) > 0 {
		rh.crossings = append(rh.crossings, c)
	}
}

// Rehearse carries out the orders for the impulse st.Next on a copy of st
// to just before the first die, and tells what they would do (CHECK).
// Orders the position makes illegal are refused as by CheckOrders, every
// one of them. Nothing is changed and no die is rolled; the enemy's
// standing orders are not read.
func Rehearse(s *Scenario, st *State, orders *Orders) (*Rehearsal, error) {
	if st.Over {
		return nil, ErrGameOver
	}
	if errs := check(s, st, orders); len(errs) > 0 {
		return nil, errs
	}
	c := st.Clone()
	delete(c.Standing, st.Next.Side.Enemy()) // never read, so never told
	d := &firstDie{}
	g := &game{s: s, st: c, imp: st.Next, orders: orders, exec: true, dice: d, rehearsal: &rehearsal{}}
	out := &Rehearsal{Impulse: g.imp}
	g.startImpulse()
	if orders != nil {
		g.run()
	} else {
		g.event(Passed{g.imp})
	}
	if g.err != nil {
		return nil, g.err
	}
	out.Events = g.events
	out.Crossings = g.rehearsal.crossings
	battles := g.findBattles()
	for _, b := range battles {
		out.Battles = append(out.Battles, BattleBegins{Area: b.area, Attacker: g.side(), Attackers: combatants(b.attackers, g), Defenders: combatants(b.defenders, g)})
	}
	out.Stacks = g.stacksMovedTo()
	out.Removed = g.wouldRemove()
	out.Spent = g.spent(battles)

	// The rest of the impulse, up to its first die.
	g.events = nil
	err := g.battles()
	if err == nil {
		g.repair()
		err = g.err
	}
	switch {
	case errors.Is(err, errRehearsed):
		out.FirstDie = d.purpose
		return out, nil
	case err != nil:
		return nil, err
	}
	g.stacking()
	g.control()
	g.endImpulse()
	out.Rest = g.events
	return out, nil
}

// stacksMovedTo returns the side's stacks in each area its units moved
// into or entrenched in this impulse, by area.
func (g *game) stacksMovedTo() []Stack {
	seen := map[Place]bool{}
	var out []Stack
	for _, u := range g.st.Units {
		if g.mpUsed[u.ID] == 0 || !u.OnMap() || seen[u.Place] {
			continue
		}
		seen[u.Place] = true
		out = append(out, Stack{Place: u.Place, Units: combatants(g.st.UnitsAt(g.s, u.Place, g.side()), g)})
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].Place, out[j].Place
		if a.IsZone() != b.IsZone() {
			return !a.IsZone()
		}
		if a.Area != b.Area {
			return a.Area < b.Area
		}
		return a.Zone < b.Zone
	})
	return out
}

// wouldRemove returns the units the end of the impulse would remove over
// the stacking limit on the board the moves leave (7.2, B6), played on a
// copy of it.
func (g *game) wouldRemove() []StackRemoved {
	cp := *g
	cp.st, cp.events = g.st.Clone(), nil
	cp.stacking()
	var out []StackRemoved
	for _, e := range cp.events {
		if r, ok := e.(StackRemoved); ok {
			out = append(out, r)
		}
	}
	return out
}

// spent returns the side's units that will have acted for the turn once
// the moves are made and the battles fought, and why.
func (g *game) spent(battles []*battle) []Spent {
	why := map[string]string{}
	for _, u := range g.st.Units {
		switch {
		case g.mpUsed[u.ID] == 0:
		case u.Entrenched && g.movedNowhere(u):
			why[u.ID] = SpentEntrenches
		case u.Entrenched:
			why[u.ID] = SpentMovesDigs
		default:
			why[u.ID] = SpentMoves
		}
	}
	for _, b := range battles {
		for _, u := range b.attackers {
			why[u.ID] = SpentAttacks
		}
		if !g.movedIn(b.area) {
			continue
		}
		// 9.14, B5: those already there that do not attack stay, and
		// count as moved.
		for _, u := range g.st.UnitsAt(g.s, AreaPlace(b.area), g.side()) {
			if !u.Moved && !u.Attacked && why[u.ID] == "" {
				why[u.ID] = SpentStays
			}
		}
	}
	fought := g.fought
	g.fought = map[int]bool{}
	for _, b := range battles {
		g.fought[b.area] = true
	}
	seen := map[string]bool{}
	for _, ro := range g.repairs {
		if g.repairProblem(ro.o, seen).Key == "" {
			why[ro.o.Unit] = SpentRepairs
		}
		seen[ro.o.Bridge.String()] = true
	}
	g.fought = fought
	var out []Spent
	for _, u := range g.st.Units {
		if w := why[u.ID]; w != "" {
			out = append(out, Spent{u.ID, w})
		}
	}
	return out
}

// movedNowhere reports whether the unit is where it began the impulse: one
// that entrenched without moving.
func (g *game) movedNowhere(u *UnitState) bool {
	for _, e := range g.events {
		if m, ok := e.(Moved); ok && contains(m.Units, u.ID) {
			return false
		}
	}
	return true
}
