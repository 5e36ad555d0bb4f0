package rules

import "errors"

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
	// First check every order on the board the earlier ones leave, every
	// bridge holding and no die rolled; refuse them all if any is illegal.
	// So a refusal never depends on a die, and no die is rolled for orders
	// that are refused.
	if errs := check(s, st, orders); len(errs) > 0 {
		return nil, nil, errs
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

// CheckOrders checks orders against the position st as Play does before it
// rolls any die, and returns every line the position makes illegal as
// OrderErrors, in line order, or nil when Play would accept them. Nothing is
// changed and no die is rolled.
//
// orders may be what ParseOrders returned with its errors: the lines that
// parsed, checked without the others. A caller lists both kinds of errors in
// one answer (OrderErrors.With), so that a player learns of every error at
// once.
func CheckOrders(s *Scenario, st *State, orders *Orders) error {
	if st.Over {
		return ErrGameOver
	}
	if errs := check(s, st, orders); len(errs) > 0 {
		return errs
	}
	return nil
}

// check checks the orders for the impulse st.Next on a copy of st, every
// bridge holding and no die rolled, and returns the refusals in line order.
func check(s *Scenario, st *State, orders *Orders) OrderErrors {
	if orders == nil {
		return nil
	}
	imp := st.Next
	if il, ok := orders.Impulse(); ok && (il.Day != imp.Day || il.N != imp.N) {
		return OrderErrors{OrderErrorAt(impulseLine(orders), il.String(),
			M("these orders are for %d-%d, but the impulse to play is %s", il.Day, il.N, imp.String()))}
	}
	chk := &game{s: s, st: st.Clone(), imp: imp, orders: orders}
	chk.startImpulse()
	return chk.run().With()
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
	foot        map[string]bool // units that moved as infantry this impulse (8.34)
	fought      map[int]bool    // areas with a battle this impulse (10.14)
	choiceLines []choiceLine    // the FIRE and ARTY lines, checked once the battles are known

	// exec is false while the orders are checked, with every bridge holding
	// and no die rolled, and true while they are carried out with the dice.
	exec      bool
	supply    supplyMemo // the supply searches of this Play, reused while the position holds
	dice      Dice
	err       error           // a die that could not be rolled
	tried     map[string]bool // bridges tried this impulse (10.25)
	tries     map[string]int  // tries by each unit this impulse (10.23)
	startHeld map[Place]bool  // places where the phasing side had units at the start of the impulse (10.24)

	// rehearsal is set while the orders are carried out to just before the
	// first die (Rehearse): no bridge is blown, the crossings where the
	// enemy may try are noted.
	rehearsal *rehearsal
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
	g.refuseWith(line, ord, M(format, args...))
}

// refuseWith refuses an order, as refuse does, for the reason m.
func (g *game) refuseWith(line int, ord Order, m Message) {
	if g.exec {
		g.event(Stopped{Line: line, Order: ord.String(), Why: m.String(), Message: m})
		return
	}
	g.errs = append(g.errs, OrderErrorAt(line, ord.String(), m))
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
	g.foot = map[string]bool{}
	g.fought = map[int]bool{}
	g.tries = map[string]int{}
	g.startHeld = map[Place]bool{}
	if g.imp.Side == German && g.imp.N == 1 {
		for _, u := range g.st.Units {
			u.Moved, u.Attacked, u.Bridging, u.Stayed = false, false, false, false
			u.TurnStart = u.Place
		}
	}
	// 6.0 I: the reinforcement phase comes before each pair of impulses.
	if g.imp.Side == German {
		g.placeReinforcements()
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

// removeOutsiders applies the 5th Panzer scenario's rule at the end of a
// turn ("指定マップ範囲外に初期配置されたり、増援として配置されるユニットは、
// 登場したターンの終了時に指定マップ範囲内で補給下の状態にないと除去されます"):
// units that set up (on the scenario's first day) or were placed as
// reinforcements this turn outside the scenario's map (StartsOutside) are
// removed unless they are now inside it and in supply. A unit in a zone or
// area outside the map, as one waiting in its entry zone there, is not
// inside it.
func (g *game) removeOutsiders(day int) {
	g.st.JudgeSupply(g.s)
	for _, info := range g.s.Units {
		u := g.st.Unit(info.ID)
		if !u.OnMap() {
			continue
		}
		placed := info.Arrival.Day // the day it set up or was placed
		switch {
		case !info.Setup.IsZero():
			placed = g.s.StartImpulse.Day
		case info.Group != "":
			placed = g.st.ReleasedAt[info.Group].Day
		}
		outsider := !g.s.Uses(u.Place) || placed == day && g.s.StartsOutside(info)
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

// String writes the event as the report prints it.
func (e OutsiderRemoved) String() string { return e.Text().String() }

// Text is the event as a message, for the reader's language.
func (e OutsiderRemoved) Text() Message {
	return M("%s is removed: it did not reach the scenario's map in supply by the end of the turn (5th Panzer special rule)", e.Unit)
}

// Version numbers the adjudication: it goes up whenever a change to the
// rules engine could make the same state, orders and dice give another
// result. A game's log records the version it was played with, so that a
// replay by another version that comes out differently says why.
const Version = 2
