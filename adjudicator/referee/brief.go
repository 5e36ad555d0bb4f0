package referee

import (
	"fmt"
	"sort"
	"strings"

	"titm/adjudicator"
	"titm/adjudicator/lang"
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
// an observer when side is "", in the language of p.
func briefText(p *lang.Printer, g *adjudicator.Game, s *rules.Scenario, side rules.Side) string {
	var b strings.Builder
	para := func(text string) { b.WriteString(wrapLine(text, "", "") + "\n") }
	item := func(text string) { b.WriteString(wrapLine(text, "  ", "    ") + "\n") }

	para(p.Sprintf("Scenario brief: %s (%s), game %s", p.Data(s.Title), s.Name, g.ID))
	b.WriteString("\n")
	para(p.Sprintf("Impulses: from %s, %s, to the end of %s, %s (6.0, 8.1).",
		s.StartImpulse.String(), impulseWords(s.StartImpulse), s.EndImpulse.String(), impulseWords(s.EndImpulse)))

	b.WriteString("\n" + p.Sprintf("Map:") + "\n")
	for _, l := range mapLimits(p, s) {
		item(l)
	}

	b.WriteString("\n" + p.Sprintf("Supply sources (13.11):") + "\n")
	for _, sd := range sides {
		var ps []rules.Message
		for _, pl := range s.Supply.Sources(sd) {
			ps = append(ps, placeLabel(s, pl))
		}
		item(p.Side(sd) + ": " + p.Text(rules.List(ps)))
	}

	b.WriteString("\n" + p.Sprintf("Victory:") + "\n")
	for _, l := range victoryLines(p, s) {
		item(l)
	}

	if len(s.Rules) > 0 {
		b.WriteString("\n" + p.Sprintf("Special rules of the scenario:") + "\n")
		for _, r := range s.Rules {
			item("- " + p.Data(r))
		}
	}

	b.WriteString("\n")
	para(p.Sprintf("Reinforcements (11.11, B7): each is placed in the first of its zones in the reinforcement phase of its impulse; where several are named, the player chooses among them, and a zone further along the edge may be taken one impulse later for each zone, at 2 MP a zone (11.14)."))
	order := sides
	if side == rules.Allied {
		order = []rules.Side{rules.Allied, rules.German}
	}
	for i, sd := range order {
		title := p.Sprintf("The %s reinforcements", sd)
		if side != "" && i == 0 {
			title = p.Sprintf("Your reinforcements (%s)", sd)
		}
		b.WriteString("\n" + reinforcementsText(p, s, sd, title))
	}
	return b.String()
}

// impulseWords writes an impulse in words: "German impulse 1 of 16
// December". The number is a word of its own in each (8.1): the Japanese
// rulebook writes 第一ドイツ軍インパルス.
func impulseWords(i rules.Impulse) rules.Message {
	switch i.N {
	case 1:
		return rules.M("%s impulse 1 of %d December", i.Side, i.Day)
	case 2:
		return rules.M("%s impulse 2 of %d December", i.Side, i.Day)
	case 3:
		return rules.M("%s impulse 3 of %d December", i.Side, i.Day)
	}
	return rules.M("%s impulse %d of %d December", i.Side, i.N, i.Day)
}

// mapLimits says which areas and zones the scenario plays on, in the
// language of p.
func mapLimits(p *lang.Printer, s *rules.Scenario) []string {
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
		return []string{p.Sprintf("The whole map: its %d areas and the %d perimeter zones %s.", len(areas), len(zones), zoneLetters(s))}
	}
	out := []string{
		p.Sprintf("Only part of the map is in play: %d areas and the zones %s.", len(areas), rules.List(zones)),
		p.Sprintf("Areas: %s.", rules.List(areas)),
	}
	if s.Confined {
		out = append(out, p.Sprintf("No unit may move off the scenario's map."))
	}
	return out
}

// zoneLetters writes the letters of the scenario's zones, a run as A-P.
func zoneLetters(s *rules.Scenario) rules.Message {
	var ls []string
	for _, z := range s.Map.Zones {
		if s.Uses(rules.ZonePlace(z.ID)) {
			ls = append(ls, z.ID)
		}
	}
	sort.Strings(ls)
	if n := len(ls); n > 2 && n == len(s.Map.Zones) {
		return rules.Plain(ls[0] + "-" + ls[n-1]) // all of them (3.21)
	}
	return rules.List(ls)
}

func zoneLabel(z *rules.Zone) string { return fmt.Sprintf("%s (%s)", z.ID, z.Name) }

// placeLabel names an area or a zone: "Mersch (59)", "zone P (Arlon)".
func placeLabel(s *rules.Scenario, p rules.Place) rules.Message {
	if p.IsZone() {
		if z := s.Map.Zone(p.Zone); z != nil {
			return rules.M("zone %s (%s)", z.ID, z.Name)
		}
	}
	return s.Map.PlaceMessage(p)
}

func areaNames(s *rules.Scenario, ids []int) rules.Message {
	var ns []string
	for _, id := range ids {
		ns = append(ns, s.Map.PlaceName(rules.AreaPlace(id)))
	}
	return rules.List(ns)
}

// victoryLines are the scenario's victory conditions as the engine plays
// them (rules/victory.go): what scores, where, and the results, in the
// language of p.
func victoryLines(p *lang.Printer, s *rules.Scenario) []string {
	v := s.Victory
	var out []string
	if v.Kind == rules.VictoryControl {
		out = append(out, p.Sprintf("By control of the victory areas at the end: %s. An area is contested when units of both sides are in it; German when it is not contested and the Germans control it (12.22); Allied otherwise.", areaNames(s, v.Areas)))
		for _, o := range v.Outcomes {
			out = append(out, p.Sprintf("%d German, %d contested, %d Allied: %s.", o.German, o.Contested, o.Allied, p.Data(o.Result)))
		}
		return out
	}
	out = append(out, p.Sprintf("By the Germans' victory points (VP); only the Germans score them (12.12)."))
	out = append(out, vpPlaces(p, s)...)
	if len(v.Areas) > 0 {
		out = append(out, p.Sprintf("Victory towns: at the end the Germans score %d VP for each they control and %d VP for each contested (units of both sides in it): %s.", v.ControlledVP, v.ContestedVP, areaNames(s, v.Areas)))
	}
	if v.HoleVP > 0 {
		out = append(out, p.Sprintf("Holes: at the end the Germans score %d VP for each hole in the Allied line: a line of roads from zone %s to zone %s through areas without Allied units, no two lines through the same area.", v.HoleVP, rules.OrList(v.HolesFrom), rules.OrList(v.HolesTo)))
	}
	for _, l := range v.Levels {
		out = append(out, p.Sprintf("%s: %s.", levelRange(l), p.Data(l.Result)))
	}
	return out
}

// vpPlaces lists the VP areas and the Allied VP zones of the scenario, for
// the scenarios that score them.
func vpPlaces(p *lang.Printer, s *rules.Scenario) []string {
	var out []string
	v := s.Victory
	if v.MapVP {
		var vs []string
		total := 0
		for _, a := range s.Map.Areas {
			if a.VP > 0 && s.Map.Area(a.ID) == a && s.Uses(rules.AreaPlace(a.ID)) {
				vs = append(vs, fmt.Sprintf("%s %d", a.Label(), a.VP))
				total += a.VP
			}
		}
		out = append(out, p.Sprintf("VP areas: in the victory phase of every turn the Germans score the VP of each they control (3.26, 12.21, 12.22), %d VP a turn if they control all: %s.", total, rules.List(vs)))
	}
	if v.ZoneVP {
		var zs []string
		for _, z := range s.Map.Zones {
			if z.VPMultiplier > 0 && z.Side == rules.Allied && s.Map.Zone(z.ID) == z && s.Uses(rules.ZonePlace(z.ID)) {
				zs = append(zs, fmt.Sprintf("%s ×%d", zoneLabel(z), z.VPMultiplier))
			}
		}
		if len(zs) > 0 {
			out = append(out, p.Sprintf("VP zones: at the end, each German SP in supply in an Allied VP zone scores the zone's multiplier (12.23, 12.24); units that enter one do not come back (12.25): %s.", rules.List(zs)))
		}
	}
	return out
}

// levelRange is the range of German VP of a victory level.
func levelRange(l rules.Level) rules.Message {
	switch {
	case l.Min == nil && l.Max != nil:
		return rules.M("%d VP or less", *l.Max)
	case l.Max == nil && l.Min != nil:
		return rules.M("%d VP or more", *l.Min)
	case l.Min != nil && *l.Min == *l.Max:
		return rules.M("%d VP", *l.Min)
	case l.Min != nil:
		return rules.M("%d-%d VP", *l.Min, *l.Max)
	}
	return rules.M("any VP")
}

// reinforcementsText is a side's reinforcement schedule in the scenario
// (11.11): each unit with its impulse and entry zones, in the order they
// come, then the panzer reserve's groups with their release areas (11.3).
func reinforcementsText(p *lang.Printer, s *rules.Scenario, side rules.Side, title string) string {
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
		return p.Sprintf("%s: none.\n", title)
	}
	b.WriteString(title + ":\n")
	row := func(at string, u *rules.Unit) {
		b.WriteString("  " + lang.Pad(at, 6) + " " + lang.Pad(u.ID, 10) + " " + lang.Pad(p.Text(u.Type.Text()), 10) + " " +
			p.Sprintf("%d SP", u.Strength) + "  " + p.Text(entryZones(s, u)) + "\n")
	}
	for _, a := range sched {
		row(a.at.String(), a.u)
	}
	if late > 0 {
		b.WriteString(p.Sprintf("  (%d more would arrive after the scenario's end.)\n", late))
	}
	for _, grp := range s.OOB.Groups {
		us := groups[grp.ID]
		if len(us) == 0 {
			continue
		}
		var rel []rules.Message
		for _, id := range grp.Release {
			l := rules.Plain(s.Map.PlaceName(rules.AreaPlace(id)))
			if !s.Uses(rules.AreaPlace(id)) {
				l = rules.M("%s (off this scenario's map)", s.Map.PlaceName(rules.AreaPlace(id)))
			}
			rel = append(rel, l)
		}
		b.WriteString("\n" + wrapLine(p.Sprintf("Panzer reserve, %s: released when at the end of an Allied impulse the Germans have more SP than the Allies in %s (11.3, 11.33); its units then arrive in the next German impulse:",
			grp.Name, orEach(rel)), "", "") + "\n")
		for _, u := range us {
			row("", u)
		}
	}
	return b.String()
}

// entryZones writes a reinforcement's zones on the scenario's map, the one
// it is placed in first, or says that it comes from outside the map.
func entryZones(s *rules.Scenario, u *rules.Unit) rules.Message {
	var zs []string
	for _, z := range u.Zones {
		if s.Uses(rules.ZonePlace(z)) {
			zs = append(zs, z)
		}
	}
	if len(zs) == 0 {
		return rules.M("zone %s, off the scenario's map", s.EntryZone(u))
	}
	if len(zs) == 1 {
		return s.Map.PlaceMessage(rules.ZonePlace(zs[0]))
	}
	ms := make([]rules.Message, len(zs))
	for i, z := range zs {
		ms[i] = rules.Plain(z)
	}
	return rules.M("zones %s", orEach(ms))
}

// orEach writes alternatives with "or" between each two, "a or b or c",
// as the brief lists release areas and entry zones.
func orEach(ms []rules.Message) rules.Message {
	if len(ms) == 0 {
		return rules.List(ms)
	}
	acc := ms[0]
	for _, m := range ms[1:] {
		acc = rules.OrList([]rules.Message{acc, m})
	}
	return acc
}

// begin sends the mail that the game begins: to each player with the brief,
// his reinforcements first, to the observers with both sides', each in his
// language, with the picture of the start unless he asked for none
// (PICTURE OFF), kept once for each language.
func (r *Referee) begin(tx Tx, res *Result, g *adjudicator.Game) error {
	s, err := g.Rules()
	if err != nil {
		return err
	}
	refs := map[string]*MapRef{}
	ref := func(p *lang.Printer) (*MapRef, error) {
		if m, ok := refs[p.Code()]; ok {
			return m, nil
		}
		m, err := r.mapRef(tx, g, startPicture, nil, p)
		refs[p.Code()] = m
		return m, err
	}
	start := func(p *lang.Printer) (subject, text string) {
		text = wrap(startText(p, g))
		return "[" + g.ID + "] " + subjectOf(text), text
	}
	for _, side := range sides {
		p := r.printer(g, side)
		var m *MapRef
		if g.Players[side].Pictures() {
			if m, err = ref(p); err != nil {
				return err
			}
		}
		subject, text := start(p)
		res.send(g, KindReport, g.Players[side].Address, subject, text+"\n"+briefText(p, g, s, side)+standing(p, g, side), m)
	}
	if len(g.Observers) > 0 {
		p := r.defaultPrinter()
		m, err := ref(p)
		if err != nil {
			return err
		}
		subject, text := start(p)
		brief := text + "\n" + briefText(p, g, s, "")
		for _, o := range g.Observers {
			res.send(g, KindReport, o, subject, brief, m)
		}
	}
	return nil
}

// startRef is the picture of the scenario's start, for BRIEF, in the
// language of p.
func (r *Referee) startRef(tx Tx, g *adjudicator.Game, s *rules.Scenario, p *lang.Printer) (*MapRef, error) {
	c := *g
	c.State = rules.NewState(s)
	return r.mapRef(tx, &c, startPicture, nil, p)
}

// pictureNote says whether the player's mails carry the map picture, and
// how to change it.
func (r *Referee) pictureNote(p *lang.Printer, g *adjudicator.Game, side rules.Side) string {
	switch {
	case !r.opt.MapPicture:
		return p.Sprintf("This referee sends its mails without a map picture.")
	case g.Players[side].Pictures():
		return p.Sprintf("Your mails carry the map picture (PICTURE ON); PICTURE OFF leaves it out.")
	}
	return p.Sprintf("Your mails come without the map picture, the text alone (PICTURE OFF); PICTURE ON brings it back.")
}
