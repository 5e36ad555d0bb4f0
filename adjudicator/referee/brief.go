package referee

import (
	"fmt"
	"sort"
	"strings"

	"titm/adjudicator"
	"titm/rules"
)

// The scenario brief: what a player needs beside the rulebook to play the
// game's scenario, sent with the mail that the game begins and again on
// BRIEF. It is drawn from the scenario's data, so that it says what the
// referee plays: the impulses, the map, the supply sources, the victory
// conditions with their areas named, the scenario's special rules and the
// reinforcements.
//
// The game has no hidden information (B9), and the reinforcement schedule
// is printed on the counters and the order-of-battle cards of both sides
// (4.14, 11.11): a player is given both schedules, his own first; an
// observer both, the German first.

// briefText is the brief of the game's scenario for a side's player, or for
// an observer when side is "".
func briefText(g *adjudicator.Game, s *rules.Scenario, side rules.Side) string {
	var b strings.Builder
	para := func(text string) { b.WriteString(wrapLine(text, "", "") + "\n") }
	item := func(text string) { b.WriteString(wrapLine(text, "  ", "    ") + "\n") }

	para(fmt.Sprintf("Scenario brief: %s (%s), game %s", s.Title, s.Name, g.ID))
	b.WriteString("\n")
	para(fmt.Sprintf("Impulses: from %s, %s, to the end of %s, %s (6.0, 8.1).",
		s.StartImpulse, impulseWords(s.StartImpulse), s.EndImpulse, impulseWords(s.EndImpulse)))

	b.WriteString("\nMap:\n")
	for _, l := range mapLimits(s) {
		item(l)
	}

	b.WriteString("\nSupply sources (13.11):\n")
	for _, sd := range sides {
		var ps []string
		for _, p := range s.Supply.Sources(sd) {
			ps = append(ps, placeLabel(s, p))
		}
		item(sd.Title() + ": " + strings.Join(ps, ", "))
	}

	b.WriteString("\nVictory:\n")
	for _, l := range victoryLines(s) {
		item(l)
	}

	if len(s.Rules) > 0 {
		b.WriteString("\nSpecial rules of the scenario:\n")
		for _, r := range s.Rules {
			item("- " + r)
		}
	}

	b.WriteString("\n")
	para("Reinforcements (11.11, B7): each is placed in the first of its zones in the reinforcement phase of its impulse; where several are named, the player chooses among them, and a zone further along the edge may be taken one impulse later for each zone, at 2 MP a zone (11.14).")
	order := sides
	if side == rules.Allied {
		order = []rules.Side{rules.Allied, rules.German}
	}
	for i, sd := range order {
		title := fmt.Sprintf("The %s reinforcements", sd.Title())
		if side != "" && i == 0 {
			title = fmt.Sprintf("Your reinforcements (%s)", sd.Title())
		}
		b.WriteString("\n" + reinforcementsText(s, sd, title))
	}
	return b.String()
}

// impulseWords writes an impulse in words: "German impulse 1 of 16
// December".
func impulseWords(i rules.Impulse) string {
	return fmt.Sprintf("%s impulse %d of %d December", i.Side.Title(), i.N, i.Day)
}

// mapLimits says which areas and zones the scenario plays on.
func mapLimits(s *rules.Scenario) []string {
	var areas, zones []string
	for _, a := range s.Map.Areas {
		if s.Map.Area(a.ID) == a && s.Uses(rules.AreaPlace(a.ID)) {
			areas = append(areas, a.Label())
		}
	}
	for _, z := range s.Map.Zones {
		if s.Map.Zone(z.ID) == z && s.Uses(rules.ZonePlace(z.ID)) {
			zones = append(zones, zoneLabel(z))
		}
	}
	if s.WholeMap {
		return []string{fmt.Sprintf("The whole map: its %d areas and the %d perimeter zones %s.", len(areas), len(zones), zoneLetters(s))}
	}
	out := []string{
		fmt.Sprintf("Only part of the map is in play: %d areas and the zones %s.", len(areas), strings.Join(zones, ", ")),
		"Areas: " + strings.Join(areas, ", ") + ".",
	}
	if s.Confined {
		out = append(out, "No unit may move off the scenario's map.")
	}
	return out
}

// zoneLetters writes the letters of the scenario's zones, a run as A-P.
func zoneLetters(s *rules.Scenario) string {
	var ls []string
	for _, z := range s.Map.Zones {
		if s.Uses(rules.ZonePlace(z.ID)) {
			ls = append(ls, z.ID)
		}
	}
	sort.Strings(ls)
	if n := len(ls); n > 2 && n == len(s.Map.Zones) {
		return ls[0] + "-" + ls[n-1] // all of them (3.21)
	}
	return strings.Join(ls, ", ")
}

// orList writes "A, B or C".
func orList(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " or " + xs[len(xs)-1]
}

func zoneLabel(z *rules.Zone) string { return fmt.Sprintf("%s (%s)", z.ID, z.Name) }

// placeLabel names an area or a zone: "Mersch (59)", "zone P (Arlon)".
func placeLabel(s *rules.Scenario, p rules.Place) string {
	if p.IsZone() {
		if z := s.Map.Zone(p.Zone); z != nil {
			return "zone " + zoneLabel(z)
		}
	}
	return s.Map.PlaceName(p)
}

func areaNames(s *rules.Scenario, ids []int) string {
	var ns []string
	for _, id := range ids {
		ns = append(ns, s.Map.PlaceName(rules.AreaPlace(id)))
	}
	return strings.Join(ns, ", ")
}

// victoryLines are the scenario's victory conditions as the engine plays
// them (rules/victory.go): what scores, where, and the results.
func victoryLines(s *rules.Scenario) []string {
	v := s.Victory
	var out []string
	if v.Kind == rules.VictoryControl {
		out = append(out, fmt.Sprintf("By control of the victory areas at the end: %s. An area is contested when units of both sides are in it; German when it is not contested and the Germans control it (12.22); Allied otherwise.", areaNames(s, v.Areas)))
		for _, o := range v.Outcomes {
			out = append(out, fmt.Sprintf("%d German, %d contested, %d Allied: %s.", o.German, o.Contested, o.Allied, o.Result))
		}
		return out
	}
	out = append(out, "By the Germans' victory points (VP); only the Germans score them (12.12).")
	if v.MapVP {
		var vs []string
		total := 0
		for _, a := range s.Map.Areas {
			if a.VP > 0 && s.Map.Area(a.ID) == a && s.Uses(rules.AreaPlace(a.ID)) {
				vs = append(vs, fmt.Sprintf("%s %d", a.Label(), a.VP))
				total += a.VP
			}
		}
		out = append(out, fmt.Sprintf("VP areas: in the victory phase of every turn the Germans score the VP of each they control (3.26, 12.21, 12.22), %d VP a turn if they control all: %s.", total, strings.Join(vs, ", ")))
	}
	if v.ZoneVP {
		var zs []string
		for _, z := range s.Map.Zones {
			if z.VPMultiplier > 0 && z.Side == rules.Allied && s.Map.Zone(z.ID) == z && s.Uses(rules.ZonePlace(z.ID)) {
				zs = append(zs, fmt.Sprintf("%s ×%d", zoneLabel(z), z.VPMultiplier))
			}
		}
		if len(zs) > 0 {
			out = append(out, "VP zones: at the end, each German SP in supply in an Allied VP zone scores the zone's multiplier (12.23, 12.24); units that enter one do not come back (12.25): "+strings.Join(zs, ", ")+".")
		}
	}
	if len(v.Areas) > 0 {
		out = append(out, fmt.Sprintf("Victory towns: at the end the Germans score %d VP for each they control and %d VP for each contested (units of both sides in it): %s.", v.ControlledVP, v.ContestedVP, areaNames(s, v.Areas)))
	}
	if v.HoleVP > 0 {
		out = append(out, fmt.Sprintf("Holes: at the end the Germans score %d VP for each hole in the Allied line: a line of roads from zone %s to zone %s through areas without Allied units, no two lines through the same area.", v.HoleVP, orList(v.HolesFrom), orList(v.HolesTo)))
	}
	for _, l := range v.Levels {
		var r string
		switch {
		case l.Min == nil && l.Max != nil:
			r = fmt.Sprintf("%d VP or less", *l.Max)
		case l.Max == nil && l.Min != nil:
			r = fmt.Sprintf("%d VP or more", *l.Min)
		case l.Min != nil && *l.Min == *l.Max:
			r = fmt.Sprintf("%d VP", *l.Min)
		case l.Min != nil:
			r = fmt.Sprintf("%d-%d VP", *l.Min, *l.Max)
		default:
			r = "any VP"
		}
		out = append(out, r+": "+l.Result+".")
	}
	return out
}

// reinforcementsText is a side's reinforcement schedule in the scenario
// (11.11): each unit with its impulse and entry zones, in the order they
// come, then the panzer reserve's groups with their release areas (11.3).
func reinforcementsText(s *rules.Scenario, side rules.Side, title string) string {
	type arrival struct {
		at rules.Impulse
		u  *rules.Unit
	}
	var sched []arrival
	groups := map[string][]*rules.Unit{}
	late := 0
	for _, u := range s.Units {
		if u.Side != side || len(u.Zones) == 0 {
			continue
		}
		if u.Group != "" {
			groups[u.Group] = append(groups[u.Group], u)
			continue
		}
		if u.Arrival.Day == 0 {
			continue
		}
		at := rules.Impulse{Side: side, Day: u.Arrival.Day, N: u.Arrival.N}
		if s.EndImpulse.Before(at) {
			late++ // it would come after the scenario's end
			continue
		}
		sched = append(sched, arrival{at, u})
	}
	sort.SliceStable(sched, func(i, j int) bool { return sched[i].at.Before(sched[j].at) })

	var b strings.Builder
	if len(sched) == 0 && len(groups) == 0 {
		return title + ": none.\n"
	}
	b.WriteString(title + ":\n")
	for _, a := range sched {
		info := a.u
		fmt.Fprintf(&b, "  %-6s %-10s %-10s %d SP  %s\n", a.at, info.ID, info.Type, info.Strength, entryZones(s, info))
	}
	if late > 0 {
		fmt.Fprintf(&b, "  (%d more would arrive after the scenario's end.)\n", late)
	}
	for _, grp := range s.OOB.Groups {
		us := groups[grp.ID]
		if len(us) == 0 {
			continue
		}
		var rel []string
		for _, id := range grp.Release {
			l := s.Map.PlaceName(rules.AreaPlace(id))
			if !s.Uses(rules.AreaPlace(id)) {
				l += " (off this scenario's map)"
			}
			rel = append(rel, l)
		}
		b.WriteString("\n" + wrapLine(fmt.Sprintf("Panzer reserve, %s: released when at the end of an Allied impulse the Germans have more SP than the Allies in %s (11.3, 11.33); its units then arrive in the next German impulse:",
			grp.Name, strings.Join(rel, " or ")), "", "") + "\n")
		for _, u := range us {
			fmt.Fprintf(&b, "  %-6s %-10s %-10s %d SP  %s\n", "", u.ID, u.Type, u.Strength, entryZones(s, u))
		}
	}
	return b.String()
}

// entryZones writes a reinforcement's zones on the scenario's map, the one
// it is placed in first, or says that it comes from outside the map.
func entryZones(s *rules.Scenario, u *rules.Unit) string {
	var zs []string
	for _, z := range u.Zones {
		if s.Uses(rules.ZonePlace(z)) {
			zs = append(zs, z)
		}
	}
	if len(zs) == 0 {
		return fmt.Sprintf("zone %s, off the scenario's map", s.EntryZone(u))
	}
	if len(zs) == 1 {
		return "zone " + zs[0]
	}
	return "zones " + strings.Join(zs, " or ")
}

// begin sends the mail that the game begins: to each player with the brief,
// his reinforcements first, to the observers with both sides', each with
// the picture of the start unless he asked for none (PICTURE OFF).
func (r *Referee) begin(tx Tx, res *Result, g *adjudicator.Game) error {
	s, err := g.Rules()
	if err != nil {
		return err
	}
	ref, err := r.mapRef(tx, g, "start", nil)
	if err != nil {
		return err
	}
	text := wrap(startText(g))
	subject := "[" + g.ID + "] " + firstLine(text)
	for _, side := range sides {
		res.send(g, KindReport, g.Players[side].Address, subject, text+"\n"+briefText(g, s, side)+standing(g, side), pictureFor(g, side, ref))
	}
	for _, o := range g.Observers {
		res.send(g, KindReport, o, subject, text+"\n"+briefText(g, s, ""), ref)
	}
	return nil
}

// startRef is the picture of the scenario's start, for BRIEF.
func (r *Referee) startRef(tx Tx, g *adjudicator.Game, s *rules.Scenario) (*MapRef, error) {
	c := *g
	c.State = rules.NewState(s)
	return r.mapRef(tx, &c, "start", nil)
}

// pictureNote says whether the player's mails carry the map picture, and
// how to change it.
func (r *Referee) pictureNote(g *adjudicator.Game, side rules.Side) string {
	switch {
	case !r.opt.MapPicture:
		return "This referee sends its mails without a map picture."
	case g.Players[side].Pictures():
		return "Your mails carry the map picture (PICTURE ON); PICTURE OFF leaves it out."
	}
	return "Your mails come without the map picture, the text alone (PICTURE OFF); PICTURE ON brings it back."
}
