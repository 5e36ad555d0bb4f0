package rules

import "strings"

// What a unit may do in the impulse to play is judged once, here: the
// screens that list a player's units (UNITS, STATUS, HELP's examples) show
// it, and the validators of MOVE, FOOT, ATTACK and ENTRENCH refuse an order
// for the unit's own state by the same judgement (mayMove, attack,
// entrench). What an order adds of its own (its path, the area it names,
// the units beside it, FOOT for armour) is the validators' alone.

// An Action is a thing a unit may do in its side's impulse.
type Action int

// The actions judged.
const (
	ActMove      Action = iota // MOVE or FOOT (8.2)
	ActAttack                  // ATTACK where it stands (9.13)
	ActEntrench                // ENTRENCH (8.5)
	ActArtillery               // its SP count toward the artillery calls of its battles (9.42, 13.22)
	numActions
)

// Actions are the actions judged, in the order the screens show them.
var Actions = [...]Action{ActMove, ActAttack, ActEntrench, ActArtillery}

// Text names the action as a screen heads its verdict.
func (a Action) Text() Message {
	switch a {
	case ActMove:
		return M("move")
	case ActAttack:
		return M("attack")
	case ActEntrench:
		return M("entrench")
	}
	return M("artillery")
}

// A Verdict says whether a unit may do an action in the impulse to play
// and, when it may not or may only in part, why, by the rule.
type Verdict struct {
	May bool
	// Rule is the rule that bars the action or limits it ("5.23"); ""
	// when nothing does.
	Rule string
	// Why is the reason in a few words, without the unit's name, its rule
	// at the end: "only green-triangle units move on 16-1 (5.23)". It is
	// zero when nothing bars or limits the action.
	Why Message
	// Refusal is what an order of the unit for the action is refused
	// with, naming the unit; zero when the unit may, and for artillery,
	// which no order of the unit's asks for.
	Refusal Message
	// oneArea: the unit may move one area only (8.29, 13.23).
	oneArea bool
}

// Text writes the verdict as a screen shows it: "yes", "no (5.23)", "yes
// (8.29)".
func (v Verdict) Text() Message {
	switch {
	case v.May && v.Rule == "":
		return M("yes")
	case v.May:
		return M("yes (%s)", v.Rule)
	case v.Rule == "":
		return M("no")
	}
	return M("no (%s)", v.Rule)
}

// yes is a verdict that lets the unit act.
func yes() Verdict { return Verdict{May: true} }

// no is a verdict that bars the action by the rule, for the reason why;
// an order for it is refused with refusal.
func no(rule string, why, refusal Message) Verdict {
	return Verdict{Rule: rule, Why: why, Refusal: refusal}
}

// An Ability is what one unit may do in its side's impulse.
type Ability struct {
	Unit string
	// Present: the unit is on the map or in a zone. A unit that is not
	// (eliminated, not arrived, a reserve not released) may do nothing,
	// for that reason (armour, which never entrenches, says so first).
	Present  bool
	Verdicts [numActions]Verdict // by Action
}

// Of returns the verdict on one action.
func (a Ability) Of(act Action) Verdict { return a.Verdicts[act] }

// Abilities judges, for every unit of the side that takes part in the
// scenario, in order-of-battle order, whether it may move, attack where it
// stands, entrench and count toward its artillery calls in the side's
// impulse: the one in play if it is the side's, else its next
// (SideImpulse). The position is taken as the impulse finds it, before its
// first order: at the start of a turn the moved markers go (8.25) and the
// impulse's reinforcements arrive (11.11), and supply is judged for
// movement (13.15). st is not changed. A finished game has no impulse,
// and no verdicts.
func Abilities(s *Scenario, st *State, side Side) []Ability {
	if st.Over {
		return nil
	}
	st = ImpulseStart(s, st, side)
	g := &game{s: s, st: st, imp: st.Next}
	var out []Ability
	for _, info := range s.Units {
		u := g.st.Unit(info.ID)
		if u == nil || info.Side != side {
			continue
		}
		out = append(out, g.ability(u, info))
	}
	return out
}

// ImpulseStart returns a copy of the position as the side's impulse
// (SideImpulse) begins, before its first order: at the start of a turn
// the moved markers gone (8.25), the impulse's reinforcements in their
// zones (11.11), supply judged for movement (13.15). It is the position
// Abilities judges, and the one a list of the side's units shows beside
// the verdicts.
func ImpulseStart(s *Scenario, st *State, side Side) *State {
	st = SideImpulse(s, st, side)
	if !st.Over {
		g := &game{s: s, st: st, imp: st.Next}
		g.startImpulse()
	}
	return st
}

// SideImpulse returns a copy of the position with the side's impulse to
// play: the one in play if it is the side's, else its next. The German
// impulse passed over to reach an Allied one begins as it would (a new
// turn, the reinforcements of the pair of impulses: startImpulse); what
// the enemy does in his impulse is not known, and not played.
func SideImpulse(s *Scenario, st *State, side Side) *State {
	st = st.Clone()
	if st.Next.Side == side || st.Over {
		return st
	}
	if st.Next.Side == German {
		g := &game{s: s, st: st, imp: st.Next}
		g.startImpulse()
	}
	st.Next = NextImpulse(st.Next)
	return st
}

// ability judges one unit of the side whose impulse g is.
func (g *game) ability(u *UnitState, info *Unit) Ability {
	a := Ability{Unit: u.ID, Present: u.OnMap()}
	a.Verdicts[ActMove] = g.judgeMove(u, info)
	a.Verdicts[ActAttack] = g.judgeAttack(u, info)
	a.Verdicts[ActEntrench] = g.judgeEntrench(u, info)
	a.Verdicts[ActArtillery] = g.judgeArtillery(u, info)
	return a
}

// judgeAbsent bars every action of a unit that is not on the map: it was
// eliminated (9.21), it belongs to a panzer reserve not yet released
// (11.3, 11.33), or it has not arrived (11.11). ok is false for a unit on
// the map.
func (g *game) judgeAbsent(u *UnitState, info *Unit) (v Verdict, ok bool) {
	id := u.ID
	switch {
	case u.Eliminated:
		return no("9.21", M("eliminated (9.21)"), M("%s has been eliminated (9.21)", id)), true
	case !u.Arrived && info.Group != "":
		grp := g.s.OOB.Group(info.Group)
		return no("11.3", M("the %s, not released (11.3, 11.33)", DataMessage(grp.Name)),
			M("%s belongs to the %s, which has not been released: it is released when the Germans are stronger than the Allies in one of its release areas at the end of an Allied impulse (11.3, 11.33)", id, DataMessage(grp.Name))), true
	case !u.Arrived:
		return no("11.11", M("arrives %s (11.11)", info.Arrival.String()),
			M("%s has not arrived yet: it arrives %s in zone %s (11.11)", id, info.Arrival.String(), strings.Join(info.Zones, "/"))), true
	}
	return Verdict{}, false
}

// judgeMove judges whether the unit may move (MOVE or FOOT) now: 12.25,
// 10.14, 9.16, 9.14, 8.25, the set-up's triangles (5.23, 5.24), and one
// area only out of supply (8.29, 13.23).
func (g *game) judgeMove(u *UnitState, info *Unit) Verdict {
	if v, ok := g.judgeAbsent(u, info); ok {
		return v
	}
	id := u.ID
	switch {
	case u.Exited:
		return no("12.25", M("entered an Allied VP zone, never to return (12.25)"),
			M("%s entered an Allied VP zone and may never return to the map (12.25)", id))
	case u.Bridging:
		return no("10.14", M("tried to repair a bridge this turn (10.14)"), M("%s tried to repair a bridge this turn and may not move (10.14)", id))
	case u.Attacked: // 9.16; it has its moved marker too
		return no("9.16", M("attacked this turn (9.16)"), M("%s attacked this turn and may not move (9.16)", id))
	case u.Moved && u.Stayed:
		return no("9.14", M("stayed in a battle without attacking this turn (9.14, B5)"), g.stayedRefusal(u, true))
	case u.Moved:
		return no("8.25", M("moved in an earlier impulse this turn (8.25)"), M("%s already moved in an earlier impulse this turn (8.25)", id))
	case g.mpUsed[id] > 0:
		return no("8.25", M("moved in this impulse (8.25)"), M("%s already moved in this impulse (8.25)", id))
	}
	// 5.24: red-triangle German units do not move before 16-2; 5.23: on
	// 16-1 only green-triangle Allied units move.
	firstImpulse := g.imp.Day == FirstDay && g.imp.N == 1
	switch {
	case firstImpulse && info.Side == German && info.Triangle:
		return no("5.24", M("red triangle: no move before 16-2 (5.24)"), M("%s has a red triangle: it may not move before 16-2 (5.24)", id))
	case firstImpulse && info.Side == Allied && !info.Triangle:
		return no("5.23", M("only green-triangle units move on 16-1 (5.23)"), M("%s has no green triangle: on 16-1 only green-triangle units move (5.23)", id))
	case !u.InSupply:
		// 13.15: supply for movement is judged before the move.
		return Verdict{May: true, Rule: "8.29", Why: M("out of supply: one area only (8.29, 13.23)"), oneArea: true}
	}
	return yes()
}

// judgeAttack judges whether the unit may attack where it stands (9.13):
// in an area, not a zone (9.17), with enemy units there, once a turn
// (9.11), not after trying a bridge (10.14) nor after moving earlier in
// the turn (8.25) or staying in a battle without attacking (9.14). A unit
// that moved into the area this impulse must attack there (9.12).
func (g *game) judgeAttack(u *UnitState, info *Unit) Verdict {
	if v, ok := g.judgeAbsent(u, info); ok {
		return v
	}
	id := u.ID
	switch {
	case u.Place.IsZone():
		return no("9.17", M("in a zone: no battles in zones (9.17)"), M("%s is in zone %s: there are no battles in zones (9.17)", id, u.Place.Zone))
	case !g.hasEnemy(u.Place, info.Side):
		return no("9.13", M("no enemy units where it stands (9.13)"), M("%s holds no enemy units to attack (9.13)", g.s.Map.PlaceMessage(u.Place)))
	case u.Attacked:
		return no("9.11", M("attacked this turn: once a turn (9.11)"), M("%s attacked earlier this turn: once a turn (9.11)", id))
	case u.Bridging:
		return no("10.14", M("tried to repair a bridge this turn (10.14)"), M("%s tried to repair a bridge this turn and may not attack (10.14)", id))
	case u.Moved && !g.entered[id] && u.Stayed:
		return no("9.14", M("stayed in a battle without attacking this turn (9.14, B5)"), g.stayedRefusal(u, false))
	case u.Moved && !g.entered[id]:
		return no("8.25", M("moved earlier this turn (8.25)"), M("%s moved earlier this turn and may not attack (8.25)", id))
	}
	return yes()
}

// judgeEntrench judges whether the unit may entrench (8.5): an
// infantry-type unit (8.54) in an area (not a zone) free of enemy units
// (8.55), not yet entrenched, that has not moved in an earlier impulse of
// the turn (8.25). On 16-1 every Allied unit may, triangle or not (5.23);
// out of supply, it still may (13.23). What it spent this impulse (8.52,
// 8.53) is the order's to check.
func (g *game) judgeEntrench(u *UnitState, info *Unit) Verdict {
	id := u.ID
	// Armour first: it never entrenches, wherever it is, as the order's
	// reading says too.
	if info.Type == Armor {
		return no("8.54", M("armour never entrenches (8.54)"), M("%s is armour, which never entrenches (8.54)", id))
	}
	if v, ok := g.judgeAbsent(u, info); ok {
		return v
	}
	switch {
	case u.Place.IsZone():
		return no("8.5", M("in a zone: units entrench in an area (8.5)"), M("%s is in zone %s: units entrench in an area of the map (8.5)", id, u.Place.Zone))
	case g.hasEnemy(u.Place, info.Side):
		return no("8.55", M("enemy units in its area (8.55)"), M("%s shares its area with enemy units: no entrenching there (8.55)", id))
	case u.Entrenched:
		return no("8.5", M("already entrenched (8.5)"), M("%s is already entrenched (8.5)", id))
	case u.Moved && g.mpUsed[id] == 0:
		return no("8.25", M("moved in an earlier impulse this turn (8.25)"), M("%s moved in an earlier impulse this turn (8.25)", id))
	}
	return yes()
}

// judgeArtillery judges whether the unit's SP count toward its side's
// artillery calls in a battle it fights (9.42): only in an area (9.17),
// and only in supply (13.22).
func (g *game) judgeArtillery(u *UnitState, info *Unit) Verdict {
	if v, ok := g.judgeAbsent(u, info); ok {
		return v
	}
	switch {
	case u.Place.IsZone():
		return no("9.17", M("in a zone: no battles in zones (9.17)"), Message{})
	case !u.InSupply:
		return no("13.22", M("out of supply: no artillery (13.22)"), Message{})
	}
	return yes()
}
