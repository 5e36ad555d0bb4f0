package rules

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// HelpTextIn is HelpText in the language of p. The order keywords and the
// examples' orders are as the parser reads them in any language; the rest
// is given through p, the caller's lines too: their Syntax, Summary and
// Sample are keys of the caller's catalog. A printer that measures and
// wraps text (lang.Printer) lays it out by display width, a Japanese
// character taking two columns.
func HelpTextIn(p Printer, s *Scenario, st *State, side Side, kws []Keyword) string {
	lay := layoutOf(p)
	ex := newExamples(s, st, side)
	ex.p, ex.lay = p, lay
	var b strings.Builder
	b.WriteString(p.Sprintf("HOW TO WRITE ORDERS (%s, %s player)", s.TitleMessage(), side) + "\n\n")
	lay.wrap(&b, "", p.Sprintf("Write one order per line in the body of a plain mail. Upper or lower case, extra spaces and # comments are all fine. Areas are written by number, zones by letter, bridges by their two areas (as 51-70), units by their id (as in UNITS). Quoted lines (>) and everything after END, a signature (-- ), a line of underscores (____) or a quoted reply's heading are ignored. If any line is wrong, nothing is applied and the reply lists every error, then answers the requests that only tell (HELP, STATUS, UNITS, BRIEF, DICE, ORDERS)."))
	b.WriteString("\n")
	lay.wrap(&b, "", p.Sprintf("A greeting before your first order and a sign-off after your last one are ignored, and the reply names their lines, when they cannot be orders: the first word is not a keyword nor close to one, and the line holds no number and no unit's id. Between two orders such a line is an error, and so is any other line that is no order. A mail of chatter alone holds no orders and is refused."))
	if ex.over {
		b.WriteString("\n" + p.Sprintf("The game is over, so no examples are given.") + "\n")
	}
	// An example's further lines stand under its first order.
	more := helpIndent + strings.Repeat(" ", lay.width(p.Sprintf("e.g. %s", "")))
	for _, sec := range sections {
		b.WriteString("\n" + sectionTitle(p, sec) + "\n")
		for _, k := range allKinds(kws, false) {
			if k.section != sec || (k.applies != nil && !k.applies(s, side)) {
				continue
			}
			syntax, summary := kindTexts(p, k)
			head := "  " + syntax
			if k.rules != "" {
				pad := helpWidth - lay.width(head) - len(k.rules)
				if pad < 2 {
					b.WriteString(head + "\n")
					head = ""
					pad = helpWidth - len(k.rules)
				}
				head += strings.Repeat(" ", pad) + k.rules
			}
			b.WriteString(head + "\n")
			lay.wrap(&b, helpIndent, summary)
			if k.example != nil && !ex.over {
				ex.budget = maxTries
				groups, why := k.example(ex)
				for _, g := range groups {
					for i, l := range g {
						if i == 0 {
							b.WriteString(helpIndent + p.Sprintf("e.g. %s", l) + "\n")
						} else {
							b.WriteString(more + l + "\n")
						}
					}
				}
				if why != "" {
					lay.wrap(&b, helpIndent, "("+why+")")
				}
			}
		}
	}
	b.WriteString("\n" + p.Sprintf("A mail for your impulse looks like:") + "\n\n")
	for _, kw := range kws {
		if kw.Sample != "" {
			b.WriteString("  " + callerText(p, kw.Sample) + "\n")
		}
	}
	ex.budget = maxTries
	for _, l := range ex.mail() {
		b.WriteString("  " + l + "\n")
	}
	b.WriteString("  END\n")
	return b.String()
}

// The layout of HELP: its width in columns, and the indent of what is
// said of an order under its heading.
const (
	helpWidth  = 78
	helpIndent = "      "
)

// sectionTitle is the title of a section of HELP (orders_kinds.go) in the
// language of p.
func sectionTitle(p Printer, sec string) string {
	switch sec {
	case secHeader:
		return p.Sprintf("Heading lines")
	case secImpulse:
		return p.Sprintf("Orders for your own impulse")
	case secStanding:
		return p.Sprintf("Standing orders (any time, kept until changed)")
	case secRequest:
		return p.Sprintf("Requests (any time)")
	}
	return callerText(p, sec)
}

// kindTexts are HELP's texts of an order in the language of p: its syntax,
// the keywords as they are and the rest in the reader's words, and its
// summary. The table (orders_kinds.go) keeps both in English, which the
// parser's errors quote; the English here is the same
// (TestHelpTextsMatchTable), and here the catalog of HELP finds them. The
// syntax is also the key by which the parser's errors give the syntax in
// the reader's language. A caller's line gives its own texts.
func kindTexts(p Printer, k *kind) (syntax, summary string) {
	switch k.keyword {
	case "IMPULSE":
		return p.Sprintf("IMPULSE day-n"),
			p.Sprintf("the impulse the orders are for, as 17-2; orders for another impulse are never applied")
	case "END":
		return p.Sprintf("END"),
			p.Sprintf("the end of the orders: everything below is ignored")
	case "MOVE":
		return p.Sprintf("MOVE unit... path [ELSE path]"),
			p.Sprintf("the units move together along the areas and zones of the path, the first of which may be their own area; ELSE gives the way on from the near side of a bridge blown under them (else they stop there). An area with enemy units ends the path: the units stop on entering it and fight there, so a path that goes on beyond it is refused (8.22, 9.12); entering an area with any other units costs 1 MP more (8.37), leaving one with enemy units 1 MP more (8.36), and no move goes straight from one area with enemy units to another (8.27)")
	case "FOOT":
		return p.Sprintf("FOOT unit... path [ELSE path]"),
			p.Sprintf("as MOVE, the units moving as infantry: 5 MP, and a blown bridge crossed for 3 MP")
	case "ENTRENCH":
		return p.Sprintf("ENTRENCH unit..."),
			p.Sprintf("the units entrench (an engineer may first move up to 4 MP on a MOVE line); never armour")
	case "ATTACK":
		return p.Sprintf("ATTACK area [WITH unit...]"),
			p.Sprintf("units that began the impulse in the contested area attack there; without WITH, all that may")
	case "FIRE":
		return p.Sprintf("FIRE area unit>target..."),
			p.Sprintf("your targets in the battle at the area; what you leave open the fixed policy chooses")
	case "ARTY":
		return p.Sprintf("ARTY area target..."),
			p.Sprintf("where your artillery strikes go, in order, where 9.46 leaves a choice")
	case "BATTLES":
		return p.Sprintf("BATTLES area..."),
			p.Sprintf("the order in which your battles are fought (else by area number)")
	case "REPAIR":
		return p.Sprintf("REPAIR a-b BY unit"),
			p.Sprintf("the engineer tries to repair the bridge at the end of the impulse")
	case "SF":
		return p.Sprintf("SF area DELAY|DEMOLITION|CONFUSION [battle-area]"),
			p.Sprintf("German special forces to the area, with their effect; CONFUSION names the battle")
	case "REMOVE":
		return p.Sprintf("REMOVE area unit..."),
			p.Sprintf("the units to remove first if the area ends the impulse over the stacking limit")
	case "BLOW":
		return p.Sprintf("BLOW ALL | BLOW NONE | BLOW a-b [BY unit]..."),
			p.Sprintf("which bridges to try to blow when the enemy crosses them, and with which unit (a new game starts with ALL)")
	case "DEFEND":
		return p.Sprintf("DEFEND area unit>target... | DEFEND PREFER type..."),
			p.Sprintf("your fire when attacked: targets in an area, or the unit types to fire at first")
	}
	return callerText(p, k.syntax), callerText(p, k.summary)
}

// callerText gives a text of a caller's line in the language of p: the
// text is its key in the caller's catalog.
func callerText(p Printer, key string) string {
	if key == "" {
		return ""
	}
	return p.Sprintf(key)
}

// A layout measures and breaks text as its language needs: lang.Printer
// is one, which counts a Japanese character two columns and breaks
// between Japanese characters as well as at spaces. Package rules cannot
// import it, and asks its Printer for it.
type layout interface {
	Width(s string) int
	Wrap(s, first, rest string, max int) []string
}

// helpLayout lays out HELP: by its printer's layout, or, for a printer
// without one (English), in columns of one byte, breaking at spaces.
type helpLayout struct{ l layout }

func layoutOf(p Printer) helpLayout {
	l, _ := p.(layout)
	return helpLayout{l}
}

func (h helpLayout) width(s string) int {
	if h.l == nil {
		return len(s)
	}
	return h.l.Width(s)
}

// wrap writes text in lines of at most helpWidth columns, each starting
// with indent.
func (h helpLayout) wrap(b *strings.Builder, indent, text string) {
	if h.l != nil {
		if strings.TrimSpace(text) == "" {
			return
		}
		for _, l := range h.l.Wrap(text, indent, indent, helpWidth) {
			b.WriteString(l + "\n")
		}
		return
	}
	line := indent
	for _, w := range strings.Fields(text) {
		if len(line) > len(indent) && len(line)+1+len(w) > helpWidth {
			b.WriteString(line + "\n")
			line = indent
		}
		if len(line) > len(indent) {
			line += " "
		}
		line += w
	}
	if len(line) > len(indent) {
		b.WriteString(line + "\n")
	}
}

// maxTries bounds the orders checked for the examples of one order kind, so
// that HELP stays quick on a crowded position.
const maxTries = 200

// examples are the units and places HELP's examples are made of, at the
// game's position, and the check that keeps only legal ones.
type examples struct {
	p      Printer    // the reader's language, of the reasons there is no example
	lay    helpLayout // and its layout
	s      *Scenario
	st     *State // the position, with the side's next impulse to play
	side   Side
	over   bool
	budget int                 // checks left for the kind at hand
	check  func([]string) bool // checkExample
	// refusal is the check's answer to the first example refused since
	// the last reset, as the reason there is none.
	refusal string

	own     []*UnitState       // the side's units on the map, in order-of-battle order
	enemyAt map[Place][]string // the enemy's units by place
	places  []Place            // the places of the side's units, in the order of own

	able map[string]Ability // what each of the side's units may do (Abilities)

	setups [][]string // battle set-ups: lines that make a battle, each checked
	areas  []int      // the battle of each set-up
	firers [][]string // the side's units in each battle
}

func newExamples(s *Scenario, st *State, side Side) *examples {
	if st == nil {
		st = NewState(s)
	}
	// Orders are checked for the side's own impulse: the one in play if
	// it is the side's, else its next, after a new turn has begun if one
	// begins before it.
	st = SideImpulse(s, st, side)
	ex := &examples{p: English, lay: layoutOf(English), s: s, st: st, side: side, over: st.Over, enemyAt: map[Place][]string{}}
	ex.check = ex.checkExample
	// The examples name units that may do what they show (Abilities), so
	// that the checks are spent on lines that may pass.
	ex.able = map[string]Ability{}
	for _, a := range Abilities(s, st, side) {
		ex.able[a.Unit] = a
	}
	seen := map[Place]bool{}
	for _, u := range st.Units {
		info := s.OOB.Unit(u.ID)
		if info == nil || !u.OnMap() {
			continue
		}
		if info.Side != side {
			ex.enemyAt[u.Place] = append(ex.enemyAt[u.Place], u.ID)
			continue
		}
		ex.own = append(ex.own, u)
		if !seen[u.Place] {
			seen[u.Place] = true
			ex.places = append(ex.places, u.Place)
		}
	}
	if !ex.over {
		ex.budget = maxTries
		ex.findBattles()
	}
	return ex
}

// legal reports whether the lines, as one mail, read and pass the rules'
// check at the position.
func (ex *examples) legal(lines ...string) bool {
	if ex.over || ex.budget <= 0 {
		return false
	}
	ex.budget--
	return ex.check(lines)
}

// checkExample reports whether the lines, as one mail, read and pass the
// rules' check at the examples' position. The examples reach it through a
// field: the kind table names the example makers, and a direct call to the
// parser from them would make the table's initialisation refer to itself.
func (ex *examples) checkExample(lines []string) bool {
	o, err := ParseOrders(strings.Join(lines, "\n"), ex.s, &ParseOptions{Side: ex.side})
	if err == nil {
		err = CheckOrders(ex.s, ex.st, o)
	}
	var es OrderErrors
	if errors.As(err, &es) && ex.refusal == "" {
		e := es[len(es)-1]
		ex.refusal = e.Msg
		if e.Why.Key != "" {
			ex.refusal = ex.p.Sprintf(e.Why.Key, e.Why.Args...)
		}
	}
	return err == nil
}

// first returns the first candidate group that is legal, as HELP's
// example, or none.
func (ex *examples) first(cands [][]string) [][]string {
	for _, c := range cands {
		if ex.legal(c...) {
			return [][]string{c}
		}
	}
	return nil
}

// at returns the side's units at a place, in order-of-battle order.
func (ex *examples) at(p Place) []string {
	var ids []string
	for _, u := range ex.own {
		if u.Place == p {
			ids = append(ids, u.ID)
		}
	}
	return ids
}

// may reports whether the unit may do the action at the examples'
// position, as UNITS says (Abilities).
func (ex *examples) may(id string, act Action) bool {
	a, ok := ex.able[id]
	return ok && a.Of(act).May
}

// unitsOf returns the side's units of the types for which ok is true.
func (ex *examples) unitsOf(ok func(*Unit) bool) []*UnitState {
	var out []*UnitState
	for _, u := range ex.own {
		if ok(ex.s.OOB.Unit(u.ID)) {
			out = append(out, u)
		}
	}
	return out
}

// paths returns the paths of n steps from a place along its links, through
// places of the scenario's map, never through a zone (3.21) nor through an
// area with enemy units (8.22): the last place may be either.
func (ex *examples) paths(from Place, n int) [][]Place {
	var out [][]Place
	var walk func(path []Place)
	walk = func(path []Place) {
		if len(path) == n+1 {
			out = append(out, append([]Place(nil), path[1:]...))
			return
		}
		last := path[len(path)-1]
		if len(path) > 1 && (last.IsZone() || len(ex.enemyAt[last]) > 0) {
			return
		}
		for _, l := range ex.s.Map.Links(last) {
			if ex.s.Uses(l.To) && !contains(path, l.To) {
				walk(append(path, l.To))
			}
		}
	}
	walk([]Place{from})
	return out
}

// freePaths returns the paths of n steps and then of fewer from a place,
// those ending in an area free of enemy units first.
func (ex *examples) freePaths(from Place, n int) [][]Place {
	var free, fight [][]Place
	for k := n; k >= 1; k-- {
		for _, p := range ex.paths(from, k) {
			if last := p[len(p)-1]; last.IsZone() || len(ex.enemyAt[last]) > 0 {
				fight = append(fight, p)
			} else {
				free = append(free, p)
			}
		}
	}
	return append(free, fight...)
}

// findBattles finds up to two battles the side could fight at the position:
// in an area it shares with the enemy (ATTACK), or by moving a unit into an
// area with enemy units (MOVE); each set-up is checked.
func (ex *examples) findBattles() {
	add := func(line string, area int, firers []string) bool {
		for _, a := range ex.areas {
			if a == area {
				return false
			}
		}
		if !ex.legal(line) {
			return false
		}
		ex.setups = append(ex.setups, []string{line})
		ex.areas = append(ex.areas, area)
		ex.firers = append(ex.firers, firers)
		return len(ex.setups) == 2
	}
	for _, p := range ex.places {
		if !p.IsZone() && len(ex.enemyAt[p]) > 0 {
			for _, id := range ex.at(p) {
				if !ex.may(id, ActAttack) {
					continue
				}
				if add(fmt.Sprintf("ATTACK %s WITH %s", p, id), p.Area, []string{id}) {
					return
				}
				break
			}
		}
	}
	for _, p := range ex.places {
		if len(ex.enemyAt[p]) > 0 {
			continue
		}
		for _, l := range ex.s.Map.Links(p) {
			if l.To.IsZone() || len(ex.enemyAt[l.To]) == 0 || !ex.s.Uses(l.To) {
				continue
			}
			for _, id := range ex.at(p) {
				if !ex.may(id, ActMove) {
					continue
				}
				if add(fmt.Sprintf("MOVE %s %s", id, l.To), l.To.Area, []string{id}) {
					return
				}
				if ex.budget <= 0 {
					return
				}
			}
		}
	}
}

// noBattle is why an order about a battle has no example.
func (ex *examples) noBattle() string {
	return ex.p.Sprintf("no battle of yours to fight at this position: a battle is where your units enter an area with enemy units, or attack where both sides stand")
}

func exImpulse(ex *examples) ([][]string, string) {
	if ex.over {
		// No order has an example then, and HELP says so once.
		return nil, ""
	}
	return [][]string{{fmt.Sprintf("IMPULSE %d-%d", ex.st.Next.Day, ex.st.Next.N)}}, ""
}

// moveCands lists MOVE lines: for each place of the side's units, the
// first two units together and then the first alone, along free paths of
// up to n steps.
func (ex *examples) moveCands(kw string, n int, ok func(*Unit) bool) [][]string {
	var out [][]string
	for _, p := range ex.places {
		var ids []string
		for _, id := range ex.at(p) {
			if ok(ex.s.OOB.Unit(id)) && ex.may(id, ActMove) {
				ids = append(ids, id)
			}
		}
		if len(ids) == 0 {
			continue
		}
		groups := [][]string{ids[:1]}
		if len(ids) > 1 {
			groups = [][]string{ids[:2], ids[:1]}
		}
		for _, path := range ex.freePaths(p, n) {
			for _, g := range groups {
				out = append(out, []string{kw + " " + strings.Join(g, " ") + " " + placesString(path)})
			}
		}
	}
	return out
}

func exMove(ex *examples) ([][]string, string) {
	out := ex.first(ex.moveCands("MOVE", 2, func(*Unit) bool { return true }))
	if len(out) == 0 {
		return nil, ex.p.Sprintf("none of your units can move at this position")
	}
	ex.budget = maxTries
	if e := ex.elseExample(); e != nil {
		return append(out, e), ""
	}
	return out, ex.p.Sprintf("none of your moves crosses a bridge that could be blown under it at this position, so ELSE has no example here")
}

// elseExample is a move across a bridge that may be blown under it, with
// the way on from the near side if it is (8.42).
func (ex *examples) elseExample() []string {
	for _, p := range ex.places {
		ids := ex.at(p)
		for _, path := range ex.paths(p, 2) {
			steps := append([]Place{p}, path...)
			for i := 0; i+1 < len(steps); i++ {
				r := ex.standingBridge(steps[i], steps[i+1])
				if r == nil {
					continue
				}
				if out, stop := ex.elseAcross(ids, path, steps, i, r); out != nil || stop {
					return out
				}
			}
		}
	}
	return nil
}

// standingBridge returns the road from a to b if it is a bridge not blown,
// else nil.
func (ex *examples) standingBridge(a, b Place) *Road {
	if a.IsZone() || b.IsZone() {
		return nil
	}
	r := ex.s.Map.Road(a.Area, b.Area)
	if r == nil || !r.Bridge {
		return nil
	}
	if br := ex.st.Bridge(a.Area, b.Area); br == nil || br.Blown {
		return nil
	}
	return r
}

// elseAcross looks for a unit of ids whose move along path crosses bridge
// r at step i, with an ELSE path from the bank before it. It returns the
// example, or stop when the search has spent its budget.
func (ex *examples) elseAcross(ids []string, path, steps []Place, i int, r *Road) (out []string, stop bool) {
	a, b := steps[i], steps[i+1]
	for _, l := range ex.s.Map.Links(a) {
		if l.To == b || l.To.IsZone() || contains(steps, l.To) || !ex.s.Uses(l.To) || len(ex.enemyAt[l.To]) > 0 {
			continue
		}
		for _, id := range ids {
			if !ex.may(id, ActMove) {
				continue
			}
			line := fmt.Sprintf("MOVE %s %s ELSE %s %s", id, placesString(path), a, l.To)
			if ex.legal(line) {
				// A comment says when the ELSE path is taken, where the
				// line leaves room for it.
				if c := ex.p.Sprintf("%s   # if %s is blown: on from %s", line, r.ID(), a.String()); ex.lay.width(c) <= 67 {
					line = c
				}
				return []string{line}, true
			}
			if ex.budget <= 0 {
				return nil, true
			}
		}
	}
	return nil, false
}

func footCapable(u *Unit) bool { return u.Type == Mech || u.Type == Mot || u.Type == Engineer }

func exFoot(ex *examples) ([][]string, string) {
	if out := ex.first(ex.moveCands("FOOT", 1, footCapable)); out != nil {
		return out, ""
	}
	return nil, ex.p.Sprintf("none of your mech, mot or engineer units can move at this position")
}

func exEntrench(ex *examples) ([][]string, string) {
	var cands [][]string
	for _, u := range ex.unitsOf(func(u *Unit) bool { return u.Type.InfantryType() }) {
		if ex.may(u.ID, ActEntrench) {
			cands = append(cands, []string{"ENTRENCH " + u.ID})
		}
	}
	if out := ex.first(cands); out != nil {
		return out, ""
	}
	return nil, ex.p.Sprintf("none of your units can entrench at this position")
}

func exAttack(ex *examples) ([][]string, string) {
	for _, s := range ex.setups {
		if strings.HasPrefix(s[0], "ATTACK ") {
			return [][]string{s}, ""
		}
	}
	return nil, ex.p.Sprintf("no area holds both your units and the enemy's at this position, so there is no battle to attack in; a move into an area with enemy units fights there without ATTACK")
}

// battleCands lists, for each battle set-up, the set-up followed by the
// line line makes from its area, its firing units and the enemy's there.
func (ex *examples) battleCands(line func(area int, own, enemy []string) string) [][]string {
	var out [][]string
	for i, s := range ex.setups {
		enemy := ex.enemyAt[AreaPlace(ex.areas[i])]
		if l := line(ex.areas[i], ex.firers[i], enemy); l != "" {
			out = append(out, append(append([]string(nil), s...), l))
		}
	}
	return out
}

func exFire(ex *examples) ([][]string, string) {
	out := ex.first(ex.battleCands(func(a int, own, enemy []string) string {
		return fmt.Sprintf("FIRE %d %s>%s", a, own[0], enemy[0])
	}))
	if out == nil {
		return nil, ex.noBattle()
	}
	return out, ""
}

func exArty(ex *examples) ([][]string, string) {
	out := ex.first(ex.battleCands(func(a int, _, enemy []string) string {
		return fmt.Sprintf("ARTY %d %s", a, enemy[0])
	}))
	if out == nil {
		return nil, ex.p.Sprintf("no battle of yours at this position where your artillery has a choice to make")
	}
	return out, ""
}

func exBattles(ex *examples) ([][]string, string) {
	if len(ex.setups) == 2 {
		c := append(append([]string(nil), ex.setups[0]...), ex.setups[1]...)
		if out := ex.first([][]string{append(c, fmt.Sprintf("BATTLES %d %d", ex.areas[1], ex.areas[0]))}); out != nil {
			return out, ""
		}
	}
	out := ex.first(ex.battleCands(func(a int, _, _ []string) string { return fmt.Sprintf("BATTLES %d", a) }))
	if out == nil {
		return nil, ex.noBattle()
	}
	return out, ""
}

func exRepair(ex *examples) ([][]string, string) {
	var cands [][]string
	for _, u := range ex.unitsOf(func(u *Unit) bool { return u.Type == Engineer }) {
		for _, br := range ex.st.Bridges {
			if br.Blown && !u.Place.IsZone() && (u.Place.Area == br.A || u.Place.Area == br.B) {
				cands = append(cands, []string{fmt.Sprintf("REPAIR %s BY %s", BridgeID(br.A, br.B), u.ID)})
			}
		}
	}
	if out := ex.first(cands); out != nil {
		return out, ""
	}
	return nil, ex.p.Sprintf("no blown bridge beside one of your engineers at this position")
}

func exSF(ex *examples) ([][]string, string) {
	if ex.side != German || !ex.s.SpecialForces {
		return nil, ""
	}
	// Near the side's units, never in a VP area (14.12).
	var areas []int
	for _, p := range ex.places {
		for _, q := range append([]Place{p}, linked(ex.s.Map, p)...) {
			if a := ex.s.Map.Area(q.Area); !q.IsZone() && a != nil && a.VP == 0 && ex.s.Uses(q) && !slices.Contains(areas, a.ID) {
				areas = append(areas, a.ID)
			}
		}
	}
	var out [][]string
	ex.refusal = ""
	for _, eff := range []string{"DELAY", "DEMOLITION"} {
		var cands [][]string
		for _, a := range areas {
			cands = append(cands, []string{fmt.Sprintf("SF %d %s", a, eff)})
		}
		if g := ex.first(cands); g != nil {
			out = append(out, g...)
			break
		}
	}
	ex.budget = maxTries
	var cands [][]string
	for i, s := range ex.setups {
		for _, a := range areas {
			cands = append(cands, append(append([]string(nil), s...), fmt.Sprintf("SF %d CONFUSION %d", a, ex.areas[i])))
		}
	}
	out = append(out, ex.first(cands)...)
	if len(out) == 0 {
		return nil, ex.p.Sprintf("no example at this position: %s", ex.refusal)
	}
	return out, ""
}

// linked returns the places one link away.
func linked(m *Map, p Place) []Place {
	var out []Place
	for _, l := range m.Links(p) {
		out = append(out, l.To)
	}
	return out
}

func exRemove(ex *examples) ([][]string, string) {
	var cands [][]string
	for _, p := range ex.places {
		if !p.IsZone() {
			cands = append(cands, []string{fmt.Sprintf("REMOVE %s %s", p, ex.at(p)[0])})
		}
	}
	if out := ex.first(cands); out != nil {
		return out, ""
	}
	return nil, ex.p.Sprintf("none of your units stands in an area at this position")
}

func exBlow(ex *examples) ([][]string, string) {
	out := ex.first([][]string{{"BLOW ALL"}})
	out = append(out, ex.first([][]string{{"BLOW NONE"}})...)
	var cands [][]string
	for _, u := range ex.unitsOf(func(u *Unit) bool { return u.Type != Armor }) {
		for _, br := range ex.st.Bridges {
			if !br.Blown && !u.Place.IsZone() && (u.Place.Area == br.A || u.Place.Area == br.B) {
				cands = append(cands, []string{fmt.Sprintf("BLOW %s BY %s", BridgeID(br.A, br.B), u.ID)})
			}
		}
	}
	return append(out, ex.first(cands)...), ""
}

func exDefend(ex *examples) ([][]string, string) {
	var cands [][]string
	for _, p := range ex.places {
		for _, l := range ex.s.Map.Links(p) {
			if e := ex.enemyAt[l.To]; len(e) > 0 && !p.IsZone() {
				cands = append(cands, []string{fmt.Sprintf("DEFEND %s %s>%s", p, ex.at(p)[0], e[0])})
			}
		}
		if len(cands) > 10 {
			break
		}
	}
	out := ex.first(cands)
	return append(out, ex.first([][]string{{"DEFEND PREFER ARMOR INFANTRY"}})...), ""
}

// mail is an example mail for the side's impulse: its IMPULSE line and a
// move or two, checked together.
func (ex *examples) mail() []string {
	imp, _ := exImpulse(ex)
	if len(imp) == 0 {
		return nil
	}
	moves, _ := exMove(ex)
	lines := append([]string(nil), imp[0]...)
	if len(moves) > 0 {
		lines = append(lines, moves[0]...)
	}
	ex.budget = maxTries
	if foot, _ := exFoot(ex); len(foot) > 0 && ex.legal(append(slices.Clone(lines), foot[0]...)...) {
		lines = append(lines, foot[0]...)
	}
	return lines
}
