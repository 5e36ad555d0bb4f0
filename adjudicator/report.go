package adjudicator

import (
	"fmt"
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

// ReportWidth is the width the report is written to.
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

// Report writes the report of a change to a game that played an impulse:
// recs are the change's records (the impulse's, and the finished record when
// the game ended with it), events the impulse's events, and g the game after
// the change.
func Report(g *Game, recs []Record, events []rules.Event) (string, error) {
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
	return WriteReport(d), nil
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

// WriteReport writes an impulse's report.
func WriteReport(d *ReportData) string {
	s := d.Scenario
	r := &reporter{s: s, sp: map[string]int{}}
	title := s.Title
	if title == "" {
		title = s.Name
	}
	if d.Game != "" {
		r.line(fmt.Sprintf("Tigers in the Mist, game %s: %s", d.Game, title))
	} else {
		r.line("Tigers in the Mist: " + title)
	}
	r.line(fmt.Sprintf("Impulse %s, the %s impulse %d of %d December", d.Impulse, d.Impulse.Side.Title(), d.Impulse.N, d.Impulse.Day))
	switch {
	case d.Reason != "":
		r.line("Played without orders: " + d.Reason)
	case !d.Played.IsZero():
		r.line(fmt.Sprintf("Played %s with the %s player's orders", FormatTime(d.Played), d.Impulse.Side.Title()))
	}
	switch {
	case d.Next.Day == 0:
	case d.Paused:
		r.line(fmt.Sprintf("Next: the %s impulse %s; the game is paused by the director", d.Next.Side.Title(), d.Next))
	case !d.Due.IsZero():
		r.line(fmt.Sprintf("Next: the %s impulse %s, due by %s", d.Next.Side.Title(), d.Next, FormatTime(d.Due)))
	default:
		r.line(fmt.Sprintf("Next: the %s impulse %s", d.Next.Side.Title(), d.Next))
	}
	r.rule()
	if d.Orders != "" {
		r.section("Orders as accepted")
		for n, l := range strings.Split(strings.TrimRight(d.Orders, "\n"), "\n") {
			r.item(fmt.Sprintf("%2d  %s", n+1, l))
		}
	}
	for _, e := range d.Events {
		r.event(e)
	}
	r.rule()
	r.line(fmt.Sprintf("German VP: %d. Dice rolled this impulse: %d.", d.After.VP, len(d.Dice)))
	if d.Result == "" {
		for _, st := range standing(s, d.After) {
			r.line(st)
		}
	}
	r.losses(d.After)
	if d.Result == "" && d.Next.Day == d.Impulse.Day {
		r.spent(d.After, d.Impulse.Day)
	}
	if len(d.Dice) > 0 {
		r.section("Every die, in the order rolled (draw numbers for titm verify)")
		for _, x := range d.Dice {
			r.item(fmt.Sprintf("%2d  %s  (draw %d)", x.Value, x.Purpose, x.Draw))
		}
	}
	if d.Result != "" {
		r.rule()
		r.line("THE GAME IS OVER: " + d.Result + ".")
		if d.Seed != "" {
			r.line("The game's secret seed is revealed: " + d.Seed)
			r.line("Its SHA-256 is the commitment published when the game was made, " + d.Commit + ". With the log (titm export) anyone can recompute every die and replay every impulse (titm verify).")
		}
	}
	if d.Head != "" {
		r.blank()
		r.line("Log head: " + d.Head)
	}
	return r.b.String()
}

// standing says where the scenario's victory conditions stand (12.0 and the
// scenario's terms), a paragraph each: the result the German VP would give
// now, with the VP areas and the victory towns that score them, held and
// still to take; or how the victory areas are held.
func standing(s *rules.Scenario, st *rules.State) []string {
	v := s.Victory
	switch v.Kind {
	case rules.VictoryVP:
		var out []string
		for _, l := range v.Levels {
			if l.Includes(st.VP) {
				more := ""
				if len(v.Areas) > 0 || v.HoleVP > 0 || v.ZoneVP {
					more = ", before the VP the scenario adds at its end"
				}
				out = append(out, fmt.Sprintf("Standing: with %d German VP the result would be: %s%s.", st.VP, l.Result, more))
				break
			}
		}
		if v.MapVP {
			if p := vpAreas(s, st); p != "" {
				out = append(out, p)
			}
		}
		if len(v.Areas) > 0 {
			out = append(out, victoryTowns(s, st))
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
		return []string{fmt.Sprintf("Standing: of the %d victory areas, %d German, %d contested, %d Allied: %s.", len(v.Areas), german, contested, allied, victoryAreas(s, st))}
	}
	return nil
}

// vpAreas names the VP areas of the scenario's map (3.26), each with its VP:
// those the Germans control, which the victory phase of every turn scores
// (12.21), and those still to take. Control is the engine's, kept at the end
// of every player impulse (12.22): an area the Germans took and left is
// still theirs. It is "" when the scenario's map has no VP area.
func vpAreas(s *rules.Scenario, st *rules.State) string {
	var german, allied []string
	perTurn := 0
	for _, a := range s.Map.Areas {
		if a.VP <= 0 || !s.Uses(rules.AreaPlace(a.ID)) {
			continue
		}
		name := fmt.Sprintf("%d %s (%d VP)", a.ID, a.Name, a.VP)
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
	held := "German: none"
	if len(german) > 0 {
		held = fmt.Sprintf("German, %d VP a turn: %s", perTurn, strings.Join(german, ", "))
	}
	return fmt.Sprintf("VP areas, scored at the end of every turn (12.21, 12.22): %s; still to take: %s.", held, orNone(allied))
}

// victoryTowns names the scenario's victory towns by their state now, as
// the scenario's end will score them (The First Three Days: the VP for each
// town the Germans hold, fewer for each contested; rules.State.Finish).
func victoryTowns(s *rules.Scenario, st *rules.State) string {
	v := s.Victory
	var german, contested, allied []string
	for _, a := range v.Areas {
		name := fmt.Sprint(a)
		if ar := s.Map.Area(a); ar != nil {
			name += " " + ar.Name
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
	return fmt.Sprintf("Victory towns, scored at the end, %d VP each German and %d VP each contested: German: %s; contested: %s; still to take: %s.",
		v.ControlledVP, v.ContestedVP, orNone(german), orNone(contested), orNone(allied))
}

// orNone lists names, or says "none".
func orNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// victoryAreas names the scenario's victory areas, each with who holds it:
// "12 Wiltz (Allied), 23 Clervaux (contested)".
func victoryAreas(s *rules.Scenario, st *rules.State) string {
	var parts []string
	for _, a := range s.Victory.Areas {
		who := "Allied"
		switch st.AreaHold(s, a) {
		case rules.HoldGerman:
			who = "German"
		case rules.HoldContested:
			who = "contested"
		}
		name := fmt.Sprint(a)
		if ar := s.Map.Area(a); ar != nil {
			name += " " + ar.Name
		}
		parts = append(parts, fmt.Sprintf("%s (%s)", name, who))
	}
	return strings.Join(parts, ", ")
}

// losses lists each side's losses over the game so far: the SP lost and
// the units eliminated (9.21, 7.2, 13.21), the position after the impulse
// against the scenario's start (a scenario may start from a written
// position with units already reduced or gone).
func (r *reporter) losses(st *rules.State) {
	r.section("Losses so far")
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
				elim = append(elim, fmt.Sprintf("%s (%s)", u.ID, info.Type))
			} else {
				sp += max(was.Strength-u.Strength, 0)
			}
		}
		what := "none"
		if len(elim) > 0 {
			what = strings.Join(elim, ", ")
		}
		r.item(fmt.Sprintf("%s: %d SP; eliminated: %s.", side.Title(), sp, what))
	}
}

// spent lists each side's units that have acted for the rest of the turn
// (8.25, 9.14, B5, 9.16, 10.14): they may not move or attack again before
// the next turn.
func (r *reporter) spent(st *rules.State, day int) {
	r.section(fmt.Sprintf("Spent for the rest of %d December (8.25, 9.14, 9.16, 10.14)", day))
	for _, side := range []rules.Side{rules.German, rules.Allied} {
		var parts []string
		for _, u := range st.Units {
			info := r.s.OOB.Unit(u.ID)
			if info == nil || info.Side != side || !u.OnMap() || !(u.Moved || u.Attacked || u.Bridging) {
				continue
			}
			why := "moved"
			switch {
			case u.Attacked:
				why = "attacked"
			case u.Bridging:
				why = "repair"
			case u.Stayed:
				why = "stayed in a battle, B5"
			case u.Entrenched && u.Place == u.TurnStart:
				// An entrenched unit that moved would have left its
				// entrenchment (8.58): it entrenched where it began.
				why = "entrenched"
			}
			parts = append(parts, fmt.Sprintf("%s (%s)", u.ID, why))
		}
		what := "none"
		if len(parts) > 0 {
			what = strings.Join(parts, ", ")
		}
		r.item(fmt.Sprintf("%s: %s.", side.Title(), what))
	}
}

// reporter writes the report: sections, items wrapped to the width.
type reporter struct {
	s       *rules.Scenario
	b       strings.Builder
	current string         // the section being written
	sp      map[string]int // the SP of the units in the battle being written
}

func (r *reporter) line(s string) { wrap(&r.b, s, "", "  ") }
func (r *reporter) blank()        { r.b.WriteByte('\n') }
func (r *reporter) rule()         { r.b.WriteString(strings.Repeat("-", ReportWidth) + "\n") }

// section starts a section, unless it is the one being written.
func (r *reporter) section(title string) {
	if title == r.current {
		return
	}
	r.current = title
	r.b.WriteString("\n" + title + "\n")
}

func (r *reporter) item(s string) { wrap(&r.b, s, "  ", "      ") }

// sub writes a line under an item: a step of a move.
func (r *reporter) sub(s string) { wrap(&r.b, s, "      ", "          ") }

// steps writes a move's steps, each with its MP (8.33-8.38).
func (r *reporter) steps(ss []rules.Step) {
	for _, st := range ss {
		r.sub(fmt.Sprintf("%s → %s: %s", r.place(st.From), r.place(st.To), st.Cost()))
	}
}

// wrap writes s in lines of ReportWidth at most, breaking at spaces.
func wrap(b *strings.Builder, s, first, rest string) {
	prefix := first
	for len(prefix)+len(s) > ReportWidth {
		cut := strings.LastIndex(s[:ReportWidth-len(prefix)], " ")
		if cut <= 0 {
			break // a word longer than the line: leave it whole
		}
		b.WriteString(prefix + s[:cut] + "\n")
		s, prefix = strings.TrimLeft(s[cut:], " "), rest
	}
	b.WriteString(prefix + s + "\n")
}

// area names an area as players read it: its number and name.
func (r *reporter) area(n int) string {
	if a := r.s.Map.Area(n); a != nil {
		return fmt.Sprintf("%d %s", n, a.Name)
	}
	return fmt.Sprint(n)
}

func (r *reporter) place(p rules.Place) string {
	if p.IsZone() {
		return "zone " + p.String()
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
	return fmt.Sprint(n)
}

func (r *reporter) unitList(cs []rules.Combatant) string {
	var parts []string
	for _, c := range cs {
		parts = append(parts, fmt.Sprintf("%s (%s, %d SP)", c.ID, c.Type, c.Strength))
	}
	return strings.Join(parts, ", ")
}

// modified writes dice as rolled and, where modifiers apply (9.48, 9.7),
// the modifiers and the dice they give.
func modified(dice []int, ms []rules.Modifier, after []int) string {
	if len(ms) == 0 {
		return rolls(dice)
	}
	return rolls(dice) + mods(ms) + " = " + rolls(after)
}

func mods(ms []rules.Modifier) string {
	var b strings.Builder
	for _, m := range ms {
		b.WriteString(" " + m.String())
	}
	return b.String()
}

func rolls(rs []int) string {
	var parts []string
	for _, r := range rs {
		parts = append(parts, fmt.Sprint(r))
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
	r.section("Also")
	r.item(capital(e.String()) + ".")
}

// movement writes the events of reinforcements, movement, special forces
// and stacking, and reports whether e was one.
func (r *reporter) movement(e rules.Event) bool {
	switch e := e.(type) {
	case rules.ImpulseEnded:
		// said in the heading
	case rules.Passed:
		r.section("Movement")
		r.item("No orders: no movement, attack or repair (B8).")
	case rules.Arrived:
		r.section("Reinforcements (11.1)")
		r.item(fmt.Sprintf("%s arrives in zone %s.", e.Unit, e.Zone))
	case rules.Released:
		r.section("Reinforcements (11.1)")
		r.item(fmt.Sprintf("The %s panzer reserve is released: %d German SP against %d Allied in %s (11.3).", e.Group, e.GermanSP, e.AlliedSP, r.area(e.Area)))
	case rules.Moved:
		r.section("Movement")
		var path []string
		for _, p := range e.Path {
			path = append(path, r.place(p))
		}
		if len(e.Path) == 1 {
			// A stack that spent MP without leaving: a bridge blown
			// before it (8.42, B2).
			r.item(fmt.Sprintf("%s stays in %s, having spent %d MP.", strings.Join(e.Units, ", "), path[0], e.MP))
			r.steps(e.Steps)
			return true
		}
		how := "move"
		if len(e.Units) == 1 {
			how = "moves"
		}
		if e.Foot {
			how += " on foot"
		}
		r.item(fmt.Sprintf("%s %s %s: %d MP.", strings.Join(e.Units, ", "), how, strings.Join(path, " - "), e.MP))
		r.steps(e.Steps)
	case rules.Entrenched:
		r.section("Movement")
		r.item(e.Unit + " entrenches (8.5).")
	case rules.Stopped:
		r.section("Movement")
		r.item(fmt.Sprintf("%s stops short: %s.", e.Order, e.Why))
	case rules.SFPlaced, rules.SFRemoved:
		r.section("Special forces (14.0)")
		r.item(capital(e.String()) + ".")
	case rules.StackRemoved:
		r.section("Stacking (7.2)")
		why := "by its owner's REMOVE order"
		if e.Why != "order" {
			why = "by the fixed policy, weakest first (B6)"
		}
		r.item(fmt.Sprintf("%s is removed from %s, over the stacking limit, %s.", e.Unit, r.area(e.Area), why))
	default:
		return false
	}
	return true
}

// battle writes the events of a battle, step by step (9.3), and reports
// whether e was one.
func (r *reporter) battle(e rules.Event) bool {
	switch e := e.(type) {
	case rules.BattleBegins:
		r.current = ""
		r.section(fmt.Sprintf("Battle at %s: the %s attack (9.3)", r.area(e.Area), e.Attacker.Title()))
		r.item(e.Attacker.Title() + ": " + r.unitList(e.Attackers) + ".")
		r.item(e.Attacker.Enemy().Title() + ": " + r.unitList(e.Defenders) + ".")
		r.sp = map[string]int{}
		for _, c := range append(append([]rules.Combatant(nil), e.Attackers...), e.Defenders...) {
			r.sp[c.ID] = c.Strength
		}
	case rules.ArtilleryCall:
		res := "fails"
		if e.Success {
			res = "succeeds: a strike"
		}
		r.item(fmt.Sprintf("%s artillery call %d of %d: rolls %d, needs %d or less: %s.", e.Side.Title(), e.N, e.Of, e.Roll, e.Need, res))
	case rules.Strike:
		if e.Lost {
			r.item(fmt.Sprintf("%s strike on %s is lost: the unit is gone (9.47).", e.Side.Title(), e.Target))
			return true
		}
		res := "misses"
		if e.Hit {
			res = "HITS"
		}
		roll := modified([]int{e.Roll}, e.Mods, []int{e.Modified})
		after := ""
		if e.Hit {
			after = r.hits(e.Target, 1)
		}
		r.item(fmt.Sprintf("%s strike on %s: rolls %s, needs %d or less: %s%s.", e.Side.Title(), e.Target, roll, e.Need, res, after))
	case rules.FireRoll:
		roll := modified(e.Rolls, e.Mods, e.Modified)
		r.item(fmt.Sprintf("%s fires at %s: rolls %s, needs %d or less: %d hit(s)%s.", e.Unit, e.Target, roll, e.Need, e.Hits, r.hits(e.Target, e.Hits)))
	case rules.Eliminated:
		r.item(fmt.Sprintf("%s is ELIMINATED (9.21).", e.Unit))
	case rules.BattleEnds:
		who := "both sides hold"
		switch e.Holder {
		case rules.German:
			who = "the Germans hold"
		case rules.Allied:
			who = "the Allies hold"
		}
		r.item(fmt.Sprintf("The battle is over: %s %s.", who, r.area(e.Area)))
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
		return fmt.Sprintf(": %s has no SP left, the hit(s) are lost (9.22)", id)
	}
	r.sp[id] = max(was-n, 0)
	return fmt.Sprintf(": %s %d → %d SP", id, was, r.sp[id])
}

// bridges writes the demolitions and repairs of bridges (10.1, 10.2), and
// reports whether e was one.
func (r *reporter) bridges(e rules.Event) bool {
	switch e := e.(type) {
	case rules.DemolitionTried:
		r.section("Bridge demolition (10.2)")
		res := "the bridge holds"
		if e.Blown {
			res = "the bridge is BLOWN"
		}
		r.item(fmt.Sprintf("%s tries to blow bridge %s: rolls %d, needs %d or less: %s.", e.Unit, r.bridge(e.Bridge), e.Roll, e.Need, res))
	case rules.RepairTried:
		r.section("Bridge repair (10.1)")
		res := "still blown"
		if e.Repaired {
			res = "REPAIRED"
		}
		r.item(fmt.Sprintf("%s tries to repair bridge %s: rolls %d, needs %d or less: %s.", e.Unit, r.bridge(e.Bridge), e.Roll, e.Need, res))
	default:
		return false
	}
	return true
}

// aftermath writes supply, control and victory, and reports whether e was
// one.
func (r *reporter) aftermath(e rules.Event) bool {
	switch e := e.(type) {
	case rules.SupplyChange, rules.Attrited:
		r.section("Supply (13.0)")
		r.item(capital(e.String()) + ".")
	case rules.ControlChanged:
		r.section("Control (12.22)")
		r.item(fmt.Sprintf("%s passes to the %s side.", r.area(e.Area), e.Side.Title()))
	case rules.VPScored:
		r.section("Victory")
		r.item(fmt.Sprintf("The Germans control %s: %d VP.", r.area(e.Area), e.VP))
	case rules.ScenarioVP:
		r.section("Victory")
		what := map[rules.Hold]string{rules.HoldGerman: "controlled by the Germans", rules.HoldContested: "contested"}[e.Hold]
		if what == "" {
			what = "neither German nor contested"
		}
		r.item(fmt.Sprintf("Victory area %s is %s: %d VP.", r.area(e.Area), what, e.VP))
	case rules.VPTotal, rules.ZoneVP, rules.HolesScored, rules.GameResult:
		r.section("Victory")
		r.item(capital(e.String()) + ".")
	default:
		return false
	}
	return true
}

func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// Picture draws the map as it is after an impulse of a game, the impulse's
// battles and moves highlighted: the picture the report's mail carries.
func Picture(g *Game, impulse string, events []rules.Event) ([]byte, error) {
	s, err := g.Rules()
	if err != nil {
		return nil, err
	}
	return picture.Render(s, g.State, &picture.Options{
		Title:      fmt.Sprintf("Game %s — after impulse %s — German VP %d", g.ID, impulse, g.State.VP),
		Highlights: picture.HighlightsOf(events),
	})
}

// WriteRehearsal writes the answer to CHECK for orders the position accepts:
// what they would do, carried out to just before the first die (the moves
// step by step, the bridges where the enemy may try a demolition, the
// stacks, who the stacking limit would remove, the units spent, the
// battles) and what the first die would be rolled for. The enemy's standing
// orders are not in it: rules.Rehearse never reads them.
func WriteRehearsal(s *rules.Scenario, rh *rules.Rehearsal) string {
	r := &reporter{s: s, sp: map[string]int{}}
	side := rh.Impulse.Side
	r.line(fmt.Sprintf("CHECK: the orders are legal for %s. Carried out, they would do this, up to the first die; nothing was applied and no die was drawn.", rh.Impulse))
	for _, e := range rh.Events {
		if _, ok := e.(rules.ImpulseEnded); !ok {
			r.event(e)
		}
	}
	if len(rh.Crossings) > 0 {
		r.section("Bridges the enemy may try to blow (10.2)")
		for _, c := range rh.Crossings {
			var may []string
			for _, ch := range c.Chances {
				may = append(may, fmt.Sprintf("%s on %d or less", ch.Unit, ch.Need))
			}
			r.item(fmt.Sprintf("Line %d: %s crossing bridge %s from %s into %s may draw a demolition die: the enemy may try with %s (10.29).",
				c.Line, strings.Join(c.Units, ", "), c.Bridge, r.place(c.From), r.place(c.To), strings.Join(may, " or ")))
		}
		r.item("Whether the enemy tries is his standing order, which a CHECK does not read (B1); one try per bridge an impulse (10.25). Above, every bridge holds; a bridge blown under a stack costs it 1 MP and sends it on by its ELSE path from the near side, or stops it there (8.42, B2).")
	}
	if len(rh.Stacks) > 0 {
		r.section(fmt.Sprintf("Your stacks where units moved or entrenched (7.1: at most %d units and %d SP)", rules.StackUnits, rules.StackSP))
		for _, st := range rh.Stacks {
			over := ""
			if st.Over() && !st.Place.IsZone() {
				over = ": OVER the limit"
				if side == rules.German && rh.Impulse.Day == rules.FirstDay && rh.Impulse.N < 3 {
					over += ", which the German set-up stacks may be until the end of 16-3 (7.1)"
				}
			}
			r.item(fmt.Sprintf("%s: %s; %d unit(s), %d SP%s.", r.place(st.Place), r.unitList(st.Units), len(st.Units), st.SP(), over))
		}
	}
	if len(rh.Removed) > 0 {
		r.section("Stacking (7.2)")
		for _, e := range rh.Removed {
			why := "by your REMOVE order"
			if e.Why != "order" {
				why = "by the fixed policy, weakest first (B6)"
			}
			r.item(fmt.Sprintf("%s would be removed from %s at the end of the impulse, over the stacking limit, %s, unless the battles change the stack.", e.Unit, r.area(e.Area), why))
		}
	}
	if len(rh.Spent) > 0 {
		r.section(fmt.Sprintf("Spent for the rest of %d December", rh.Impulse.Day))
		for _, sp := range rh.Spent {
			r.item(fmt.Sprintf("%s %s.", sp.Unit, sp.Why))
		}
	}
	if len(rh.Battles) > 0 {
		r.section("Battles, in the order they would be fought (9.3, B4)")
		for _, b := range rh.Battles {
			r.item(fmt.Sprintf("%s: %s %s against %s %s.", r.area(b.Area), side.Title(), r.unitList(b.Attackers), side.Enemy().Title(), r.unitList(b.Defenders)))
		}
	}
	if rh.FirstDie != "" {
		r.section("The first die after the moves would be rolled for (B10)")
		r.item(rh.FirstDie)
	} else {
		r.section("After the moves no die is needed")
		r.item("The rest of the impulse, carried out without a die:")
		for _, e := range rh.Rest {
			if e, ok := e.(rules.ImpulseEnded); ok {
				r.section("End")
				r.item(fmt.Sprintf("The impulse %s would end; the next is %s.", e.Played, e.Next))
				continue
			}
			r.event(e)
		}
	}
	r.blank()
	r.line("Nothing was applied.")
	return r.b.String()
}

// ReportIn is Report in the language of p.
// TODO(i18n): the language-taking variants are being written; until then they give English.
func ReportIn(p *lang.Printer, g *Game, recs []Record, events []rules.Event) (string, error) {
	return Report(g, recs, events)
}

// WriteRehearsalIn is WriteRehearsal in the language of p.
func WriteRehearsalIn(p *lang.Printer, s *rules.Scenario, rh *rules.Rehearsal) string {
	return WriteRehearsal(s, rh)
}

// PictureIn is Picture with its title and legend in the language of p.
func PictureIn(p *lang.Printer, g *Game, impulse string, events []rules.Event) ([]byte, error) {
	return Picture(g, impulse, events)
}
