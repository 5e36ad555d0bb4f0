package rules

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"strconv"
)

// State is a game's position between two impulses: everything that changes
// during play. What does not change (the map, the units' types, the
// scenario's terms) stays in the Scenario. A State is plain data: it is saved
// and loaded as JSON, so a game can be resumed anywhere.
type State struct {
	Scenario string  `json:"scenario"` // the scenario's name
	Next     Impulse `json:"next"`     // the impulse to play next
	Over     bool    `json:"over"`
	Result   string  `json:"result,omitempty"`
	VP       int     `json:"vp"` // German VP so far (12.12, 12.13)

	Units   []*UnitState  `json:"units"`   // every unit of the scenario, in order-of-battle order
	Bridges []BridgeState `json:"bridges"` // every bridge of the scenario's map, in map order
	// Control holds the side that controls each area, where one does (12.22).
	Control map[int]Side `json:"control"`
	// Released lists the panzer-reserve groups released so far (11.3).
	Released []string `json:"released,omitempty"`
	// ReleasedAt holds, for each released group, the Allied impulse at whose
	// end it was released (11.3): its units are reinforcements from then on
	// (11.11, 11.14).
	ReleasedAt map[string]Impulse `json:"released_at,omitempty"`
	// Standing holds each side's standing orders (B1, B3).
	Standing map[Side]*Standing `json:"standing"`
	// SF is the German special-forces counter on the map, if any (14.0).
	SF *SFCounter `json:"special_forces,omitempty"`
	// SFUsed lists the effects used so far (14.21) and SFDays the days on
	// which a counter was used (14.11).
	SFUsed []string `json:"sf_used,omitempty"`
	SFDays []int    `json:"sf_days,omitempty"`

	unit map[string]int // the index of Units by id (index)
}

// UnitState is what changes about a unit. What is false or empty is left
// out of its JSON: a campaign has two hundred units, and the store writes
// the position after every impulse.
type UnitState struct {
	ID         string `json:"id"`
	Strength   int    `json:"strength"`             // SP left (4.16, 9.23)
	Place      Place  `json:"place,omitzero"`       // zero before arrival and after elimination
	Arrived    bool   `json:"arrived,omitempty"`    // on the map or in a zone (set up, or arrived as a reinforcement)
	Eliminated bool   `json:"eliminated,omitempty"` // 9.21, 13.21, 7.2
	Entrenched bool   `json:"entrenched,omitempty"` // 8.5
	Moved      bool   `json:"moved,omitempty"`      // moved (or chose to stay, 9.14) in an impulse of this turn (8.25)
	Attacked   bool   `json:"attacked,omitempty"`   // attacked this turn (9.11, 9.16)
	Stayed     bool   `json:"stayed,omitempty"`     // stayed without attacking where its side fought this turn (9.14, B5)
	Dismounted bool   `json:"dismounted,omitempty"` // 5 MP until supply is traced without a blown bridge (8.35)
	InSupply   bool   `json:"in_supply,omitempty"`  // as last judged (13.1)
	Exited     bool   `json:"exited,omitempty"`     // entered an Allied VP zone, never to return (12.25)
	Bridging   bool   `json:"bridging,omitempty"`   // tried to repair a bridge this turn: no move or attack (10.14), another try each impulse (10.16)
	TurnStart  Place  `json:"turn_start,omitzero"`  // where the unit began the turn: only units that began together move as a stack (8.21)
}

// OnMap reports whether the unit is in an area or a zone.
func (u *UnitState) OnMap() bool { return u.Arrived && !u.Eliminated && !u.Place.IsZero() }

// SFCounter is a special-forces counter on the map (14.12).
type SFCounter struct {
	Area   int     `json:"area"`
	Effect string  `json:"effect"`           // DELAY, DEMOLITION or CONFUSION (14.21)
	Battle int     `json:"battle,omitempty"` // CONFUSION: the battle it affects (14.24)
	Placed Impulse `json:"placed"`
}

// BridgeState is a bridge's condition (10.0).
type BridgeState struct {
	A              int  `json:"a"`
	B              int  `json:"b"`
	Blown          bool `json:"blown"`
	RepairFailures int  `json:"repair_failures"` // 10.16: each failure widens the next try's range, and stays with the bridge
}

// Standing holds a side's standing orders, kept until changed.
type Standing struct {
	Blow   Blow     `json:"blow"`             // B1: a new game starts with BLOW ALL
	Defend []Defend `json:"defend,omitempty"` // B3
}

// NewState returns the position at the start of the scenario: units set up
// (5.2), bridges blown (5.1 and the scenario's), VP zero (5.3), and control
// of each area held by one side alone; or, for a scenario that starts from a
// written position, that position (checked when the scenario was loaded).
func NewState(s *Scenario) *State {
	if s.Position != nil {
		if st, ps := s.Position.state(s, s.File, nil, "position"); len(ps) == 0 {
			return st
		}
	}
	return newState(s)
}

// newState returns the position the scenario's set-up makes.
func newState(s *Scenario) *State {
	st := &State{
		Scenario: s.Name,
		Next:     s.StartImpulse,
		Control:  map[int]Side{},
		Standing: map[Side]*Standing{German: {Blow: Blow{All: true}}, Allied: {Blow: Blow{All: true}}},
	}
	for _, u := range s.Units {
		us := &UnitState{ID: u.ID, Strength: u.Strength, Entrenched: u.Entrenched, InSupply: true}
		if !u.Setup.IsZero() {
			us.Place, us.Arrived, us.TurnStart = u.Setup, true, u.Setup
		}
		st.Units = append(st.Units, us)
	}
	for _, r := range s.Map.Roads {
		a, b := s.Uses(AreaPlace(r.A)), s.Uses(AreaPlace(r.B))
		// The 5th Panzer scenario: units on their way in cross the bridges
		// on the edge of its map, which may be blown as they cross (10.2).
		if r.Bridge && (a && b || s.RemoveUnsuppliedOutsiders && (a || b)) {
			st.Bridges = append(st.Bridges, BridgeState{A: min(r.A, r.B), B: max(r.A, r.B), Blown: s.BlownAtStart(r.A, r.B)})
		}
	}
	st.index()
	holders := st.soleHolders(s)
	for _, a := range s.Map.Areas {
		if side, ok := holders[a.ID]; ok {
			st.Control[a.ID] = side
		}
	}
	return st
}

// index makes the index of the units by id: their places in Units, which a
// clone keeps (Clone), so that the index is made once for a game's
// positions rather than once for each.
func (st *State) index() {
	st.unit = make(map[string]int, len(st.Units))
	for i, u := range st.Units {
		if u != nil {
			st.unit[u.ID] = i
		}
	}
}

// Unit returns the state of the unit with the scenario's id, or nil.
func (st *State) Unit(id string) *UnitState {
	if st.unit == nil {
		st.index()
	}
	i, ok := st.unit[id]
	if !ok {
		return nil
	}
	if i < len(st.Units) {
		if u := st.Units[i]; u != nil && u.ID == id {
			return u
		}
	}
	// The units were changed since the index was made: make it again.
	st.index()
	if i, ok := st.unit[id]; ok {
		return st.Units[i]
	}
	return nil
}

// Bridge returns the bridge between areas a and b, or nil.
func (st *State) Bridge(a, b int) *BridgeState {
	a, b = min(a, b), max(a, b)
	for i := range st.Bridges {
		if st.Bridges[i].A == a && st.Bridges[i].B == b {
			return &st.Bridges[i]
		}
	}
	return nil
}

// UnitsAt returns the units of the side in a place (both sides if side is "").
func (st *State) UnitsAt(s *Scenario, p Place, side Side) []*UnitState {
	var out []*UnitState
	for _, u := range st.Units {
		// The area first: one comparison rules out most units, and a move
		// asks for every place it passes through (8.37).
		if u.Place.Area == p.Area && u.Place == p && u.OnMap() && (side == "" || s.OOB.Unit(u.ID).Side == side) {
			out = append(out, u)
		}
	}
	return out
}

// soleHolders returns, for every area that one side alone has units in,
// that side, from one pass over the units (12.22).
func (st *State) soleHolders(s *Scenario) map[int]Side {
	held := map[int]uint8{}
	for _, u := range st.Units {
		if u.OnMap() && !u.Place.IsZone() {
			if s.OOB.Unit(u.ID).Side == German {
				held[u.Place.Area] |= 1
			} else {
				held[u.Place.Area] |= 2
			}
		}
	}
	out := make(map[int]Side, len(held))
	for a, h := range held {
		switch h {
		case 1:
			out[a] = German
		case 2:
			out[a] = Allied
		}
	}
	return out
}

// soleHolder reports the side that alone has units in the area.
func (st *State) soleHolder(s *Scenario, area int) (Side, bool) {
	var g, a bool
	for _, u := range st.Units {
		if u.OnMap() && u.Place == AreaPlace(area) {
			if s.OOB.Unit(u.ID).Side == German {
				g = true
			} else {
				a = true
			}
		}
	}
	switch {
	case g && !a:
		return German, true
	case a && !g:
		return Allied, true
	}
	return "", false
}

// Clone returns a deep copy of the state, so that an impulse can be tried
// and thrown away.
//
// A replay clones a position several times an impulse, so a clone is made
// with few allocations: the units in one array, the control map copied
// whole, and the index of the units shared, since the clone's units are in
// the same places of Units (the index is never changed, only replaced).
func (st *State) Clone() *State {
	c := *st
	c.Units = make([]*UnitState, len(st.Units))
	units := make([]UnitState, len(st.Units))
	for i, u := range st.Units {
		units[i] = *u
		c.Units[i] = &units[i]
	}
	c.Bridges = append([]BridgeState(nil), st.Bridges...)
	// Never nil, even from a nil map, as before: the JSON of the two differs.
	if c.Control = maps.Clone(st.Control); c.Control == nil {
		c.Control = map[int]Side{}
	}
	c.Released = append([]string(nil), st.Released...)
	c.ReleasedAt = maps.Clone(st.ReleasedAt)
	c.SFUsed = append([]string(nil), st.SFUsed...)
	c.SFDays = append([]int(nil), st.SFDays...)
	if st.SF != nil {
		sf := *st.SF
		c.SF = &sf
	}
	c.Standing = map[Side]*Standing{}
	for k, v := range st.Standing {
		sv := *v
		sv.Defend = append([]Defend(nil), v.Defend...)
		c.Standing[k] = &sv
	}
	return &c
}

// LoadState reads a state saved as JSON and checks it against the scenario:
// the same scenario, every unit known, nothing no game could reach
// (checkState).
func LoadState(s *Scenario, data []byte) (*State, error) {
	st, ps := loadState(s, "the saved state", data)
	if len(ps) > 0 {
		return nil, ps.sorted()
	}
	return st, nil
}

// ReadState reads a position from the file name: the JSON a game saves
// (`titm adjudicate --out`) or a position written by hand in TOML (Position
// at the top level of the file). Every problem is returned together, with its
// line, as Problems.
func ReadState(s *Scenario, name string, data []byte) (*State, error) {
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '{' {
		st, ps := loadState(s, name, data)
		if len(ps) > 0 {
			return nil, ps.sorted()
		}
		return st, nil
	}
	var p Position
	loc, ps := decode(func(string) ([]byte, error) { return data, nil }, name, &p)
	if loc == nil {
		return nil, ps.sorted()
	}
	st, pps := p.state(s, name, loc, "")
	if ps = append(ps, pps...); len(ps) > 0 {
		return nil, ps.sorted()
	}
	return st, nil
}

// loadState decodes and checks a JSON state; problems name the line of the
// unit they concern where it can be found.
func loadState(s *Scenario, name string, data []byte) (*State, Problems) {
	var st State
	if err := json.Unmarshal(data, &st); err != nil {
		line := 0
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			line = lineAt(data, se.Offset)
		case errors.As(err, &te):
			line = lineAt(data, te.Offset)
		}
		return nil, Problems{{name, line, fmt.Sprintf("not a saved state: %v", err)}}
	}
	if st.Scenario != s.Name {
		return nil, Problems{{name, jsonKeyLine(data, "scenario", st.Scenario), fmt.Sprintf("the saved state is of scenario %q, not %q", st.Scenario, s.Name)}}
	}
	var ps Problems
	add := func(id, format string, args ...any) {
		ps = append(ps, Problem{name, jsonKeyLine(data, "id", id), fmt.Sprintf(format, args...)})
	}
	if len(st.Units) != len(s.Units) {
		ps = append(ps, Problem{name, jsonKeyLine(data, "units", ""), fmt.Sprintf("the saved state has %d units; scenario %s has %d", len(st.Units), s.Name, len(s.Units))})
	}
	for i, u := range st.Units {
		if i < len(s.Units) && u.ID != s.Units[i].ID {
			add(u.ID, "the saved state's unit %d is %q; the scenario's is %q", i+1, u.ID, s.Units[i].ID)
		}
	}
	if len(ps) > 0 {
		return nil, ps
	}
	if st.Control == nil {
		st.Control = map[int]Side{}
	}
	if st.Standing == nil {
		st.Standing = map[Side]*Standing{}
	}
	for _, side := range []Side{German, Allied} {
		if st.Standing[side] == nil {
			st.Standing[side] = &Standing{Blow: Blow{All: true}}
		}
	}
	st.index()
	for _, p := range checkState(s, &st) {
		add(p.unit, "%s", p.msg)
	}
	return &st, ps
}

// lineAt returns the 1-based line of the byte offset in data.
func lineAt(data []byte, off int64) int {
	off = min(max(off, 0), int64(len(data)))
	return bytes.Count(data[:off], []byte("\n")) + 1
}

// jsonKeyLine returns the line where key is first given value (any value if
// value is ""), or 0: enough to point at a unit by its id, since ids are
// unique.
func jsonKeyLine(data []byte, key, value string) int {
	v := ""
	if value != "" {
		v = regexp.QuoteMeta(strconv.Quote(value))
	}
	re, err := regexp.Compile(`"` + regexp.QuoteMeta(key) + `"\s*:\s*` + v)
	if err != nil {
		return 0
	}
	if loc := re.FindIndex(data); loc != nil {
		return lineAt(data, int64(loc[0]))
	}
	return 0
}

// MarshalText writes the impulse as G16-1.
func (i Impulse) MarshalText() ([]byte, error) { return []byte(i.String()), nil }

// UnmarshalText reads an impulse written as G16-1, or the end of the
// game, G23-1.
func (i *Impulse) UnmarshalText(b []byte) error {
	v, err := ParseImpulse(string(b))
	if err != nil {
		// A game played to the end of 22 December goes on to the impulse
		// after the last, which its position keeps as the next (the
		// position's digest is made so, in logs that must still verify),
		// though no order may name it.
		if string(b) == AfterLast.String() {
			*i = AfterLast
			return nil
		}
		return err
	}
	*i = v
	return nil
}

// AfterLast is the impulse a game played to the end of 22 December is at:
// the one after the last, which is never played.
var AfterLast = NextImpulse(Impulse{Allied, LastDay, ImpulsesOn(LastDay)})

// UnmarshalText reads a place written as an area number or a zone letter;
// the empty text is nowhere.
func (p *Place) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*p = Place{}
		return nil
	}
	v, err := ParsePlace(string(b))
	if err != nil {
		return err
	}
	*p = v
	return nil
}

// MarshalJSON and UnmarshalJSON write a Blow as its order text ("BLOW ALL").
func (b Blow) MarshalJSON() ([]byte, error) { return json.Marshal(b.String()) }

// UnmarshalJSON reads a Blow written as its order text.
func (b *Blow) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	o, err := ParseOrders(s, nil, nil)
	if err != nil || len(o.List) != 1 {
		return fmt.Errorf("standing order %s: %v", strconv.Quote(s), err)
	}
	v, ok := o.List[0].(Blow)
	if !ok {
		return fmt.Errorf("standing order %s is not BLOW", strconv.Quote(s))
	}
	*b = v
	return nil
}

// set records a standing order, replacing the one it supersedes: BLOW
// replaces BLOW (B1); DEFEND for an area replaces that area's, DEFEND PREFER
// the preference (B3).
func (sd *Standing) set(o Order) {
	switch o := o.(type) {
	case Blow:
		sd.Blow = o
	case Defend:
		kept := sd.Defend[:0:0]
		for _, d := range sd.Defend {
			if (len(o.Prefer) > 0) != (len(d.Prefer) > 0) || (len(o.Prefer) == 0 && d.Area != o.Area) {
				kept = append(kept, d)
			}
		}
		sd.Defend = append(kept, o)
	}
}

// ApplyStanding records a side's standing orders (BLOW, DEFEND), which a
// player may send at any time (B1, B3), and returns the new state; st is not
// changed. Any other order is refused: it belongs to the player's own
// impulse. Heading lines are accepted and ignored.
func ApplyStanding(st *State, side Side, o *Orders) (*State, error) {
	var errs OrderErrors
	for i, ord := range o.List {
		switch ord.(type) {
		case Blow, Defend, ImpulseLine, EndLine:
		default:
			if ClassOf(ord) == HeadingLine {
				continue
			}
			errs = append(errs, OrderErrorAt(o.Lines[i], ord.String(),
				M("only standing orders (BLOW, DEFEND) may be given outside your impulse; it is the %s impulse %s", st.Next.Side, st.Next.String())))
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	c := st.Clone()
	for _, ord := range o.List {
		c.Standing[side].set(ord)
	}
	return c, nil
}
