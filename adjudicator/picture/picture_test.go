package picture

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"titm/adjudicator/lang"
	"titm/internal/playtest"
	"titm/rules"
	"titm/rules/scenarios"
)

// dice roll a fixed sequence, so that the games played here are the same
// every time.
type dice struct{ n int }

func (d *dice) Roll(string) (int, error) {
	d.n++
	return []int{3, 7, 1, 9, 5, 2, 8, 4, 6, 10}[d.n%10], nil
}

func load(t testing.TB, name string) *rules.Scenario {
	t.Helper()
	s, err := scenarios.Load(name)
	if err != nil {
		t.Fatalf("loading %s: %v", name, err)
	}
	return s
}

// crowdedImpulses is how many impulses crowded plays: to G18-2, in which
// the Germans move 50 units and fight three battles.
const crowdedImpulses = 15

// crowded returns the campaign after crowdedImpulses impulses of every unit
// moving and attacking where it can, and the last impulse's events.
func crowded(t testing.TB) (*rules.Scenario, *rules.State, []rules.Event) {
	t.Helper()
	s := load(t, "campaign")
	st := rules.NewState(s)
	var events []rules.Event
	d := &dice{}
	for range crowdedImpulses {
		var err error
		if st, events, err = playtest.PlayEveryAttack(s, st, d); err != nil {
			t.Fatal(err)
		}
	}
	return s, st, events
}

// packed returns a position with four units (the stacking limit, 7.1) in
// each of the areas and no other unit on the map.
func packed(s *rules.Scenario, areas []int) *rules.State {
	st := rules.NewState(s)
	for i, u := range st.Units {
		u.Place, u.Arrived, u.TurnStart = rules.Place{}, false, rules.Place{}
		if i/rules.StackUnits < len(areas) {
			u.Place, u.Arrived = rules.AreaPlace(areas[i/rules.StackUnits]), true
		}
	}
	return st
}

// crowdedAreas returns the n areas of the map with the most others within
// 10 km: the Sauer and Our fronts, the Losheim gap, Malmedy.
func crowdedAreas(s *rules.Scenario, n int) []int {
	type ac struct{ id, near int }
	var as []ac
	for _, a := range s.Map.Areas {
		c := 0
		for _, b := range s.Map.Areas {
			dx := (a.Lon - b.Lon) * math.Cos(a.Lat*math.Pi/180)
			if b != a && 111.2*math.Hypot(a.Lat-b.Lat, dx) < 10 {
				c++
			}
		}
		as = append(as, ac{a.ID, c})
	}
	slices.SortStableFunc(as, func(x, y ac) int { return cmp.Compare(y.near, x.near) })
	var ids []int
	for _, a := range as[:n] {
		ids = append(ids, a.id)
	}
	return ids
}

func render(t testing.TB, s *rules.Scenario, st *rules.State, opt *Options) []byte {
	t.Helper()
	data, err := Render(s, st, opt)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func decode(t *testing.T, data []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the picture is not a PNG: %v", err)
	}
	return img
}

// writePicture keeps a picture for a look when the tests run with
// TITM_PICTURES set to a directory.
func writePicture(t *testing.T, name string, data []byte) {
	if dir := os.Getenv("TITM_PICTURES"); dir != "" {
		if err := os.WriteFile(dir+"/"+name, data, 0o644); err != nil {
			t.Error(err)
		}
	}
}

func TestDeterministic(t *testing.T) {
	s, st, ev := crowded(t)
	start := rules.NewState(s)
	opt := &Options{Title: "Game campaign-3 — after impulse G18-2 — German VP 0", Highlights: HighlightsOf(ev)}
	for _, c := range []struct {
		name string
		st   *rules.State
		opt  *Options
	}{{"start", start, nil}, {"crowded", st, opt}} {
		a, b := render(t, s, c.st, c.opt), render(t, s, c.st, c.opt)
		if !bytes.Equal(a, b) {
			t.Errorf("%s: two renders of the same position differ", c.name)
		}
		// The position saved and loaded, as the store keeps it: its maps
		// (control, 12.22) are rebuilt in another order.
		data, err := json.Marshal(c.st)
		if err != nil {
			t.Fatal(err)
		}
		loaded, err := rules.LoadState(s, data)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, render(t, s, loaded, c.opt)) {
			t.Errorf("%s: the position saved and loaded renders differently", c.name)
		}
		writePicture(t, c.name+".png", a)
	}
}

// TestRenderTo: RenderTo writes the bytes Render returns, in pieces, and
// gives back the first error of its writer.
func TestRenderTo(t *testing.T) {
	s, st, ev := crowded(t)
	opt := &Options{Title: "Game campaign-3 — after impulse G18-2 — German VP 0", Highlights: HighlightsOf(ev)}
	want := render(t, s, st, opt)
	var w countingWriter
	if err := RenderTo(&w, s, st, opt); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(w.b.Bytes(), want) {
		t.Errorf("RenderTo wrote %d bytes unlike Render's %d", w.b.Len(), len(want))
	}
	if w.writes < 3 {
		t.Errorf("RenderTo wrote in %d pieces, want the bands each", w.writes)
	}
	failing := errors.New("the writer failed")
	if err := RenderTo(failAfter{failing}, s, st, opt); !errors.Is(err, failing) {
		t.Errorf("RenderTo to a failing writer: %v, want %v", err, failing)
	}
}

type countingWriter struct {
	b      bytes.Buffer
	writes int
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.writes++
	return w.b.Write(p)
}

type failAfter struct{ err error }

func (w failAfter) Write(p []byte) (int, error) { return 0, w.err }

// playUntilLoss plays a scenario as crowded does until an impulse with a
// unit eliminated (9.21), or n impulses, and returns the position after it
// and its events.
func playUntilLoss(t testing.TB, s *rules.Scenario, n int) (*rules.State, []rules.Event) {
	t.Helper()
	st := rules.NewState(s)
	var events []rules.Event
	d := &dice{}
	for range n {
		if st.Over {
			break
		}
		var err error
		if st, events, err = playtest.PlayEveryAttack(s, st, d); err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		if len(HighlightsOf(events).Lost) > 0 {
			break
		}
	}
	return st, events
}

// TestScenarioPictures draws every scenario at its start and after its
// first impulse that eliminates a unit, with that impulse's battles, moves
// and losses: the layout finds room for everything, and the PNG stays
// small enough to mail. TITM_PICTURES=DIR keeps them for a look.
func TestScenarioPictures(t *testing.T) {
	for _, n := range scenarios.Names {
		s := load(t, n)
		st, ev := playUntilLoss(t, s, 12)
		for _, c := range []struct {
			name string
			st   *rules.State
			opt  *Options
		}{
			{"start", rules.NewState(s), &Options{Title: "Game " + n + "-1 — position before G16-1"}},
			{"battle", st, &Options{Title: "Game " + n + "-1 — after the first loss", Highlights: HighlightsOf(ev)}},
		} {
			checkPlan(t, n+" "+c.name, s, c.st)
			data := render(t, s, c.st, c.opt)
			writePicture(t, n+"-"+c.name+".png", data)
			limit := maxPNG[n]
			if len(data) > limit {
				t.Errorf("%s %s: the picture is %d KB, over %d KB", n, c.name, len(data)>>10, limit>>10)
			}
			t.Logf("%s %s: %d KB, %d lost", n, c.name, len(data)>>10, len(c.opt.Highlights.Lost))
		}
	}
}

func TestSize(t *testing.T) {
	s, st, ev := crowded(t)
	data := render(t, s, st, &Options{Title: "after impulse G18-2", Highlights: HighlightsOf(ev)})
	if len(data) >= maxPNG["campaign"] {
		t.Errorf("the crowded map is %d KB; it must stay under %d KB", len(data)>>10, maxPNG["campaign"]>>10)
	}
	img := decode(t, data)
	p := Layout(s, st)
	if b := img.Bounds(); b.Dx() != p.Width || b.Dy() != p.Height {
		t.Errorf("the picture is %v, the plan %dx%d", b, p.Width, p.Height)
	}
	// Readable at 100 % on a laptop: as wide as a screen, no wider.
	if p.Width < 1600 || p.Width > 2200 {
		t.Errorf("the campaign's picture is %d pixels wide; want 1600 to 2200", p.Width)
	}
	t.Logf("crowded campaign map: %dx%d, %d KB", p.Width, p.Height, len(data)>>10)
}

// checkPlan checks a plan's boxes: every area of the scenario or with units
// labelled (3.22), every zone marked (3.21), all inside the map; no two labels
// overlapping; no stack over another place's label or stack, or a zone; no
// leader line across another place's label or stack.
func checkPlan(t *testing.T, name string, s *rules.Scenario, st *rules.State) *Plan {
	t.Helper()
	p := checkBoxes(t, name, s, st)
	if n := leaderCrossings(p, t.Errorf); n > 0 {
		t.Errorf("%s: %d leader lines cross another place's box", name, n)
	}
	return p
}

// checkBoxes is checkPlan but for the leader lines.
func checkBoxes(t *testing.T, name string, s *rules.Scenario, st *rules.State) *Plan {
	t.Helper()
	p := Layout(s, st)
	if p.Overlaps != 0 {
		t.Errorf("%s: %d boxes found no room", name, p.Overlaps)
	}
	occupied := map[rules.Place]bool{}
	for _, u := range st.Units {
		if u.OnMap() {
			occupied[u.Place] = true
		}
	}
	n := 0
	for _, a := range s.Map.Areas {
		if pl := rules.AreaPlace(a.ID); s.Uses(pl) || occupied[pl] {
			n++
		}
	}
	if len(p.Labels) != n {
		t.Errorf("%s: %d labels for %d areas", name, len(p.Labels), n)
	}
	var labels []Box
	labels = append(labels, p.Labels...)
	labels = append(labels, p.Zones...)
	checkLabels(t, name, p, labels)
	checkStacks(t, name, p, labels)
	checkUnitsDrawn(t, name, p, st)
	return p
}

// leaderCrossings counts the leader lines, from a town or zone to its
// label or stack set away from it, that cross another place's stack or
// label on their way, telling each to report: a line must lead the reader
// to what it points at and nowhere else.
func leaderCrossings(p *Plan, report func(format string, args ...any)) int {
	n := 0
	var boxes []Box
	boxes = append(boxes, p.Stacks...)
	boxes = append(boxes, p.Labels...)
	boxes = append(boxes, p.Zones...)
	for _, l := range p.leaders {
		from, to := l[0].pt(), l[1].pt()
		for _, b := range boxes {
			// The line's own place: its town, and the box it ends on.
			if b.Anchor == from || to.In(b.Rect.Inset(-1)) {
				continue
			}
			if segmentCrosses(l[0], l[1], b.Rect) {
				n++
				report("the leader line %v-%v crosses the %s box of %s at %v", from, to, kindOf(p, b), b.Place, b.Rect)
			}
		}
	}
	return n
}

func kindOf(p *Plan, b Box) string {
	if len(b.Units) > 0 {
		return "stack"
	}
	return "label"
}

// segmentCrosses reports whether the segment a-b passes through r, by
// steps of a pixel.
func segmentCrosses(a, b vec, r image.Rectangle) bool {
	d := b.sub(a)
	n := int(d.len())
	for i := 0; i <= n; i++ {
		if a.add(d.mul(float64(i) / float64(max(n, 1)))).pt().In(r) {
			return true
		}
	}
	return false
}

// checkLabels checks that the labels, the areas' and the zones', lie inside
// the map and that no two overlap.
func checkLabels(t *testing.T, name string, p *Plan, labels []Box) {
	t.Helper()
	for i, a := range labels {
		if !a.Rect.In(p.Map) {
			t.Errorf("%s: the label of %s, %v, is not inside the map %v", name, a.Place, a.Rect, p.Map)
		}
		for _, b := range labels[i+1:] {
			if a.Rect.Overlaps(b.Rect) {
				t.Errorf("%s: the labels of %s %v and %s %v overlap", name, a.Place, a.Rect, b.Place, b.Rect)
			}
		}
	}
}

// checkStacks checks that the stacks lie inside the map, over no other
// place's label and no other stack.
func checkStacks(t *testing.T, name string, p *Plan, labels []Box) {
	t.Helper()
	for i, sb := range p.Stacks {
		if !sb.Rect.In(p.Map) {
			t.Errorf("%s: the stack in %s, %v, is not inside the map", name, sb.Place, sb.Rect)
		}
		for _, l := range labels {
			if l.Place != sb.Place && sb.Rect.Overlaps(l.Rect) {
				t.Errorf("%s: the stack in %s %v covers the label of %s %v", name, sb.Place, sb.Rect, l.Place, l.Rect)
			}
		}
		for _, o := range p.Stacks[i+1:] {
			if sb.Rect.Overlaps(o.Rect) {
				t.Errorf("%s: the stacks in %s and %s overlap", name, sb.Place, o.Place)
			}
		}
	}
}

// checkUnitsDrawn checks 4.1: every unit on the map or in a zone is in the
// stack of its place, and no other unit is in a stack.
func checkUnitsDrawn(t *testing.T, name string, p *Plan, st *rules.State) {
	t.Helper()
	inStack := map[string]rules.Place{}
	for _, sb := range p.Stacks {
		for _, id := range sb.Units {
			inStack[id] = sb.Place
		}
	}
	for _, u := range st.Units {
		if pl, ok := inStack[u.ID]; u.OnMap() != ok || ok && pl != u.Place {
			t.Errorf("%s: unit %s in %v (on the map: %v) is drawn in %v", name, u.ID, u.Place, u.OnMap(), pl)
		}
	}
}

func TestLayout(t *testing.T) {
	for _, n := range scenarios.Names {
		s := load(t, n)
		checkPlan(t, n+" start", s, rules.NewState(s))
	}
	s, st, _ := crowded(t)
	checkPlan(t, "campaign crowded", s, st)

	tiny, err := scenarios.Load("../../testdata/tiny/scenario.toml")
	if err != nil {
		t.Fatal(err)
	}
	checkPlan(t, "tiny", tiny, rules.NewState(tiny))
}

// TestFourUnitStacks fills the most crowded parts of the map with full
// stacks (7.1): no stack may cover another area's label.
func TestFourUnitStacks(t *testing.T) {
	s := load(t, "campaign")
	var front []int // the Sauer and Our fronts, the Schnee Eifel, the Losheim gap, Monschau
	for a := 10; a <= 55; a++ {
		front = append(front, a)
	}
	for _, c := range []struct {
		name  string
		areas []int
	}{
		{"the 50 most crowded areas", crowdedAreas(s, len(s.Units)/rules.StackUnits)},
		{"the front, 10-55", front},
	} {
		st := packed(s, c.areas)
		// Every area of the front holding a full stack leaves some towns
		// no room for a line that crosses nothing: the lines are counted,
		// not checked.
		p := checkBoxes(t, c.name, s, st)
		t.Logf("%s: %d leader lines cross another place's box", c.name, leaderCrossings(p, t.Logf))
		for _, sb := range p.Stacks {
			if len(sb.Units) != rules.StackUnits {
				t.Errorf("%s: %d units in %s", c.name, len(sb.Units), sb.Place)
			}
		}
		if t.Failed() {
			writePicture(t, "packed.png", render(t, s, st, nil))
		}
	}
}

func TestZoneStacks(t *testing.T) {
	// 3.21, 11.11: the German units that set up in zone A appear at it.
	s := load(t, "campaign")
	st := rules.NewState(s)
	p := Layout(s, st)
	var zoneA []string
	for _, u := range st.Units {
		if u.OnMap() && u.Place == rules.ZonePlace("A") {
			zoneA = append(zoneA, u.ID)
		}
	}
	if len(zoneA) == 0 {
		t.Fatal("no unit sets up in zone A")
	}
	for _, sb := range p.Stacks {
		if sb.Place == rules.ZonePlace("A") {
			if !slices.Equal(sb.Units, zoneA) {
				t.Errorf("zone A's stack is %v, want %v", sb.Units, zoneA)
			}
			return
		}
	}
	t.Error("zone A has no stack")
}

func TestHighlightsOf(t *testing.T) {
	path := []rules.Place{rules.AreaPlace(47), rules.AreaPlace(48), rules.ZonePlace("B")}
	h := HighlightsOf([]rules.Event{
		rules.Moved{Units: []string{"116/60"}, Path: path},
		rules.BattleBegins{Area: 38},
		rules.Moved{Units: []string{"116/156"}, Path: path}, // the same path again
		rules.Moved{Units: []string{"2/3"}, Path: path[:1]}, // stayed (9.14): no path
		rules.BattleBegins{Area: 38},
		rules.BattleBegins{Area: 35},
		rules.ImpulseEnded{},
	})
	if !slices.Equal(h.Battles, []int{38, 35}) {
		t.Errorf("battles %v, want [38 35]", h.Battles)
	}
	if len(h.Moves) != 1 || !slices.Equal(h.Moves[0], path) {
		t.Errorf("moves %v, want [%v]", h.Moves, path)
	}
	path[0] = rules.AreaPlace(1)
	if h.Moves[0][0] == path[0] {
		t.Error("the highlights share the event's path")
	}

	// Drawn: the picture changes.
	s, st, ev := crowded(t)
	h = HighlightsOf(ev)
	if len(h.Battles) == 0 || len(h.Moves) == 0 {
		t.Fatalf("the crowded position's last impulse has %d battles and %d moves", len(h.Battles), len(h.Moves))
	}
	if bytes.Equal(render(t, s, st, nil), render(t, s, st, &Options{Highlights: h})) {
		t.Error("the highlights change nothing")
	}
}

// at returns the colour of the picture at a point, as RGBA.
func at(img image.Image, p image.Point) color.RGBA {
	return color.RGBAModel.Convert(img.At(p.X, p.Y)).(color.RGBA)
}

// counterRect returns where a unit's counter is drawn.
func counterRect(t *testing.T, p *Plan, id string) image.Rectangle {
	t.Helper()
	for _, sb := range p.Stacks {
		for i, col := range sb.columns {
			if j := slices.Index(col, id); j >= 0 {
				return image.Rect(0, 0, p.counterW, counterH).Add(sb.Rect.Min.Add(image.Pt(1+i*(p.counterW+1), 1+j*(counterH+1))))
			}
		}
	}
	t.Fatalf("unit %s is not drawn", id)
	return image.Rectangle{}
}

// TestWhatIsShown checks, pixel by pixel, what the rules decide is shown.
func TestWhatIsShown(t *testing.T) {
	s := load(t, "campaign")
	st := rules.NewState(s)
	st.Next.N = 2 // within a day: the moved marks stand (8.25)
	moved, dug, cut := markUnits(st)
	// 5.1: bridge 40-41 is blown at the start; repair 51-70 (10.1).
	st.Bridge(51, 70).Blown = false
	// 12.22: Bastogne German.
	st.Control[88] = rules.German

	img := decode(t, render(t, s, st, nil))
	p := Layout(s, st)
	checkCountersShown(t, img, p, s, moved, dug, cut)
	checkControlShown(t, img, p, s)
	checkVPShown(t, img, p, s)
	checkBridgesShown(t, img, p, s)
}

// markUnits marks three units of the position in areas of their own: one
// moved (8.25), one entrenched (8.5), one out of supply (13.1).
func markUnits(st *rules.State) (moved, dug, cut *rules.UnitState) {
	for _, u := range st.Units {
		if !u.OnMap() || u.Place.IsZone() {
			continue
		}
		switch {
		case moved == nil && !u.Entrenched:
			moved, u.Moved = u, true
		case dug == nil && u.Entrenched && u.Place != moved.Place:
			dug = u
		case cut == nil && !u.Entrenched && u.Place != moved.Place && dug != nil && u.Place != dug.Place:
			cut, u.InSupply = u, false
		}
	}
	return moved, dug, cut
}

// checkCountersShown checks the counters of the units markUnits marked:
// the moved unit's yellow edge (8.25), the entrenched unit's brown frame
// (8.5), the red strength of the unit out of supply (13.1), and the
// service's colour (4.12).
func checkCountersShown(t *testing.T, img image.Image, p *Plan, s *rules.Scenario, moved, dug, cut *rules.UnitState) {
	t.Helper()
	if r := counterRect(t, p, moved.ID); at(img, image.Pt(r.Min.X+1, r.Min.Y+8)) != movedMark {
		t.Errorf("8.25: moved %s has no yellow edge", moved.ID)
	}
	if r := counterRect(t, p, dug.ID); at(img, image.Pt(r.Max.X-strengthW, r.Max.Y-2)) != trench {
		t.Errorf("8.5: entrenched %s's strength is not framed in brown", dug.ID)
	}
	if r := counterRect(t, p, cut.ID); at(img, image.Pt(r.Max.X-3, r.Min.Y+2)) != oosRed {
		t.Errorf("13.1: %s out of supply has no red strength", cut.ID)
	}
	u := s.OOB.Unit(moved.ID)
	if r := counterRect(t, p, moved.ID); at(img, image.Pt(r.Min.X+movedW+1, r.Min.Y+1)) != styleOf(u).bg {
		t.Errorf("4.12: %s (%s) is not in its service's colour", moved.ID, u.Service)
	}
}

// checkControlShown checks the towns' dots of German Bastogne and Allied
// Luxembourg (12.22), and the zones' discs in their sides' colours (3.21).
func checkControlShown(t *testing.T, img image.Image, p *Plan, s *rules.Scenario) {
	t.Helper()
	anchor := func(pl rules.Place) image.Point { return p.anchor[pl].pt() }
	if c := at(img, anchor(rules.AreaPlace(88))); c != germanDot {
		t.Errorf("12.22: German Bastogne's town is %v, want %v", c, germanDot)
	}
	if c := at(img, anchor(rules.AreaPlace(4))); c != alliedDot {
		t.Errorf("12.22: Allied Luxembourg's town is %v, want %v", c, alliedDot)
	}
	for _, z := range p.Zones {
		want := alliedDot
		if s.Map.Zone(z.Place.Zone).Side == rules.German {
			want = germanDot
		}
		if c := at(img, z.Anchor.Add(image.Pt(-7, 0))); c != want {
			t.Errorf("3.21: zone %s's disc is %v, want %v", z.Place.Zone, c, want)
		}
	}
}

// checkVPShown checks 3.26: the label of every VP area of the scenario,
// and of no other, ends in a gold marker: the map's VP areas if the
// scenario counts them (12.21), and the scenario's own victory areas.
func checkVPShown(t *testing.T, img image.Image, p *Plan, s *rules.Scenario) {
	t.Helper()
	n := 0
	for _, l := range p.Labels {
		a := s.Map.Area(l.Place.Area)
		want := s.Victory.MapVP && a.VP > 0 || slices.Contains(s.Victory.Areas, a.ID)
		if want {
			n++
		}
		if got := at(img, image.Pt(l.Rect.Max.X-3, l.Rect.Min.Y+3)) == vpGold; got != want {
			t.Errorf("3.26: %s: %s (map VP %d): gold marker %v, want %v", s.Name, a.Label(), a.VP, got, want)
		}
		if (l.VP != "") != want {
			t.Errorf("3.26: %s: %s (map VP %d): marker %q in the plan, want one %v", s.Name, a.Label(), a.VP, l.VP, want)
		}
	}
	if n == 0 {
		t.Errorf("%s: no VP area among %d labels", s.Name, len(p.Labels))
	}
}

// TestVPMarkers checks that every VP area of every scenario has its gold
// marker: the introductory scenario's Mersch, worth no map VP, as well.
func TestVPMarkers(t *testing.T) {
	for _, n := range scenarios.Names {
		s := load(t, n)
		st := rules.NewState(s)
		p := Layout(s, st)
		checkVPShown(t, decode(t, render(t, s, st, nil)), p, s)
		for _, id := range s.Victory.Areas {
			found := false
			for _, l := range p.Labels {
				found = found || l.Place == rules.AreaPlace(id) && l.VP != ""
			}
			if !found {
				t.Errorf("%s: victory area %d has no VP marker", n, id)
			}
		}
	}
}

// checkBridgesShown checks 5.1: a blown bridge, 40-41, is crossed in red;
// a repaired one, 51-70, is not (10.1).
func checkBridgesShown(t *testing.T, img image.Image, p *Plan, s *rules.Scenario) {
	t.Helper()
	red := func(a, b int) bool {
		r := s.Map.Road(a, b)
		x := p.crossing(r, p.anchor[rules.AreaPlace(a)], p.anchor[rules.AreaPlace(b)]).pt()
		for dy := -5; dy <= 5; dy++ {
			for dx := -5; dx <= 5; dx++ {
				if at(img, x.Add(image.Pt(dx, dy))) == blownRed {
					return true
				}
			}
		}
		return false
	}
	if !red(40, 41) {
		t.Error("5.1: blown bridge 40-41 is not marked")
	}
	if red(51, 70) {
		t.Error("10.1: repaired bridge 51-70 is still marked blown")
	}
}

func TestRenderErrors(t *testing.T) {
	intro, campaign := load(t, "intro"), load(t, "campaign")
	if _, err := Render(intro, rules.NewState(campaign), nil); err == nil {
		t.Error("a campaign position drawn on the intro scenario")
	}
	st := rules.NewState(intro)
	st.Units[0].ID = "nosuch"
	if _, err := Render(intro, st, nil); err == nil {
		t.Error("a position with an unknown unit drawn")
	}
}

// TestOutsideTheScenario: a unit in an area a partial scenario leaves out,
// as a position edited by hand may put it, is drawn there, with the area.
func TestOutsideTheScenario(t *testing.T) {
	s := load(t, "intro")
	st := rules.NewState(s)
	var u *rules.UnitState
	for _, v := range st.Units {
		if v.OnMap() {
			u = v
			break
		}
	}
	u.Place = rules.AreaPlace(88) // Bastogne, outside the 7th Army's sector
	p := checkPlan(t, "intro with a unit in Bastogne", s, st)
	for _, sb := range p.Stacks {
		if sb.Place == u.Place && slices.Contains(sb.Units, u.ID) {
			return
		}
	}
	t.Errorf("%s in Bastogne is not drawn", u.ID)
}

func TestTitle(t *testing.T) {
	s := load(t, "intro")
	st := rules.NewState(s)
	with := render(t, s, st, &Options{Title: "Game intro-1 — after impulse G16-1 — German VP 3"})
	if bytes.Equal(with, render(t, s, st, nil)) {
		t.Error("the title changes nothing")
	}
}

// BenchmarkRenderCrowded renders the whole campaign map in a crowded
// position, with the last impulse's battles and moves. Target: under 60 ms. It renders once
// before it starts timing, as the daemon renders the same few scenarios
// over and over: what a render keeps for the next (see ground and
// renderer) is worked out at the first.
func BenchmarkRenderCrowded(b *testing.B) {
	s, st, ev := crowded(b)
	opt := &Options{Title: "Game campaign-3 — after impulse G18-2 — German VP 0", Highlights: HighlightsOf(ev)}
	render(b, s, st, opt)
	b.ReportAllocs()
	defer cpuMeter(b)()
	for b.Loop() {
		if _, err := Render(s, st, opt); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLayout computes the plan alone.
func BenchmarkLayout(b *testing.B) {
	s, st, _ := crowded(b)
	b.ReportAllocs()
	for b.Loop() {
		Layout(s, st)
	}
}

// TestFrameHugsTheAreas: the map's frame is set by the areas drawn alone,
// a margin round their towns, however far off the zones lie (the intro's
// zone P, Thionville, lies 25 km south of its southernmost area); every
// zone's marker stands inside the frame, by its edge.
func TestFrameHugsTheAreas(t *testing.T) {
	for _, n := range scenarios.Names {
		s := load(t, n)
		p := Layout(s, rules.NewState(s))
		var towns image.Rectangle
		for i, l := range p.Labels {
			at := l.Anchor
			r := image.Rectangle{Min: at, Max: at.Add(image.Pt(1, 1))}
			if i == 0 {
				towns = r
			} else {
				towns = towns.Union(r)
			}
		}
		// A scenario on part of the map widens it to show its boundary.
		most := mapMargin + 2
		if !s.WholeMap {
			most += maxBoundaryRoom
		}
		for side, d := range map[string]int{
			"west": towns.Min.X - p.Map.Min.X, "east": p.Map.Max.X - towns.Max.X,
			"north": towns.Min.Y - p.Map.Min.Y, "south": p.Map.Max.Y - towns.Max.Y,
		} {
			if d > most {
				t.Errorf("%s: the map reaches %d pixels %s of the outermost town; want at most %d", n, d, side, most)
			}
		}
		for _, z := range p.Zones {
			a := z.Anchor
			if !z.Rect.In(p.Map) {
				t.Errorf("%s: zone %s's marker %v is not inside the map %v", n, z.Place.Zone, z.Rect, p.Map)
			}
			if d := min(a.X-p.Map.Min.X, p.Map.Max.X-a.X, a.Y-p.Map.Min.Y, p.Map.Max.Y-a.Y); d > zoneR+10 {
				t.Errorf("%s: zone %s stands %d pixels in from the map's edge", n, z.Place.Zone, d)
			}
		}
	}
}

// TestCrop: a partial scenario's picture shows its own part of the map, at
// a scale no smaller than the whole map's: the intro's frame holds its
// areas and not Bastogne, west of its sector.
func TestCrop(t *testing.T) {
	intro, campaign := load(t, "intro"), load(t, "campaign")
	p, whole := Layout(intro, rules.NewState(intro)), Layout(campaign, rules.NewState(campaign))
	if p.proj.k < whole.proj.k {
		t.Errorf("the intro is drawn at %.0f pixels a degree, the campaign at %.0f", p.proj.k, whole.proj.k)
	}
	b := intro.Map.Area(88)
	if p.proj.at(b.Lat, b.Lon).pt().In(p.Map) {
		t.Error("Bastogne lies inside the intro's map")
	}
	for _, a := range intro.Map.Areas {
		if intro.Uses(rules.AreaPlace(a.ID)) && !p.anchor[rules.AreaPlace(a.ID)].pt().In(p.Map) {
			t.Errorf("the intro's area %s is outside its map", a.Label())
		}
	}
}

// TestAreasAreRegions: each area is drawn as one region round its town
// (3.22), tinted by control (12.22): the ground by a German town is German,
// by an Allied one Allied, by a town neither side holds the paper, and the
// line between two neighbouring areas runs between their towns.
func TestAreasAreRegions(t *testing.T) {
	s := load(t, "campaign")
	st := rules.NewState(s)
	st.Control[88] = rules.German
	st.Control[89] = rules.Allied
	st.Control[87] = ""
	p := Layout(s, st)
	img := decode(t, render(t, s, st, nil))
	ids, r, own := p.tintCells()
	cell := func(v vec) int16 {
		q := v.pt()
		return own[(q.Y-r.Min.Y)*r.Dx()+q.X-r.Min.X]
	}
	for _, c := range []struct {
		area int
		want color.RGBA
	}{{88, germanTint}, {89, alliedTint}, {87, paper}} {
		town := p.anchor[rules.AreaPlace(c.area)]
		// A little off the town, clear of its dot and of the roads.
		found := false
		for _, d := range []vec{{0, 18}, {18, 0}, {0, -18}, {-18, 0}, {13, 13}, {-13, 13}, {13, -13}, {-13, -13}} {
			q := town.add(d)
			if n := cell(q); n >= 0 && ids[n] == c.area && at(img, q.pt()) == c.want {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("area %d: no ground by its town in %v", c.area, c.want)
		}
	}
	// Every road between two areas crosses the line between their regions,
	// and from town to town the ground is the one area's, then the other's.
	for _, rd := range s.Map.Roads {
		a, b := p.anchor[rules.AreaPlace(rd.A)], p.anchor[rules.AreaPlace(rd.B)]
		var seen []int16
		steps := int(b.sub(a).len()) * 2
		for i := 0; i <= steps; i++ {
			q := lerpVec(a, b, float64(i)/float64(steps))
			n := cell(q)
			// A line a pixel wide may be stepped over diagonally.
			for _, d := range []vec{{1, 0}, {0, 1}, {-1, 0}, {0, -1}} {
				if cell(q.add(d)) == edgeCell {
					n = edgeCell
				}
			}
			if len(seen) == 0 || seen[len(seen)-1] != n {
				seen = append(seen, n)
			}
		}
		var areas []int
		for _, n := range seen {
			if n >= 0 {
				areas = append(areas, ids[n])
			}
		}
		if len(areas) < 2 || areas[0] != rd.A || areas[len(areas)-1] != rd.B || !slices.Contains(seen, edgeCell) {
			t.Errorf("road %d-%d runs through %v", rd.A, rd.B, areas)
		}
	}
}

// TestServiceColours checks 4.12 on a unit of each service: SS black, Heer
// grey, Luftwaffe light blue, US green, British khaki, the Allied garrison
// units dark blue.
func TestServiceColours(t *testing.T) {
	s := load(t, "campaign")
	st := rules.NewState(s)
	st.Next.N = 2
	// The British arrive later in the game: one is brought on the map to
	// Mondorf (2) so that its colour is drawn too.
	for _, u := range st.Units {
		if s.OOB.Unit(u.ID).Service == rules.British {
			u.Arrived, u.Place = true, rules.AreaPlace(2)
			break
		}
	}
	img := decode(t, render(t, s, st, nil))
	p := Layout(s, st)
	lum := func(c color.RGBA) int { return (299*int(c.R) + 587*int(c.G) + 114*int(c.B)) / 1000 }
	for _, c := range []struct {
		service rules.Service
		name    string
		ok      func(c color.RGBA) bool
	}{
		{rules.SS, "black", func(c color.RGBA) bool { return lum(c) < 40 }},
		{rules.Heer, "grey", func(c color.RGBA) bool {
			return lum(c) > 60 && lum(c) < 200 && max(c.R, c.G, c.B)-min(c.R, c.G, c.B) < 16
		}},
		{rules.Luftwaffe, "light blue", func(c color.RGBA) bool { return lum(c) > 140 && c.B > c.R+40 && c.B > c.G }},
		{rules.US, "green", func(c color.RGBA) bool { return c.G > c.R && c.G > c.B+20 }},
		{rules.British, "khaki", func(c color.RGBA) bool { return c.R > c.B+40 && c.G > c.B+30 && lum(c) > 120 }},
		{rules.Garrison, "dark blue", func(c color.RGBA) bool { return lum(c) < 90 && c.B > c.R+40 && c.B > c.G+30 }},
	} {
		var id string
		for _, u := range st.Units {
			if u.OnMap() && s.OOB.Unit(u.ID).Service == c.service {
				id = u.ID
				break
			}
		}
		if id == "" {
			t.Errorf("no %s unit on the map", c.service)
			continue
		}
		r := counterRect(t, p, id)
		if got := at(img, image.Pt(r.Min.X+movedW+1, r.Min.Y+1)); !c.ok(got) {
			t.Errorf("4.12: %s (%s) is drawn in %v, not %s", id, c.service, got, c.name)
		}
	}
}

// TestMovedMarksByDay: a unit that moved keeps its mark (8.25) to the end
// of the day; before the next day's first impulse it is gone, as that
// impulse takes it off before anything moves.
func TestMovedMarksByDay(t *testing.T) {
	s := load(t, "campaign")
	for _, c := range []struct {
		next rules.Impulse
		mark bool
	}{
		{rules.Impulse{Side: rules.German, Day: 16, N: 2}, true},
		{rules.Impulse{Side: rules.Allied, Day: 16, N: 3}, true},
		{rules.Impulse{Side: rules.German, Day: 17, N: 1}, false},
	} {
		st := rules.NewState(s)
		st.Next = c.next
		moved, _, _ := markUnits(st)
		img := decode(t, render(t, s, st, nil))
		r := counterRect(t, Layout(s, st), moved.ID)
		if got := at(img, image.Pt(r.Min.X+1, r.Min.Y+8)) == movedMark; got != c.mark {
			t.Errorf("before %s: moved %s marked %v, want %v", c.next, moved.ID, got, c.mark)
		}
	}
}

// TestLostShown: a unit eliminated in the impulse (9.21) is drawn crossed
// out where it fell, in that impulse's picture only.
func TestLostShown(t *testing.T) {
	s := load(t, "campaign")
	st := rules.NewState(s)
	var u *rules.UnitState
	for _, v := range st.Units {
		if v.OnMap() && !v.Place.IsZone() {
			u = v
			break
		}
	}
	area := u.Place.Area
	u.Place, u.Strength = rules.Place{}, 0
	h := HighlightsOf([]rules.Event{rules.Eliminated{Unit: u.ID, Area: area}})
	if len(h.Lost) != 1 || h.Lost[0] != (Lost{u.ID, area}) {
		t.Fatalf("lost %v, want %s in %d", h.Lost, u.ID, area)
	}
	fs, err := getFaces()
	if err != nil {
		t.Fatal(err)
	}
	defer faceSets.Put(fs)
	p := layout(s, st, fs, h.Lost, lang.EN())
	img := decode(t, render(t, s, st, &Options{Highlights: h}))
	r := counterRect(t, p, u.ID)
	var stack Box
	for _, sb := range p.Stacks {
		if slices.Contains(sb.Units, u.ID) {
			stack = sb
		}
	}
	if stack.Place != rules.AreaPlace(area) {
		t.Errorf("%s is drawn in %v, not where it fell, %d", u.ID, stack.Place, area)
	}
	red := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if at(img, image.Pt(x, y)) == blownRed {
				red++
			}
		}
	}
	if red < r.Dx() {
		t.Errorf("%s is not crossed out: %d red pixels on its counter", u.ID, red)
	}
	// Without the impulse's highlights, the unit is gone.
	for _, sb := range Layout(s, st).Stacks {
		if slices.Contains(sb.Units, u.ID) {
			t.Errorf("%s, eliminated before, is still drawn", u.ID)
		}
	}
}

// maxPNG is the greatest PNG a scenario's picture may be. The aim is 150 KB,
// which the introductory scenario's map meets; the larger maps do not: each
// row of them crosses some forty lines (roads, rivers, the lines between
// areas) and labels, which the PNG's compression pays for row by row, so
// that their size follows the map's height more than what is on it.
var maxPNG = map[string]int{
	"intro":        150 << 10,
	"fifth-panzer": 280 << 10,
	"three-days":   420 << 10,
	"campaign":     420 << 10,
}

// The legend names each service with its colour as 4.12 gives them, in
// 4.12's order, under a heading that cites the rule.
func TestLegendNames412(t *testing.T) {
	s := load(t, "campaign")
	p := Layout(s, rules.NewState(s))
	var got []string
	heading := ""
	for _, r := range p.legendRows() {
		if r.heading != "" {
			if heading != "" {
				break
			}
			heading = r.heading
			continue
		}
		got = append(got, r.text)
	}
	if !strings.Contains(heading, "4.12") {
		t.Errorf("the units' heading %q does not cite 4.12", heading)
	}
	want := []string{
		"German SS: black",
		"German Heer (army): grey",
		"German Luftwaffe: light blue",
		"US: green",
		"British: khaki",
		"Allied garrison (Norwegian, Belgian): dark blue",
	}
	if len(got) < len(want) || !slices.Equal(got[:len(want)], want) {
		t.Errorf("the legend's services:\n%q\nwant\n%q", got, want)
	}
}

// TestBoundary checks that a scenario on part of the map (3.2) shows its
// boundary where its map ends, in the rulebook's colour: on the way from
// each area drawn to a neighbour the scenario leaves out, within the
// frame, the ground meets the boundary before it leaves the scenario's
// map; and the picture has the boundary's pixels. The whole map has none.
func TestBoundary(t *testing.T) {
	for _, n := range scenarios.Names {
		s := load(t, n)
		st := rules.NewState(s)
		p := Layout(s, st)
		_, r, own := p.tintCells()
		cell := func(v vec) (int16, bool) {
			q := v.pt()
			if !q.In(r.Inset(2)) {
				return 0, false
			}
			return own[(q.Y-r.Min.Y)*r.Dx()+q.X-r.Min.X], true
		}
		km := p.proj.k / 111.2
		crossed, cells := 0, 0
		for _, o := range own {
			if o == boundaryCell {
				cells++
			}
		}
		for _, rd := range s.Map.Roads {
			a, b := s.Map.Area(rd.A), s.Map.Area(rd.B)
			_, inA := p.anchor[rules.AreaPlace(rd.A)]
			_, inB := p.anchor[rules.AreaPlace(rd.B)]
			if a == nil || b == nil || inA == inB {
				continue
			}
			if inB {
				a, b = b, a
			}
			from, to := p.anchor[rules.AreaPlace(a.ID)], p.proj.at(b.Lat, b.Lon)
			l := to.sub(from).len()
			if l > 2*maxReach*km {
				continue // the regions do not meet: the ground between is off the map
			}
			seen, left := false, false
			for i := 0; i <= int(l); i++ {
				c, ok := cell(from.add(to.sub(from).mul(float64(i) / l)))
				if !ok {
					break
				}
				seen = seen || c == boundaryCell
				if c == offCell {
					left = true
					break
				}
			}
			if left {
				crossed++
				if !seen {
					t.Errorf("%s: from %s towards %s, left out, the scenario's map ends with no boundary", n, a.Label(), b.Label())
				}
			}
		}
		img := decode(t, render(t, s, st, nil))
		px := 0
		want := boundaryColour(s)
		for y := p.Map.Min.Y; y < p.Map.Max.Y; y++ {
			for x := p.Map.Min.X; x < p.Map.Max.X; x++ {
				if at(img, image.Pt(x, y)) == want {
					px++
				}
			}
		}
		t.Logf("%s: %d ways out crossed the boundary; %d boundary cells, %d pixels", n, crossed, cells, px)
		if s.WholeMap {
			if cells != 0 {
				t.Errorf("%s is the whole map: %d pixels of boundary, want none", n, cells)
			}
			continue
		}
		if crossed == 0 {
			t.Errorf("%s: no way out of the scenario's map crosses its boundary in the frame", n)
		}
		// The boundary is 4 pixels wide; roads and labels cross it.
		if px < cells/2 || px == 0 {
			t.Errorf("%s: %d pixels of the boundary's colour %v for %d boundary cells", n, px, want, cells)
		}
	}
}

// TestHyphen checks that a hyphen is drawn as a hyphen, not an en dash:
// in every face, the ink of "-" is at most two thirds as long as that of
// "–", in the title as in the ids ("intro-1", "G17-2", "4/3-12").
func TestHyphen(t *testing.T) {
	fs, err := getFaces()
	if err != nil {
		t.Fatal(err)
	}
	defer faceSets.Put(fs)
	inked := func(f *face, s string) int {
		c := newCanvas(60, 40)
		c.fillRect(c.img.Rect, white)
		c.text(f, 10, 30, s, ink)
		n := 0
		for x := range 60 {
			for y := range 40 {
				if at(c.img, image.Pt(x, y)) != white {
					n++
					break
				}
			}
		}
		return n
	}
	for name, f := range map[string]*face{
		"title": fs.title, "subtitle": fs.subtitle, "label": fs.label, "labelBold": fs.labelBold,
		"unit": fs.unit, "small": fs.small, "smallBold": fs.smallBold,
	} {
		h, d := inked(f, "-"), inked(f, "–")
		if h == 0 || 3*h > 2*d {
			t.Errorf("%s: the hyphen's ink is %d pixels long, the en dash's %d: want at most two thirds", name, h, d)
		}
		if w := f.width("-"); w >= f.width("–") {
			t.Errorf("%s: the hyphen is %d pixels wide, as wide as the en dash's %d", name, w, f.width("–"))
		}
	}
}
