package rules

import (
	"errors"
	"fmt"
	"sort"
)

// Dice rolls ten-sided dice for the rules; a 0 counts as 10 (1.0), so every
// roll is 1..10. purpose says what the roll is for, for the log and the
// report ("16-2 demolition 51-70 by 28/110"). The rules never roll any other
// way.
type Dice interface {
	Roll(purpose string) (int, error)
}

// ErrGameOver is returned when an impulse is played after the scenario's end.
var ErrGameOver = errors.New("rules: the game is over")

// Play plays the impulse st.Next for the side to move with its orders, and
// returns the new position and the events, in the order they happened. st is
// not changed. orders may be nil: the impulse is then played without movement
// (B8).
//
// Every order the position makes illegal is refused before anything is
// applied: the error is then OrderErrors, with every such line. Play is
// deterministic: the same state, orders and dice give the same result.
func Play(s *Scenario, st *State, orders *Orders, dice Dice) (*State, []Event, error) {
	if st.Over {
		return nil, nil, ErrGameOver
	}
	imp := st.Next
	if orders != nil {
		if il, ok := orders.Impulse(); ok && (il.Day != imp.Day || il.N != imp.N) {
			return nil, nil, OrderErrors{{Line: impulseLine(orders), Text: il.String(),
				Msg: fmt.Sprintf("these orders are for %d-%d, but the impulse to play is %s", il.Day, il.N, imp)}}
		}
	}
	// First check every order on the board the earlier ones leave, every
	// bridge holding and no die rolled; refuse them all if any is illegal.
	// So a refusal never depends on a die, and no die is rolled for orders
	// that are refused.
	if orders != nil {
		chk := &game{s: s, st: st.Clone(), imp: imp, orders: orders}
		chk.startImpulse()
		if errs := chk.run(); len(errs) > 0 {
			sort.SliceStable(errs, func(i, j int) bool { return errs[i].Line < errs[j].Line })
			return nil, nil, errs
		}
	}
	// Then carry them out with the dice.
	g := &game{s: s, st: st.Clone(), imp: imp, orders: orders, exec: true, dice: dice}
	g.startImpulse()
	if orders != nil {
		g.run()
	} else {
		g.event(Passed{imp})
	}
	if g.err != nil {
		return nil, nil, g.err
	}
	if err := g.battles(); err != nil {
		return nil, nil, err
	}
	g.repair()
	if g.err != nil {
		return nil, nil, g.err
	}
	g.stacking()
	g.control()
	g.endImpulse()
	return g.st, g.events, nil
}

// impulseLine returns the mail's line of its IMPULSE order.
func impulseLine(o *Orders) int {
	for i, x := range o.List {
		if _, ok := x.(ImpulseLine); ok {
			return o.Lines[i]
		}
	}
	return 0
}

// game is one impulse being played.
type game struct {
	s      *Scenario
	st     *State
	imp    Impulse
	orders *Orders
	events []Event
	errs   OrderErrors

	mpUsed  map[string]int  // MP spent by each unit this impulse
	entered map[string]bool // units that entered an area holding enemy units (9.12)
	removal map[int][]string
	repairs []repairOrder

	// The phasing player's choices for the battles (9.0, 9.46, 9.5, B3,
	// B4) and what the battles need to know of the moves (9.71-9.73).
	attacks     []Attack
	battleOrder []int
	fire        map[int][]FirePair
	arty        map[int][]string
	crossed     map[string]bool // the unit's last step crossed a river
	fought      map[int]bool    // areas with a battle this impulse (10.14)
	choiceLines []choiceLine    // the FIRE and ARTY lines, checked once the battles are known

	// exec is false while the orders are checked, with every bridge holding
	// and no die rolled, and true while they are carried out with the dice.
	exec      bool
	dice      Dice
	err       error           // a die that could not be rolled
	tried     map[string]bool // bridges tried this impulse (10.25)
	tries     map[string]int  // tries by each unit this impulse (10.23)
	startHeld map[Place]bool  // places where the phasing side had units at the start of the impulse (10.24)
}

type repairOrder struct {
	line int
	o    Repair
}

func (g *game) event(e Event) { g.events = append(g.events, e) }

// refuse refuses an order. While the orders are carried out it cannot be
// refused any more: what the dice changed (a bridge blown earlier in the
// impulse) stops the order where it stands, and the report says why.
func (g *game) refuse(line int, ord Order, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if g.exec {
		g.event(Stopped{Line: line, Order: ord.String(), Why: msg})
		return
	}
	g.errs = append(g.errs, OrderError{Line: line, Text: ord.String(), Msg: msg})
}

func (g *game) side() Side { return g.imp.Side }

func (g *game) info(id string) *Unit { return g.s.OOB.Unit(id) }

// startImpulse does what comes before the moves: the start of a turn (8.25:
// moved markers go; 8.21: where each unit begins the turn) and the
// reinforcement phase (6.0 I, 11.11).
func (g *game) startImpulse() {
	g.mpUsed = map[string]int{}
	g.entered = map[string]bool{}
	g.removal = map[int][]string{}
	g.tried = map[string]bool{}
	g.fire = map[int][]FirePair{}
	g.arty = map[int][]string{}
	g.crossed = map[string]bool{}
	g.fought = map[int]bool{}
	g.tries = map[string]int{}
	g.startHeld = map[Place]bool{}
	if g.imp.Side == German && g.imp.N == 1 {
		for _, u := range g.st.Units {
			u.Moved, u.Attacked, u.Bridging = false, false, false
			u.TurnStart = u.Place
		}
	}
	// 6.0 I: the reinforcement phase before each pair of impulses places
	// both sides' units due in this impulse number.
	if g.imp.Side == German {
		for _, u := range g.s.Units {
			us := g.st.Unit(u.ID)
			if us.Arrived || u.Arrival.Day != g.imp.Day || u.Arrival.N != g.imp.N || len(u.Zones) == 0 {
				continue
			}
			// B7: a unit with several zones waits in the first listed.
			us.Arrived, us.Place, us.TurnStart = true, ZonePlace(u.Zones[0]), ZonePlace(u.Zones[0])
			us.InSupply = true // reinforcements are in supply when placed
			g.event(Arrived{u.ID, u.Zones[0]})
		}
	}
	// 13.15: supply for movement is judged before moving.
	for _, c := range g.st.JudgeSupply(g.s) {
		g.event(c)
	}
	for _, u := range g.st.Units {
		if u.OnMap() && g.info(u.ID).Side == g.imp.Side {
			g.startHeld[u.Place] = true
		}
	}
}

// run checks or carries out the orders in the order written.
func (g *game) run() OrderErrors {
	if g.orders == nil {
		return nil
	}
	for i, ord := range g.orders.List {
		line := g.orders.Lines[i]
		switch o := ord.(type) {
		case Move:
			g.move(line, o)
		case Entrench:
			g.entrench(line, o)
		case Remove:
			g.removal[o.Area] = append(g.removal[o.Area], o.Units...)
		case Blow, Defend:
			g.st.Standing[g.side()].set(o)
		case Attack:
			g.attack(line, o)
		case Fire:
			g.fire[o.Area] = o.Pairs
			g.choiceLines = append(g.choiceLines, choiceLine{line, o})
		case Arty:
			g.arty[o.Area] = o.Targets
			g.choiceLines = append(g.choiceLines, choiceLine{line, o})
		case Battles:
			g.battleOrder = o.Areas
		case Repair:
			g.repairs = append(g.repairs, repairOrder{line, o})
		case SpecialForces:
			g.placeSF(line, o)
		}
	}
	if !g.exec {
		g.checkRepairs()
		g.checkChoices()
	}
	return g.errs
}

// battles fights the battles the impulse caused (8.39, 9.0), in order (B4).
// Units that began the impulse in a battle area and did not attack stayed
// without attacking, and count as moved for the turn (9.14, B5).
func (g *game) battles() error {
	for _, b := range g.findBattles() {
		g.fought[b.area] = true
		g.fight(b)
		if g.err != nil {
			return g.err
		}
		for _, u := range g.st.UnitsAt(g.s, AreaPlace(b.area), g.side()) {
			u.Moved = true
		}
	}
	return nil
}

// attack checks an ATTACK order (9.13): units that began the impulse in an
// area holding enemy units attack there.
func (g *game) attack(line int, o Attack) {
	p := AreaPlace(o.Area)
	if !g.hasEnemy(p, g.side()) {
		g.refuse(line, o, "%s holds no enemy units to attack", g.s.Map.PlaceName(p))
		return
	}
	for _, id := range o.With {
		u := g.st.Unit(id)
		switch {
		case u == nil || !u.OnMap() || u.Place != p:
			g.refuse(line, o, "%s is not in %s", id, g.s.Map.PlaceName(p))
			return
		case g.info(id).Side != g.side():
			g.refuse(line, o, "%s is not yours", id)
			return
		case u.Attacked:
			g.refuse(line, o, "%s attacked earlier this turn: once a turn (9.11)", id)
			return
		case u.Moved && !g.entered[id]:
			g.refuse(line, o, "%s moved earlier this turn and may not attack (8.25)", id)
			return
		}
	}
	if len(g.attackUnits(o)) == 0 {
		g.refuse(line, o, "none of your units in %s may attack: they moved or attacked earlier this turn (8.25, 9.11)", g.s.Map.PlaceName(p))
		return
	}
	g.attacks = append(g.attacks, o)
}

// control gives each area held by one side alone at the end of the impulse
// to that side (12.22).
func (g *game) control() {
	for _, a := range g.s.Map.Areas {
		side, ok := g.st.soleHolder(g.s, a.ID)
		if ok && g.st.Control[a.ID] != side {
			g.st.Control[a.ID] = side
			g.event(ControlChanged{a.ID, side})
		}
	}
}

// endImpulse advances the sequence of play (6.0, 8.1) and ends the game at
// the scenario's end.
func (g *game) endImpulse() {
	played := g.imp
	next := NextImpulse(played)
	// 11.3: the panzer reserve is released at the end of an Allied impulse.
	if played.Side == Allied {
		for _, e := range g.st.ReleaseReserves(g.s) {
			g.event(e)
		}
	}
	// 14.3: the counter goes at the end of the Allied impulse after its
	// placement.
	if sf := g.st.SF; sf != nil && played.Side == Allied && sf.Placed.Day == played.Day && sf.Placed.N == played.N {
		g.st.SF = nil
		g.event(SFRemoved{Area: sf.Area})
	}
	endOfTurn := next.Day != played.Day
	if endOfTurn && g.s.RemoveUnsuppliedOutsiders {
		g.removeOutsiders(played.Day)
	}
	if endOfTurn {
		// 6.0 VIII: the attrition phase (13.17, 13.21).
		for _, a := range g.st.Attrition(g.s) {
			g.event(a)
		}
	}
	g.st.Next = next
	g.event(ImpulseEnded{played, next})
	over := played == g.s.EndImpulse || next.Day > LastDay
	// 6.0 IX: the victory phase ends each turn (12.11); a scenario that ends
	// inside a turn (the 5th Panzer scenario, after G22-1) counts its last
	// VP when it ends.
	if endOfTurn || over {
		for _, e := range g.st.ScoreTurn(g.s) {
			g.event(e)
		}
	}
	if over {
		for _, e := range g.st.Finish(g.s) {
			g.event(e)
		}
		g.st.Over = true
	}
}

// NextImpulse returns the impulse after i: German then Allied, three each
// day, one each on 22 December (6.0, 8.1).
func NextImpulse(i Impulse) Impulse {
	if i.Side == German {
		return Impulse{Allied, i.Day, i.N}
	}
	if i.N < ImpulsesOn(i.Day) {
		return Impulse{German, i.Day, i.N + 1}
	}
	return Impulse{German, i.Day + 1, 1}
}

// stacking removes units over the limit at the end of the movement impulse
// (7.1, 7.2): the player's REMOVE order for the area first, then ruling B6.
// On 16 December the Germans' set-up stacks wait until the end of 16-3.
func (g *game) stacking() {
	side := g.side()
	for _, a := range g.s.Map.Areas {
		us := g.st.UnitsAt(g.s, AreaPlace(a.ID), side)
		if !overLimit(us) {
			continue
		}
		// 7.1: the Germans start over the limit in two areas; 7.2 applies
		// to those at the end of 16-3.
		if side == German && g.imp.Day == FirstDay && g.imp.N < 3 {
			continue
		}
		order := g.removal[a.ID]
		for overLimit(us) {
			var victim *UnitState
			why := "policy B6"
			for len(order) > 0 && victim == nil {
				if u := g.st.Unit(order[0]); u != nil && u.OnMap() && u.Place == AreaPlace(a.ID) {
					victim, why = u, "order"
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

// removeOutsiders applies the 5th Panzer scenario's rule at the end of a
// turn: units that set up outside the scenario's map (on 16 December) or
// arrived outside it this turn are removed unless they are now inside it and
// in supply.
func (g *game) removeOutsiders(day int) {
	g.st.JudgeSupply(g.s)
	for _, info := range g.s.Units {
		u := g.st.Unit(info.ID)
		if !u.OnMap() {
			continue
		}
		outsider := day == FirstDay && !info.Setup.IsZero() && !g.s.Uses(info.Setup)
		if info.Arrival.Day == day && len(info.Zones) > 0 {
			in := false
			for _, z := range info.Zones {
				in = in || g.s.Uses(ZonePlace(z))
			}
			outsider = outsider || !in
		}
		if outsider && !(g.s.Uses(u.Place) && u.InSupply) {
			u.Eliminated, u.Place = true, Place{}
			g.event(OutsiderRemoved{Unit: info.ID})
		}
	}
}

// OutsiderRemoved: the 5th Panzer scenario removed a unit that set up or
// arrived outside its map and was not inside and in supply at the end of
// the turn.
type OutsiderRemoved struct{ Unit string }

func (e OutsiderRemoved) String() string {
	return e.Unit + " is removed: it did not reach the scenario's map in supply by the end of the turn (5th Panzer special rule)"
}

type choiceLine struct {
	line int
	o    Order
}

// checkChoices refuses FIRE and ARTY lines that cannot be honoured in the
// battles the moves cause (B3): a battle that does not take place, a unit
// that is not in it, or a target 9.52-9.58 forbid, judged on the units as
// the battle begins.
func (g *game) checkChoices() {
	battles := map[int]*battle{}
	for _, b := range g.findBattles() {
		battles[b.area] = b
	}
	in := func(us []*UnitState, id string) bool {
		for _, u := range us {
			if u.ID == id {
				return true
			}
		}
		return false
	}
	for _, c := range g.choiceLines {
		var area int
		switch o := c.o.(type) {
		case Fire:
			area = o.Area
		case Arty:
			area = o.Area
		}
		b := battles[area]
		if b == nil {
			g.refuse(c.line, c.o, "there is no battle of yours at %s this impulse", g.s.Map.PlaceName(AreaPlace(area)))
			continue
		}
		switch o := c.o.(type) {
		case Arty:
			for _, id := range o.Targets {
				if !in(b.defenders, id) {
					g.refuse(c.line, o, "%s is not an enemy unit in the battle at %d: strikes go to the enemy units there (9.46)", id, area)
				}
			}
		case Fire:
			ok := true
			for _, p := range o.Pairs {
				if !in(b.attackers, p.Unit) {
					g.refuse(c.line, o, "%s does not attack at %d: only the attacking units fire (9.12-9.14)", p.Unit, area)
					ok = false
				}
				if !in(b.defenders, p.Target) {
					g.refuse(c.line, o, "%s is not an enemy unit in the battle at %d (9.5)", p.Target, area)
					ok = false
				}
			}
			if !ok {
				continue
			}
			firers, targets := combatants(b.attackers, g), combatants(b.defenders, g)
			got := AssignFire(firers, targets, false, o.Pairs, nil)
			for _, p := range o.Pairs {
				if contains(got, p) {
					continue
				}
				// Say which rule the pair breaks: the assignment with it put in.
				alt := append([]FirePair(nil), got...)
				for i := range alt {
					if alt[i].Unit == p.Unit {
						alt[i] = p
					}
				}
				why := "it breaks the targeting rules (9.52-9.58)"
				if err := CheckFire(firers, targets, false, alt); err != nil {
					why = err.Error()
				}
				g.refuse(c.line, o, "%s cannot fire at %s: %s", p.Unit, p.Target, why)
			}
		}
	}
}

// Version numbers the adjudication: it goes up whenever a change to the
// rules engine could make the same state, orders and dice give another
// result. A game's log records the version it was played with, so that a
// replay by another version that comes out differently says why.
const Version = 1
