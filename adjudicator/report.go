package adjudicator

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"titm/adjudicator/lang"
	"titm/adjudicator/picture"
	"titm/rules"
)

// The impulse report: what the players read after every impulse. It is
// plain text that reads in 80 columns on any device, in the order the
// impulse happened, with every die, so that a player can follow each battle
// roll by roll and check it against the rulebook.
//
// Every text of it is a message of the catalogs (lang), given in its
// reader's language by a lang.Printer, and laid out by display width: a
// Japanese character takes two columns. What the game's log keeps stays as
// it is kept, in any language: the orders as accepted, which are the
// player's own lines, and the dice's purposes, which titm verify compares.

// ReportWidth is the width the report is written to, in columns.
const ReportWidth = 78

// ReportData is what an impulse's report tells. Report fills it from a
// game; titm adjudicate fills it for impulses played offline, without a
// game's id, deadlines or log.
type ReportData struct {
	Game     string // the game's id; "" offline
	Scenario *rules.Scenario
	Impulse  rules.Impulse
	Played   time.Time // zero offline
	Reason   string    // why the impulse was played without orders
	Orders   string    // the orders as accepted, canonical
	Events   []rules.Event
	Dice     []Roll
	After    *rules.State // the position after the impulse
	Next     rules.Impulse
	Due      time.Time // the next impulse's deadline; zero: none
	Paused   bool
	Result   string // the game's result when it ended with the impulse
	Seed     string // the revealed seed, then
	Commit   string // the game's commitment
	Head     string // the log's head after the impulse
}

// ReportIn writes the report of a change to a game that played an
// impulse, in the language of p: recs are the change's records (the
// impulse's, and the finished record when the game ended with it), events
// the impulse's events, and g the game after the change.
func ReportIn(p *lang.Printer, g *Game, recs []Record, events []rules.Event) (string, error) {
	s, err := g.Rules()
	if err != nil {
		return "", err
	}
	d := &ReportData{Game: g.ID, Scenario: s, Events: events, After: g.State, Commit: g.Commitment, Head: g.Head}
	var found bool
	for _, r := range recs {
		switch r.Kind {
		case KindImpulse:
			imp, err := rules.ParseImpulse(r.Impulse)
			if err != nil {
				return "", fmt.Errorf("game %s: record %d: %w", g.ID, r.Seq, err)
			}
			d.Impulse, d.Played, d.Reason, d.Orders, d.Dice, found = imp, r.Time, r.Reason, PublicOrders(r.Text), r.Dice, true
		case KindFinished:
			d.Result, d.Seed = r.Result, r.Seed
		}
	}
	if !found {
		return "", fmt.Errorf("game %s: no impulse among the records to report", g.ID)
	}
	if g.Status == Playing {
		d.Next, d.Due, d.Paused = g.Next, g.Due, g.Paused
	}
	return WriteReportIn(p, d), nil
}

// PublicOrders are an impulse's orders as the report lists them to both
// players and the observers: without the side's standing orders (BLOW,
// DEFEND and DEFEND PREFER: B1, B3), which are its own. What they cause,
// a bridge blown or a target chosen, is reported as it happens.
func PublicOrders(text string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(text, "\n") {
		if f := strings.Fields(l); len(f) > 0 && rules.ClassOf(keyword(f[0])) == rules.StandingOrder {
			continue
		}
		b.WriteString(l)
	}
	return b.String()
}

// keyword is an order known by its keyword alone, which says its class.
type keyword string

func (k keyword) Keyword() string { return string(k) }
func (k keyword) String() string  { return string(k) }

// WriteReportIn writes an impulse's report in the language of p.
func WriteReportIn(p *lang.Printer, d *ReportData) string {
	s := d.Scenario
	r := newReporter(p, s)
	// Room for the report at once: a few hundred bytes an event, in
	// either language, rather than the builder growing step by step.
	r.b.Grow(2048 + 256*len(d.Events))
	r.heading(d)
	r.rule()
	if d.Orders != "" {
		r.section(p.Sprintf("Orders as accepted"))
		for n, l := range strings.Split(strings.TrimRight(d.Orders, "\n"), "\n") {
			r.wrap(l, fmt.Sprintf("  %2d  ", n+1), itemRest)
		}
	}
	for _, e := range d.Events {
		r.event(e)
	}
	r.rule()
	r.line(p.Sprintf("German VP: %d. Dice rolled this impulse: %d.", d.After.VP, len(d.Dice)))
	if d.Result == "" {
		for _, st := range standing(p, s, d.After) {
			r.line(st)
		}
	}
	r.losses(d.After)
	if d.Result == "" && d.Next.Day == d.Impulse.Day {
		r.spent(d.After, d.Impulse.Day)
	}
	if len(d.Dice) > 0 {
		r.section(p.Sprintf("Every die, in the order rolled (draw numbers for titm verify)"))
		for _, x := range d.Dice {
			r.wrap(dieLine(p, x), fmt.Sprintf("  %2d  ", x.Value), itemRest)
		}
	}
	r.ending(d)
	return r.b.String()
}

// dieLine is a die's line of the report: its purpose in the language of p
// (PurposeText), written in the line's place rather than made first, and
// its draw's number, without digit grouping, as titm verify reads it.
func dieLine(p *lang.Printer, x Roll) string {
	draw := strconv.FormatUint(x.Draw, 10)
	var m purposeMsg
	if p.Code() == lang.English || !m.read(p, x.Purpose) {
		return p.Fill("%s  (draw %s)", x.Purpose, draw)
	}
	return p.FillIn("%s  (draw %s)", 0, m.Key, m.args[:m.n], "", draw)
}

// crossings writes the bridges a CHECK's moves cross where the enemy may
// try a demolition (10.2).
func (r *reporter) crossings(rh *rules.Rehearsal) {
	p := r.p
	if len(rh.Crossings) > 0 {
		r.section(p.Sprintf("Bridges the enemy may try to blow (10.2)"))
		for _, c := range rh.Crossings {
			may := make([]string, len(c.Chances))
			for i, ch := range c.Chances {
				may[i] = p.Sprintf("%s on %d or less", ch.Unit, ch.Need)
			}
			r.item(p.Sprintf("Line %d: %s crossing bridge %s from %s into %s may draw a demolition die: the enemy may try with %s (10.29).",
				c.Line, strings.Join(c.Units, ", "), c.Bridge, r.place(c.From), r.place(c.To), orList(p, may)))
		}
		r.item(p.Sprintf("Whether the enemy tries is his standing order, which a CHECK does not read (B1); one try per bridge an impulse (10.25). Above, every bridge holds; a bridge blown under a stack costs it 1 MP and sends it on by its ELSE path from the near side, or stops it there (8.42, B2)."))
	}
}

// stacks writes a CHECK's stacks where units moved or entrenched, and who
// the stacking limit would remove (7.1, 7.2).
func (r *reporter) stacks(rh *rules.Rehearsal) {
	p, side := r.p, rh.Impulse.Side
	if len(rh.Stacks) > 0 {
		r.section(p.Sprintf("Your stacks where units moved or entrenched (7.1: at most %d units and %d SP)", rules.StackUnits, rules.StackSP))
		for _, st := range rh.Stacks {
			switch {
			case !st.Over() || st.Place.IsZone():
				r.item(p.Sprintf("%s: %s; %d unit(s), %d SP.", r.place(st.Place), r.unitList(st.Units), len(st.Units), st.SP()))
			case rules.SetupOverLimit(side, rh.Impulse):
				r.item(p.Sprintf("%s: %s; %d unit(s), %d SP: OVER the limit, which the German set-up stacks may be until the end of 16-3 (7.1).", r.place(st.Place), r.unitList(st.Units), len(st.Units), st.SP()))
			default:
				r.item(p.Sprintf("%s: %s; %d unit(s), %d SP: OVER the limit.", r.place(st.Place), r.unitList(st.Units), len(st.Units), st.SP()))
			}
		}
	}
	if len(rh.Removed) > 0 {
		r.section(p.Sprintf("Stacking (7.2)"))
		for _, e := range rh.Removed {
			if e.Why == rules.RemovedByOrder {
				r.item(p.Sprintf("%s would be removed from %s at the end of the impulse, over the stacking limit, by your REMOVE order, unless the battles change the stack.", e.Unit, r.area(e.Area)))
			} else {
				r.item(p.Sprintf("%s would be removed from %s at the end of the impulse, over the stacking limit, by the fixed policy, weakest first (B6), unless the battles change the stack.", e.Unit, r.area(e.Area)))
			}
		}
	}
}

// heading writes the report's first lines: the game, the impulse, how it
// was played and what comes next.
func (r *reporter) heading(d *ReportData) {
	p, s := r.p, d.Scenario
	title := s.Name
	if s.Title != "" {
		title = p.Text(s.TitleMessage())
	}
	if d.Game != "" {
		r.line(p.Sprintf("Tigers in the Mist, game %s: %s", d.Game, title))
	} else {
		r.line(p.Sprintf("Tigers in the Mist: %s", title))
	}
	r.line(p.Sprintf("Impulse %s, the %s impulse %d of %d December", d.Impulse.String(), d.Impulse.Side, d.Impulse.N, d.Impulse.Day))
	switch {
	case d.Reason == ReasonDeadline:
		r.line(p.Sprintf("Played without orders: the deadline passed without valid orders (B8)"))
	case d.Reason != "":
		r.line(p.Sprintf("Played without orders: %s", d.Reason))
	case !d.Played.IsZero():
		r.line(p.Sprintf("Played %s with the %s player's orders", FormatTime(d.Played), d.Impulse.Side))
	}
	switch {
	case d.Next.Day == 0:
	case d.Paused:
		r.line(p.Sprintf("Next: the %s impulse %s; the game is paused by the director", d.Next.Side, d.Next.String()))
	case !d.Due.IsZero():
		r.line(p.Sprintf("Next: the %s impulse %s, due by %s", d.Next.Side, d.Next.String(), FormatTime(d.Due)))
	default:
		r.line(p.Sprintf("Next: the %s impulse %s", d.Next.Side, d.Next.String()))
	}
}

// ending writes the end of the game, if it is over, and the log's head.
func (r *reporter) ending(d *ReportData) {
	p := r.p
	if d.Result != "" {
		r.rule()
		r.line(p.Sprintf("THE GAME IS OVER: %s.", p.Text(rules.ResultMessage(d.Result))))
		if d.Seed != "" {
			r.line(p.Sprintf("The game's secret seed is revealed: %s", d.Seed))
			r.line(p.Sprintf("Its SHA-256 is the commitment published when the game was made, %s. With the log (titm export) anyone can recompute every die and replay every impulse (titm verify).", d.Commit))
		}
	}
	if d.Head != "" {
		r.blank()
		r.line(p.Sprintf("Log head: %s", d.Head))
	}
}

// standing says where the scenario's victory conditions stand (12.0 and the
// scenario's terms), a paragraph each: the result the German VP would give
// now, with the VP areas and the victory towns that score them, held and
// still to take; or how the victory areas are held.
func standing(p *lang.Printer, s *rules.Scenario, st *rules.State) []string {
	v := s.Victory
	switch v.Kind {
	case rules.VictoryVP:
		var out []string
		for _, l := range v.Levels {
			if l.Includes(st.VP) {
				res := p.Text(rules.ResultMessage(l.Result))
				if len(v.Areas) > 0 || v.HoleVP > 0 || v.ZoneVP {
					out = append(out, p.Sprintf("Standing: with %d German VP the result would be: %s, before the VP the scenario adds at its end.", st.VP, res))
				} else {
					out = append(out, p.Sprintf("Standing: with %d German VP the result would be: %s.", st.VP, res))
				}
				break
			}
		}
		if v.MapVP {
			if a := vpAreas(p, s, st); a != "" {
				out = append(out, a)
			}
		}
		if len(v.Areas) > 0 {
			out = append(out, victoryTowns(p, s, st))
		}
		return out
	case rules.VictoryControl:
		var german, contested, allied int
		for _, a := range v.Areas {
			switch st.AreaHold(s, a) {
			case rules.HoldGerman:
				german++
			case rules.HoldContested:
				contested++
			default:
				allied++
			}
		}
		return []string{p.Sprintf("Standing: of the %d victory areas, %d German, %d contested, %d Allied: %s.", len(v.Areas), german, contested, allied, victoryAreas(p, s, st))}
	}
	return nil
}

// vpAreas names the VP areas of the scenario's map (3.26), each with its VP:
// those the Germans control, which the victory phase of every turn scores
// (12.21), and those still to take. Control is the engine's, kept at the end
// of every player impulse (12.22): an area the Germans took and left is
// still theirs. It is "" when the scenario's map has no VP area.
func vpAreas(p *lang.Printer, s *rules.Scenario, st *rules.State) string {
	var german, allied []string
	perTurn := 0
	for _, a := range s.Map.Areas {
		if a.VP <= 0 || !s.Uses(rules.AreaPlace(a.ID)) {
			continue
		}
		name := p.Sprintf("%s (%d VP)", areaName(a.ID, a.Name), a.VP)
		if st.Control[a.ID] == rules.German {
			german = append(german, name)
			perTurn += a.VP
		} else {
			allied = append(allied, name)
		}
	}
	if len(german)+len(allied) == 0 {
		return ""
	}
	if len(german) == 0 {
		return p.Sprintf("VP areas, scored at the end of every turn (12.21, 12.22): German: none; still to take: %s.", orNone(p, allied))
	}
	return p.Sprintf("VP areas, scored at the end of every turn (12.21, 12.22): German, %d VP a turn: %s; still to take: %s.", perTurn, list(p, german), orNone(p, allied))
}

// victoryTowns names the scenario's victory towns by their state now, as
// the scenario's end will score them (The First Three Days: the VP for each
// town the Germans hold, fewer for each contested; rules.State.Finish).
func victoryTowns(p *lang.Printer, s *rules.Scenario, st *rules.State) string {
	v := s.Victory
	var german, contested, allied []string
	for _, a := range v.Areas {
		name := strconv.Itoa(a)
		if ar := s.Map.Area(a); ar != nil {
			name = areaName(a, ar.Name)
		}
		switch st.AreaHold(s, a) {
		case rules.HoldGerman:
			german = append(german, name)
		case rules.HoldContested:
			contested = append(contested, name)
		default:
			allied = append(allied, name)
		}
	}
	return p.Sprintf("Victory towns, scored at the end, %d VP each German and %d VP each contested: German: %s; contested: %s; still to take: %s.",
		v.ControlledVP, v.ContestedVP, orNone(p, german), orNone(p, contested), orNone(p, allied))
}

// list writes names as a list in the language of p: "a, b, c"; "a、b、c".
func list(p *lang.Printer, names []string) string { return p.Text(rules.List(names)) }

// orNone lists names, or says "none".
func orNone(p *lang.Printer, names []string) string {
	if len(names) == 0 {
		return p.Sprintf("none")
	}
	return list(p, names)
}

// victoryAreas names the scenario's victory areas, each with who holds it:
// "12 Wiltz (Allied), 23 Clervaux (contested)".
func victoryAreas(p *lang.Printer, s *rules.Scenario, st *rules.State) string {
	var parts []string
	for _, a := range s.Victory.Areas {
		name := strconv.Itoa(a)
		if ar := s.Map.Area(a); ar != nil {
			name = areaName(a, ar.Name)
		}
		switch st.AreaHold(s, a) {
		case rules.HoldGerman:
			parts = append(parts, fmt.Sprintf("%s (%s)", name, p.Side(rules.German)))
		case rules.HoldContested:
			parts = append(parts, p.Sprintf("%s (contested)", name))
		default:
			parts = append(parts, fmt.Sprintf("%s (%s)", name, p.Side(rules.Allied)))
		}
	}
	return list(p, parts)
}

// losses lists each side's losses over the game so far: the SP lost and
// the units eliminated (9.21, 7.2, 13.21), the position after the impulse
// against the scenario's start (a scenario may start from a written
// position with units already reduced or gone).
func (r *reporter) losses(st *rules.State) {
	p := r.p
	r.section(p.Sprintf("Losses so far"))
	start := rules.NewState(r.s)
	for _, side := range []rules.Side{rules.German, rules.Allied} {
		sp, elim := 0, []string(nil)
		for _, u := range st.Units {
			info, was := r.s.OOB.Unit(u.ID), start.Unit(u.ID)
			if info == nil || was == nil || was.Eliminated || info.Side != side || !u.Arrived {
				continue
			}
			if u.Eliminated {
				sp += was.Strength
				elim = append(elim, fmt.Sprintf("%s (%s)", u.ID, p.Text(info.Type.Text())))
			} else {
				sp += max(was.Strength-u.Strength, 0)
			}
		}
		r.item(p.Sprintf("%s: %d SP; eliminated: %s.", side, sp, orNone(p, elim)))
	}
}

// spent lists each side's units that have acted for the rest of the turn
// (8.25, 9.14, B5, 9.16, 10.14): they may not move or attack again before
// the next turn.
func (r *reporter) spent(st *rules.State, day int) {
	p := r.p
	r.section(p.Sprintf("Spent for the rest of %d December (8.25, 9.14, 9.16, 10.14)", day))
	for _, side := range []rules.Side{rules.German, rules.Allied} {
		var parts []string
		for _, u := range st.Units {
			info := r.s.OOB.Unit(u.ID)
			if info == nil || info.Side != side || !u.OnMap() || !(u.Moved || u.Attacked || u.Bridging) {
				continue
			}
			var why string
			switch {
			case u.Attacked:
				why = p.Sprintf("%s (attacked)", u.ID)
			case u.Bridging:
				why = p.Sprintf("%s (repair)", u.ID)
			case u.Stayed:
				why = p.Sprintf("%s (stayed in a battle, B5)", u.ID)
			case u.Entrenched && u.Place == u.TurnStart:
				// An entrenched unit that moved would have left its
				// entrenchment (8.58): it entrenched where it began.
				why = p.Sprintf("%s (entrenched)", u.ID)
			default:
				why = p.Sprintf("%s (moved)", u.ID)
			}
			parts = append(parts, why)
		}
		r.item(sideLine(p, side, orNone(p, parts)))
	}
}

// The indents of the report: an item under its section, and the lines an
// item or a step wraps to.
const (
	itemFirst = "  "
	itemRest  = "      "
	subFirst  = "      "
	subRest   = "          "
)

// reporter writes the report: sections, items wrapped to the width, in the
// language of its printer.
type reporter struct {
	p       *lang.Printer
	s       *rules.Scenario
	b       strings.Builder
	current string         // the section being written
	sp      map[string]int // the SP of the units in the battle being written
}

func newReporter(p *lang.Printer, s *rules.Scenario) *reporter {
	return &reporter{p: p, s: s, sp: map[string]int{}}
}

func (r *reporter) line(s string) { r.wrap(s, "", "  ") }
func (r *reporter) blank()        { r.b.WriteByte('\n') }
func (r *reporter) rule()         { r.b.WriteString(strings.Repeat("-", ReportWidth) + "\n") }

// section starts a section, unless it is the one being written.
func (r *reporter) section(title string) {
	if title == r.current {
		return
	}
	r.current = title
	r.b.WriteByte('\n')
	r.wrap(title, "", "  ")
}

func (r *reporter) item(s string) { r.wrap(s, itemFirst, itemRest) }

// sub writes a line under an item: a step of a move.
func (r *reporter) sub(s string) { r.wrap(s, subFirst, subRest) }

// wrap writes s in lines of ReportWidth columns at most, the first begun
// with first and the others with rest: lang.Wrap, which measures a text by
// its display width (a Japanese character takes two columns, → and ö one)
// and breaks Japanese between characters as well as at spaces.
func (r *reporter) wrap(s, first, rest string) {
	lang.WrapTo(&r.b, s, first, rest, ReportWidth)
}

// steps writes a move's steps, each with its MP (8.33-8.38).
func (r *reporter) steps(ss []rules.Step) {
	for _, st := range ss {
		r.sub(fmt.Sprintf("%s → %s: %s", r.place(st.From), r.place(st.To), r.p.Text(st.CostText())))
	}
}

// areaName names an area as players read it: its number and name, as
// the map and the orders write them.
func areaName(n int, name string) string { return strconv.Itoa(n) + " " + name }

// area names an area by its number and name.
func (r *reporter) area(n int) string {
	if a := r.s.Map.Area(n); a != nil {
		return areaName(n, a.Name)
	}
	return strconv.Itoa(n)
}

// place names an area as area does, and a zone as the rules do: "zone A".
func (r *reporter) place(p rules.Place) string {
	if p.IsZone() {
		return r.p.Text(r.s.Map.PlaceMessage(p))
	}
	return r.area(p.Area)
}

// bridge names a bridge by its ends.
func (r *reporter) bridge(ab string) string {
	var a, b int
	if _, err := fmt.Sscanf(ab, "%d-%d", &a, &b); err != nil {
		return ab
	}
	return fmt.Sprintf("%s (%s - %s)", ab, r.name(a), r.name(b))
}

func (r *reporter) name(n int) string {
	if a := r.s.Map.Area(n); a != nil {
		return a.Name
	}
	return strconv.Itoa(n)
}

// unitList names units with their type and SP: "G/AR (armor, 4 SP), G/MX
// (mech, 3 SP)".
func (r *reporter) unitList(cs []rules.Combatant) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = r.p.Sprintf("%s (%s, %d SP)", c.ID, c.Type.Text(), c.Strength)
	}
	return list(r.p, parts)
}

// modified writes dice as rolled and, where modifiers apply (9.48, 9.7),
// the modifiers and the dice they give.
func (r *reporter) modified(dice []int, ms []rules.Modifier, after []int) string {
	if len(ms) == 0 {
		return rolls(dice)
	}
	var b strings.Builder
	b.WriteString(rolls(dice))
	for _, m := range ms {
		b.WriteByte(' ')
		b.WriteString(r.p.Text(m.Text()))
	}
	b.WriteString(" = ")
	b.WriteString(rolls(after))
	return b.String()
}

func rolls(rs []int) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = strconv.Itoa(r)
	}
	return strings.Join(parts, " ")
}

// event writes one event in its section.
func (r *reporter) event(e rules.Event) {
	for _, write := range []func(rules.Event) bool{r.movement, r.battle, r.bridges, r.aftermath} {
		if write(e) {
			return
		}
	}
	// An event the report does not know: as the rules say it.
	r.section(r.p.Sprintf("Also"))
	text := e.String()
	if t, ok := e.(rules.TextEvent); ok {
		text = r.p.Text(t.Text())
	}
	r.item(capital(text) + ".")
}

// sideLine writes a line of a side's units: "German: G/AR (armor, 4 SP).".
func sideLine(p *lang.Printer, side rules.Side, units string) string {
	if side == rules.German {
		return p.Sprintf("German: %s.", units)
	}
	return p.Sprintf("Allied: %s.", units)
}

// movement writes the events of reinforcements, movement, special forces
// and stacking, and reports whether e was one.
func (r *reporter) movement(e rules.Event) bool {
	p := r.p
	switch e := e.(type) {
	case rules.ImpulseEnded:
		// said in the heading
	case rules.Passed:
		r.section(p.Sprintf("Movement"))
		r.item(p.Sprintf("No orders: no movement, attack or repair (B8)."))
	case rules.Arrived:
		r.section(p.Sprintf("Reinforcements (11.1)"))
		r.item(p.Sprintf("%s arrives in zone %s.", e.Unit, e.Zone))
	case rules.Released:
		r.section(p.Sprintf("Reinforcements (11.1)"))
		name := rules.DataMessage(e.Group)
		if grp := r.s.OOB.Group(e.Group); grp != nil {
			name = rules.DataMessage(grp.Name)
		}
		r.item(p.Sprintf("Panzer reserve released: %s, with %d German SP against %d Allied in %s (11.3).", name, e.GermanSP, e.AlliedSP, r.area(e.Area)))
	case rules.Moved:
		r.moved(e)
	case rules.Entrenched:
		r.section(p.Sprintf("Movement"))
		r.item(p.Sprintf("%s entrenches (8.5).", e.Unit))
	case rules.Stopped:
		r.section(p.Sprintf("Movement"))
		why := e.Why
		if e.Message.Key != "" {
			why = p.Text(e.Message)
		}
		r.item(p.Sprintf("%s stops short: %s.", e.Order, why))
	case rules.SFPlaced:
		r.sfPlaced(e)
	case rules.SFRemoved:
		r.section(p.Sprintf("Special forces (14.0)"))
		r.item(p.Sprintf("The special forces leave %d (14.3).", e.Area))
	case rules.StackRemoved:
		r.section(p.Sprintf("Stacking (7.2)"))
		if e.Why == rules.RemovedByOrder {
			r.item(p.Sprintf("%s is removed from %s, over the stacking limit, by its owner's REMOVE order.", e.Unit, r.area(e.Area)))
		} else {
			r.item(p.Sprintf("%s is removed from %s, over the stacking limit, by the fixed policy, weakest first (B6).", e.Unit, r.area(e.Area)))
		}
	case rules.OutsiderRemoved:
		r.section(p.Sprintf("Also"))
		r.item(p.Sprintf("%s is removed: it did not reach the scenario's map in supply by the end of the turn (5th Panzer special rule).", e.Unit))
	default:
		return false
	}
	return true
}

// moved writes a stack's move.
func (r *reporter) moved(e rules.Moved) {
	p := r.p
	r.section(p.Sprintf("Movement"))
	path := make([]string, len(e.Path))
	for i, pl := range e.Path {
		path[i] = r.place(pl)
	}
	units := strings.Join(e.Units, ", ") // unit ids, as orders list them
	if len(e.Path) == 1 {
		// A stack that spent MP without leaving: a bridge blown
		// before it (8.42, B2).
		r.item(p.Sprintf("%s stays in %s, having spent %d MP.", units, path[0], e.MP))
		r.steps(e.Steps)
		return
	}
	way := strings.Join(path, " - ")
	switch {
	case len(e.Units) == 1 && e.Foot:
		r.item(p.Sprintf("%s moves on foot %s: %d MP.", units, way, e.MP))
	case len(e.Units) == 1:
		r.item(p.Sprintf("%s moves %s: %d MP.", units, way, e.MP))
	case e.Foot:
		r.item(p.Sprintf("%s move on foot %s: %d MP.", units, way, e.MP))
	default:
		r.item(p.Sprintf("%s move %s: %d MP.", units, way, e.MP))
	}
	r.steps(e.Steps)
}

// sfPlaced writes where the German special forces go and what they do
// there (14.2).
func (r *reporter) sfPlaced(e rules.SFPlaced) {
	p := r.p
	r.section(p.Sprintf("Special forces (14.0)"))
	switch e.Effect {
	case rules.SFDelay:
		r.item(p.Sprintf("German special forces in %d, DELAY: Allied units pay 1 MP more to enter or leave it (14.22).", e.Area))
	case rules.SFDemolition:
		r.item(p.Sprintf("German special forces in %d, DEMOLITION: Allied demolitions from it succeed only on a 1 (14.23).", e.Area))
	case rules.SFConfusion:
		r.item(p.Sprintf("German special forces in %d, CONFUSION: all Allied fire in the battle at %d this impulse has +1 (14.24).", e.Area, e.Battle))
	default:
		r.item(p.Sprintf("German special forces in %d, %s.", e.Area, e.Effect))
	}
}

// battle writes the events of a battle, step by step (9.3), and reports
// whether e was one.
func (r *reporter) battle(e rules.Event) bool {
	p := r.p
	switch e := e.(type) {
	case rules.BattleBegins:
		r.current = ""
		r.section(p.Sprintf("Battle at %s: the %s attack (9.3)", r.area(e.Area), e.Attacker))
		r.item(sideLine(p, e.Attacker, r.unitList(e.Attackers)))
		r.item(sideLine(p, e.Attacker.Enemy(), r.unitList(e.Defenders)))
		r.sp = map[string]int{}
		for _, c := range append(append([]rules.Combatant(nil), e.Attackers...), e.Defenders...) {
			r.sp[c.ID] = c.Strength
		}
	case rules.ArtilleryCall:
		if e.Success {
			r.item(p.Sprintf("%s artillery call %d of %d: rolls %d, needs %d or less: succeeds: a strike.", e.Side, e.N, e.Of, e.Roll, e.Need))
		} else {
			r.item(p.Sprintf("%s artillery call %d of %d: rolls %d, needs %d or less: fails.", e.Side, e.N, e.Of, e.Roll, e.Need))
		}
	case rules.Strike:
		if e.Lost {
			r.item(p.Sprintf("%s strike on %s is lost: the unit is gone (9.47).", e.Side, e.Target))
			return true
		}
		roll := r.modified([]int{e.Roll}, e.Mods, []int{e.Modified})
		if e.Hit {
			r.item(p.Sprintf("%s strike on %s: rolls %s, needs %d or less: HITS%s.", e.Side, e.Target, roll, e.Need, r.hits(e.Target, 1)))
		} else {
			r.item(p.Sprintf("%s strike on %s: rolls %s, needs %d or less: misses.", e.Side, e.Target, roll, e.Need))
		}
	case rules.FireRoll:
		roll := r.modified(e.Rolls, e.Mods, e.Modified)
		r.item(p.Sprintf("%s fires at %s: rolls %s, needs %d or less: %d hit(s)%s.", e.Unit, e.Target, roll, e.Need, e.Hits, r.hits(e.Target, e.Hits)))
	case rules.Eliminated:
		r.item(p.Sprintf("%s is ELIMINATED (9.21).", e.Unit))
	case rules.BattleEnds:
		switch e.Holder {
		case rules.German:
			r.item(p.Sprintf("The battle is over: the Germans hold %s.", r.area(e.Area)))
		case rules.Allied:
			r.item(p.Sprintf("The battle is over: the Allies hold %s.", r.area(e.Area)))
		default:
			r.item(p.Sprintf("The battle is over: both sides hold %s.", r.area(e.Area)))
		}
		r.current = ""
	default:
		return false
	}
	return true
}

// hits takes n hits off the unit's SP as the report counts them in the
// battle, and says what it has left: ": U/MX 2 → 0 SP". A side's fire hits
// after all of it is rolled (9.34, 9.37), with the same result; hits beyond
// a unit's last SP are lost (9.22).
func (r *reporter) hits(id string, n int) string {
	was, ok := r.sp[id]
	if n == 0 || !ok {
		return ""
	}
	if was == 0 {
		return r.p.Sprintf(": %s has no SP left, the hit(s) are lost (9.22)", id)
	}
	r.sp[id] = max(was-n, 0)
	return r.p.Sprintf(": %s %d → %d SP", id, was, r.sp[id])
}

// bridges writes the demolitions and repairs of bridges (10.1, 10.2), and
// reports whether e was one.
func (r *reporter) bridges(e rules.Event) bool {
	p := r.p
	switch e := e.(type) {
	case rules.DemolitionTried:
		r.section(p.Sprintf("Bridge demolition (10.2)"))
		if e.Blown {
			r.item(p.Sprintf("%s tries to blow bridge %s: rolls %d, needs %d or less: the bridge is BLOWN.", e.Unit, r.bridge(e.Bridge), e.Roll, e.Need))
		} else {
			r.item(p.Sprintf("%s tries to blow bridge %s: rolls %d, needs %d or less: the bridge holds.", e.Unit, r.bridge(e.Bridge), e.Roll, e.Need))
		}
	case rules.RepairTried:
		r.section(p.Sprintf("Bridge repair (10.1)"))
		if e.Repaired {
			r.item(p.Sprintf("%s tries to repair bridge %s: rolls %d, needs %d or less: REPAIRED.", e.Unit, r.bridge(e.Bridge), e.Roll, e.Need))
		} else {
			r.item(p.Sprintf("%s tries to repair bridge %s: rolls %d, needs %d or less: still blown.", e.Unit, r.bridge(e.Bridge), e.Roll, e.Need))
		}
	default:
		return false
	}
	return true
}

// aftermath writes supply, control and victory, and reports whether e was
// one.
func (r *reporter) aftermath(e rules.Event) bool {
	p := r.p
	switch e := e.(type) {
	case rules.SupplyChange:
		r.section(p.Sprintf("Supply (13.0)"))
		if e.InSupply {
			r.item(p.Sprintf("%s is in supply again (13.11).", e.Unit))
		} else {
			r.item(p.Sprintf("%s is out of supply (13.11-13.14).", e.Unit))
		}
	case rules.Attrited:
		r.section(p.Sprintf("Supply (13.0)"))
		if e.Eliminated {
			r.item(p.Sprintf("%s loses its last SP to attrition and is eliminated (13.21).", e.Unit))
		} else {
			r.item(p.Sprintf("%s loses 1 SP to attrition: %d SP left (13.21).", e.Unit, e.Strength))
		}
	case rules.ControlChanged:
		r.section(p.Sprintf("Control (12.22)"))
		r.item(p.Sprintf("%s passes to the %s side.", r.area(e.Area), e.Side))
	case rules.VPScored:
		r.section(p.Sprintf("Victory"))
		r.item(p.Sprintf("The Germans control %s: %d VP.", r.area(e.Area), e.VP))
	case rules.ScenarioVP:
		r.section(p.Sprintf("Victory"))
		switch e.Hold {
		case rules.HoldGerman:
			r.item(p.Sprintf("Victory area %s is controlled by the Germans: %d VP.", r.area(e.Area), e.VP))
		case rules.HoldContested:
			r.item(p.Sprintf("Victory area %s is contested: %d VP.", r.area(e.Area), e.VP))
		default:
			r.item(p.Sprintf("Victory area %s is neither German nor contested: %d VP.", r.area(e.Area), e.VP))
		}
	case rules.VPTotal:
		r.section(p.Sprintf("Victory"))
		r.item(p.Sprintf("Victory phase of %d December: the Germans score %d VP, %d VP in all (6.0 IX, 12.11).", e.Turn, e.VP, e.Total))
	case rules.ZoneVP:
		r.section(p.Sprintf("Victory"))
		if e.Unsupplied > 0 {
			r.item(p.Sprintf("Zone %s: %d German SP in supply × %d = %d VP (12.23); %d SP out of supply score nothing (12.24).", e.Zone, e.SP, e.Multiplier, e.VP, e.Unsupplied))
		} else {
			r.item(p.Sprintf("Zone %s: %d German SP in supply × %d = %d VP (12.23).", e.Zone, e.SP, e.Multiplier, e.VP))
		}
	case rules.HolesScored:
		r.section(p.Sprintf("Victory"))
		if e.N == 0 {
			r.item(p.Sprintf("No hole in the Allied line: no line of roads from the German zones to the Allied zones avoids the Allied units (The First Three Days)."))
			return true
		}
		ls := make([]string, len(e.Lines))
		for i, l := range e.Lines {
			ps := make([]string, len(l))
			for j, pl := range l {
				ps[j] = pl.String()
			}
			ls[i] = strings.Join(ps, "-") // areas and zones, as orders write them
		}
		r.item(p.Sprintf("%d hole(s) in the Allied line: %d VP (The First Three Days: 3 VP per hole): %s.", e.N, e.VP, strings.Join(ls, "; ")))
	case rules.GameResult:
		r.section(p.Sprintf("Victory"))
		if e.Kind == rules.VictoryControl {
			r.item(p.Sprintf("The scenario is over: %s (%d German, %d contested, %d Allied of the victory areas).", p.Text(rules.ResultMessage(e.Result)), e.German, e.Contested, e.Allied))
		} else {
			r.item(p.Sprintf("The scenario is over: %s with %d German VP (12.0).", p.Text(rules.ResultMessage(e.Result)), e.VP))
		}
	default:
		return false
	}
	return true
}

// capital writes s with its first letter in upper case, as a sentence
// begins in English; a Japanese text has none.
func capital(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// Picture draws the map as it is after an impulse of a game, the impulse's
// battles and moves highlighted: the picture the report's mail carries.
func Picture(g *Game, impulse string, events []rules.Event) ([]byte, error) {
	return PictureIn(lang.EN(), g, impulse, events)
}

// PictureIn is Picture with its title and legend in the language of p.
func PictureIn(p *lang.Printer, g *Game, impulse string, events []rules.Event) ([]byte, error) {
	s, err := g.Rules()
	if err != nil {
		return nil, err
	}
	return picture.Render(s, g.State, &picture.Options{
		Title:      picture.TitleAfter(p, g.ID, impulse, g.State.VP),
		Highlights: picture.HighlightsOf(events),
		Lang:       p,
	})
}

// WriteRehearsalIn writes the answer to CHECK for orders the position
// accepts, in the language of p: what they would do, carried out to just
// before the first die (the moves step by step, the bridges where the enemy
// may try a demolition, the stacks, who the stacking limit would remove,
// the units spent, the battles) and what the first die would be rolled
// for, written as the dice are asked for it, as the log would keep it. The
// enemy's standing orders are not in it: rules.Rehearse never reads them.
func WriteRehearsalIn(p *lang.Printer, s *rules.Scenario, rh *rules.Rehearsal) string {
	r := newReporter(p, s)
	side := rh.Impulse.Side
	r.line(p.Sprintf("CHECK: the orders are legal for %s. Carried out, they would do this, up to the first die; nothing was applied and no die was drawn.", rh.Impulse.String()))
	for _, e := range rh.Events {
		if _, ok := e.(rules.ImpulseEnded); !ok {
			r.event(e)
		}
	}
	r.crossings(rh)
	r.stacks(rh)
	if len(rh.Spent) > 0 {
		r.section(p.Sprintf("Spent for the rest of %d December", rh.Impulse.Day))
		for _, sp := range rh.Spent {
			r.item(p.Sprintf("%s.", sp.Text())) // why it is spent (8.25, 8.5, 9.16, 9.14, B5, 10.14)
		}
	}
	if len(rh.Battles) > 0 {
		r.section(p.Sprintf("Battles, in the order they would be fought (9.3, B4)"))
		for _, b := range rh.Battles {
			r.item(p.Sprintf("%s: %s %s against %s %s.", r.area(b.Area), side, r.unitList(b.Attackers), side.Enemy(), r.unitList(b.Defenders)))
		}
	}
	if rh.FirstDie != "" {
		r.section(p.Sprintf("The first die after the moves would be rolled for (B10)"))
		r.item(PurposeText(p, rh.FirstDie))
	} else {
		r.section(p.Sprintf("After the moves no die is needed"))
		r.item(p.Sprintf("The rest of the impulse, carried out without a die:"))
		for _, e := range rh.Rest {
			if e, ok := e.(rules.ImpulseEnded); ok {
				r.section(p.Sprintf("End"))
				r.item(p.Sprintf("The impulse %s would end; the next is %s.", e.Played.String(), e.Next.String()))
				continue
			}
			r.event(e)
		}
	}
	r.blank()
	r.line(p.Sprintf("Nothing was applied."))
	return r.b.String()
}

// orList writes alternatives in the language of p: "a or b".
func orList(p *lang.Printer, items []string) string { return p.Text(rules.OrList(items)) }
