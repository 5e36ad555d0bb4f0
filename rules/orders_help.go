package rules

import (
	"fmt"
	"strings"
)

// HelpText is the answer to HELP: the order language, written from the same
// table the parser reads, with examples made from the units and map of the
// scenario for a player of the side. Every example is a valid order there.
// kws are the caller's lines (ParseOptions.Keywords), listed with the game's.
func HelpText(s *Scenario, side Side, kws []Keyword) string {
	ex := newExamples(s, side)
	var b strings.Builder
	fmt.Fprintf(&b, "HOW TO WRITE ORDERS (%s, %s player)\n\n", s.Title, side.Title())
	wrap(&b, "", "Write one order per line in the body of a plain mail. Upper or lower case, extra spaces and # comments are all fine. Areas are written by number, zones by letter, bridges by their two areas (as 51-70), units by their id (as in UNITS). Quoted lines (>) and everything after END, a signature (-- ), a line of underscores (____) or a quoted reply's heading are ignored. If any line is wrong, nothing is applied and the reply lists every error.")
	b.WriteString("\n")
	wrap(&b, "", "A greeting before your first order and a sign-off after your last one are ignored, and the reply names their lines, when they cannot be orders: their first word is no keyword and none written wrong, and they hold no number and no unit's id. Between two orders such a line is an error, and so is any other line that is no order. A mail of chatter alone holds no orders and is refused.")
	for _, sec := range sections {
		fmt.Fprintf(&b, "\n%s\n", sec)
		for _, k := range allKinds(kws) {
			if k.section != sec || (k.applies != nil && !k.applies(s, side)) {
				continue
			}
			head := "  " + k.syntax
			if k.rules != "" {
				pad := 78 - len(head) - len(k.rules)
				if pad < 2 {
					b.WriteString(head + "\n")
					head = ""
					pad = 78 - len(k.rules)
				}
				head += strings.Repeat(" ", pad) + k.rules
			}
			b.WriteString(head + "\n")
			wrap(&b, "      ", k.summary)
			if k.example != nil {
				for _, e := range k.example(ex) {
					fmt.Fprintf(&b, "      e.g. %s\n", e)
				}
			}
		}
	}
	b.WriteString("\nA mail for your impulse looks like:\n\n")
	for _, kw := range kws {
		if kw.Sample != "" {
			fmt.Fprintf(&b, "  %s\n", kw.Sample)
		}
	}
	for _, l := range ex.mail() {
		b.WriteString("  " + l + "\n")
	}
	b.WriteString("  END\n")
	return b.String()
}

// wrap writes text in lines of at most 78 columns, each starting with indent.
func wrap(b *strings.Builder, indent, text string) {
	line := indent
	for _, w := range strings.Fields(text) {
		if len(line) > len(indent) && len(line)+1+len(w) > 78 {
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

// examples are the units and places HELP's examples are made of.
type examples struct {
	s           *Scenario
	side        Side
	unit, unit2 *Unit // units of the side on the map, in one area if possible
	foot        *Unit // a unit that may move as infantry (8.34)
	digger      *Unit // an infantry-type unit (8.5)
	eng         *Unit
	enemy       []*Unit
	path        []Place // from unit's area along roads
	bridge      *Road
	sf          int // an area that is not a VP area (14.12)
}

func newExamples(s *Scenario, side Side) *examples {
	ex := &examples{s: s, side: side}
	ex.pickUnits()
	for _, r := range s.Map.Roads {
		if r.Bridge && s.Uses(AreaPlace(r.A)) && s.Uses(AreaPlace(r.B)) {
			ex.bridge = r
			break
		}
	}
	ex.pickSFArea()
	return ex
}

// pickUnits chooses the units of the examples: the side's first on the
// map and another in its area, one that may move on foot (8.34), one that
// may entrench (8.5), an engineer, and two of the enemy.
func (ex *examples) pickUnits() {
	byArea := map[int][]*Unit{}
	for _, u := range ex.s.Units {
		if u.Side != ex.side {
			if len(ex.enemy) < 2 {
				ex.enemy = append(ex.enemy, u)
			}
			continue
		}
		if u.Setup.Area != 0 {
			byArea[u.Setup.Area] = append(byArea[u.Setup.Area], u)
			if ex.unit == nil {
				ex.unit = u
			}
		}
		if ex.foot == nil && u.Setup.Area != 0 && (u.Type == Mech || u.Type == Mot || u.Type == Engineer) {
			ex.foot = u
		}
		if ex.digger == nil && u.Type.InfantryType() {
			ex.digger = u
		}
		if ex.eng == nil && u.Type == Engineer {
			ex.eng = u
		}
	}
	if ex.unit != nil {
		if us := byArea[ex.unit.Setup.Area]; len(us) > 1 {
			ex.unit2 = us[1]
		}
		ex.path = ex.walk(ex.unit.Setup, 2)
	}
}

// pickSFArea places the special forces of the example near the example's
// units if possible, never in a VP area (14.12).
func (ex *examples) pickSFArea() {
	areas := append([]Place(nil), ex.path...)
	for _, a := range ex.s.Map.Areas {
		areas = append(areas, AreaPlace(a.ID))
	}
	for _, p := range areas {
		if a := ex.s.Map.Area(p.Area); a != nil && a.VP == 0 && ex.s.Uses(p) {
			ex.sf = a.ID
			return
		}
	}
}

// walk returns a path of up to n steps along roads between the scenario's
// areas, starting at from.
func (ex *examples) walk(from Place, n int) []Place {
	path := []Place{from}
	for len(path) <= n {
		last := path[len(path)-1]
		var next Place
		for _, l := range ex.s.Map.Links(last) {
			if !l.To.IsZone() && ex.s.Uses(l.To) && !contains(path, l.To) {
				next = l.To
				break
			}
		}
		if next.IsZero() {
			break
		}
		path = append(path, next)
	}
	return path
}

func (ex *examples) area() string {
	if len(ex.path) > 1 {
		return ex.path[1].String()
	}
	if len(ex.path) == 1 {
		return ex.path[0].String()
	}
	return ""
}

func exMove(ex *examples) []string {
	if ex.unit == nil || len(ex.path) < 2 {
		return nil
	}
	ids := ex.unit.ID
	if ex.unit2 != nil {
		ids += " " + ex.unit2.ID
	}
	return []string{"MOVE " + ids + " " + placesString(ex.path)}
}

func exFoot(ex *examples) []string {
	if ex.foot == nil {
		return nil
	}
	p := ex.walk(ex.foot.Setup, 1)
	if len(p) < 2 {
		return nil
	}
	return []string{"FOOT " + ex.foot.ID + " " + placesString(p[1:])}
}

func exEntrench(ex *examples) []string {
	if ex.digger == nil {
		return nil
	}
	return []string{"ENTRENCH " + ex.digger.ID}
}

func exAttack(ex *examples) []string {
	if ex.unit == nil {
		return nil
	}
	return []string{"ATTACK " + ex.unit.Setup.String() + " WITH " + ex.unit.ID}
}

func exFire(ex *examples) []string {
	if ex.unit == nil || len(ex.enemy) == 0 {
		return nil
	}
	return []string{fmt.Sprintf("FIRE %s %s>%s", ex.area(), ex.unit.ID, ex.enemy[0].ID)}
}

func exArty(ex *examples) []string {
	if ex.unit == nil || len(ex.enemy) == 0 {
		return nil
	}
	var ids []string
	for _, e := range ex.enemy {
		ids = append(ids, e.ID)
	}
	return []string{fmt.Sprintf("ARTY %s %s", ex.area(), strings.Join(ids, " "))}
}

func exBattles(ex *examples) []string {
	if len(ex.path) < 3 {
		return nil
	}
	return []string{fmt.Sprintf("BATTLES %s %s", ex.path[2], ex.path[1])}
}

func exRepair(ex *examples) []string {
	if ex.eng == nil || ex.bridge == nil {
		return nil
	}
	return []string{fmt.Sprintf("REPAIR %s BY %s", ex.bridge.ID(), ex.eng.ID)}
}

func exSF(ex *examples) []string {
	if ex.side != German || !ex.s.SpecialForces || ex.sf == 0 {
		return nil
	}
	return []string{fmt.Sprintf("SF %d DELAY", ex.sf), fmt.Sprintf("SF %d CONFUSION %d", ex.sf, ex.sf)}
}

func exRemove(ex *examples) []string {
	if ex.unit == nil {
		return nil
	}
	return []string{fmt.Sprintf("REMOVE %s %s", ex.unit.Setup, ex.unit.ID)}
}

func exBlow(ex *examples) []string {
	out := []string{"BLOW ALL", "BLOW NONE"}
	if ex.bridge != nil && ex.digger != nil {
		out = append(out, fmt.Sprintf("BLOW %s BY %s", ex.bridge.ID(), ex.digger.ID))
	}
	return out
}

func exDefend(ex *examples) []string {
	var out []string
	if ex.unit != nil && len(ex.enemy) > 0 {
		out = append(out, fmt.Sprintf("DEFEND %s %s>%s", ex.unit.Setup, ex.unit.ID, ex.enemy[0].ID))
	}
	return append(out, "DEFEND PREFER ARMOR INFANTRY")
}

// mail is an example mail for the side's impulse.
func (ex *examples) mail() []string {
	out := []string{"IMPULSE 16-2"}
	out = append(out, exMove(ex)...)
	if ex.foot != ex.unit && ex.foot != ex.unit2 {
		out = append(out, exFoot(ex)...)
	}
	return out
}
