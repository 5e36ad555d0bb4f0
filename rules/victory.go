package rules

import (
	"fmt"
	"strings"
)

// Control and victory (12.0), and the scenarios' victory conditions.
//
// Three entry points, each called by the engine at one moment of the
// sequence of play (6.0):
//
//   - game.control, at the end of every player impulse: an area held by one
//     side alone passes to that side (12.22).
//   - ScoreTurn, the victory phase at the end of every turn (6.0 IX, 12.11):
//     the map's VP areas the Germans control (12.21, 12.22).
//   - Finish, once, when the scenario ends (after the last turn's ScoreTurn):
//     VP zones (12.23-12.25), the scenario's own VP areas and holes (The
//     First Three Days, counted as a maximum flow, maxflow.go), and the
//     result.
//
// Only the Germans score VP (12.12); the total starts at 0 (12.13, 5.3) and
// is State.VP.

// VPScored: in the victory phase the Germans scored an area they control
// (3.26, 12.21, 12.22). It is an Event.
type VPScored struct {
	Area int
	VP   int
}

// VPTotal: the victory phase of a turn is over (6.0 IX, 12.11): the Germans
// scored VP this turn and have Total in all. Turn is the day (December) of
// the turn scored. It is an Event.
type VPTotal struct {
	Turn  int
	VP    int
	Total int
}

// ZoneVP: at the end of the scenario German units stand in an Allied VP zone
// (12.23): SP in supply count SP × Multiplier = VP; Unsupplied SP, out of
// supply at the end, count nothing (12.24). It is an Event.
type ZoneVP struct {
	Zone       string
	SP         int
	Multiplier int
	VP         int
	Unsupplied int
}

// ScenarioVP: at the end of the scenario one of the scenario's victory areas
// was found in State Hold and scored VP (The First Three Days: 2 for a town
// the Germans control, 1 for a contested one; 0 where the victory is by
// control alone, as in the introductory scenario). It is an Event.
type ScenarioVP struct {
	Area int
	Hold Hold
	VP   int
}

// HolesScored: at the end of the scenario the Germans have N holes in the
// Allied line (The First Three Days), each worth the scenario's hole VP; VP
// is the total. Lines shows one line of roads for each hole, from a German
// zone to an Allied one, no two sharing an area. It is an Event.
type HolesScored struct {
	N     int
	VP    int
	Lines [][]Place
}

// GameResult: the scenario is over and decided (12.0 and the scenario's
// victory conditions). VP is the Germans' final total; for a victory by
// control German, Contested and Allied count the victory areas by their
// state. It is an Event.
type GameResult struct {
	Result                    string
	Kind                      string
	VP                        int
	German, Contested, Allied int
}

// String writes the event as the report prints it.
func (e VPScored) String() string { return e.Text().String() }

// Text is the event as a message.
func (e VPScored) Text() Message {
	return M("the Germans control area %d: %d VP (12.21, 12.22)", e.Area, e.VP)
}

// String writes the event as the report prints it.
func (e VPTotal) String() string { return e.Text().String() }

// Text is the event as a message.
func (e VPTotal) Text() Message {
	return M("victory phase of %d December: the Germans score %d VP, %d VP in all (6.0 IX, 12.11)", e.Turn, e.VP, e.Total)
}

// String writes the event as the report prints it.
func (e ZoneVP) String() string { return e.Text().String() }

// Text is the event as a message.
func (e ZoneVP) Text() Message {
	if e.Unsupplied > 0 {
		return M("zone %s: %d German SP in supply × %d = %d VP (12.23); %d SP out of supply score nothing (12.24)", e.Zone, e.SP, e.Multiplier, e.VP, e.Unsupplied)
	}
	return M("zone %s: %d German SP in supply × %d = %d VP (12.23)", e.Zone, e.SP, e.Multiplier, e.VP)
}

// String writes the event as the report prints it.
func (e ScenarioVP) String() string { return e.Text().String() }

// Text is the event as a message.
func (e ScenarioVP) Text() Message {
	switch e.Hold {
	case HoldGerman:
		return M("victory area %d is controlled by the Germans (12.22): %d VP (scenario victory conditions)", e.Area, e.VP)
	case HoldContested:
		return M("victory area %d is contested: units of both sides in it: %d VP (scenario victory conditions)", e.Area, e.VP)
	}
	return M("victory area %d is not German and not contested: %d VP (scenario victory conditions)", e.Area, e.VP)
}

// String writes the event as the report prints it.
func (e HolesScored) String() string { return e.Text().String() }

// Text is the event as a message.
func (e HolesScored) Text() Message {
	if e.N == 0 {
		return M("no hole in the Allied line: no line of roads from the German zones to the Allied zones avoids the Allied units (The First Three Days)")
	}
	var ls []string
	for _, l := range e.Lines {
		var ps []string
		for _, p := range l {
			ps = append(ps, p.String())
		}
		ls = append(ls, strings.Join(ps, "-"))
	}
	return M("%d hole(s) in the Allied line: %d VP (The First Three Days: 3 VP per hole): %s", e.N, e.VP, strings.Join(ls, "; "))
}

// String writes the event as the report prints it.
func (e GameResult) String() string { return e.Text().String() }

// Text is the event as a message; a result of the shipped scenarios is in
// the reader's language (DataMessage).
func (e GameResult) Text() Message {
	if e.Kind == VictoryControl {
		return M("the scenario is over: %s (%d German, %d contested, %d Allied of the victory areas)", DataMessage(e.Result), e.German, e.Contested, e.Allied)
	}
	return M("the scenario is over: %s with %d German VP (12.0)", DataMessage(e.Result), e.VP)
}

// ScoreTurn plays the victory phase at the end of a turn (6.0 IX, 12.11): if
// the scenario counts the map's VP areas (Victory.MapVP), the Germans score
// the VP of every VP area of the scenario's map they control (3.26, 12.21).
// Control is State.Control as the engine keeps it at the end of every player
// impulse (12.22): the last side to hold the area alone, even if the other
// side is there now, or stronger; an area the Germans took keeps scoring
// after they leave it. The VP are added to st.VP (12.12). It returns one
// VPScored for each area scored, in map order, and a VPTotal (also when the
// scenario has no map VP, with 0 scored).
//
// Call it once per turn, after the turn's last impulse (and the attrition
// phase, 6.0 VIII) has been played and st.Next advanced past it: the turn
// scored is the day of the impulse before st.Next. When a scenario ends in
// the middle of a day (The 5th Panzer Army ends after G22-1) that day's
// victory phase is played at the end, before Finish.
func (st *State) ScoreTurn(s *Scenario) []Event {
	var events []Event
	scored := 0
	if s.Victory.MapVP {
		for _, a := range s.Map.Areas {
			// 12.21: only VP areas of the scenario's map; 12.22: controlled.
			if a.VP <= 0 || !s.Uses(AreaPlace(a.ID)) || st.Control[a.ID] != German {
				continue
			}
			scored += a.VP
			events = append(events, VPScored{Area: a.ID, VP: a.VP})
		}
	}
	st.VP += scored
	return append(events, VPTotal{Turn: previousImpulse(st.Next).Day, VP: scored, Total: st.VP})
}

// previousImpulse returns the impulse before i in the sequence of play
// (6.0, 8.1).
func previousImpulse(i Impulse) Impulse {
	if i.Side == Allied {
		return Impulse{German, i.Day, i.N}
	}
	if i.N > 1 {
		return Impulse{Allied, i.Day, i.N - 1}
	}
	return Impulse{Allied, i.Day - 1, ImpulsesOn(i.Day - 1)}
}

// Hold is the state of a victory area at the end of a scenario, as the
// scenarios' victory conditions count them.
type Hold string

// The states of a victory area. "Contested" is the rulebook's 継戦状態:
// "units of both sides are in the area" (introductory scenario); it comes
// first, so a contested area is contested even if the Germans control it
// (12.22). German: not contested, and controlled by the Germans (12.22): the
// Germans alone are there, or nobody is and the Germans were the last to
// hold it alone. Allied: every other area.
const (
	HoldGerman    Hold = "german"
	HoldContested Hold = "contested"
	HoldAllied    Hold = "allied"
)

// AreaHold returns the state of an area for the scenarios' victory
// conditions: contested if units of both sides are in it, German if not and
// the Germans control it (12.22), Allied otherwise.
func (st *State) AreaHold(s *Scenario, area int) Hold {
	var g, a bool
	for _, u := range st.UnitsAt(s, AreaPlace(area), "") {
		if s.OOB.Unit(u.ID).Side == German {
			g = true
		} else {
			a = true
		}
	}
	switch {
	case g && a:
		return HoldContested
	case st.Control[area] == German:
		return HoldGerman
	}
	return HoldAllied
}

// Finish ends the scenario and decides it. Call it once, at the scenario's
// end, after the victory phase of the last turn (ScoreTurn); if st.Result is
// already set it does nothing and returns nil.
//
//  1. VP zones, if Victory.ZoneVP (3.28, 12.23). Supply is judged first for
//     every unit (JudgeSupply: 12.24, a unit out of supply at the end scores
//     nothing in a VP zone); the changes are returned as SupplyChange
//     events. Then, in every Allied zone of the scenario's map with a VP
//     multiplier, the SP of the German units in supply there count SP ×
//     multiplier. 12.23 says each SP counts once per game; German units that
//     enter such a zone never return to the map (12.25) and there is no
//     combat in zones (9.17), so the SP standing in the zones at the end are
//     exactly the SP that entered them and are still there, and counting
//     them now counts each once; this is also 3.28 read literally ("at the
//     end of the game, the SP of the German units in these zones times the
//     multiplier"). SP lost to attrition (13.21) while waiting in a zone are
//     gone and do not count.
//  2. The scenario's victory areas (Victory.Areas): each is German,
//     contested or Allied (AreaHold); with ControlledVP and ContestedVP the
//     Germans score for each (The First Three Days: 2 and 1).
//  3. Holes (Victory.HoleVP, The First Three Days): HoleVP for each hole in
//     the Allied line (see HoleLines for what a hole is and how they are
//     counted).
//  4. The result: for kind "vp" the Level that includes st.VP; for kind
//     "control" the Outcome with the count of the victory areas by state.
//     st.Result is set and st.Over is true.
func (st *State) Finish(s *Scenario) []Event {
	if st.Result != "" {
		return nil
	}
	var events []Event
	v := s.Victory
	if v.ZoneVP {
		for _, c := range st.JudgeSupply(s) { // 12.24: supply at the end
			events = append(events, c)
		}
		events = append(events, st.scoreZones(s)...)
	}
	var german, contested, allied int
	for _, a := range v.Areas {
		h := st.AreaHold(s, a)
		vp := 0
		switch h {
		case HoldGerman:
			german++
			vp = v.ControlledVP
		case HoldContested:
			contested++
			vp = v.ContestedVP
		default:
			allied++
		}
		st.VP += vp
		events = append(events, ScenarioVP{Area: a, Hold: h, VP: vp})
	}
	if v.HoleVP > 0 && len(v.HolesFrom) > 0 && len(v.HolesTo) > 0 {
		lines := st.HoleLines(s)
		e := HolesScored{N: len(lines), VP: len(lines) * v.HoleVP, Lines: lines}
		st.VP += e.VP
		events = append(events, e)
	}
	res := GameResult{Kind: v.Kind, VP: st.VP, German: german, Contested: contested, Allied: allied}
	switch v.Kind {
	case VictoryControl:
		res.Result = fmt.Sprintf("no result: the scenario gives none for %d German, %d contested, %d Allied", german, contested, allied)
		for _, o := range v.Outcomes {
			if o.German == german && o.Contested == contested && o.Allied == allied {
				res.Result = o.Result
				break
			}
		}
	default:
		res.Result = fmt.Sprintf("no result: the scenario's levels do not cover %d VP", st.VP)
		for _, l := range v.Levels {
			if l.Includes(st.VP) {
				res.Result = l.Result
				break
			}
		}
	}
	st.Result, st.Over = res.Result, true
	return append(events, res)
}

// scoreZones adds the VP of the German SP in supply in the Allied VP zones
// (12.23, 12.24) and returns a ZoneVP for each zone that holds German units,
// in map order. InSupply must have been judged just before (Finish does).
func (st *State) scoreZones(s *Scenario) []Event {
	var events []Event
	for _, z := range s.Map.Zones {
		p := ZonePlace(z.ID)
		if z.VPMultiplier <= 0 || z.Side != Allied || s.Map.Zone(z.ID) != z || !s.Uses(p) {
			continue
		}
		e := ZoneVP{Zone: z.ID, Multiplier: z.VPMultiplier}
		found := false
		for _, u := range st.UnitsAt(s, p, German) {
			found = true
			if u.InSupply {
				e.SP += u.Strength
			} else {
				e.Unsupplied += u.Strength // 12.24
			}
		}
		if !found {
			continue
		}
		e.VP = e.SP * e.Multiplier
		st.VP += e.VP
		events = append(events, e)
	}
	return events
}

// HoleLines returns the holes in the Allied line, one line of places for
// each (The First Three Days: "連合軍の戦線に穴があり、ドイツ軍進入ゾーン(ゾーン
// A～C)からゾーンD～Kのいずれかまで道路沿いに連絡線を引ける場合、ドイツ軍は穴
// ひとつにつき3VPを獲得します": if there are holes in the Allied line and the
// Germans can trace a line along roads from their entry zones to any of zones
// D-K, they score 3 VP per hole). The readings:
//
//   - A line runs along the map's roads (Map.Links: roads between areas, and
//     the primary road joining each zone to its areas, 11.13) from a zone of
//     Victory.HolesFrom to a zone of Victory.HolesTo, through areas of the
//     scenario's map only; zones are its ends, never passed through (as for
//     supply lines, 13.11).
//   - It may not pass through an area that holds any Allied unit, contested
//     or not: a hole is a gap in the Allied line, and where Allied units
//     stand the line is not broken. (A supply line may cross a contested
//     area the enemy does not control, 13.12, 13.13; the hole rule speaks of
//     the Allied line, not of supply.)
//     Zones at its ends never block it: Allied units waiting in a zone are
//     off the map, not in the line.
//   - Only units close it: a blown bridge does not (the rule says only
//     "along roads", and units can cross blown bridges, 8.33).
//   - Holes are counted as the greatest number of such lines no two of which
//     pass through the same area. By Menger's theorem that is also the
//     fewest areas the Allies would have to occupy to close every line: one
//     gap in the front is one hole however many zones lie behind it, two
//     gaps that lead on through a single area behind the front are one hole
//     (one unit there closes both), two separate breakthroughs are two.
//     Counting reachable zones instead would make one breakthrough worth up
//     to 8 × 3 VP, against victory levels of 5 to 13 VP; "穴ひとつにつき"
//     counts holes in the line, not destinations.
//
// The lines returned are one maximal set of such lines, found
// deterministically (map order); each starts with its German zone and ends
// with its Allied zone.
func (st *State) HoleLines(s *Scenario) [][]Place {
	h := newHoleNet(s, st.alliedAreas(s))
	return h.lines(h.g.maxFlow(h.src, h.sink))
}

// alliedAreas returns the areas that hold Allied units: no line passes
// through them.
func (st *State) alliedAreas(s *Scenario) map[int]bool {
	blocked := map[int]bool{}
	for _, u := range st.Units {
		if u.OnMap() && !u.Place.IsZone() && s.OOB.Unit(u.ID).Side == Allied {
			blocked[u.Place.Area] = true
		}
	}
	return blocked
}

// A holeNet is the flow network of HoleLines: the greatest number of lines
// sharing no area is a maximum flow in which every area is split into an in
// and an out node joined by capacity 1, the source feeds the German zones
// and the Allied zones feed the sink.
type holeNet struct {
	g         flowGraph
	src, sink int
	areaIn    map[int]int    // area -> in node; its out node is in+1
	zoneNode  map[string]int // zone -> node
}

// holeOpen is the capacity of every edge but an area's own: unlimited.
const holeOpen = 1 << 20

// newHoleNet builds the network on the scenario's map without the blocked
// areas.
func newHoleNet(s *Scenario, blocked map[int]bool) *holeNet {
	h := &holeNet{areaIn: map[int]int{}, zoneNode: map[string]int{}}
	h.src, h.sink = h.g.node(), h.g.node()
	for _, a := range s.Map.Areas {
		if s.Map.Area(a.ID) != a || !s.Uses(AreaPlace(a.ID)) || blocked[a.ID] {
			continue
		}
		in := h.g.node()
		h.g.node()
		h.areaIn[a.ID] = in
		h.g.edge(in, in+1, 1) // each area carries one line
	}
	v := s.Victory
	to := map[string]bool{}
	for _, z := range v.HolesTo {
		to[z] = true
	}
	for _, z := range v.HolesFrom {
		if !to[z] {
			h.addZone(s, z, true)
		}
	}
	for _, z := range v.HolesTo {
		h.addZone(s, z, false)
	}
	h.addRoads(s)
	return h
}

// addZone adds a zone of the scenario's map, fed by the source (from, a
// German zone) or feeding the sink, with the roads to its areas.
func (h *holeNet) addZone(s *Scenario, id string, from bool) {
	z := s.Map.Zone(id)
	if z == nil || !s.Uses(ZonePlace(id)) {
		return
	}
	if _, dup := h.zoneNode[id]; dup {
		return
	}
	n := h.g.node()
	h.zoneNode[id] = n
	if from {
		h.g.edge(h.src, n, holeOpen)
	} else {
		h.g.edge(n, h.sink, holeOpen)
	}
	for _, l := range s.Map.Links(ZonePlace(id)) {
		in, ok := h.areaIn[l.To.Area]
		if !ok {
			continue
		}
		if from {
			h.g.edge(n, in, holeOpen)
		} else {
			h.g.edge(in+1, n, holeOpen)
		}
	}
}

// addRoads adds the roads between the open areas, both ways.
func (h *holeNet) addRoads(s *Scenario) {
	for _, a := range s.Map.Areas {
		in, ok := h.areaIn[a.ID]
		if !ok || s.Map.Area(a.ID) != a {
			continue
		}
		for _, l := range s.Map.Links(AreaPlace(a.ID)) {
			if l.To.IsZone() {
				continue
			}
			if bin, ok := h.areaIn[l.To.Area]; ok {
				h.g.edge(in+1, bin, holeOpen)
			}
		}
	}
}

// lines follows the n units of flow from the source, one line each, and
// names their places.
func (h *holeNet) lines(n int) [][]Place {
	names := make([]Place, len(h.g.adj))
	for a, in := range h.areaIn {
		names[in], names[in+1] = AreaPlace(a), AreaPlace(a)
	}
	for z, node := range h.zoneNode {
		names[node] = ZonePlace(z)
	}
	lines := make([][]Place, 0, n)
	for range n {
		var line []Place
		for x := h.src; x != h.sink; {
			e := h.g.usedEdge(x)
			if e == nil {
				break // cannot happen: flow is conserved
			}
			e.flow--
			x = e.to
			if x != h.sink && (len(line) == 0 || line[len(line)-1] != names[x]) {
				line = append(line, names[x])
			}
		}
		lines = append(lines, line)
	}
	return lines
}

// control gives each area held by one side alone at the end of the impulse
// to that side (12.22).
func (g *game) control() {
	holders := g.st.soleHolders(g.s)
	for _, a := range g.s.Map.Areas {
		side, ok := holders[a.ID]
		if ok && g.st.Control[a.ID] != side {
			g.st.Control[a.ID] = side
			g.event(ControlChanged{a.ID, side})
		}
	}
	g.supply.forgetControl() // the supply searches' control is this one now
}

// ControlChanged: an area passed to a side (12.22).
type ControlChanged struct {
	Area int
	Side Side
}

// String writes the event as the report prints it.
func (e ControlChanged) String() string { return e.Text().String() }

// Text is the event as a message.
func (e ControlChanged) Text() Message {
	return M("area %d passes to the %s side (12.22)", e.Area, e.Side)
}
