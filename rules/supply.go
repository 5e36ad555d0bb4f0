package rules

// Supply (13.0) and attrition (13.21).
//
// A supply line (13.11) is a chain of places p0, p1, ..., pn joined by the
// map's links (Map.Links: the roads between areas, and the primary road that
// joins each zone to its areas, 11.13), from the unit's own place p0 to one of
// its side's sources pn (Scenario.Supply: zones by letter, and areas such as
// Mersch in the introductory scenario). The semantics implemented here, with
// the rule each part comes from:
//
//   - 13.11: sources are the scenario's, not every zone of the side. A unit
//     in a source (n = 0) is in supply, unless the source is the enemy's
//     (13.12): a source area the enemy controls while units of both sides
//     are in it (12.22) is no source, and the unit needs a line to another.
//   - 13.12: "補給線は、敵ユニットに支配されているエリアを通過できず、敵ユニット
//     に支配されているゾーンへ引くこともできません". No area the line passes
//     through (p1 .. pn-1) may be the enemy's, nor may a source area at its
//     end (pn). An area is the enemy's by control (12.22: the side that last
//     held it alone): when the enemy holds it alone; or when nobody holds it
//     alone now (empty, or units of both sides) and State.Control gives it to
//     the enemy, the last side to hold it alone at the end of an impulse. An
//     area one's own side holds alone is its own, whoever had it before. The
//     rulebook's supply example needs control and not mere occupation: empty
//     Sprimont lets the line pass, contested Bastogne, still the Allies',
//     stops it until the Germans clear it. Zones have no control of their
//     own: a source zone at the end of the line may not be held by enemy
//     units alone. The unit's own place p0 never blocks: the line starts
//     there, it does not pass through.
//   - 13.13: "補給線は、敵ユニットと自軍ユニットが両方存在するエリアを通過でき、
//     そのような境界ゾーンへも引くことができます": units of both sides in an
//     area or zone do not by themselves block; a contested area blocks only
//     as the enemy's by control (13.12), as Bastogne in the example.
//   - Zones are ends of lines, never passed through: a line starts in a zone
//     (a unit waiting there) or ends in a source zone, but it does not run
//     area - zone - area (3.21: zones lie off the map edge; they have no
//     roads between each other, 11.14 is a shift of arrival, not a road).
//   - 13.14: the line crosses intact bridges only, except that an
//     infantry-type unit (every type but armour, UnitType.InfantryType) may
//     cross one blown bridge. A road without a bridge is always passable.
//     Bridge state is State.Bridge; a bridge the state does not list falls
//     back to its state at the start of the scenario.
//   - Every place of the line, p0 included, is on the scenario's map
//     (Scenario.Uses); for the 5th Panzer scenario this is its special rule
//     "supply lines may be traced only along roads inside the scenario's
//     map". In that scenario (RemoveUnsuppliedOutsiders) a unit outside the
//     scenario's map is in supply while it stands where the rule puts it in
//     supply: its set-up place ("all units are in supply at set-up") or one
//     of its entry zones ("reinforcements are in supply when placed in their
//     entry zone"); anywhere else outside it is out of supply. Whether such a
//     unit is removed at the end of the turn (inside the map and in supply)
//     is for the caller: Scenario.Uses(u.Place) && u.InSupply.
//   - Units not on the map (not yet arrived, eliminated) are not in supply:
//     Supplied returns false, and JudgeSupply leaves their InSupply alone.
//
// Lines are found by one search per side from the sources outward (a 0-1
// breadth-first search where crossing a blown bridge costs 1), which gives
// for every place the fewest blown bridges on a line from it, 0 or 1; so one
// search answers for armour (0), for infantry-type units (at most 1) and for
// 8.35 (0), and JudgeSupply costs two searches whatever the number of units.

// SupplyChange: a unit's supply state changed when supply was judged
// (13.15-13.17); InSupply is the new state. It is an Event.
type SupplyChange struct {
	Unit     string
	InSupply bool
}

// Attrited: a unit lost 1 SP in the attrition phase (13.21); Strength is
// what it has left, and Eliminated tells whether that was its last. It is an
// Event.
type Attrited struct {
	Unit       string
	Strength   int
	Eliminated bool
}

// String writes the change as the report prints it.
func (e SupplyChange) String() string { return e.Text().String() }

// Text is the event as a message.
func (e SupplyChange) Text() Message {
	if e.InSupply {
		return M("%s is in supply again (13.11)", e.Unit)
	}
	return M("%s is out of supply (13.11-13.14)", e.Unit)
}

// String writes the loss as the report prints it.
func (e Attrited) String() string { return e.Text().String() }

// Text is the event as a message.
func (e Attrited) Text() Message {
	if e.Eliminated {
		return M("%s loses its last SP to attrition and is eliminated (13.21)", e.Unit)
	}
	return M("%s loses 1 SP to attrition: %d SP left (13.21)", e.Unit, e.Strength)
}

// Supplied reports whether the unit can trace a supply line to a source of
// its side (13.11-13.14) in the current position: for an infantry-type unit
// across at most one blown bridge, for armour across none (13.14). It returns
// false for a unit that is not on the map. It judges; it does not set
// u.InSupply (JudgeSupply does, at the moments of 13.15-13.17).
func (st *State) Supplied(s *Scenario, u *UnitState) bool {
	return st.supplyTraceOne(s, u, true)
}

// SuppliedWithoutBlownBridge reports whether the unit can trace a supply line
// that crosses no blown bridge at all, whatever its type: the condition of
// 8.35 for a unit that cut itself to 5 MP to cross a blown bridge to get its
// full MP back. It returns false for a unit that is not on the map.
func (st *State) SuppliedWithoutBlownBridge(s *Scenario, u *UnitState) bool {
	return st.supplyTraceOne(s, u, false)
}

// JudgeSupply judges the supply of every unit on the map at once (13.15
// before movement, 13.16 before battles, 13.17 in the attrition phase): every
// line is traced in the position as it is, and only then is each unit's
// InSupply set, so the order of the units never matters. A dismounted unit
// (8.35) that can trace supply without crossing a blown bridge gets its full
// MP back: Dismounted is cleared. It returns the units whose InSupply changed,
// in the order of the units of the state (order-of-battle order). Units not
// on the map are not judged.
func (st *State) JudgeSupply(s *Scenario) []SupplyChange {
	var h supplyHolding
	st.supplyControl(&h)
	st.supplyUnits(s, &h)
	var nets [2]*supplyNet // German, Allied: traced when first needed
	type verdict struct{ judged, supplied, noBlown bool }
	verdicts := make([]verdict, len(st.Units))
	for i, u := range st.Units {
		if !u.OnMap() {
			continue
		}
		info := st.supplyUnitInfo(s, i)
		if info == nil {
			continue
		}
		v := verdict{judged: true}
		if outside, ok := supplyOutsider(s, info, u); outside {
			v.supplied, v.noBlown = ok, ok
		} else {
			k := 0
			if info.Side == Allied {
				k = 1
			}
			if nets[k] == nil {
				e := h.enemyOf(info.Side)
				nets[k] = st.supplyTrace(s, info.Side, &e)
			}
			blown := nets[k].blown[supplySlot(u.Place)]
			v.supplied = blown == 0 || blown == 1 && info.Type.InfantryType() // 13.14
			v.noBlown = blown == 0                                            // 8.35
		}
		verdicts[i] = v
	}
	// Simultaneous: every line above was traced before any unit changes.
	var changes []SupplyChange
	for i, u := range st.Units {
		v := verdicts[i]
		if !v.judged {
			continue
		}
		if u.InSupply != v.supplied {
			u.InSupply = v.supplied
			changes = append(changes, SupplyChange{Unit: u.ID, InSupply: v.supplied})
		}
		if u.Dismounted && v.noBlown {
			u.Dismounted = false // 8.35: back to its normal MP
		}
	}
	return changes
}

// Attrition carries out the attrition phase (6.0 step 5, 13.21): supply is
// judged for every unit on the map (13.17, by JudgeSupply), and then every
// unit out of supply, of both sides, loses 1 SP at once; a unit left with 0
// SP is eliminated. Because every unit is judged before any loses strength,
// a unit's elimination never puts another out of supply in the same phase
// (13.21). It returns the losses in the order of the units of the state. A
// caller that reports the changes of supply calls JudgeSupply first: judging
// again finds nothing new.
func (st *State) Attrition(s *Scenario) []Attrited {
	st.JudgeSupply(s)
	var out []Attrited
	for _, u := range st.Units {
		if !u.OnMap() || u.InSupply {
			continue
		}
		u.Strength--
		a := Attrited{Unit: u.ID, Strength: max(u.Strength, 0)}
		if u.Strength <= 0 {
			u.Strength = 0
			u.Eliminated, u.Place = true, Place{} // 13.21, 9.21: removed at 0 SP
			a.Eliminated = true
		}
		out = append(out, a)
	}
	return out
}

// supplyTraceOne judges one unit: one search for its side. oneBlown allows an
// infantry-type unit its one blown bridge (13.14); without it no blown bridge
// is crossed (8.35).
func (st *State) supplyTraceOne(s *Scenario, u *UnitState, oneBlown bool) bool {
	return st.supplyJudge(s, u, oneBlown, nil)
}

// supplyJudge is supplyTraceOne with a memo of the searches (nil: none).
func (st *State) supplyJudge(s *Scenario, u *UnitState, oneBlown bool, memo *supplyMemo) bool {
	if u == nil || !u.OnMap() {
		return false
	}
	info := s.OOB.Unit(u.ID)
	if info == nil {
		return false
	}
	if outside, ok := supplyOutsider(s, info, u); outside {
		return ok
	}
	var net *supplyNet
	if memo != nil {
		net = memo.trace(st, s, info.Side)
	} else {
		var h supplyHolding
		st.supplyControl(&h)
		st.supplyUnits(s, &h)
		e := h.enemyOf(info.Side)
		net = st.supplyTrace(s, info.Side, &e)
	}
	blown := net.blown[supplySlot(u.Place)]
	if oneBlown && info.Type.InfantryType() {
		return blown <= 1 // 13.14 exception: one blown bridge
	}
	return blown == 0
}

// supplyOutsider applies the 5th Panzer scenario's special rule to a unit
// outside the scenario's map: outside is true for such a unit, and supplied
// tells whether it stands where the rule puts it in supply (its set-up place,
// or one of its entry zones). Elsewhere outside the map no line can be
// traced, since lines run only inside it.
func supplyOutsider(s *Scenario, info *Unit, u *UnitState) (outside, supplied bool) {
	if !s.RemoveUnsuppliedOutsiders || s.Uses(u.Place) {
		return false, false
	}
	if !info.Setup.IsZero() && u.Place == info.Setup {
		return true, true // "all units are in supply at set-up"
	}
	if u.Place.IsZone() {
		for _, z := range info.Zones {
			if z == u.Place.Zone {
				return true, true // "reinforcements are in supply when placed in their entry zone"
			}
		}
	}
	return true, false
}

// supplyUnitInfo returns the order-of-battle entry of the state's i-th unit:
// the scenario's i-th unit when the two lists agree, as they do for states
// made by NewState and LoadState, else looked up by id.
func (st *State) supplyUnitInfo(s *Scenario, i int) *Unit {
	u := st.Units[i]
	if i < len(s.Units) && s.Units[i].ID == u.ID {
		return s.Units[i]
	}
	return s.OOB.Unit(u.ID)
}

// supplyUnitSide returns the side of the state's i-th unit as supplySide
// gives it, or -1 for a unit the order of battle does not know.
func (st *State) supplyUnitSide(s *Scenario, i int) int8 {
	if info := st.supplyUnitInfo(s, i); info != nil {
		return int8(supplySide(info.Side))
	}
	return -1
}

// Places are indexed densely for the searches: areas by number (1..999),
// zones A..P after them.
const (
	supplyZoneBase = 1000
	supplySlots    = supplyZoneBase + 16
)

// supplySlot returns the index of a place, 0 (never an area) for nowhere.
func supplySlot(p Place) int {
	if p.Zone != "" {
		if i := zoneIndex(p.Zone); i >= 0 {
			return supplyZoneBase + i
		}
		return 0
	}
	if p.Area > 0 && p.Area < supplyZoneBase {
		return p.Area
	}
	return 0
}

// supplyBits holds a bit for each place, by slot.
type supplyBits [(supplySlots + 63) / 64]uint64

// has reports whether the place at slot i has its bit.
func (b *supplyBits) has(i int) bool { return b[i>>6]>>(i&63)&1 != 0 }

func (b *supplyBits) set(i int) { b[i>>6] |= 1 << (i & 63) }

// supplyHolding records which places hold units of each side, and which
// areas each side controls (State.Control, 12.22): German first, then
// Allied.
type supplyHolding struct {
	units, control [2]supplyBits
}

// supplySide returns a side's index in a supplyHolding: 0 German, 1
// Allied.
func supplySide(side Side) int {
	if side == German {
		return 0
	}
	return 1
}

// supplyControl reads the control of the areas into h.
func (st *State) supplyControl(h *supplyHolding) {
	for a, side := range st.Control {
		if i := supplySlot(AreaPlace(a)); i > 0 {
			h.control[supplySide(side)].set(i)
		}
	}
}

// supplyUnits reads into h the places of the units on the map.
func (st *State) supplyUnits(s *Scenario, h *supplyHolding) {
	for i, u := range st.Units {
		if !u.OnMap() {
			continue
		}
		if info := st.supplyUnitInfo(s, i); info != nil {
			h.units[supplySide(info.Side)].set(supplySlot(u.Place))
		}
	}
}

// enemyOf returns the places that are the enemy's for side's supply lines
// (13.12): held by enemy units alone, or, held by neither side alone,
// controlled by the enemy (12.22; 13.13: units of both sides do not by
// themselves block). A place its own side holds alone is its own, whoever
// had it before. Zones have no control, so only enemy units alone make a
// zone the enemy's. This is all a search depends on of the holdings: most
// moves change the holdings but not this (a stack moving between places of
// its own side), and the search is then not made again (supplyMemo).
func (h *supplyHolding) enemyOf(side Side) supplyBits {
	k := supplySide(side)
	own, enemy, control := &h.units[k], &h.units[1-k], &h.control[1-k]
	var e supplyBits
	for w := range e {
		// Enemy units alone; or both sides' units or none, and the
		// enemy's control.
		e[w] = enemy[w]&^own[w] | control[w]&^(own[w]^enemy[w])
	}
	return e
}

// supplyLinks returns the links from the place at slot i, as Map.Links
// does from the place.
func supplyLinks(m *Map, i int) []Link {
	if i >= supplyZoneBase {
		return m.zoneLinks[i-supplyZoneBase]
	}
	return m.areaLinks[i]
}

// supplyNoLine marks a place without a line crossing at most one blown
// bridge.
const supplyNoLine = 127

// A supplyNet is the result of one search from a side's sources: for every
// place, the fewest blown bridges on a supply line from it (0 or 1), or
// supplyNoLine.
type supplyNet struct {
	blown [supplySlots]int8
}

// supplyTrace searches from the side's sources outward, in the position
// whose places that are the enemy's are e (enemyOf). The search runs
// backwards along the line: reaching place r from place q means a line r,
// q, ... to a source exists, so q is passed through and must be passable
// (13.12), while r is only the start of the line and may be anything, the
// unit being there. Crossing a blown bridge costs 1 (13.14); lines costing
// more than 1 are never needed. Layer 0 is searched completely before
// layer 1, so each place gets its fewest.
func (st *State) supplyTrace(s *Scenario, side Side, e *supplyBits) *supplyNet {
	n := &supplyNet{}
	st.supplySearch(n, nil, s, side, e)
	return n
}

// supplySearch is supplyTrace into n, with the layers' room kept in
// layers when it is not nil. Places go by their slots: a Place is five
// words to copy, and a map's links are found by slot as well.
func (st *State) supplySearch(n *supplyNet, layers *[2][]int16, s *Scenario, side Side, e *supplyBits) {
	for i := range n.blown {
		n.blown[i] = supplyNoLine
	}
	var source [supplySlots]bool
	var layer [2][]int16
	if layers != nil {
		layer = [2][]int16{layers[0][:0], layers[1][:0]}
		defer func() { *layers = layer }()
	} else {
		layer[0] = make([]int16, 0, 256)
	}
	layer[0] = n.seed(s, side, e, &source, layer[0])
	blownBridges := st.supplyBlown(s)
	// Whether the scenario uses each place, asked once a place: 0 not
	// asked yet, 1 used, 2 not.
	var uses [supplySlots]uint8
	for k := 0; k < 2; k++ {
		for j := 0; j < len(layer[k]); j++ {
			qi := int(layer[k][j])
			if int(n.blown[qi]) < k {
				continue // already searched from with fewer blown bridges
			}
			// 13.12: an area that is the enemy's is not passed through;
			// zones are ends of lines only. Sources are the line's end.
			if !source[qi] && (qi >= supplyZoneBase || e.has(qi)) {
				continue
			}
			for _, l := range supplyLinks(s.Map, qi) {
				ri := supplySlot(l.To)
				if int(n.blown[ri]) <= k {
					continue
				}
				if uses[ri] == 0 {
					uses[ri] = 2
					if s.Uses(l.To) {
						uses[ri] = 1
					}
				}
				if uses[ri] != 1 {
					continue
				}
				c := k
				if l.Road != nil && l.Road.Bridge && blownBridges.blown(s, l.Road) {
					c++ // 13.14
				}
				if c > 1 || int(n.blown[ri]) <= c {
					continue
				}
				n.blown[ri] = int8(c)
				layer[c] = append(layer[c], int16(ri))
			}
		}
	}
}

// seed marks the side's sources as reached with no bridge blown and
// appends them to the first layer of the search.
func (n *supplyNet) seed(s *Scenario, side Side, e *supplyBits, source *[supplySlots]bool, layer []int16) []int16 {
	for _, p := range s.Supply.Sources(side) {
		i := supplySlot(p)
		// 13.11: a source of the scenario's map; 13.12: a line may not end
		// in a source that is the enemy's.
		if i == 0 || !s.Map.Has(p) || !s.Uses(p) || e.has(i) || source[i] {
			continue
		}
		source[i] = true
		n.blown[i] = 0
		layer = append(layer, int16(i))
	}
	return layer
}

// A supplyMemo keeps a side's last supply search with what it depends on:
// which places are the enemy's (enemyOf), and the state's bridges. Moving a
// stack judges the supply of each of its units at each step (8.28, 13.23),
// mostly in the same position: one search serves them all. It serves one
// Play, in one goroutine.
//
// It reads the control of the areas once: control changes only at the end
// of an impulse (12.22), after every move, and game.control, which changes
// it then, forgets what the memo read (forgetControl).
type supplyMemo struct {
	control bool          // h.control is read
	h       supplyHolding // the control kept; the units read at every trace
	// unitSides holds each unit's side, by its place in Units, as
	// supplySide gives it, or -1 for a unit the order of battle does not
	// know: a Play changes where each unit is, never which units there
	// are.
	unitSides []int8
	sides     [2]struct {
		ok      bool
		enemy   supplyBits
		bridges []BridgeState
		net     supplyNet
		layers  [2][]int16 // room for the searches, kept
	}
}

// trace returns the search for side in the position, made now or kept.
func (m *supplyMemo) trace(st *State, s *Scenario, side Side) *supplyNet {
	if !m.control {
		m.h.control = [2]supplyBits{}
		st.supplyControl(&m.h)
		m.control = true
	}
	if len(m.unitSides) != len(st.Units) {
		m.unitSides = make([]int8, len(st.Units))
		for i := range st.Units {
			m.unitSides[i] = st.supplyUnitSide(s, i)
		}
	}
	// What supplyUnits reads, with the sides kept.
	m.h.units = [2]supplyBits{}
	for i, u := range st.Units {
		if k := m.unitSides[i]; k >= 0 && u.OnMap() {
			m.h.units[k].set(supplySlot(u.Place))
		}
	}
	e := m.h.enemyOf(side)
	k := &m.sides[supplySide(side)]
	if k.ok && k.enemy == e && bridgesEqual(k.bridges, st.Bridges) {
		return &k.net
	}
	st.supplySearch(&k.net, &k.layers, s, side, &e)
	k.ok, k.enemy = true, e
	k.bridges = append(k.bridges[:0], st.Bridges...)
	return &k.net
}

// forgetControl makes the memo read the control of the areas again, after
// it changed (12.22).
func (m *supplyMemo) forgetControl() { m.control = false }

// bridgesEqual compares the bridges as supply sees them: which are listed
// and which are blown.
func bridgesEqual(a, b []BridgeState) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].A != b[i].A || a[i].B != b[i].B || a[i].Blown != b[i].Blown {
			return false
		}
	}
	return true
}

// supplyBridges answers whether a bridge is blown from the state's list,
// read once per search.
type supplyBridges struct {
	st     *State
	blownB [][2]int
}

func (st *State) supplyBlown(s *Scenario) supplyBridges {
	b := supplyBridges{st: st}
	for _, br := range st.Bridges {
		if br.Blown {
			b.blownB = append(b.blownB, [2]int{br.A, br.B})
		}
	}
	return b
}

// blown reports whether the bridge of road r is blown: as the state records
// it (10.0), or, for a bridge the state does not list, as at the start of the
// scenario (5.1 and the scenario's own).
func (b supplyBridges) blown(s *Scenario, r *Road) bool {
	k := [2]int{min(r.A, r.B), max(r.A, r.B)}
	for _, x := range b.blownB {
		if x == k {
			return true
		}
	}
	if b.st.Bridge(r.A, r.B) != nil {
		return false
	}
	return s.BlownAtStart(r.A, r.B)
}
