package rules

import "slices"

// placeSF places the German special-forces counter (14.1, 14.2).
func (g *game) placeSF(line int, o SpecialForces) {
	st := g.st
	a := g.s.Map.Area(o.Area)
	switch {
	case !g.s.SpecialForces:
		g.refuse(line, o, "%s has no special forces (14.0)", g.s.TitleMessage())
	case g.side() != German:
		g.refuse(line, o, "special forces are German, placed in a German impulse (14.12)")
	case g.imp.Day < 17 || g.imp.Day > 19:
		g.refuse(line, o, "special forces are used on 17, 18 and 19 December only (14.11)")
	case slices.Contains(st.SFDays, g.imp.Day):
		g.refuse(line, o, "the special forces of %d December are already used (14.11)", g.imp.Day)
	case slices.Contains(st.SFUsed, o.Effect):
		g.refuse(line, o, "%s was used earlier in the game: each effect once (14.21)", o.Effect)
	case a == nil || !g.s.Uses(AreaPlace(o.Area)):
		g.refuse(line, o, "area %d is not on the scenario's map", o.Area)
	case a.VP > 0:
		g.refuse(line, o, "%s is a VP area: special forces go to an area that is not (14.12)", a.Label())
	case o.Effect == SFDelay && g.imp.N == 3:
		g.refuse(line, o, "DELAY cannot be chosen in a third impulse (14.22)")
	default:
		st.SF = &SFCounter{Area: o.Area, Effect: o.Effect, Battle: o.Battle, Placed: g.imp}
		st.SFUsed = append(st.SFUsed, o.Effect)
		st.SFDays = append(st.SFDays, g.imp.Day)
		g.event(SFPlaced(o))
	}
}

// SFPlaced: the Germans placed their special forces (14.12, 14.21).
type SFPlaced struct {
	Area   int
	Effect string
	Battle int
}

// SFRemoved: the special forces left the map (14.3).
type SFRemoved struct{ Area int }

// String writes the event as the report prints it.
func (e SFPlaced) String() string { return e.Text().String() }

// Text is the event as a message.
func (e SFPlaced) Text() Message {
	switch e.Effect {
	case SFDelay:
		return M("German special forces in %d, %s: Allied units pay 1 MP more to enter or leave it (14.22)", e.Area, e.Effect)
	case SFDemolition:
		return M("German special forces in %d, %s: Allied demolitions from it succeed only on a 1 (14.23)", e.Area, e.Effect)
	case SFConfusion:
		return M("German special forces in %d, %s: all Allied fire in the battle at %d this impulse has +1 (14.24)", e.Area, e.Effect, e.Battle)
	}
	return M("German special forces in %d, %s: %s", e.Area, e.Effect, "")
}

// String writes the event as the report prints it.
func (e SFRemoved) String() string { return e.Text().String() }

// Text is the event as a message.
func (e SFRemoved) Text() Message { return M("the special forces leave %d (14.3)", e.Area) }
