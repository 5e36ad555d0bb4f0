package rules

import (
	"fmt"
	"strconv"
	"strings"
)

// A kind is one order keyword: its grammar, its place in HELP and its parser.
// The table below is the only statement of the order language; the parser,
// the HELP text and the tests all read it.
type kind struct {
	keyword string
	syntax  string
	section string // one of the sections below
	summary string
	rules   string
	once    bool // at most one such line in a mail
	parse   func(lp *lineParser) Order
	// example makes the examples HELP gives at the game's position: each
	// a group of lines checked together, or none and the reason.
	example func(ex *examples) (groups [][]string, why string)
	// applies reports whether the order is open to a player of the side in
	// the scenario; nil: always. HELP leaves out what does not apply.
	applies func(s *Scenario, side Side) bool

	index int // place in the table
}

// The sections of the HELP text, in order.
const (
	secHeader   = "Heading lines"
	secImpulse  = "Orders for your own impulse"
	secStanding = "Standing orders (any time, kept until changed)"
	secRequest  = "Requests (any time)"
)

var sections = []string{secHeader, secImpulse, secStanding, secRequest}

func kindTable() []*kind {
	return []*kind{
		{keyword: "IMPULSE", syntax: "IMPULSE day-n", section: secHeader, once: true,
			summary: "the impulse the orders are for, as 17-2; orders for another impulse are never applied",
			rules:   "8.1", parse: parseImpulseLine,
			example: exImpulse},
		{keyword: "END", syntax: "END", section: secHeader,
			summary: "the end of the orders: everything below is ignored",
			parse: func(lp *lineParser) Order {
				lp.i = len(lp.toks) // END ends the orders, and its own line too
				return EndLine{}
			}},

		{keyword: "MOVE", syntax: "MOVE unit... path [ELSE path]", section: secImpulse,
			summary: "the units move together along the areas and zones of the path, the first of which may be their own area; ELSE gives the way on from the near side of a bridge blown under them (else they stop there). An area with enemy units ends the path: the units stop on entering it and fight there, so a path that goes on beyond it is refused (8.22, 9.12); entering an area with any other units costs 1 MP more (8.37), leaving one with enemy units 1 MP more (8.36), and no move goes straight from one area with enemy units to another (8.27)",
			rules:   "8.2, 8.3, 8.21, 8.22, 8.42, B2", parse: parseMove(false), example: exMove},
		{keyword: "FOOT", syntax: "FOOT unit... path [ELSE path]", section: secImpulse,
			summary: "as MOVE, the units moving as infantry: 5 MP, and a blown bridge crossed for 3 MP",
			rules:   "8.34, 8.35", parse: parseMove(true), example: exFoot},
		{keyword: "ENTRENCH", syntax: "ENTRENCH unit...", section: secImpulse,
			summary: "the units entrench (an engineer may first move up to 4 MP on a MOVE line); never armour",
			rules:   "8.5", parse: parseEntrench, example: exEntrench},
		{keyword: "ATTACK", syntax: "ATTACK area [WITH unit...]", section: secImpulse,
			summary: "units that began the impulse in the contested area attack there; without WITH, all that may",
			rules:   "9.13, 9.14, B5", parse: parseAttack, example: exAttack},
		{keyword: "FIRE", syntax: "FIRE area unit>target...", section: secImpulse,
			summary: "your targets in the battle at the area; what you leave open the fixed policy chooses",
			rules:   "9.5, B3", parse: parseFire, example: exFire},
		{keyword: "ARTY", syntax: "ARTY area target...", section: secImpulse,
			summary: "where your artillery strikes go, in order, where 9.46 leaves a choice",
			rules:   "9.46", parse: parseArty, example: exArty},
		{keyword: "BATTLES", syntax: "BATTLES area...", section: secImpulse, once: true,
			summary: "the order in which your battles are fought (else by area number)",
			rules:   "9.0, B4", parse: parseBattles, example: exBattles},
		{keyword: "REPAIR", syntax: "REPAIR a-b BY unit", section: secImpulse,
			summary: "the engineer tries to repair the bridge at the end of the impulse",
			rules:   "10.1", parse: parseRepair, example: exRepair},
		{keyword: "SF", syntax: "SF area DELAY|DEMOLITION|CONFUSION [battle-area]", section: secImpulse, once: true,
			summary: "German special forces to the area, with their effect; CONFUSION names the battle",
			rules:   "14.0", parse: parseSF, example: exSF,
			applies: func(s *Scenario, side Side) bool { return side == German && s.SpecialForces }},
		{keyword: "REMOVE", syntax: "REMOVE area unit...", section: secImpulse,
			summary: "the units to remove first if the area ends the impulse over the stacking limit",
			rules:   "7.2, B6", parse: parseRemove, example: exRemove},

		{keyword: "BLOW", syntax: "BLOW ALL | BLOW NONE | BLOW a-b [BY unit]...", section: secStanding,
			summary: "which bridges to try to blow when the enemy crosses them, and with which unit (a new game starts with ALL)",
			rules:   "10.2, B1", parse: parseBlow, example: exBlow},
		{keyword: "DEFEND", syntax: "DEFEND area unit>target... | DEFEND PREFER type...", section: secStanding,
			summary: "your fire when attacked: targets in an area, or the unit types to fire at first",
			rules:   "9.5, B3", parse: parseDefend, example: exDefend},
	}
}

var kinds = kindTable()

var kindIndex = func() map[string]*kind {
	m := map[string]*kind{}
	for i, k := range kinds {
		k.index = i
		m[k.keyword] = k
	}
	return m
}()

func kindByKeyword(kw string) *kind { return kindIndex[kw] }

func keywordList(ks []*kind) Message {
	var out []string
	for _, k := range ks {
		out = append(out, k.keyword)
	}
	return List(out)
}

// Heading lines.

// ImpulseLine is IMPULSE day-n.
type ImpulseLine struct{ Day, N int }

// EndLine is END.
type EndLine struct{}

func (ImpulseLine) Keyword() string     { return "IMPULSE" }
func (EndLine) Keyword() string         { return "END" }
func (i ImpulseLine) String() string    { return fmt.Sprintf("IMPULSE %d-%d", i.Day, i.N) }
func (EndLine) String() string          { return "END" }
func (i ImpulseLine) Of(s Side) Impulse { return Impulse{s, i.Day, i.N} }

func parseImpulseLine(lp *lineParser) Order {
	if !lp.more() {
		lp.fail("the impulse is missing: IMPULSE day-n, as IMPULSE 17-2")
		return nil
	}
	day, n, err := ParseDayImpulse(lp.next())
	if err != nil {
		lp.failWith(MessageOf(err))
		return nil
	}
	if s := lp.p.s; s != nil && (day < s.StartImpulse.Day || day > s.EndImpulse.Day) {
		lp.fail("%s is played from %d to %d December", s.TitleMessage(), s.StartImpulse.Day, s.EndImpulse.Day)
		return nil
	}
	i := ImpulseLine{day, n}
	lp.p.impulse, lp.p.hasImpulse = i, true
	return i
}

// Orders for the player's own impulse.

// Move is MOVE (or FOOT, moving as infantry: 8.34) unit... path [ELSE path]...
type Move struct {
	Foot  bool
	Units []string
	Path  []Place
	Else  [][]Place // each from an area of Path: the way on if a bridge is blown there (8.42, B2)
}

func (m Move) Keyword() string {
	if m.Foot {
		return "FOOT"
	}
	return "MOVE"
}

func (m Move) String() string {
	var b strings.Builder
	b.WriteString(m.Keyword())
	writeList(&b, m.Units)
	writePlaces(&b, m.Path)
	for _, e := range m.Else {
		b.WriteString(" ELSE")
		writePlaces(&b, e)
	}
	return b.String()
}

func parseMove(foot bool) func(lp *lineParser) Order {
	return func(lp *lineParser) Order {
		m := Move{Foot: foot}
		// A number with a letter for a digit (2O) starts the path, as a
		// place written wrong, unless it is a unit's id.
		m.Units = lp.unitsUntil(M("name the units to move, then the areas of their path"), lp.misdigit)
		lp.outside = lp.startOutside(m.Units)
		m.Path = lp.path()
		if len(m.Path) == 0 && lp.nerrs == 0 {
			lp.fail("the path is missing: after the units, the area numbers they move through, as %s %s 62 70", m.Keyword(), strings.Join(m.Units, " "))
		}
		for lp.word("ELSE") {
			e := lp.path()
			if len(e) < 2 && lp.nerrs == 0 {
				lp.fail("ELSE needs a path: the area where the stack would stop, then where it goes on to")
			}
			m.Else = append(m.Else, e)
		}
		return m
	}
}

func (m Move) validate(lp *lineParser) {
	var side Side
	for _, id := range m.Units {
		u := lp.unitOf(id)
		if u == nil {
			continue
		}
		if own := lp.p.opt.Side; own != "" && u.Side != own {
			lp.failWith(sideUnit(id, u.Side, own))
			continue
		}
		if side != "" && u.Side != side {
			lp.fail("%s and the other units are of different sides", id)
		}
		side = u.Side
		if m.Foot && u.Type == Armor {
			lp.fail("%s is armour, which cannot move as infantry (8.34: mech, mot and engineers can)", id)
		}
		if first, dup := lp.p.movedOn(id, u); dup {
			lp.fail("%s already moves on line %d: a unit is named in one MOVE or FOOT line", id, first)
		}
	}
	lp.roads(m.Path, side)
	for _, e := range m.Else {
		if len(e) > 0 && !contains(m.Path, e[0]) {
			lp.fail("ELSE %s: the alternative path starts where the stack would stop, one of the areas of the path (8.42)", placesString(e))
		}
		lp.roads(e, side)
	}
	if lp.nerrs == 0 {
		for _, id := range m.Units {
			lp.p.setMoved(id, lp.unitOf(id), lp.n)
		}
	}
}

// roads checks that each step of a path follows a road (3.22) and enters no
// zone the side may never enter (11.22, 11.23).
func (lp *lineParser) roads(path []Place, side Side) {
	s := lp.p.s
	if s == nil {
		return
	}
	for i, p := range path {
		if p.IsZone() && side != "" {
			if z := s.Map.Zone(p.Zone); z != nil && z.ClosedTo == side {
				lp.fail("zone %s is closed to %s units (11.22, 11.23)", p.Zone, side)
			}
		}
		if i == 0 {
			continue
		}
		prev := path[i-1]
		joined := false
		for _, l := range s.Map.Links(prev) {
			joined = joined || l.To == p
		}
		if !joined {
			var next []string
			for _, l := range s.Map.Links(prev) {
				if s.Uses(l.To) || lp.outside {
					next = append(next, l.To.String())
				}
			}
			lp.fail("no road joins %s and %s: units move only along roads (3.22); from %s roads lead to %s",
				s.Map.PlaceMessage(prev), s.Map.PlaceMessage(p), prev.String(), strings.Join(next, " "))
		}
	}
}

// Entrench is ENTRENCH unit... (8.5).
type Entrench struct{ Units []string }

func (Entrench) Keyword() string { return "ENTRENCH" }
func (e Entrench) String() string {
	var b strings.Builder
	b.WriteString("ENTRENCH")
	writeList(&b, e.Units)
	return b.String()
}

func parseEntrench(lp *lineParser) Order {
	return Entrench{lp.units(M("name the units to entrench, as ENTRENCH 28/110"))}
}

func (e Entrench) validate(lp *lineParser) {
	lp.own(e.Units)
	for _, id := range e.Units {
		if u := lp.unitOf(id); u != nil && u.Type == Armor {
			lp.fail("%s is armour, which never entrenches (8.54)", id)
		}
	}
}

// Attack is ATTACK area [WITH unit...] (9.13, 9.14).
type Attack struct {
	Area int
	With []string // nil: every unit there that may
}

func (Attack) Keyword() string { return "ATTACK" }
func (a Attack) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "ATTACK %d", a.Area)
	if len(a.With) > 0 {
		b.WriteString(" WITH")
		writeList(&b, a.With)
	}
	return b.String()
}

func parseAttack(lp *lineParser) Order {
	area, _ := lp.area(M("ATTACK area"))
	a := Attack{Area: area}
	if lp.word("WITH") {
		a.With = lp.units(M("name the units after WITH, or leave WITH out for all"))
	}
	return a
}

func (a Attack) validate(lp *lineParser) { lp.own(a.With) }

// A FirePair is one firing unit and its target (9.5).
type FirePair struct{ Unit, Target string }

func (f FirePair) String() string { return f.Unit + ">" + f.Target }

// Fire is FIRE area unit>target... (9.5, B3).
type Fire struct {
	Area  int
	Pairs []FirePair
}

func (Fire) Keyword() string { return "FIRE" }
func (f Fire) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "FIRE %d", f.Area)
	writePairs(&b, f.Pairs)
	return b.String()
}

func parseFire(lp *lineParser) Order {
	area, _ := lp.area(M("FIRE area"))
	return Fire{area, lp.pairs("FIRE " + strconv.Itoa(area))}
}

// pairs reads unit>target pairs up to the end of the line.
func (lp *lineParser) pairs(head string) []FirePair {
	var ps []FirePair
	fired := map[string]bool{}
	for lp.more() {
		t := lp.next()
		u, tg, ok := strings.Cut(t, ">")
		if !ok || u == "" || tg == "" || strings.Contains(tg, ">") {
			lp.fail("%s is not a unit and its target: write unit>target, as 116/16>28/110", t)
			continue
		}
		uid, ok1 := lp.unit(u)
		tid, ok2 := lp.unit(tg)
		if !ok1 || !ok2 {
			continue
		}
		if fired[strings.ToLower(uid)] {
			lp.fail("%s is given two targets: a unit fires all its dice at one target (9.58)", uid)
			continue
		}
		fired[strings.ToLower(uid)] = true
		ps = append(ps, FirePair{uid, tid})
	}
	if len(ps) == 0 && lp.nerrs == 0 {
		lp.fail("no unit>target given: %s 116/16>28/110 ...", head)
	}
	return ps
}

func (lp *lineParser) checkPairs(ps []FirePair) {
	for _, p := range ps {
		lp.own([]string{p.Unit})
		lp.enemy([]string{p.Target})
	}
}

func (f Fire) validate(lp *lineParser) { lp.checkPairs(f.Pairs) }

// Arty is ARTY area target... (9.46).
type Arty struct {
	Area    int
	Targets []string
}

func (Arty) Keyword() string { return "ARTY" }
func (a Arty) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "ARTY %d", a.Area)
	writeList(&b, a.Targets)
	return b.String()
}

func parseArty(lp *lineParser) Order {
	area, _ := lp.area(M("ARTY area"))
	return Arty{area, lp.targets(M("name the enemy units your strikes go to, in order"))}
}

// targets reads unit ids that may repeat (a unit may take more than one
// strike, 9.46).
func (lp *lineParser) targets(what Message) []string {
	var ids []string
	for lp.more() && classify(lp.peek()) == tokUnit && !isKeyword(lp.peek()) {
		if id, ok := lp.unit(lp.next()); ok {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 && lp.nerrs == 0 {
		lp.fail("no unit given: %s", what)
	}
	return ids
}

func (a Arty) validate(lp *lineParser) { lp.enemy(a.Targets) }

// Battles is BATTLES area... (9.0, B4).
type Battles struct{ Areas []int }

func (Battles) Keyword() string { return "BATTLES" }
func (b Battles) String() string {
	var sb strings.Builder
	sb.WriteString("BATTLES")
	for _, a := range b.Areas {
		sb.WriteByte(' ')
		sb.WriteString(strconv.Itoa(a))
	}
	return sb.String()
}

// battlesWhat is what a BATTLES line reads, made once: each area of the
// line reads it.
var battlesWhat = Plain("BATTLES")

func parseBattles(lp *lineParser) Order {
	var b Battles
	seen := map[int]bool{}
	for lp.more() {
		a, ok := lp.area(battlesWhat)
		if !ok {
			continue
		}
		if seen[a] {
			lp.fail("area %d is named twice", a)
			continue
		}
		seen[a] = true
		b.Areas = append(b.Areas, a)
	}
	if len(b.Areas) == 0 && lp.nerrs == 0 {
		lp.fail("no area given: BATTLES and the battle areas in the order to fight them")
	}
	return b
}

// A Bridge is named by its two areas, the lower number first.
type Bridge struct{ A, B int }

func (b Bridge) String() string { return BridgeID(b.A, b.B) }

// Repair is REPAIR a-b BY unit (10.1).
type Repair struct {
	Bridge Bridge
	Unit   string
}

func (Repair) Keyword() string  { return "REPAIR" }
func (r Repair) String() string { return fmt.Sprintf("REPAIR %s BY %s", r.Bridge, r.Unit) }

func parseRepair(lp *lineParser) Order {
	if !lp.more() {
		lp.fail("the bridge is missing: REPAIR a-b BY engineer, as REPAIR 51-70 BY 600E")
		return nil
	}
	written := lp.next()
	br, ok := lp.bridge(written)
	if !lp.word("BY") || !lp.more() {
		var hint Message
		if lp.more() {
			hint = lp.wordHint(lp.peek())
		}
		// The bridge as the player wrote it: one the map lacks reads 0-0.
		lp.fail("the engineer is missing: REPAIR %s BY unit%s", written, hint)
		return nil
	}
	id, ok2 := lp.unit(lp.next())
	if !ok || !ok2 {
		return nil
	}
	return Repair{br, id}
}

func (r Repair) validate(lp *lineParser) {
	lp.own([]string{r.Unit})
	if u := lp.unitOf(r.Unit); u != nil && u.Type != Engineer {
		lp.fail("%s is %s: only engineers repair bridges (10.11)", r.Unit, u.Type.Text())
	}
}

// The special-forces effects (14.21).
const (
	SFDelay      = "DELAY"      // 14.22
	SFDemolition = "DEMOLITION" // 14.23
	SFConfusion  = "CONFUSION"  // 14.24
)

// SpecialForces is SF area EFFECT [battle-area] (14.0).
type SpecialForces struct {
	Area   int
	Effect string
	Battle int // CONFUSION only: the battle it affects (14.24)
}

func (SpecialForces) Keyword() string { return "SF" }
func (f SpecialForces) String() string {
	s := fmt.Sprintf("SF %d %s", f.Area, f.Effect)
	if f.Battle != 0 {
		s += " " + strconv.Itoa(f.Battle)
	}
	return s
}

func parseSF(lp *lineParser) Order {
	area, ok := lp.areaNoZone(M("SF area"), M("special forces are placed in an area, never in a zone (14.12)"))
	if !lp.more() {
		lp.fail("the effect is missing: SF area DELAY, DEMOLITION or CONFUSION battle-area (14.21)")
		return nil
	}
	f := SpecialForces{Area: area, Effect: strings.ToUpper(lp.next())}
	switch f.Effect {
	case SFDelay, SFDemolition:
	case SFConfusion:
		if !lp.more() {
			lp.fail("CONFUSION needs the battle it affects: SF %d CONFUSION battle-area (14.24)", area)
			return nil
		}
		f.Battle, _ = lp.area(M("SF CONFUSION battle-area"))
	default:
		lp.fail("%s is not an effect: DELAY, DEMOLITION or CONFUSION (14.21)%s", f.Effect, lp.wordHint(f.Effect))
		return nil
	}
	if !ok {
		return nil
	}
	return f
}

func (f SpecialForces) validate(lp *lineParser) {
	s := lp.p.s
	if lp.p.opt.Side == Allied {
		lp.fail("special forces are German, placed in a German impulse (14.12)")
	}
	if s == nil {
		return
	}
	if !s.SpecialForces {
		lp.fail("%s has no special forces (14.0)", s.TitleMessage())
	}
	if a := s.Map.Area(f.Area); a != nil && a.VP > 0 {
		lp.fail("%s is a VP area: special forces go to an area that is not (14.12)", a.Label())
	}
}

// Remove is REMOVE area unit... (7.2, B6).
type Remove struct {
	Area  int
	Units []string
}

func (Remove) Keyword() string { return "REMOVE" }
func (r Remove) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "REMOVE %d", r.Area)
	writeList(&b, r.Units)
	return b.String()
}

func parseRemove(lp *lineParser) Order {
	area, _ := lp.areaNoZone(M("REMOVE area"), M("zones have no stacking limit (7.3)"))
	return Remove{area, lp.units(M("name the units to remove first, as REMOVE 71 28/112"))}
}

func (r Remove) validate(lp *lineParser) { lp.own(r.Units) }

// Standing orders.

// A BlowSpec is one bridge of a BLOW order, with the unit to try if named.
type BlowSpec struct {
	Bridge Bridge
	Unit   string // "" : the eligible unit with the best chance
}

// Blow is the demolition policy (10.2, B1): BLOW ALL, BLOW NONE, or a list.
type Blow struct {
	All, None bool
	Bridges   []BlowSpec
}

func (Blow) Keyword() string { return "BLOW" }
func (b Blow) String() string {
	switch {
	case b.All:
		return "BLOW ALL"
	case b.None:
		return "BLOW NONE"
	}
	var sb strings.Builder
	sb.WriteString("BLOW")
	for _, s := range b.Bridges {
		sb.WriteByte(' ')
		sb.WriteString(s.Bridge.String())
		if s.Unit != "" {
			sb.WriteString(" BY ")
			sb.WriteString(s.Unit)
		}
	}
	return sb.String()
}

func parseBlow(lp *lineParser) Order {
	switch {
	case lp.word("ALL"):
		return Blow{All: true}
	case lp.word("NONE"):
		return Blow{None: true}
	}
	var b Blow
	seen := map[Bridge]bool{}
	for lp.more() {
		br, ok := lp.bridge(lp.next())
		spec := BlowSpec{Bridge: br}
		if lp.word("BY") {
			if !lp.more() {
				lp.fail("BY needs a unit: BLOW %s BY unit", br)
				break
			}
			spec.Unit, ok = lp.unit(lp.next())
		}
		if !ok {
			continue
		}
		if seen[br] {
			lp.fail("bridge %s is named twice", br)
			continue
		}
		seen[br] = true
		b.Bridges = append(b.Bridges, spec)
	}
	if len(b.Bridges) == 0 && lp.nerrs == 0 {
		lp.fail("BLOW takes ALL, NONE, or bridges as 51-70, each with BY unit if you like (B1)")
	}
	return b
}

func (b Blow) validate(lp *lineParser) {
	for _, s := range b.Bridges {
		if s.Unit == "" {
			continue
		}
		lp.own([]string{s.Unit})
		if u := lp.unitOf(s.Unit); u != nil && u.Type == Armor {
			lp.fail("%s is armour, which cannot blow bridges (10.22)", s.Unit)
		}
	}
}

// Defend is the defensive fire preference (9.5, B3): targets in one area, or
// unit types to fire at first everywhere.
type Defend struct {
	Area   int // 0 with Prefer
	Pairs  []FirePair
	Prefer []UnitType
}

func (Defend) Keyword() string { return "DEFEND" }
func (d Defend) String() string {
	var b strings.Builder
	if len(d.Prefer) > 0 {
		b.WriteString("DEFEND PREFER")
		for _, t := range d.Prefer {
			b.WriteByte(' ')
			b.WriteString(strings.ToUpper(string(t)))
		}
		return b.String()
	}
	fmt.Fprintf(&b, "DEFEND %d", d.Area)
	writePairs(&b, d.Pairs)
	return b.String()
}

func parseDefend(lp *lineParser) Order {
	if lp.word("PREFER") {
		var d Defend
		seen := map[UnitType]bool{}
		for lp.more() {
			t := lp.next()
			ut := UnitType(strings.ToLower(t))
			switch ut {
			case "armour", "tank", "tanks":
				ut = Armor
			case "inf":
				ut = Infantry
			}
			if _, ok := ut.Values(); !ok {
				hint := meanHint(t, []string{"ARMOR", "ENGINEER", "MECH", "MOT", "INFANTRY"})
				lp.fail("%s is not a unit type: ARMOR, ENGINEER, MECH, MOT or INFANTRY (4.11)%s", t, hint)
				continue
			}
			if seen[ut] {
				lp.fail("%s is named twice", t)
				continue
			}
			seen[ut] = true
			d.Prefer = append(d.Prefer, ut)
		}
		if len(d.Prefer) == 0 && lp.nerrs == 0 {
			lp.fail("PREFER needs unit types: DEFEND PREFER ARMOR INFANTRY")
		}
		return d
	}
	area, _ := lp.area(M("DEFEND area"))
	return Defend{Area: area, Pairs: lp.pairs("DEFEND " + strconv.Itoa(area))}
}

func (d Defend) validate(lp *lineParser) { lp.checkPairs(d.Pairs) }

// Writing helpers.

func writeList(b *strings.Builder, ids []string) {
	for _, id := range ids {
		b.WriteByte(' ')
		b.WriteString(id)
	}
}

func writePlaces(b *strings.Builder, ps []Place) {
	for _, p := range ps {
		b.WriteByte(' ')
		b.WriteString(p.String())
	}
}

func writePairs(b *strings.Builder, ps []FirePair) {
	for _, p := range ps {
		b.WriteByte(' ')
		b.WriteString(p.String())
	}
}

func placesString(ps []Place) string {
	var b strings.Builder
	writePlaces(&b, ps)
	return strings.TrimSpace(b.String())
}

// A Class says when an order may be given: it is the section of HELP that
// lists the order.
type Class int

// The classes of orders.
const (
	HeadingLine   Class = iota // GAME, TOKEN, IMPULSE, END
	ImpulseOrder               // given for one's own impulse only
	StandingOrder              // BLOW, DEFEND: at any time, kept until changed (B1, B3)
	Request                    // HELP, STATUS, JOIN, ...: at any time, answered, never part of play
)

// ClassOf returns the class of an order.
func ClassOf(o Order) Class {
	k := kindByKeyword(o.Keyword())
	if k == nil {
		// A caller's keyword (Keyword) says its own class.
		if c, ok := o.(interface{ Class() Class }); ok {
			return c.Class()
		}
		return HeadingLine
	}
	switch k.section {
	case secImpulse:
		return ImpulseOrder
	case secStanding:
		return StandingOrder
	case secRequest:
		return Request
	}
	return HeadingLine
}
