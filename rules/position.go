package rules

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// A Position is a position written by hand: where units stand, what they did
// earlier in the turn, the bridges, control and VP. It is laid over the
// scenario's start, so it names only what differs; docs/data-format.md
// describes it. A scenario may start from one ([position] in its file), a
// conformance case sets its board with one, and `titm adjudicate --state`
// reads one from a file of its own.
type Position struct {
	Next     string           `toml:"next"`     // the impulse to play next; the scenario's start if empty
	VP       int              `toml:"vp"`       // German VP so far (12.12)
	Clear    []Side           `toml:"clear"`    // the sides whose units not listed are out of play
	Released []string         `toml:"released"` // panzer-reserve groups already released (11.3)
	Control  PositionControl  `toml:"control"`  // control left by earlier impulses (12.22)
	SF       *PositionSF      `toml:"special_forces"`
	SFUsed   []string         `toml:"sf_used"` // 14.21: effects used earlier
	SFDays   []int            `toml:"sf_days"` // 14.11: days a counter was used
	Units    []PositionUnit   `toml:"unit"`
	Bridges  []PositionBridge `toml:"bridge"`
}

// PositionControl lists the areas each side controls without holding them
// (12.22). An area held by one side alone is that side's whatever is listed.
type PositionControl struct {
	German []int `toml:"german"`
	Allied []int `toml:"allied"`
}

// PositionSF is a special-forces counter on the map (14.12).
type PositionSF struct {
	Area   int    `toml:"area"`
	Effect string `toml:"effect"`
	Battle int    `toml:"battle"`
	Placed string `toml:"placed"`
}

// PositionUnit is one unit's place and history this turn. What is left out
// stays as the scenario sets the unit up.
type PositionUnit struct {
	ID          string `toml:"id"`
	At          Place  `toml:"at"`
	Strength    int    `toml:"strength"` // 0: full strength (4.16)
	Eliminated  bool   `toml:"eliminated"`
	Entrenched  *bool  `toml:"entrenched"`
	Moved       bool   `toml:"moved"`      // 8.25
	Attacked    bool   `toml:"attacked"`   // 9.16
	Stayed      bool   `toml:"stayed"`     // 9.14, B5
	Dismounted  bool   `toml:"dismounted"` // 8.35
	Exited      bool   `toml:"exited"`     // 12.25
	Bridging    bool   `toml:"bridging"`   // 10.14
	OutOfSupply bool   `toml:"out_of_supply"`
	TurnStart   Place  `toml:"turn_start"` // 8.21: where it began the turn; `at` if left out
}

// PositionBridge is a bridge's condition (10.0).
type PositionBridge struct {
	A              int   `toml:"a"`
	B              int   `toml:"b"`
	Blown          *bool `toml:"blown"`
	RepairFailures int   `toml:"repair_failures"` // 10.16
}

// State lays the position over the scenario's start and checks the result
// as LoadState does. file names where the position was written for the
// problems; lines, if not nil, are that file's lines and table the TOML
// table holding the position ("" for the top level). The error, if any, is
// Problems.
func (p *Position) State(s *Scenario, file string, lines *TOMLLines, table string) (*State, error) {
	st, ps := p.state(s, file, lines, table)
	if len(ps) > 0 {
		return nil, ps.sorted()
	}
	return st, nil
}

func (p *Position) state(s *Scenario, file string, lines *TOMLLines, table string) (*State, Problems) {
	if lines == nil {
		lines = NewTOMLLines(nil)
	}
	sub := func(name string) string {
		if table == "" {
			return name
		}
		return table + "." + name
	}
	at := func(key string) int {
		if table == "" {
			return lines.Line(key)
		}
		return lines.Line(append(strings.Split(table, "."), key)...)
	}
	c := &checker{file: file}
	st := newState(s)
	if p.Next != "" {
		imp, err := ParseImpulse(p.Next)
		switch {
		case err != nil:
			c.add(at("next"), "next: %v", err)
		case imp.Before(s.StartImpulse) || s.EndImpulse.Before(imp):
			c.add(at("next"), "next = %q: the scenario is played from %s to %s", p.Next, s.StartImpulse, s.EndImpulse)
		default:
			st.Next = imp
		}
	}
	st.VP = p.VP
	if p.VP < 0 {
		c.add(at("vp"), "vp = %d: VP start at 0 and only the Germans score (12.12, 12.13)", p.VP)
	}
	c.setGroups(s, st, p.Released, at("released"))
	listed := c.placeUnits(s, st, p, lines, sub("unit"), at("clear"))
	for i, pb := range p.Bridges {
		line := lines.item(sub("bridge"), i)
		b := st.Bridge(pb.A, pb.B)
		if b == nil {
			c.add(line, "there is no bridge between %d and %d on the scenario's map", pb.A, pb.B)
			continue
		}
		if pb.Blown != nil {
			b.Blown = *pb.Blown
		}
		if pb.RepairFailures < 0 {
			c.add(line, "repair_failures = %d: a count of failed tries (10.16)", pb.RepairFailures)
		}
		b.RepairFailures = pb.RepairFailures
	}
	c.setSF(s, st, p, at)
	st.index()
	c.setControl(s, st, p.Control, at("control"))
	for _, pr := range checkState(s, st) {
		line := 0
		if i, ok := listed[pr.unit]; ok {
			line = lines.item(sub("unit"), i)
		}
		c.add(line, "%s", pr.msg)
	}
	return st, c.ps
}

// placeUnits places the units listed, takes those of a cleared side out of
// play, and puts reinforcements due earlier, and the units of the panzer
// reserve groups released (11.3), in their zone unless given a place. It
// returns the index of each unit listed, by id.
func (c *checker) placeUnits(s *Scenario, st *State, p *Position, lines *TOMLLines, table string, clearLine int) map[string]int {
	listed := map[string]int{}
	for i, pu := range p.Units {
		line := lines.item(table, i)
		u := s.OOB.Unit(pu.ID)
		if u == nil || st.Unit(u.ID) == nil {
			c.add(line, "unit %q is not in scenario %s", pu.ID, s.Name)
			continue
		}
		if j, dup := listed[u.ID]; dup {
			c.add(line, "unit %s is listed twice (first on line %d)", u.ID, lines.item(table, j))
			continue
		}
		listed[u.ID] = i
		if u.Group != "" && !pu.At.IsZero() && !slices.Contains(st.Released, u.Group) {
			// 11.3: a reserve unit enters play only with its group.
			c.add(line, "unit %s is at %s, but it belongs to the panzer reserve group %q, which has not been released: add %q to `released` (11.3)", u.ID, pu.At, u.Group, u.Group)
			continue
		}
		c.setUnit(s, st, u, pu, line)
	}
	for _, side := range p.Clear {
		if side != German && side != Allied {
			c.add(clearLine, "clear = %q: the sides are \"german\" and \"allied\"", side)
		}
	}
	for _, us := range st.Units {
		placeUnlisted(s, st, p, us, listed)
		// A unit placed by setUnit has its turn-start place already.
		if i, ok := listed[us.ID]; ok && us.Arrived && !p.Units[i].TurnStart.IsZero() {
			us.TurnStart = p.Units[i].TurnStart
		}
	}
	return listed
}

// placeUnlisted places a unit the position does not give a place: where it
// set up, out of play if its side is cleared, or waiting in its zone if due
// or released earlier.
func placeUnlisted(s *Scenario, st *State, p *Position, us *UnitState, listed map[string]int) {
	u := s.OOB.Unit(us.ID)
	i, isListed := listed[us.ID]
	if isListed && (!p.Units[i].At.IsZero() || p.Units[i].Eliminated) {
		return
	}
	switch {
	case isListed && us.Arrived:
		// Listed without a place: where it set up.
	case !isListed && slices.Contains(p.Clear, u.Side):
		if us.Place.Area != 0 && st.Control[us.Place.Area] == u.Side {
			// Out of play from the start: the control its set-up gave
			// goes with it, unless a unit of its side still stands
			// there (setControl gives that back).
			delete(st.Control, us.Place.Area)
		}
		us.Arrived, us.Eliminated, us.Place, us.TurnStart = false, true, Place{}, Place{}
	case !us.Arrived && len(u.Zones) > 0 && u.Arrival.Day != 0 && u.Arrival.Before(st.Next):
		// Due earlier and not listed: waiting in its zone, as if the
		// impulses before had been played without moving it (11.15,
		// B7).
		z := ZonePlace(s.EntryZone(u))
		us.Arrived, us.Place, us.TurnStart = true, z, z
	case !us.Arrived && len(u.Zones) > 0 && slices.Contains(st.Released, u.Group):
		// Released earlier and not given a place: waiting in its zone,
		// placed there in supply at the release (11.3, 11.11, 11.15).
		z := ZonePlace(s.EntryZone(u))
		us.Arrived, us.Place, us.TurnStart, us.InSupply = true, z, z, !isListed || !p.Units[i].OutOfSupply
	}
}

// setUnit places one listed unit.
func (c *checker) setUnit(s *Scenario, st *State, u *Unit, pu PositionUnit, line int) {
	us := st.Unit(u.ID)
	if pu.Eliminated {
		if !pu.At.IsZero() {
			c.add(line, "unit %s is eliminated and at %s: give one", u.ID, pu.At)
		}
		us.Arrived, us.Eliminated, us.Place, us.TurnStart = false, true, Place{}, Place{}
		return
	}
	if !pu.At.IsZero() {
		if pu.At.Area == 0 && pu.At.Zone == "" {
			c.add(line, "at = %s: an area number or a zone letter A-P", pu.At)
			return
		}
		us.Place, us.Arrived, us.TurnStart = pu.At, true, pu.At
	}
	if !pu.TurnStart.IsZero() {
		us.TurnStart = pu.TurnStart
	}
	us.Strength = u.Strength
	if pu.Strength != 0 {
		us.Strength = pu.Strength
	}
	if pu.Entrenched != nil {
		us.Entrenched = *pu.Entrenched
	}
	us.Moved, us.Attacked, us.Dismounted = pu.Moved || pu.Stayed, pu.Attacked, pu.Dismounted
	us.Stayed = pu.Stayed
	us.Exited, us.Bridging, us.InSupply = pu.Exited, pu.Bridging, !pu.OutOfSupply
}

// setGroups marks the panzer-reserve groups released (11.3). A group is
// released at the end of an Allied impulse; a written position does not say
// which, so it is taken as the last Allied impulse before next, and the
// group's units as reinforcements from the German impulse after it
// (State.arrival): they may move onto the map from next on. A group is
// released once; none can be before the first Allied impulse.
func (c *checker) setGroups(s *Scenario, st *State, groups []string, line int) {
	last, ok := lastAlliedBefore(st.Next)
	for _, g := range groups {
		switch {
		case s.OOB.Group(g) == nil:
			var ids []string
			for _, grp := range s.OOB.Groups {
				ids = append(ids, strconv.Quote(grp.ID))
			}
			c.add(line, "released: %q is not a group of the order of battle; its groups are %s (11.31)", g, strings.Join(ids, ", "))
			continue
		case slices.Contains(st.Released, g):
			c.add(line, "released: %q is listed twice", g)
			continue
		case !ok:
			c.add(line, "released: %q: a group is released at the end of an Allied impulse (11.3), and none is played before %s", g, st.Next)
			continue
		}
		st.Released = append(st.Released, g)
		if st.ReleasedAt == nil {
			st.ReleasedAt = map[string]Impulse{}
		}
		st.ReleasedAt[g] = last
	}
}

// lastAlliedBefore returns the last Allied impulse before next, if any.
func lastAlliedBefore(next Impulse) (Impulse, bool) {
	var last Impulse
	found := false
	for i := (Impulse{Allied, FirstDay, 1}); i.Before(next); i = NextImpulse(i) {
		if i.Side == Allied {
			last, found = i, true
		}
	}
	return last, found
}

// setSF puts the special-forces counter on the map (14.12) and the record of
// its use (14.11, 14.21).
func (c *checker) setSF(s *Scenario, st *State, p *Position, at func(string) int) {
	for _, e := range p.SFUsed {
		if !slices.Contains(sfEffects, e) {
			c.add(at("sf_used"), "sf_used: %q is not an effect; they are %s (14.21)", e, strings.Join(sfEffects, ", "))
		}
	}
	st.SFUsed, st.SFDays = slices.Clone(p.SFUsed), slices.Clone(p.SFDays)
	if p.SF == nil {
		return
	}
	line := at("special_forces")
	sf := &SFCounter{Area: p.SF.Area, Effect: p.SF.Effect, Battle: p.SF.Battle}
	a := s.Map.Area(sf.Area)
	switch {
	case a == nil || !s.Uses(AreaPlace(sf.Area)):
		c.add(line, "special_forces: area %d is not on the scenario's map", sf.Area)
	case a.VP > 0:
		c.add(line, "special_forces: %s is a VP area, where no counter is placed (14.12)", a.Label())
	}
	if !slices.Contains(sfEffects, sf.Effect) {
		c.add(line, "special_forces: effect %q is not one of %s (14.21)", sf.Effect, strings.Join(sfEffects, ", "))
	}
	imp, err := ParseImpulse(p.SF.Placed)
	if err != nil || imp.Side != German {
		c.add(line, "special_forces: placed = %q: the German impulse it was placed in, as G17-2 (14.12)", p.SF.Placed)
	}
	sf.Placed = imp
	st.SF = sf
}

var sfEffects = []string{SFDelay, SFDemolition, SFConfusion}

// setControl gives control of the areas listed, then to each side of the
// areas it holds alone (12.22).
func (c *checker) setControl(s *Scenario, st *State, pc PositionControl, line int) {
	for side, areas := range map[Side][]int{German: pc.German, Allied: pc.Allied} {
		for _, n := range areas {
			if !s.Uses(AreaPlace(n)) {
				c.add(line, "control: area %d is not on the scenario's map", n)
				continue
			}
			if holder, ok := st.soleHolder(s, n); ok && holder != side {
				c.add(line, "control: %s holds %s alone, so controls it (12.22); it cannot be %s", holder.Title(), s.Map.Area(n).Label(), side)
				continue
			}
			st.Control[n] = side
		}
	}
	holders := st.soleHolders(s)
	for _, a := range s.Map.Areas {
		if side, ok := holders[a.ID]; ok {
			st.Control[a.ID] = side
		}
	}
}

// A stateProblem is something wrong with a position, and the unit it
// concerns if any.
type stateProblem struct {
	unit string
	msg  string
}

// checkState finds what no game could reach: a unit off the map, above its
// full strength or where its side may not be, an entrenched tank, a stack
// over the limit between impulses.
func checkState(s *Scenario, st *State) []stateProblem {
	var ps []stateProblem
	add := func(unit, format string, args ...any) {
		ps = append(ps, stateProblem{unit, fmt.Sprintf(format, args...)})
	}
	for _, us := range st.Units {
		if !us.Eliminated && us.Arrived {
			checkUnitState(s, us, add)
		}
	}
	for _, a := range s.Map.Areas {
		for _, side := range []Side{German, Allied} {
			us := st.UnitsAt(s, AreaPlace(a.ID), side)
			// 7.1: the Germans start over the limit on 16 December and
			// must be within it only from the end of G16-3.
			early := st.Next.Day == FirstDay && (st.Next.Side == German || st.Next.N < 3)
			if !overLimit(us) || (side == German && early) {
				continue
			}
			sp := 0
			for _, u := range us {
				sp += u.Strength
			}
			add(us[len(us)-1].ID, "%d %s units with %d SP in %s: over the limit of %d units and %d SP between impulses (7.1, 7.2)",
				len(us), side.Title(), sp, a.Label(), StackUnits, StackSP)
		}
	}
	return ps
}

// checkUnitState checks a unit in play: its strength, and a place it may
// be in.
func checkUnitState(s *Scenario, us *UnitState, add func(unit, format string, args ...any)) {
	u := s.OOB.Unit(us.ID)
	if us.Strength < 1 || us.Strength > u.Strength {
		add(u.ID, "%s has %d SP: its full strength is %d, and a unit with none left is eliminated (4.16, 9.21)", u.ID, us.Strength, u.Strength)
	}
	if us.Place.IsZero() || !s.Map.Has(us.Place) {
		add(u.ID, "%s is at %s, which is not on the map", u.ID, us.Place)
		return
	}
	if !s.Uses(us.Place) && !s.RemoveUnsuppliedOutsiders {
		add(u.ID, "%s is at %s, outside the map of %s", u.ID, s.Map.PlaceName(us.Place), s.Title)
	}
	if z := s.Map.Zone(us.Place.Zone); z != nil && z.ClosedTo == u.Side {
		add(u.ID, "%s is in zone %s, which %s units may never enter (11.22, 11.23)", u.ID, z.ID, u.Side)
	}
	if us.Entrenched && u.Type == Armor {
		add(u.ID, "%s is armour and cannot be entrenched (8.54)", u.ID)
	}
}
